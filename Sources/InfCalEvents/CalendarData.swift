import InfCalModel

/// Something wrong in a file given to import or to answer: where (the file as named, the line
/// from 1; 0 when it is the file as a whole) and what.
public struct ImportFinding: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String

    /// A finding in `file` at `line` (0: the file as a whole).
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message` for the file as a whole.
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A version of a component, as iTIP orders them (RFC 5546; RFC 5545 §3.8.7.4): the higher
/// SEQUENCE is newer; with equal SEQUENCE, the later DTSTAMP, which infcal takes with
/// LAST-MODIFIED (the later of the two), as its reader does (`EventReader`): a program that
/// edits an event without raising SEQUENCE still stamps it.
public struct ComponentVersion: Sendable, Equatable, Comparable {
    public let sequence: Int
    /// UTC civil seconds; `Int.min` when the component has neither stamp.
    public let stamp: Int

    /// The version of SEQUENCE `sequence` stamped `stamp` (UTC civil seconds, `Int.min`: none).
    public init(sequence: Int, stamp: Int) {
        self.sequence = sequence
        self.stamp = stamp
    }

    /// Whether `a` is older than `b`: a lower SEQUENCE, or the same and an earlier stamp.
    public static func < (a: ComponentVersion, b: ComponentVersion) -> Bool {
        (a.sequence, a.stamp) < (b.sequence, b.stamp)
    }
}

/// One VEVENT (or VTODO, VJOURNAL) of a calendar object, as import and invitations read it:
/// where its bytes are, what names it (UID, RECURRENCE-ID), its version and its scheduling.
public struct CalendarComponent: Sendable {
    /// VEVENT, VTODO or VJOURNAL.
    public let name: String
    /// Its bytes in the file's layout.
    public let span: ICalLayout.Span
    /// The physical line of its BEGIN, from 1.
    public let line: Int
    public let uid: String
    /// The RECURRENCE-ID as written (trimmed), for an override; nil for a master or a single.
    public let recurrenceID: String?
    /// The RECURRENCE-ID read, with its TZID.
    public let recurrenceTime: ICalTime?
    public let version: ComponentVersion
    /// STATUS, when it is one of an event's values.
    public let status: EventStatus?
    /// SUMMARY, escapes read.
    public let summary: String
    /// DTSTART, with its TZID; nil when it has none that reads.
    public let start: ICalTime?
    public let organizer: Participant?
    public let attendees: [Participant]
    /// The TZIDs its lines (and those of its VALARMs) name.
    public let zoneNames: [String]
    /// Whether every line of it is a content line. A broken component of an incoming
    /// calendar is not imported (`--partial` imports the rest); one of the calendar written
    /// into still holds its UID there.
    public let isIntact: Bool

    /// The key of the component among those of its UID: its RECURRENCE-ID, "" for the master.
    public var key: String { recurrenceID ?? "" }
}

/// The components of one iCalendar text, as import and invitations see it: its VEVENTs (and
/// VTODOs, VJOURNALs) with their byte ranges, its VTIMEZONEs by TZID, its METHOD, and what in
/// it cannot be read (each component so spoiled is left out of `components`).
public struct CalendarData: Sendable {
    /// The name findings give the file.
    public let name: String
    public let layout: ICalLayout
    /// METHOD of its (first) VCALENDAR; nil when it has none (an export, a stored calendar).
    public let method: ITIPMethod?
    /// The components that can be read, in file order.
    public let components: [CalendarComponent]
    /// The VTIMEZONEs, by their TZID (escapes read, RFC 5545 §3.8.3.1).
    public let zones: [(tzid: String, span: ICalLayout.Span)]
    /// What cannot be read: not iCalendar at all, a component without UID or END, a line
    /// that is no content line.
    public let findings: [ImportFinding]
    /// The places in `components` of each UID, in file order.
    private let byUID: [String: [Int]]
    /// The UIDs of components without END (not in `components`: their bytes have no end to cut at).
    public let openUIDs: Set<String>

    /// The UIDs of the intact `components`, each once, in the order they first come.
    public var uids: [String] {
        var seen = Set<String>()
        return components.compactMap { $0.isIntact && seen.insert($0.uid).inserted ? $0.uid : nil }
    }

    /// The components with UID `uid`, in file order.
    public func components(uid: String) -> [CalendarComponent] {
        (byUID[uid] ?? []).map { components[$0] }
    }

    /// The place in `components` of the first component with UID `uid`.
    func firstPlace(of uid: String) -> Int? { byUID[uid]?.first }

    init(name: String, layout: ICalLayout, method: ITIPMethod?, components: [CalendarComponent],
         zones: [(tzid: String, span: ICalLayout.Span)], findings: [ImportFinding], openUIDs: Set<String>) {
        self.name = name
        self.layout = layout
        self.method = method
        self.components = components
        self.zones = zones
        self.findings = findings
        self.openUIDs = openUIDs
        var byUID: [String: [Int]] = [:]
        for (index, component) in components.enumerated() { byUID[component.uid, default: []].append(index) }
        self.byUID = byUID
    }

    /// The span of the VTIMEZONE with TZID `tzid`, if any.
    public func zone(_ tzid: String) -> ICalLayout.Span? {
        zones.first { $0.tzid == tzid }?.span
    }

    /// Reads `data`; `name` is what findings call the file. Never fails: what cannot be read is
    /// a finding.
    public static func read(_ data: [UInt8], name: String) -> CalendarData {
        let layout = ICalLayout(data)
        let lineNumbers = LineNumbers(data)
        var findings: [ImportFinding] = []
        func finding(_ byte: Int, _ message: String) {
            findings.append(ImportFinding(file: name, line: lineNumbers.line(ofByte: byte), message: message))
        }
        let hasCalendar = layout.spans.contains { $0.name == "VCALENDAR" }
        let kinds = Set(ICalLayout.itemNames)
        // Components at the top of a VCALENDAR, or at the top of the file without one (spans
        // come in the order of their BEGIN, so each one's outermost holder is the last one at
        // depth 0 before it).
        var outer: [ICalLayout.Span] = []
        var top: ICalLayout.Span?
        for span in layout.spans {
            if span.depth == 0 { top = span }
            guard kinds.contains(span.name) || span.name == "VTIMEZONE" else { continue }
            if hasCalendar ? (span.depth == 1 && top?.name == "VCALENDAR") : span.depth == 0 { outer.append(span) }
        }
        if !hasCalendar && !outer.contains(where: { kinds.contains($0.name) }) {
            let empty = data.allSatisfy { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
            findings.append(ImportFinding(file: name, line: empty ? 0 : 1,
                                          message: empty ? "empty: no iCalendar data" : "not iCalendar data (no BEGIN:VCALENDAR or BEGIN:VEVENT)"))
        }
        var method: ITIPMethod?
        for calendar in layout.spans where calendar.name == "VCALENDAR" && calendar.depth == 0 {
            for (_, line) in layout.ownLines(of: calendar) {
                if method == nil, line.name == "METHOD" { method = ITIPMethod(value: line.value) }
                let parsed = line.text.withUnsafeBufferPointer { ICalDocument.parseLine($0, 0..<$0.count, line: 0) }
                if parsed == nil, !line.text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    let shown = InertText.echo(String(decoding: line.text.prefix(60), as: UTF8.self), limit: 40)
                    finding(line.range.lowerBound, "'\(shown)' is no content line (NAME:value)")
                }
            }
        }
        var components: [CalendarComponent] = []
        var zones: [(tzid: String, span: ICalLayout.Span)] = []
        var openUIDs = Set<String>()
        for span in outer {
            let begin = layout.lines[span.begin].range.lowerBound
            guard let end = span.end else {
                if let uid = span.uid { openUIDs.insert(uid) }
                finding(begin, "BEGIN:\(InertText.echo(span.name, limit: 40)) has no END:\(InertText.echo(span.name, limit: 40)); left out")
                continue
            }
            // Every line of it (its VALARMs' too) must be a content line; each is parsed once,
            // and the component's own lines (depth 0 inside it) are kept with their parse.
            var broken: Int?
            var own: [Parsed] = []
            var zoneNames: [String] = []
            var depth = 0
            for index in (span.begin + 1)..<end {
                let text = layout.lines[index].text
                guard let parsed = text.withUnsafeBufferPointer({ ICalDocument.parseLine($0, 0..<$0.count, line: 0) }) else {
                    if broken == nil, !text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { broken = index }
                    continue
                }
                if parsed.name == "BEGIN" { depth += 1; continue }
                if parsed.name == "END" { depth -= 1; continue }
                if !parsed.parameters.isEmpty, let zone = parsed.parameter("TZID")?.trimmingSpaces, !zoneNames.contains(zone) {
                    zoneNames.append(zone)
                }
                if depth == 0 { own.append(Parsed(line: parsed, text: text)) }
            }
            if let broken {
                let shown = InertText.echo(String(decoding: layout.lines[broken].text.prefix(60), as: UTF8.self), limit: 40)
                finding(layout.lines[broken].range.lowerBound,
                        "'\(shown)' is no content line (NAME:value); the \(span.name) of line \(lineNumbers.line(ofByte: begin)) is left out")
                if span.name == "VTIMEZONE" { continue }
            }
            if span.name == "VTIMEZONE" {
                guard let tzid = own.first(where: { $0.line.name == "TZID" }) else {
                    finding(begin, "VTIMEZONE without TZID; left out")
                    continue
                }
                zones.append((ICalText.unescaped(tzid.value).trimmingSpaces, span))
                continue
            }
            guard let uid = own.first(where: { $0.line.name == "UID" })?.value.trimmingSpaces, !uid.isEmpty else {
                finding(begin, "\(span.name) without UID; left out (infcal cannot tell it from another, nor update it)")
                continue
            }
            components.append(component(span, own: own, zoneNames: zoneNames, uid: uid, line: lineNumbers.line(ofByte: begin),
                                        isIntact: broken == nil))
        }
        return CalendarData(name: name, layout: layout, method: method, components: components, zones: zones, findings: findings,
                            openUIDs: openUIDs)
    }

    /// A content line parsed, with the unfolded text its value lies in.
    private struct Parsed {
        let line: ContentLine
        let text: [UInt8]

        var value: String { String(decoding: text[line.valueRange], as: UTF8.self) }

        /// The value read as a DATE or DATE-TIME with the line's VALUE and TZID.
        var time: ICalTime? {
            let isDate: Bool? = line.parameter("VALUE")?.uppercased() == "DATE" ? true : nil
            return ICalTime.parse(value.trimmingSpaces, isDate: isDate, zone: line.parameter("TZID")?.trimmingSpaces)
        }
    }

    /// The component `span`, from its own lines `own` and the TZIDs all its lines name.
    private static func component(_ span: ICalLayout.Span, own: [Parsed], zoneNames: [String], uid: String, line: Int,
                                  isIntact: Bool) -> CalendarComponent {
        var sequence = 0
        var stamp = Int.min
        var status: EventStatus?
        var summary = ""
        var start: ICalTime?
        var recurrence: (String, ICalTime?)?
        var organizer: Participant?
        var attendees: [Participant] = []
        for item in own {
            switch item.line.name {
            case "SEQUENCE": sequence = Int(item.value.trimmingSpaces) ?? sequence
            case "DTSTAMP", "LAST-MODIFIED":
                if let time = ICalTime.parse(item.value, isDate: false, zone: nil) { stamp = max(stamp, time.seconds) }
            case "STATUS": status = EventStatus(value: item.value)
            case "SUMMARY": summary = ICalText.unescaped(item.value)
            case "DTSTART": start = item.time
            case "RECURRENCE-ID": recurrence = (item.value.trimmingSpaces, item.time)
            case "ORGANIZER": organizer = organizer ?? Participant(value: item.value, parameter: item.line.parameter)
            case "ATTENDEE": if let attendee = Participant(value: item.value, parameter: item.line.parameter) { attendees.append(attendee) }
            default: break
            }
        }
        return CalendarComponent(name: span.name, span: span, line: line, uid: uid, recurrenceID: recurrence?.0,
                                 recurrenceTime: recurrence?.1, version: ComponentVersion(sequence: sequence, stamp: stamp),
                                 status: status, summary: summary, start: start, organizer: organizer, attendees: attendees,
                                 zoneNames: zoneNames, isIntact: isIntact)
    }

    /// The form in which two versions of a component are compared for being the same: its
    /// lines unfolded, the property names in upper case, DTSTAMP left out (an export stamps
    /// every event with its own time), in any order, and its VALARMs the same way.
    public func identity(of span: ICalLayout.Span) -> [String] {
        guard let end = span.end else { return [] }
        var own: [String] = []
        var children: [String] = []
        var index = span.begin + 1
        while index < end {
            let text = layout.lines[index].text
            let name = Self.upperName(text)
            if name == "BEGIN", let child = layout.span(beginningAt: index), let childEnd = child.end, childEnd < end {
                children.append(child.name + "{" + identity(of: child).joined(separator: "\n") + "}")
                index = childEnd + 1
                continue
            }
            if name != "DTSTAMP" {
                var bytes = Array(name.utf8) + text[min(text.count, name.utf8.count)...]
                while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
                own.append(String(decoding: bytes, as: UTF8.self))
            }
            index += 1
        }
        return own.sorted() + children.sorted()
    }

    /// The property name of an unfolded line (up to its first `;` or `:`), upper-cased.
    private static func upperName(_ text: [UInt8]) -> String {
        var end = 0
        while end < text.count, text[end] != 0x3B, text[end] != 0x3A { end += 1 }
        var name = Array(text[..<end])
        for index in name.indices where name[index] >= 0x61 && name[index] <= 0x7A { name[index] -= 32 }
        return String(decoding: name, as: UTF8.self)
    }
}

extension ICalLayout {
    /// The span whose BEGIN is line `index`, if any (spans lie in the order of their BEGIN).
    func span(beginningAt index: Int) -> Span? {
        var (lower, upper) = (0, spans.count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if spans[middle].begin < index { lower = middle + 1 } else { upper = middle }
        }
        return lower < spans.count && spans[lower].begin == index ? spans[lower] : nil
    }
}

extension ICalLayout.Line {
    /// The value read as a DATE or DATE-TIME with the line's VALUE and TZID; nil when it is none.
    var time: ICalTime? {
        let isDate: Bool? = parameter("VALUE")?.uppercased() == "DATE" ? true : nil
        return ICalTime.parse(value.trimmingSpaces, isDate: isDate, zone: parameter("TZID")?.trimmingSpaces)
    }
}

extension ICalText {
    /// A TEXT value with its escapes read (`\n` `\N` a line break; `\,` `\;` `\\` the
    /// character; RFC 5545 §3.3.11).
    public static func unescaped(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        var escaping = false
        for character in value {
            if escaping {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// The physical line (from 1) of any byte of a text with CRLF, LF or CR line ends.
struct LineNumbers {
    /// The first byte of each physical line after the first.
    private var starts: [Int] = []

    init(_ data: [UInt8]) {
        var index = 0
        while index < data.count {
            let byte = data[index]
            if byte == 0x0D || byte == 0x0A {
                index += (byte == 0x0D && index + 1 < data.count && data[index + 1] == 0x0A) ? 2 : 1
                starts.append(index)
            } else {
                index += 1
            }
        }
    }

    /// The line `byte` is on.
    func line(ofByte byte: Int) -> Int {
        var (lower, upper) = (0, starts.count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if starts[middle] <= byte { lower = middle + 1 } else { upper = middle }
        }
        return lower + 1
    }
}
