import Foundation
import InfCalModel

/// One content line (RFC 5545 §3.1) after unfolding: `NAME;PARAM=VALUE:value`.
public struct ContentLine: Sendable {
    /// The property name, upper-cased.
    public var name: String
    /// Parameters, names upper-cased, quotes removed; a list value stays comma-joined.
    public var parameters: [(name: String, value: String)]
    /// The value's bytes in the document's unfolded text.
    public var valueRange: Range<Int>
    /// The physical line the content line starts on, from 1.
    public var line: Int

    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}

/// A component (`BEGIN:VEVENT` ... `END:VEVENT`) with its properties and nested components.
public struct Component: Sendable {
    public var name: String
    public var properties: [ContentLine] = []
    public var children: [Component] = []
    /// The line of its BEGIN.
    public var line: Int
    /// Why the component cannot be read as a whole (a malformed line, a missing END), if so.
    public var defect: (line: Int, reason: String)?
    /// Malformed lines left out, of properties nothing reads.
    public var skippedLines: [Int] = []

    public func first(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
}

/// An iCalendar document: the unfolded text and the components at its top level.
public struct ICalDocument: Sendable {
    /// The unfolded text; content lines point into it.
    public let text: [UInt8]
    public var components: [Component]
    /// Whether any BEGIN:VCALENDAR was seen.
    public var hasCalendar: Bool
    /// Structural errors recovered from (a component left open, an END that matches nothing),
    /// each at the line where it was noticed: what `--strict` counts besides skipped events.
    public var problems: [(line: Int, message: String)] = []

