import InfCalModel

/// Where things are in the bytes of an iCalendar file as it is on disk: each content line's
/// byte range (its folds and line end included) and each component's, so that a change can
/// replace exactly those bytes and leave every other byte as it was. Reads CRLF, LF and CR
/// line ends, folding, a byte-order mark, and files the reader reads only in part.
public struct ICalLayout: Sendable {
    /// One content line as written: from its first byte to after its line end (folds inside).
    public struct Line: Sendable {
        public let range: Range<Int>
        /// The unfolded text without its line end.
        public let text: [UInt8]

        /// The property name, upper-cased (the text up to the first `;` or `:`).
        public var name: String {
            let end = text.firstIndex { $0 == 0x3A || $0 == 0x3B } ?? text.endIndex
            return String(decoding: text[..<end].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }, as: UTF8.self)
        }

        /// The value: the text after the first `:` outside quotes.
        public var value: String {
            var quoted = false
            for index in text.indices {
                if text[index] == 0x22 { quoted.toggle() }
                if text[index] == 0x3A, !quoted { return String(decoding: text[(index + 1)...], as: UTF8.self) }
            }
            return ""
        }

        /// The value of parameter `name` (upper case), quotes removed: a quoted value may hold
        /// `:`, `;` and `,` (RFC 5545 §3.1), as Outlook's `TZID="(UTC+01:00) Amsterdam, ..."`
        /// does. Nil when the line has no such parameter, or is no content line.
        public func parameter(_ wanted: String) -> String? {
            text.withUnsafeBufferPointer { buffer in
                ICalDocument.parseLine(buffer, 0..<buffer.count, line: 0)?.parameter(wanted)
            }
        }

