import Foundation
import InfCalModel
import InfCalEvents

/// The events of the stream (`--events` with months printed as text): days with events marked
/// in the grids when colour is on, and under each row of months the occurrences that start in
/// its months, one line each, ` 2 Tue  09:00  Standup`: at a terminal cut to its width, into a
/// pipe or a file whole. The first month's list starts with the occurrences already under way
/// on the first day listed (`listedFrom`), marked `(continuing)`.
///
/// With colour off the grids stay byte for byte what they are without events.
///
/// A class: the printer calls it once a row through an optional, and a struct of this size
/// would be copied out of the optional for each call.
public final class StreamEvents {
    public let store: EventStore
    /// Whether days with events are marked (bold and underlined): when colour is on.
    public let marksDays: Bool
    /// Formats the lines (the locale's weekday abbreviations).
    let lines: AgendaPrinter
    /// The weekday abbreviations of `lines` as bytes, Sunday first, each padded to 16 bytes,
    /// and their lengths: -1 for one not in ASCII or longer.
    let weekdayPadded: [UInt8]
    let weekdayLengths: [Int]
    /// The width lines are cut to (the terminal's); nil: nothing is cut.
    @exclusivity(unchecked) public var width: Int?
    /// The first day the stream lists, when it runs forward: the occurrences under way on it
    /// (started before it) head its month's list, marked `(continuing)`.
    @exclusivity(unchecked) public var listedFrom: Int?
    /// Whether a row's lists may be written from the store's starts (`appendPlainLists`):
    /// without colour and without calendar names, a line needs nothing an occurrence adds.
    private let plainLists: Bool
    /// The row's starts, their storage kept from row to row.
    let scratch = Scratch()

    /// What the plain lists keep from row to row. A stream belongs to one printer on one
    /// thread, so its properties opt out of exclusivity checks (see `ByteBuffer`).
    final class Scratch {
        /// For each event of the store (`eventCount` of them, once a line was wanted), its
        /// summary as a line shows it (`summaries[offset..<offset + count]`), whether it is all
        /// day and whether it ends in a space, packed as
        /// `offset << 18 | endsInSpace << 17 | allDay << 16 | count`; -1: not yet wanted, -2: not plain.
        @exclusivity(unchecked) var lineOfEvent = UnsafeMutablePointer<Int>.allocate(capacity: 0)
        @exclusivity(unchecked) var eventCount = 0
        @exclusivity(unchecked) var summaries = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
        @exclusivity(unchecked) var summariesCount = 0
        @exclusivity(unchecked) var summariesCapacity = 0
        /// The titles of the year (`CalendarNames.posixTitles`) of the last month a list was
        /// headed by, whether they are there (POSIX Gregorian), and that year and era.
        let titles = UnsafeMutablePointer<UInt8>.allocate(capacity: 12 * 48)
        @exclusivity(unchecked) var hasTitles = false
        /// `weekdayPadded` and `weekdayLengths` of the stream, kept where a row's lists read
        /// them without borrowing the arrays, once there are seven (`hasWeekdays`).
        let weekdays = UnsafeMutablePointer<UInt8>.allocate(capacity: 7 * 16)
        let weekdayLengths = UnsafeMutablePointer<Int>.allocate(capacity: 7)
        @exclusivity(unchecked) var hasWeekdays = false
        @exclusivity(unchecked) var titlesYear = (year: Int.min, era: Int.min)

        /// For each event (`eventCount`), its template (-1: none): a key (label, pad and time
        /// of its line, packed) and, for each weekday, the line in `templateRoom` bytes and
        /// its length (0: not made).
        @exclusivity(unchecked) var templateOfEvent = UnsafeMutablePointer<Int>.allocate(capacity: 0)
        @exclusivity(unchecked) var templateKeys = UnsafeMutablePointer<Int>.allocate(capacity: Scratch.templateLimit)
        @exclusivity(unchecked) var templateLengths = UnsafeMutablePointer<Int>.allocate(capacity: 7 * Scratch.templateLimit)
        @exclusivity(unchecked) var templateBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
        @exclusivity(unchecked) var templateCount = 0
        @exclusivity(unchecked) var hasTemplateBytes = false
        /// The room of a template's line, and how many templates a stream keeps at most (the
        /// events beyond have their lines written each time).
        static let templateRoom = 72
        static let templateLimit = 256

