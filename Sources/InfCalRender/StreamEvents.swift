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
public struct StreamEvents {
    public let store: EventStore
    /// Whether days with events are marked (bold and underlined): when colour is on.
    public let marksDays: Bool
    /// Formats the lines (the locale's weekday abbreviations).
    let lines: AgendaPrinter
    /// The weekday abbreviations of `lines` as bytes, Sunday first, each padded to 16 bytes,
    /// and their lengths: -1 for one not in ASCII or longer.
    private let weekdayPadded: [UInt8]
    private let weekdayLengths: [Int]
    /// The width lines are cut to (the terminal's); nil: nothing is cut.
    public var width: Int?
    /// The first day the stream lists, when it runs forward: the occurrences under way on it
    /// (started before it) head its month's list, marked `(continuing)`.
    public var listedFrom: Int?

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
    }

    /// The days of `grids` that some occurrence touches (multi-day events on each of their days).
    public func markedDays(_ grids: [MonthGrid]) -> Set<Int> {
        guard let first = grids.map(\.month.firstDay).min(), let end = grids.map(\.month.endDay).max() else { return [] }
        return Set(store.occurrencesByDay(first..<end).keys)
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
        var width: Int?
        let lineWidth = self.width ?? Int.max
        /// Appends the list of the row's month at `position`, its `underWay` first ones under
        /// way on the first day listed.
        func appendList(_ list: UnsafeBufferPointer<Occurrence>, underWay: Int, of row: UnsafeBufferPointer<MonthGrid>, at position: Int) {
            guard let base = list.baseAddress, !list.isEmpty else { return }
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
            for place in list.indices {
                let continuing = place < underWay
                // Fields read through the pointer: a copy of an occurrence retains each of its strings.
                let occurrence = base + place
                let index = continuing ? (listedFrom ?? month.firstDay) - month.firstDay : Self.day(of: occurrence.pointee.start) - month.firstDay
                let label = row[position].labels.label(at: index)
                if continuing || !appendLine(occurrence, label: label, width: lineWidth, cellWidth: renderer.cellWidth, to: out) {
                    let text = String(label)
                    let day = String(repeating: " ", count: max(0, renderer.cellWidth - text.count)) + text
                    out.append(lines.dayLine(list[place], day: day, width: lineWidth, on: continuing ? month.firstDay + index : nil))
                }
                out.trimTrailingSpaces()
                out.append(UInt8(ascii: "\n"))
            }
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
                        let listed = continuing + list.filter { $0.startDay >= from }
                        listed.withUnsafeBufferPointer { appendList($0, underWay: continuing.count, of: row, at: position) }
                    } else {
                        appendList(list, underWay: 0, of: row, at: position)
                    }
                }
            }
        }
    }

    /// The grid day number of `seconds` (display civil seconds): an occurrence's `startDay`,
    /// read from its start alone.
    @inline(__always)
    private static func day(of seconds: Int) -> Int {
        CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: seconds))
    }

    /// The index of the first of `sorted` (in order of start) that starts on `day` or later.
    private static func firstIndex(in sorted: UnsafeBufferPointer<Occurrence>, from day: Int) -> Int {
        var lower = 0, upper = sorted.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if Self.day(of: sorted[middle].start) < day { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }

    /// Appends what `lines.dayLine` gives for `occurrence` on the day labelled `label`, byte by
    /// byte, when that is plain: an ASCII summary without control characters and a line that
    /// fits `width` uncut. Returns false, having appended nothing, when it is not.
    private func appendLine(_ occurrence: UnsafePointer<Occurrence>, label: Int, width: Int, cellWidth: Int, to out: ByteBuffer) -> Bool {
        guard label >= 0, lines.calendarWidth == 0, lines.colors == nil || occurrence.pointee.color == nil else { return false }
        let weekday = DayNumber.weekday(Self.day(of: occurrence.pointee.start)) - 1
        let weekdayLength = weekdayLengths[weekday]
        let more = occurrence.pointee.more
        var summary = more > 0 ? occurrence.pointee.shownSummary
            : (occurrence.pointee.summary.isEmpty ? "(no title)" : occurrence.pointee.summary)
        let isAllDay = occurrence.pointee.isAllDay
        var digitCount = 1
        var rest = label / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        let plain = summary.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        guard plain, weekdayLength >= 0,
              max(cellWidth, digitCount) + 1 + weekdayLength + 2 + (isAllDay ? 0 : 7) + summary.utf8.count <= width
        else { return false }
        MonthRenderer.appendNumber(label, width: cellWidth, to: out)
        out.append(UInt8(ascii: " "))
        weekdayPadded.withUnsafeBufferPointer { names in
            if let names = names.baseAddress { out.appendPadded(names + 16 * weekday, count: weekdayLength) }
        }
        out.appendSpaces(2)
        if !isAllDay {
            let minutes = CivilTime.floorMod(occurrence.pointee.start, CivilTime.secondsPerDay) / 60
            let (hour, minute) = (minutes / 60, minutes % 60)
            out.append(UInt8(ascii: "0") + UInt8(hour / 10))
            out.append(UInt8(ascii: "0") + UInt8(hour % 10))
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: "0") + UInt8(minute / 10))
            out.append(UInt8(ascii: "0") + UInt8(minute % 10))
            out.appendSpaces(2)
        }
        summary.withUTF8 { out.append($0) }
        return true
    }
}