    /// The value of `line` as a string, raw.
    public func rawValue(_ line: ContentLine) -> String {
        text.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[line.valueRange]), as: UTF8.self)
        }
    }

    /// The value's bytes, without spaces at either end.
    public func trimmedBytes(_ line: ContentLine) -> ArraySlice<UInt8> {
        var range = line.valueRange
        while !range.isEmpty, text[range.lowerBound] == 0x20 || text[range.lowerBound] == 0x09 { range = (range.lowerBound + 1)..<range.upperBound }
        while !range.isEmpty, text[range.upperBound - 1] == 0x20 || text[range.upperBound - 1] == 0x09 { range = range.lowerBound..<(range.upperBound - 1) }
        return text[range]
    }

    /// The value as a string, without spaces at either end.
    public func trimmedValue(_ line: ContentLine) -> String {
        String(decoding: trimmedBytes(line), as: UTF8.self)
    }

    /// The value of a TEXT property with its escapes (`\n \, \; \\`) read; a line break
    /// becomes `newline`.
    public func textValue(_ line: ContentLine, newline: String = "\n") -> String {
        let range = line.valueRange
        if !text[range].contains(0x5C) { return rawValue(line) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = text[index]
            if byte == 0x5C, index + 1 < range.upperBound {
                let next = text[index + 1]
                if next == 0x6E || next == 0x4E { bytes += Array(newline.utf8) } else { bytes.append(next) }
                index += 2
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `data`: CRLF, LF or CR line ends, folded lines, a UTF-8 byte-order mark, blank
    /// lines. Never fails: what cannot be read is marked on the component that holds it.
    public static func parse(_ data: [UInt8]) -> ICalDocument {
        let (text, lineStarts) = unfold(data)
        var stack: [Component] = []
        var top: [Component] = []
        var hasCalendar = false
        var problems: [(line: Int, message: String)] = []
        /// Closes the components open above position `index` of the stack (all for -1), each
        /// marked as cut short at `line`. A VEVENT cut short is skipped, and says so itself;
        /// any other (an unclosed X-THING) is a problem of the document.
        func closeOpen(above index: Int, at line: Int) {
            while stack.count > index + 1 {
                var open = stack.removeLast()
                let name = InertText.echo(open.name, limit: 40)
                if open.defect == nil { open.defect = (open.line, "no END:\(name) before line \(line)") }
                if open.name != "VEVENT" {
                    problems.append((line, "BEGIN:\(name) (line \(open.line)) has no END:\(name); closed here"))
                }
                attach(open, to: &stack, top: &top)
            }
        }
        text.withUnsafeBufferPointer { buffer in
            var position = 0
            var logical = 0
            while position < buffer.count {
                // The line's end: memchr scans a long DESCRIPTION many bytes at a time.
                var end = buffer.count
                if let base = buffer.baseAddress, let found = memchr(base + position, 0x0A, buffer.count - position) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                let lineNumber = logical < lineStarts.count ? lineStarts[logical] : 0
                logical += 1
                defer { position = end + 1 }
                if end == position { continue }
                guard let content = parseLine(buffer, position..<end, line: lineNumber) else {
                    if !stack.isEmpty {
                        if readsProperty(buffer, position..<end) {
                            if stack[stack.count - 1].defect == nil { stack[stack.count - 1].defect = (lineNumber, "malformed line") }
                        } else {
                            // A property nothing reads (a broken fold in ORGANIZER): the line goes, the component stays.
                            stack[stack.count - 1].skippedLines.append(lineNumber)
                        }
                    }
                    continue
                }
                switch content.name {
                case "BEGIN":
                    let name = componentName(buffer, content.valueRange)
                    if name == "VCALENDAR" { hasCalendar = true }
                    // A VCALENDAR is only ever at the top, a VEVENT only in one: whatever is
                    // still open where they begin was left open, and is closed here.
                    if name == "VCALENDAR" {
                        closeOpen(above: -1, at: lineNumber)
                    } else if name == "VEVENT" {
                        closeOpen(above: stack.lastIndex { $0.name == "VCALENDAR" } ?? -1, at: lineNumber)
                    }
                    if stack.count >= 64 { // nesting no real file has
                        if stack[stack.count - 1].defect == nil { stack[stack.count - 1].defect = (lineNumber, "components nested too deep") }
                        continue
                    }
                    var component = Component(name: name, line: lineNumber)
                    component.properties.reserveCapacity(8) // an event's usual few, in one allocation
                    stack.append(component)
                case "END":
                    let name = componentName(buffer, content.valueRange)
                    guard let match = stack.lastIndex(where: { $0.name == name }) else {
                        // An END that matches nothing open (END:VTOOD, or an END:VEVENT that a
                        // stray continuation line made END:VEVENTX): the innermost component
                        // ends here, as whoever wrote it meant, unless that is the calendar.
                        let shown = InertText.echo(name, limit: 40)
                        if let open = stack.last, open.name != "VCALENDAR" {
                            problems.append((lineNumber, "END:\(shown) does not match BEGIN:\(InertText.echo(open.name, limit: 40)) "
                                             + "(line \(open.line)); that component ends here"))
                            attach(stack.removeLast(), to: &stack, top: &top)
                        } else {
                            problems.append((lineNumber, "END:\(shown) matches no BEGIN; ignored"))
                        }
                        continue
                    }
                    closeOpen(above: match, at: lineNumber)
                    attach(stack.removeLast(), to: &stack, top: &top)
                default:
                    if !stack.isEmpty { stack[stack.count - 1].properties.append(content) }
                }
            }
        }
        while var open = stack.popLast() {
            if open.defect == nil { open.defect = (open.line, "no END:\(InertText.echo(open.name, limit: 40)) (the file ends inside it)") }
            if open.name != "VEVENT", open.name != "VCALENDAR" {
                problems.append((open.line, "BEGIN:\(InertText.echo(open.name, limit: 40)) has no END (the file ends inside it)"))
            }
            attach(open, to: &stack, top: &top)
        }
        var document = ICalDocument(text: text, components: top, hasCalendar: hasCalendar)
        document.problems = problems
        return document
    }

    /// The properties infcal reads (of events, calendars and zones), and BEGIN and END: a
    /// malformed line of one of these spoils its component; any other malformed line is left out.
    static let readNames: Set<String> = [
        "BEGIN", "END", "UID", "SUMMARY", "DTSTART", "DTEND", "DURATION", "RRULE", "EXRULE", "RDATE", "EXDATE",
        "RECURRENCE-ID", "STATUS", "SEQUENCE", "DTSTAMP", "LAST-MODIFIED", "TZID", "TZOFFSETFROM", "TZOFFSETTO",
        "X-WR-CALNAME", "X-WR-TIMEZONE",
    ]

    /// Whether the malformed line in `range` begins with the name of a property infcal reads.
    private static func readsProperty(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var end = range.lowerBound
        while end < range.upperBound, end - range.lowerBound < 32,
              (buffer[end] >= 0x41 && buffer[end] <= 0x5A) || (buffer[end] >= 0x61 && buffer[end] <= 0x7A) || buffer[end] == 0x2D {
            end += 1
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[range.lowerBound..<end]), as: UTF8.self).uppercased()
        return readNames.contains(name)
    }

    /// The names nearly every line has, written as they are read (upper case): returned as
    /// the literals, so that no string is made for them.
    private static let knownNames: [[(bytes: [UInt8], name: String)]] = {
        let names = ["BEGIN", "END", "VEVENT", "VCALENDAR", "UID", "SUMMARY", "DESCRIPTION", "DTSTART", "DTEND", "DTSTAMP",
                     "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "STATUS", "LOCATION", "TZID", "VALUE",
                     "SEQUENCE", "CREATED", "LAST-MODIFIED", "TRANSP", "CLASS", "CATEGORIES", "VTIMEZONE", "VALARM",
                     "STANDARD", "DAYLIGHT", "TZOFFSETFROM", "TZOFFSETTO", "TZNAME", "ORGANIZER", "ATTENDEE", "URL"]
        var byLength = [[(bytes: [UInt8], name: String)]](repeating: [], count: 16)
        for name in names { byLength[name.utf8.count].append((Array(name.utf8), name)) }
        return byLength
    }()

    /// The known name `bytes` spell exactly, if any.
    private static func knownName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count < knownNames.count else { return nil }
        candidates: for known in knownNames[bytes.count] {
            for index in 0..<bytes.count where known.bytes[index] != bytes[index] { continue candidates }
            return known.name
        }
        return nil
    }

    /// The upper-cased, trimmed name a BEGIN or END line gives.
    private static func componentName(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        if let known = knownName(UnsafeBufferPointer(rebasing: buffer[range])) { return known }
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[range]))
        while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
        while bytes.first == 0x20 || bytes.first == 0x09 { bytes.removeFirst() }
        for index in bytes.indices where bytes[index] >= 0x61 && bytes[index] <= 0x7A { bytes[index] -= 32 }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func attach(_ component: Component, to stack: inout [Component], top: inout [Component]) {
        if stack.isEmpty { top.append(component) } else { stack[stack.count - 1].children.append(component) }
    }

    /// The text with folds removed and line ends made LF, and the physical line each logical
    /// line starts on.
    static func unfold(_ data: [UInt8]) -> ([UInt8], [Int]) {
        var out = [UInt8]()
        out.reserveCapacity(data.count)
        var starts: [Int] = [1]
        data.withUnsafeBufferPointer { input in
            var i = 0
            if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { i = 3 }
            var physical = 1
            let count = input.count
            var run = i
            while i < count {
                let byte = input[i]
                guard byte == 0x0D || byte == 0x0A else {
                    i += 1
                    continue
                }
                // The text up to here, in one copy.
                out.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i]))
                // One line end: CRLF, LF or CR.
                i += (byte == 0x0D && i + 1 < count && input[i + 1] == 0x0A) ? 2 : 1
                physical += 1
                if i < count, input[i] == 0x20 || input[i] == 0x09 {
                    i += 1 // a fold: the line goes on
                } else {
                    out.append(0x0A)
                    starts.append(physical)
                }
                run = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<count]))
        }
        return (out, starts)
    }

    /// Splits one unfolded line into name, parameters and value; nil when it is not a content line.
    static func parseLine(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int) -> ContentLine? {
        var i = range.lowerBound
        let end = range.upperBound
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
        }
        func name(_ from: Int, _ to: Int) -> String {
            let slice = UnsafeBufferPointer(rebasing: buffer[from..<to])
            if let known = knownName(slice) { return known }
            if !slice.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { return String(decoding: slice, as: UTF8.self) }
            return String(decoding: slice.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }, as: UTF8.self)
        }
        let nameStart = i
        while i < end, isNameByte(buffer[i]) { i += 1 }
        guard i > nameStart, i < end else { return nil }
        let propertyName = name(nameStart, i)
        var parameters: [(name: String, value: String)] = []
        while i < end, buffer[i] == 0x3B { // ;
            i += 1
            let parameterStart = i
            while i < end, isNameByte(buffer[i]) { i += 1 }
            guard i > parameterStart, i < end, buffer[i] == 0x3D else { return nil }
            let parameterName = name(parameterStart, i)
            i += 1
            var values: [UInt8] = []
            while true {
                if i < end, buffer[i] == 0x22 { // a quoted value
                    i += 1
                    let valueStart = i
                    while i < end, buffer[i] != 0x22 { i += 1 }
                    guard i < end else { return nil }
                    values += UnsafeBufferPointer(rebasing: buffer[valueStart..<i])
                    i += 1
                } else {
                    let valueStart = i
                    while i < end, buffer[i] != 0x2C, buffer[i] != 0x3B, buffer[i] != 0x3A { i += 1 }
                    values += UnsafeBufferPointer(rebasing: buffer[valueStart..<i])
                }
                guard i < end, buffer[i] == 0x2C else { break }
                values.append(0x2C)
                i += 1
            }
            parameters.append((parameterName, String(decoding: values, as: UTF8.self)))
        }
        guard i < end, buffer[i] == 0x3A else { return nil }
        var valueEnd = end
        if valueEnd > i + 1, buffer[valueEnd - 1] == 0x0D { valueEnd -= 1 }
        return ContentLine(name: propertyName, parameters: parameters, valueRange: (i + 1)..<valueEnd, line: line)
    }
}