        /// The template of `event` for lines of `key`, emptied when it held another key; nil
        /// when there is no room for another.
        func template(of event: Int, key: Int) -> Int? {
            var template = templateOfEvent[event]
            if template < 0 {
                guard templateCount < Self.templateLimit else { return nil }
                if !hasTemplateBytes {
                    templateBytes.deallocate()
                    templateBytes = .allocate(capacity: Self.templateLimit * 7 * Self.templateRoom)
                    hasTemplateBytes = true
                }
                template = templateCount
                templateCount += 1
                templateOfEvent[event] = template
            } else if templateKeys[template] == key {
                return template
            }
            templateKeys[template] = key
            (templateLengths + 7 * template).initialize(repeating: 0, count: 7)
            return template
        }

        deinit {
            titles.deallocate()
            weekdays.deallocate()
            weekdayLengths.deallocate()
            lineOfEvent.deallocate()
            summaries.deallocate()
            templateOfEvent.deallocate()
            templateKeys.deallocate()
            templateLengths.deallocate()
            templateBytes.deallocate()
        }
    }

    /// `trueColor` says how the calendars' colours are drawn when `marksDays` (colour) is on.
    public init(store: EventStore, marksDays: Bool, locale: Locale?, trueColor: Bool = false) {
        self.store = store
        self.marksDays = marksDays
        var lines = AgendaPrinter(locale: locale, width: nil)
        lines.calendarWidth = store.calendarWidth
        lines.colors = marksDays ? trueColor : nil
        self.lines = lines
        // The abbreviations as bytes where one byte is one cell (ASCII), else nil.
        var padded: [UInt8] = [], lengths: [Int] = []
        for name in lines.weekdays {
            let bytes = Array(name.utf8)
            let plain = bytes.count <= 16 && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            padded += plain ? bytes + [UInt8](repeating: 0, count: 16 - bytes.count) : [UInt8](repeating: 0, count: 16)
            lengths.append(plain ? bytes.count : -1)
        }
        (weekdayPadded, weekdayLengths) = (padded, lengths)
        plainLists = !marksDays && lines.calendarWidth == 0 && lines.colors == nil
        if padded.count == 7 * 16, lengths.count == 7 {
            scratch.weekdays.initialize(from: padded, count: 7 * 16)
            scratch.weekdayLengths.initialize(from: lengths, count: 7)
            scratch.hasWeekdays = true
        }
    }

    /// The days of `grids` that some occurrence touches (multi-day events on each of their days).
    public func markedDays(_ grids: [MonthGrid]) -> Set<Int> {
        guard let first = grids.map(\.month.firstDay).min(), let end = grids.map(\.month.endDay).max() else { return [] }
        return store.daysTouched(first..<end)
    }

