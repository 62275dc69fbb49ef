import InfCalModel

/// What importing did with one event (a UID, its master and overrides).
public enum ImportOutcome: String, Sendable, Equatable, CaseIterable {
    /// The calendar had no component with its UID.
    case added
    /// Some of its components were new or newer than the calendar's, and replaced them.
    case updated
    /// Every component was the same as the calendar's (`CalendarData.identity(of:)`).
    case unchanged
    /// The calendar's components are newer (or as new and different): nothing was changed,
    /// and the user is told.
    case keptNewer = "kept newer"
}

/// What importing decided for one event.
public struct ImportDecision: Sendable, Equatable {
    public let uid: String
    /// The SUMMARY of its master (else of its first component).
    public let summary: String
    /// DTSTART of its master (else of its first component), if it reads.
    public let start: ICalTime?
    public let outcome: ImportOutcome
    /// The file it came from, and the line of its first component there.
    public let file: String
    public let line: Int
}

/// What merging an incoming calendar into a calendar's bytes gives.
public struct ImportResult: Sendable {
    /// One decision per UID imported, in the order of the incoming calendar.
    public var decisions: [ImportDecision]
    /// The calendar's bytes after the import (the same bytes when nothing changed).
    public var bytes: [UInt8]
    /// Whether `bytes` differ from the calendar's.
    public var changed: Bool
}

/// One item of a vdir (one .ics file a calendar of a directory holds): its file name and bytes.
public struct ImportItem: Sendable {
    public let name: String
    public let bytes: [UInt8]

    /// The item `name` (a file name in the vdir) holding `bytes`.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// A file to write into a vdir: its name, its new bytes, and whether it is new (written with
/// `If-None-Match`/`O_EXCL`, never over another) or replaces the item read.
public struct ItemWrite: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let isNew: Bool
}

/// Importing a calendar into another, surgically: per event (a UID with its overrides), the
/// incoming components are added when the calendar lacks them, replace the calendar's when
/// newer (SEQUENCE, then DTSTAMP/LAST-MODIFIED: `ComponentVersion`), are skipped when the same
/// (`CalendarData.identity(of:)`), and are reported and left out when older; the VTIMEZONEs the
/// written components name come along unless the calendar has them. The calendar's other
/// bytes are left as they were; importing the same file twice changes nothing the second time.
public enum CalendarImport {
    public typealias Refusal = CalendarEdit.Refusal

    /// Merges the events of `incoming` (all, or those whose UID is in `uids`) into the calendar
    /// `data` (a file, or a vdir item; empty bytes become a new calendar).
    /// - throws: `Refusal` when a component the import must change has no END, or when `data`
    ///   has bytes but no `END:VCALENDAR` to add before.
    public static func merge(_ incoming: CalendarData, into data: [UInt8], uids: Set<String>? = nil) throws(Refusal) -> ImportResult {
        try merge(incoming, into: data, uids: uids, replacingEqual: false)
    }

    /// `merge(_:into:uids:)`; with `replacingEqual`, a component as new as the calendar's but
    /// different replaces it too (the user's own answer to an invitation they stored).
    static func merge(_ incoming: CalendarData, into data: [UInt8], uids: Set<String>?, replacingEqual: Bool) throws(Refusal) -> ImportResult {
        let target = CalendarData.read(data, name: "")
        var patch = CalendarPatch(target: target)
        var decisions: [ImportDecision] = []
        // The UIDs asked for, in the incoming calendar's order (found by place, not by a walk
        // through all of it: a vdir merges one item's few UIDs at a time).
        let order = uids.map { wanted in
            wanted.filter { uid in incoming.components(uid: uid).contains(where: \.isIntact) }
                .sorted { (incoming.firstPlace(of: $0) ?? 0) < (incoming.firstPlace(of: $1) ?? 0) }
        } ?? incoming.uids
        for uid in order {
            let arriving = newest(incoming.components(uid: uid).filter(\.isIntact))
            if target.openUIDs.contains(uid) { throw Refusal("its component \(uid) has no END") }
            let existing = target.components(uid: uid)
            let outcome = merge(arriving, from: incoming, over: existing, in: target, into: &patch, replacingEqual: replacingEqual)
            let head = arriving.first { $0.recurrenceID == nil } ?? arriving[0]
            decisions.append(ImportDecision(uid: uid, summary: head.summary, start: head.start, outcome: outcome,
                                            file: incoming.name, line: arriving.map(\.line).min() ?? head.line))
        }
        let bytes = try patch.apply(to: data)
        return ImportResult(decisions: decisions, bytes: bytes, changed: bytes != data)
    }

