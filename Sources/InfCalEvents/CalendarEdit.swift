import InfCalModel

/// Surgical changes to the bytes of an iCalendar file: a component inserted, replaced or
/// removed, or some of one component's own properties rewritten, and every other byte of the
/// file left exactly as it was. The file is never rewritten from a model of it.
public enum CalendarEdit {
    /// Why a change cannot be made without touching bytes it should not.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The bytes of a component: `lines` (unfolded content lines) folded, each ended by `end`.
    public static func component(_ lines: [String], end: ICalText.LineEnd) -> [UInt8] {
        lines.flatMap { ICalText.folded($0, end: end) }
    }

    /// The lines of a whole new calendar around `components` (already content lines).
    public static func calendar(_ components: [[String]]) -> [String] {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + productID] + components.flatMap { $0 } + ["END:VCALENDAR"]
    }

    /// What infcal writes as PRODID.
    public static let productID = "-//infcal//infcal//EN"

    /// `data` with `components` (content lines each) inserted before its last `END:VCALENDAR`
    /// in the file's own line ends; an empty file (or one of blank lines only) becomes a new
    /// calendar holding them.
    /// - throws: `Refusal` when the file has bytes but no `END:VCALENDAR`.
    public static func inserting(_ components: [[String]], into data: [UInt8]) throws(Refusal) -> [UInt8] {
        if data.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) {
            return component(calendar(components), end: .crlf)
        }
        guard let point = ICalLayout.lastCalendarEnd(in: data) else {
            throw Refusal("it has no END:VCALENDAR to insert the event before")
        }
        let end = ICalText.lineEnd(of: data)
        var out = Array(data[..<point])
        out.reserveCapacity(data.count + 1024)
        // A last line without a line end before END:VCALENDAR cannot happen: END starts a line.
        for lines in components { out += component(lines, end: end) }
        out += data[point...]
        return out
    }

    /// `data` with the bytes of `ranges` (which do not overlap) removed.
    public static func removing(_ ranges: [Range<Int>], from data: [UInt8]) -> [UInt8] {
        replacing(ranges.map { ($0, []) }, in: data)
    }

    /// `data` with each range (they do not overlap) replaced by its bytes.
    public static func replacing(_ pieces: [(Range<Int>, [UInt8])], in data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var position = 0
        for (range, bytes) in pieces.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            out += data[position..<range.lowerBound]
            out += bytes
            position = range.upperBound
        }
        out += data[position...]
        return out
    }

    /// `data` with `range` replaced by `bytes`.
    public static func replacing(_ range: Range<Int>, with bytes: [UInt8], in data: [UInt8]) -> [UInt8] {
        replacing([(range, bytes)], in: data)
    }

    // MARK: Changing one component's properties

    /// A change to a component's own properties (not those of its VALARMs).
    public enum Change: Sendable {
        /// The first property `name` becomes `line`; other `name` properties go; added at the
        /// end when there was none.
        case set(name: String, line: String)
        /// Every property `name` goes.
        case remove(name: String)
        /// `line` is added after the last of the component's own properties.
        case append(line: String)
        /// Every component `name` inside it (its VALARMs) goes, BEGIN to END.
        case removeComponents(name: String)
    }

    /// The bytes of `span` (of `layout`) with `changes` made: each untouched line, parameter,
    /// fold and line end byte for byte as it was; new lines in the file's line ends.
    /// - throws: `Refusal` when the component has no END.
    public static func changed(_ span: ICalLayout.Span, in layout: ICalLayout, _ changes: [Change]) throws(Refusal) -> [UInt8] {
        guard let endIndex = span.end else { throw Refusal("its \(span.name) has no END:\(span.name)") }
        let end = ICalText.lineEnd(of: layout.data)
        var setLines: [String: String] = [:]
        var removed = Set<String>()
        var appended: [String] = []
        var removedComponents = Set<String>()
        for change in changes {
            switch change {
            case .set(let name, let line): setLines[name] = line
            case .remove(let name): removed.insert(name)
            case .append(let line): appended.append(line)
            case .removeComponents(let name): removedComponents.insert(name)
            }
        }
        let own = layout.ownLines(of: span)
        let ownIndexes = Set(own.map(\.index))
        var written = Set<String>()
        var out: [UInt8] = []
        // The lines of components removed: BEGIN to its END, whatever they hold.
        var skipped = Set<Int>()
        for inner in layout.spans where inner.depth == span.depth + 1 && removedComponents.contains(inner.name)
            && inner.begin > span.begin && inner.begin < endIndex {
            skipped.formUnion(inner.begin...min(inner.end ?? endIndex - 1, endIndex - 1))
        }
        for index in span.begin...endIndex {
            let line = layout.lines[index]
            if skipped.contains(index) { continue }
            if index == endIndex {
                // What is new goes last, before END (after any VALARM).
                for (name, text) in setLines.sorted(by: { $0.key < $1.key }) where !written.contains(name) {
                    out += ICalText.folded(text, end: end)
                }
                for text in appended { out += ICalText.folded(text, end: end) }
            }
            if ownIndexes.contains(index) {
                let name = line.name
                if removed.contains(name) { continue }
                if let replacement = setLines[name] {
                    if written.insert(name).inserted { out += ICalText.folded(replacement, end: end) }
                    continue
                }
            }
            out += layout.data[line.range]
        }
        return out
    }
}