    /// Appends `grids` side by side with their days marked, then, after a blank line, the list
    /// of their occurrences when there are any: each month's occurrences in order of start, one
    /// line each, cut to the row's width; when several months share the row, each month's list
    /// is headed by its title.
    func appendRow(_ grids: [MonthGrid], renderer: MonthRenderer, to out: ByteBuffer) {
        // The row's width, when the grids give it; else measured when the row has a list.
        let gridsWidth: Int?
        if marksDays {
            var marking = renderer
            marking.markedDays = markedDays(grids)
            gridsWidth = marking.appendRowGivingWidth(grids, to: out)
        } else {
            // Without marks the grids are the plain ones, week lines from the renderer's cache.
            gridsWidth = renderer.appendRowGivingWidth(grids, to: out)
        }
        if plainLists, let gridsWidth, grids.withUnsafeBufferPointer({ appendPlainLists($0, rowWidth: gridsWidth, cellWidth: renderer.cellWidth, names: renderer.names, to: out) }) {
            return
        }
        var width: Int?
        let lineWidth = self.width ?? Int.max
        /// Appends the list of the row's month at `position`: `underWay`, the occurrences under
        /// way on the first day listed, then `list`. (Two buffers, not one joined: joining
        /// copies every occurrence, and each copy retains its strings.)
        func appendList(_ underWay: UnsafeBufferPointer<Occurrence>, _ list: UnsafeBufferPointer<Occurrence>,
                        of row: UnsafeBufferPointer<MonthGrid>, at position: Int) {
            guard !underWay.isEmpty || !list.isEmpty else { return }
            let month = row[position].month
            if width == nil {
                width = gridsWidth ?? renderer.rowWidth(grids)
                out.append(UInt8(ascii: "\n"))
            }
            let rowWidth = width ?? 0
            if row.count > 1 {
                // The month's title, cut to the row's width where it is wider.
                let start = out.count
                if renderer.names.appendTitle(of: month, withYear: true, to: out) > rowWidth {
                    out.truncate(to: start)
                    out.append(DisplayWidth.truncated(renderer.names.title(of: month), to: rowWidth))
                }
                out.trimTrailingSpaces()
                out.append(UInt8(ascii: "\n"))
            }
            func appendLines(_ part: UnsafeBufferPointer<Occurrence>, continuing: Bool) {
                guard let base = part.baseAddress else { return }
                for place in part.indices {
                    // Fields read through the pointer: a copy of an occurrence retains each of its strings.
                    let occurrence = base + place
                    let index = continuing ? (listedFrom ?? month.firstDay) - month.firstDay : Self.day(of: occurrence.pointee.start) - month.firstDay
                    let label = row[position].labels.label(at: index)
                    if continuing || !appendLine(occurrence, label: label, width: lineWidth, cellWidth: renderer.cellWidth, to: out) {
                        let text = String(label)
                        let day = String(repeating: " ", count: max(0, renderer.cellWidth - text.count)) + text
                        out.append(lines.dayLine(part[place], day: day, width: lineWidth, on: continuing ? month.firstDay + index : nil))
                        out.trimTrailingSpaces()
                        out.append(UInt8(ascii: "\n"))
                    }
                }
            }
            appendLines(underWay, continuing: true)
            appendLines(list, continuing: false)
        }
        grids.withUnsafeBufferPointer { row in
            // The row's occurrences asked for at once, in order of start, then each month's
            // found among them: what asking month by month gives, for a third of the asking.
            var first = Int.max, end = Int.min
            for position in row.indices {
                first = min(first, row[position].month.firstDay)
                end = max(end, row[position].month.endDay)
            }
            guard first < end else { return }
            let occurrences = store.occurrences(startingOn: first..<end)
            occurrences.withUnsafeBufferPointer { all in
                for position in row.indices {
                    let month = row[position].month
                    let lower = Self.firstIndex(in: all, from: month.firstDay), upper = Self.firstIndex(in: all, from: month.endDay)
                    let list = UnsafeBufferPointer(rebasing: all[lower..<max(lower, upper)])
                    if let from = listedFrom, month.firstDay <= from, from < month.endDay {
                        let continuing = store.occurrences(touching: from).filter { $0.startDay < from }
                        // Those of the list from `from` on: a tail, as the list is in order of start.
                        let listed = UnsafeBufferPointer(rebasing: list[Self.firstIndex(in: list, from: from)...])
                        continuing.withUnsafeBufferPointer { appendList($0, listed, of: row, at: position) }
                    } else {
                        appendList(UnsafeBufferPointer(start: nil, count: 0), list, of: row, at: position)
                    }
                }
            }
        }
    }