    /// Merges `incoming` into a vdir of `items`: each event into the item that holds its UID,
    /// or into a new item named from its UID (`itemName(forUID:)`, made unique among `items`).
    /// - returns: the decisions (in the order of `incoming`) and the files to write (only
    ///   those that change).
    /// - throws: `Refusal` as `merge(_:into:uids:)` does.
    public static func merge(_ incoming: CalendarData, intoItems items: [ImportItem]) throws(Refusal) -> (decisions: [ImportDecision], writes: [ItemWrite]) {
        let wanted = Set(incoming.uids)
        var holder: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            for span in ICalLayout(item.bytes).spans where ICalLayout.itemNames.contains(span.name) {
                if let uid = span.uid, wanted.contains(uid), holder[uid] == nil { holder[uid] = index }
            }
        }
        var byItem: [Int: Set<String>] = [:]
        for (uid, index) in holder { byItem[index, default: []].insert(uid) }
        var decided: [String: ImportDecision] = [:]
        var writes: [ItemWrite] = []
        for index in byItem.keys.sorted() {
            guard let uids = byItem[index] else { continue }
            let result = try merge(incoming, into: items[index].bytes, uids: uids)
            for decision in result.decisions { decided[decision.uid] = decision }
            if result.changed { writes.append(ItemWrite(name: items[index].name, bytes: result.bytes, isNew: false)) }
        }
        var taken = Set(items.map(\.name))
        for uid in incoming.uids where holder[uid] == nil {
            let result = try merge(incoming, into: [], uids: [uid])
            for decision in result.decisions { decided[decision.uid] = decision }
            var name = itemName(forUID: uid)
            var suffix = 1
            while taken.contains(name) {
                name = String(itemName(forUID: uid).dropLast(4)) + "-\(suffix).ics"
                suffix += 1
            }
            taken.insert(name)
            writes.append(ItemWrite(name: name, bytes: result.bytes, isNew: true))
        }
        return (incoming.uids.compactMap { decided[$0] }, writes)
    }

    /// The file name of a new vdir item for `uid`, as `add` names its own (`UID.ics`): the
    /// UID's letters, digits, `-`, `_`, `.` and `@` kept, every other byte written `%XX`, and a
    /// UID too long for a file name (255 bytes) cut, with its FNV-1a hash to tell it apart.
    public static func itemName(forUID uid: String) -> String {
        var name = ""
        for (offset, byte) in uid.utf8.enumerated() {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x40 || (byte == 0x2E && offset > 0)
            if plain {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF")
                name += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        if name.isEmpty { name = "%" }
        if name.utf8.count > 200 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in uid.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
            name = String(name.prefix(180)) + "-" + String(hash, radix: 16)
        }
        return name + ".ics"
    }

    // MARK: One event

    /// Of components with the same UID and RECURRENCE-ID, the newest (the last of equals): a
    /// file that holds two copies imports one.
    static func newest(_ components: [CalendarComponent]) -> [CalendarComponent] {
        var kept: [String: Int] = [:]
        var order: [String] = []
        for (index, component) in components.enumerated() {
            if let known = kept[component.key] {
                if components[known].version <= component.version { kept[component.key] = index }
            } else {
                kept[component.key] = index
                order.append(component.key)
            }
        }
        return order.compactMap { kept[$0].map { components[$0] } }
    }

    /// Decides one event and records its changes in `patch`.
    private static func merge(_ arriving: [CalendarComponent], from incoming: CalendarData, over existing: [CalendarComponent],
                              in target: CalendarData, into patch: inout CalendarPatch, replacingEqual: Bool) -> ImportOutcome {
        guard !existing.isEmpty else {
            for component in arriving { patch.add(component, from: incoming, after: nil) }
            return .added
        }
        var byKey: [String: CalendarComponent] = [:]
        for component in existing where byKey[component.key] == nil { byKey[component.key] = component }
        let master = byKey[""]
        var changed = false
        var kept = false
        var newMaster: CalendarComponent?
        let last = existing.compactMap(\.span.end).max()
        for component in arriving {
            guard let present = byKey[component.key] else {
                // A new override joins its series, unless the series is newer than it (then
                // it names an instance as the series was before, as the reader judges too).
                if component.recurrenceID != nil, let master, component.version.sequence < master.version.sequence {
                    kept = true
                    continue
                }
                patch.add(component, from: incoming, after: last)
                changed = true
                continue
            }
            if incoming.identity(of: component.span) == target.identity(of: present.span) { continue }
            if present.version < component.version || (replacingEqual && present.version == component.version) {
                patch.replace(present, with: component, from: incoming)
                if component.recurrenceID == nil { newMaster = component }
                changed = true
            } else {
                kept = true
            }
        }
        // A newer master brings the sender's whole series: an override it no longer has, and
        // that is not newer than it, is gone from the sender's copy too.
        if let newMaster {
            let keys = Set(arriving.map(\.key))
            for component in existing where component.recurrenceID != nil && !keys.contains(component.key)
                && component.version.sequence <= newMaster.version.sequence {
                patch.remove(component)
            }
        }
        return changed ? .updated : (kept ? .keptNewer : .unchanged)
    }
}