        /// For `BEGIN:X` and `END:X`, the keyword and X upper-cased.
        var delimiter: (begin: Bool, name: String)? {
            let name = self.name
            guard name == "BEGIN" || name == "END" else { return nil }
            return (name == "BEGIN", value.trimmingSpaces.uppercased())
        }
    }

    /// One component as written: its BEGIN line to its END line, both included.
    public struct Span: Sendable {
        public let name: String
        /// Index of the BEGIN line in `lines`; of the END line (nil: the file ends inside it).
        public let begin: Int
        public let end: Int?
        /// Nesting depth (a VCALENDAR is 0, its VEVENTs 1).
        public let depth: Int
        /// The component's own UID and RECURRENCE-ID values (not those of its VALARMs), trimmed.
        public var uid: String?
        public var recurrenceID: String?
    }

    public let data: [UInt8]
    public let lines: [Line]
    public let spans: [Span]

    public init(_ data: [UInt8]) {
        self.data = data
        var lines: [Line] = []
        var position = 0
        if data.count >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { position = 3 }
        var current: (start: Int, text: [UInt8])?
        while position < data.count {
            // One physical line: its text, then its end (CRLF, LF or CR).
            var end = position
            while end < data.count, data[end] != 0x0A, data[end] != 0x0D { end += 1 }
            var next = end
            if next < data.count { next += (data[next] == 0x0D && next + 1 < data.count && data[next + 1] == 0x0A) ? 2 : 1 }
            let isFold = current != nil && end > position && (data[position] == 0x20 || data[position] == 0x09)
            if isFold, var open = current {
                open.text += data[(position + 1)..<end]
                current = open
            } else {
                if let open = current { lines.append(Line(range: open.start..<position, text: open.text)) }
                current = (position, Array(data[position..<end]))
            }
            position = next
        }
        if let open = current { lines.append(Line(range: open.start..<data.count, text: open.text)) }
        // Blank lines belong to no component and are kept as bytes between lines.
        self.lines = lines
        var spans: [Span] = []
        var stack: [Int] = [] // indexes into spans
        for (index, line) in lines.enumerated() {
            if let delimiter = line.delimiter {
                if delimiter.begin {
                    spans.append(Span(name: delimiter.name, begin: index, end: nil, depth: stack.count))
                    stack.append(spans.count - 1)
                } else if let match = stack.lastIndex(where: { spans[$0].name == delimiter.name }) {
                    // Components left open inside it stay without an END.
                    let closed = stack[match]
                    stack.removeSubrange(match...)
                    let open = spans[closed]
                    spans[closed] = Span(name: open.name, begin: open.begin, end: index, depth: open.depth,
                                         uid: open.uid, recurrenceID: open.recurrenceID)
                }
                continue
            }
            guard let owner = stack.last else { continue }
            switch line.name {
            case "UID": if spans[owner].uid == nil { spans[owner].uid = line.value.trimmingSpaces }
            case "RECURRENCE-ID": if spans[owner].recurrenceID == nil { spans[owner].recurrenceID = line.value.trimmingSpaces }
            default: break
            }
        }
        self.spans = spans
    }

    /// The bytes of `span`, from its BEGIN line's first byte to after its END line's line end;
    /// nil when it has no END.
    public func range(of span: Span) -> Range<Int>? {
        guard let end = span.end else { return nil }
        return lines[span.begin].range.lowerBound..<lines[end].range.upperBound
    }

    /// The names of the components a UID names, which writes change and delete.
    public static let itemNames = ["VEVENT", "VTODO", "VJOURNAL"]

    /// The VEVENTs (and other calendar components) whose UID is `uid`, in file order.
    public func components(uid: String) -> [Span] {
        spans.filter { $0.uid == uid && Self.itemNames.contains($0.name) }
    }

    /// Whether any VEVENT (or other calendar component) is left: a vdir item without one is removed.
    public var hasItems: Bool {
        spans.contains { Self.itemNames.contains($0.name) }
    }

    /// Where a new component goes: before the last `END:VCALENDAR` line; nil when there is none.
    public var insertionPoint: Int? {
        guard let span = spans.last(where: { $0.name == "VCALENDAR" && $0.end != nil }), let end = span.end else { return nil }
        return lines[end].range.lowerBound
    }

    /// Where the last line `END:VCALENDAR` (any case, spaces after it allowed) starts in
    /// `data`, found from the end without reading the whole file into lines: an `add` to a
    /// large calendar touches its last bytes only. nil when there is none.
    public static func lastCalendarEnd(in data: [UInt8]) -> Int? {
        let word = Array("END:VCALENDAR".utf8)
        var index = data.count - word.count
        while index >= 0 {
            let atLineStart = index == 0 || data[index - 1] == 0x0A || data[index - 1] == 0x0D
                || (index == 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
            if atLineStart, data[index] | 0x20 == 0x65 {
                var matches = true
                for offset in 0..<word.count {
                    let byte = data[index + offset]
                    let folded = byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte
                    if folded != word[offset] { matches = false; break }
                }
                var after = index + word.count
                while matches, after < data.count, data[after] == 0x20 || data[after] == 0x09 { after += 1 }
                if matches, after == data.count || data[after] == 0x0A || data[after] == 0x0D { return index }
            }
            index -= 1
        }
        return nil
    }

    /// Whether a line `TZID:name` is in `data` (as a VTIMEZONE has), found without reading
    /// the file into lines.
    public static func mentionsTimeZone(_ name: String, in data: [UInt8]) -> Bool {
        let needle = Array(("TZID:" + name).utf8)
        guard data.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index <= data.count - needle.count {
            if data[index] == first, index == 0 || data[index - 1] == 0x0A || data[index - 1] == 0x0D,
               data[index..<(index + needle.count)].elementsEqual(needle) {
                let after = index + needle.count
                if after == data.count || data[after] == 0x0A || data[after] == 0x0D { return true }
            }
            index += 1
        }
        return false
    }

    /// Whether a VTIMEZONE with TZID `name` is in the file.
    public func hasTimeZone(_ name: String) -> Bool {
        spans.contains { span in
            guard span.name == "VTIMEZONE", let end = span.end else { return false }
            return lines[span.begin..<end].contains { $0.name == "TZID" && $0.value.trimmingSpaces == name }
        }
    }

    /// The lines of `span` that belong to it and not to a component inside it, with their
    /// indexes in `lines` (BEGIN and END excluded).
    public func ownLines(of span: Span) -> [(index: Int, line: Line)] {
        guard let end = span.end else { return [] }
        var result: [(Int, Line)] = []
        var depth = 0
        for index in (span.begin + 1)..<end {
            let line = lines[index]
            if let delimiter = line.delimiter {
                depth += delimiter.begin ? 1 : -1
                continue
            }
            if depth == 0 { result.append((index, line)) }
        }
        return result
    }
}