    /// The grid day number of `seconds` (display civil seconds): an occurrence's `startDay`,
    /// read from its start alone.
    @inline(__always)
    static func day(of seconds: Int) -> Int {
        CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: seconds))
    }

    /// The first second (display civil seconds) of grid day `day`: what `day(of:)` maps to `day`
    /// starts there.
    @inline(__always)
    static func firstSecond(of day: Int) -> Int {
        CivilTime.day(ofGrid: day) * CivilTime.secondsPerDay
    }

    /// The index of the first of `sorted` (in order of start) that starts on `day` or later.
    private static func firstIndex(in sorted: UnsafeBufferPointer<Occurrence>, from day: Int) -> Int {
        firstIndex(sorted.count, from: day) { sorted[$0].start }
    }

    /// The first of the places `0..<count`, whose starts `start` gives in order, that starts on
    /// `day` or later.
    @inline(__always)
    static func firstIndex(_ count: Int, from day: Int, start: (Int) -> Int) -> Int {
        var lower = 0, upper = count
        while lower < upper {
            let middle = (lower + upper) / 2
            if Self.day(of: start(middle)) < day { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }

    /// Whether `bytes` are printable ASCII: one byte, one cell.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether a plain line labelled `label`, with a weekday of `weekdayLength` bytes and a
    /// summary of `count`, fits `width` uncut.
    @inline(__always)
    func fits(label: Int, weekdayLength: Int, isAllDay: Bool, count: Int, width: Int, cellWidth: Int) -> Bool {
        guard width < Int.max else { return true }
        return max(cellWidth, Self.digitCount(label)) + 1 + weekdayLength + 2 + (isAllDay ? 0 : 7) + count <= width
    }

    /// Appends what `lines.dayLine` gives for `occurrence` on the day labelled `label`, byte by
    /// byte, when that is plain (see `appendLine(start:isAllDay:summary:label:width:cellWidth:to:)`).
    /// Returns false, having appended nothing, when it is not.
    private func appendLine(_ occurrence: UnsafePointer<Occurrence>, label: Int, width: Int, cellWidth: Int, to out: ByteBuffer) -> Bool {
        guard lines.calendarWidth == 0, lines.colors == nil || occurrence.pointee.color == nil else { return false }
        let more = occurrence.pointee.more
        let summary = more > 0 ? occurrence.pointee.shownSummary
            : (occurrence.pointee.summary.isEmpty ? "(no title)" : occurrence.pointee.summary)
        return appendLine(start: occurrence.pointee.start, isAllDay: occurrence.pointee.isAllDay, summary: summary,
                          label: label, width: width, cellWidth: cellWidth, to: out)
    }

    /// Appends what `lines.dayLine` gives, without a calendar's name or colour, for an
    /// occurrence starting at `start` (display civil seconds) shown as `summary`, on the day
    /// labelled `label`, when that is plain: an ASCII summary without control characters and a
    /// line that fits `width` uncut. Returns false, having appended nothing, when it is not.
    private func appendLine(start: Int, isAllDay: Bool, summary: String, label: Int, width: Int, cellWidth: Int, to out: ByteBuffer) -> Bool {
        guard label >= 0 else { return false }
        let weekday = DayNumber.weekday(Self.day(of: start)) - 1
        let weekdayLength = weekdayLengths[weekday]
        var summary = summary
        return summary.withUTF8 { bytes in
            guard Self.isPlain(bytes), weekdayLength >= 0,
                  fits(label: label, weekdayLength: weekdayLength, isAllDay: isAllDay, count: bytes.count, width: width, cellWidth: cellWidth)
            else { return false }
            // With the 8 bytes of room past the end that the line's copy reads.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 8) { padded in
                _ = padded.initialize(from: bytes)
                padded[bytes.count...].initialize(repeating: 0)
                appendLine(start: start, isAllDay: isAllDay, summary: UnsafeBufferPointer(rebasing: padded[..<bytes.count]), label: label,
                           weekday: weekday, cellWidth: cellWidth, to: out)
            }
            return true
        }
    }

    /// Appends a plain line (see `appendLine`) and its newline: `label` right-aligned in
    /// `cellWidth`, the abbreviation of `weekday` (0 Sunday), the time of `start` unless
    /// `isAllDay`, then `summary`, which must be readable for 8 bytes (`ByteBuffer.copyWords`).
    @inline(__always)
    private func appendLine(start: Int, isAllDay: Bool, summary: UnsafeBufferPointer<UInt8>, label: Int, weekday: Int,
                            cellWidth: Int, to out: ByteBuffer) {
        let digitCount = Self.digitCount(label)
        var rest = label
        let pad = max(0, cellWidth - digitCount)
        weekdayPadded.withUnsafeBufferPointer { names in
            guard let names = names.baseAddress, let text = summary.baseAddress else { return }
            out.appendWriting(atMost: pad + digitCount + 1 + 16 + 2 + 7 + summary.count + 8) { line in
                line.update(repeating: UInt8(ascii: " "), count: pad)
                var at = pad + digitCount
                rest = label
                repeat {
                    at -= 1
                    line[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while at > pad
                at = pad + digitCount
                line[at] = UInt8(ascii: " ")
                ByteBuffer.copyWords(from: names + 16 * weekday, count: 16, to: line + at + 1)
                at += 1 + weekdayLengths[weekday]
                line[at] = UInt8(ascii: " ")
                line[at + 1] = UInt8(ascii: " ")
                at += 2
                if !isAllDay {
                    let minutes = CivilTime.floorMod(start, CivilTime.secondsPerDay) / 60
                    let (hour, minute) = (minutes / 60, minutes % 60)
                    line[at] = UInt8(ascii: "0") + UInt8(hour / 10)
                    line[at + 1] = UInt8(ascii: "0") + UInt8(hour % 10)
                    line[at + 2] = UInt8(ascii: ":")
                    line[at + 3] = UInt8(ascii: "0") + UInt8(minute / 10)
                    line[at + 4] = UInt8(ascii: "0") + UInt8(minute % 10)
                    line[at + 5] = UInt8(ascii: " ")
                    line[at + 6] = UInt8(ascii: " ")
                    at += 7
                }
                ByteBuffer.copyWords(from: text, count: summary.count, to: line + at)
                return at + summary.count
            }
        }
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
    }
}