/// The changes an import or an invitation makes to one calendar's bytes, gathered, then made
/// at once: components replaced or removed in place, new ones after a given component or
/// before the last `END:VCALENDAR`, and the VTIMEZONEs the written components name that the
/// calendar lacks, each once; everything in the calendar's own line ends.
struct CalendarPatch {
    let target: CalendarData
    let end: ICalText.LineEnd
    /// Replacements by the start of the bytes they replace.
    private var replacements: [Int: (Range<Int>, [UInt8])] = [:]
    private var after: [Int: [UInt8]] = [:]
    private var appended: [UInt8] = []
    private var zones: [UInt8] = []
    private var zonesWritten = Set<String>()

    init(target: CalendarData) {
        self.target = target
        let data = target.layout.data
        end = data.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) ? .crlf : ICalText.lineEnd(of: data)
    }

    /// Whether nothing is to change.
    var isEmpty: Bool { replacements.isEmpty && after.isEmpty && appended.isEmpty }

    /// `component` of `source` written after the line `line` of the calendar (the END of the
    /// last component of its UID), or with the new components when nil.
    mutating func add(_ component: CalendarComponent, from source: CalendarData, after line: Int?) {
        add(bytes: bytes(of: component.span, in: source), after: line)
        bringZones(component.zoneNames, from: source)
    }

    /// `bytes` (a component in the calendar's line ends) written after line `line`, or with
    /// the new components when nil.
    mutating func add(bytes: [UInt8], after line: Int?) {
        if let line { after[line, default: []] += bytes } else { appended += bytes }
    }

    /// `present` replaced by `component` of `source`.
    mutating func replace(_ present: CalendarComponent, with component: CalendarComponent, from source: CalendarData) {
        replace(present, bytes: bytes(of: component.span, in: source))
        bringZones(component.zoneNames, from: source)
    }

    /// `present` replaced by `bytes` (in the calendar's line ends).
    mutating func replace(_ present: CalendarComponent, bytes: [UInt8]) {
        guard let range = target.layout.range(of: present.span) else { return }
        replacements[range.lowerBound] = (range, bytes)
    }

    /// `present` removed.
    mutating func remove(_ present: CalendarComponent) {
        replace(present, bytes: [])
    }

    /// The VTIMEZONEs named `names` from `source`, for those the calendar has not.
    mutating func bringZones(_ names: [String], from source: CalendarData) {
        for name in names where target.zone(name) == nil && !zonesWritten.contains(name) {
            guard let span = source.zone(name) else { continue }
            zonesWritten.insert(name)
            zones += bytes(of: span, in: source)
        }
    }

    /// The bytes of `span` of `source` in the calendar's line ends, its folds kept.
    func bytes(of span: ICalLayout.Span, in source: CalendarData) -> [UInt8] {
        guard let range = source.layout.range(of: span) else { return [] }
        return Self.reEnded(source.layout.data[range], end)
    }

    /// `bytes` with every line end (CRLF, LF, CR) made `end`, and one after the last line.
    static func reEnded(_ bytes: ArraySlice<UInt8>, _ end: ICalText.LineEnd) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 40)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                out += end.bytes
                index += (byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A) ? 2 : 1
            } else {
                out.append(byte)
                index += 1
            }
        }
        if let last = out.last, last != 0x0A { out += end.bytes }
        return out
    }

    /// `data` (the calendar's bytes) with the changes made.
    /// - throws: `Refusal` when there is something to add and `data` has bytes but no
    ///   `END:VCALENDAR`.
    func apply(to data: [UInt8]) throws(CalendarEdit.Refusal) -> [UInt8] {
        guard !isEmpty else { return data }
        var pieces = Array(replacements.values)
        for (line, bytes) in after {
            let point = target.layout.lines[line].range.upperBound
            pieces.append((point..<point, bytes))
        }
        let added = zones + appended
        if data.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) {
            var out = CalendarEdit.component(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + CalendarEdit.productID], end: end)
            out += added
            out += CalendarEdit.component(["END:VCALENDAR"], end: end)
            return out
        }
        if !added.isEmpty {
            guard let point = ICalLayout.lastCalendarEnd(in: data) else {
                throw CalendarEdit.Refusal("it has no END:VCALENDAR to add the events before")
            }
            pieces.append((point..<point, added))
        }
        // Where an insertion shares its place with the start of a replaced or removed
        // component (the one after the component it follows), the insertion goes first.
        return CalendarEdit.replacing(pieces.sorted { ($0.0.lowerBound, $0.0.isEmpty ? 0 : 1) < ($1.0.lowerBound, $1.0.isEmpty ? 0 : 1) },
                                      in: data)
    }
}
