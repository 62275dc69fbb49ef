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
    /// The weekday abbreviations of `lines` as bytes, Sunday first; nil for one not in ASCII.
    private let weekdayBytes: [[UInt8]?]
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
        weekdayBytes = lines.weekdays.map { name in name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? Array(name.utf8) : nil }
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
        if marksDays {
            var marking = renderer
            marking.markedDays = markedDays(grids)
            marking.appendRow(grids, to: out)
        } else {
            // Without marks the grids are the plain ones, week lines from the renderer's cache.
            renderer.appendRow(grids, to: out)
        }
        var width: Int?
        let lineWidth = self.width ?? Int.max
        grids.withUnsafeBufferPointer { row in
            for position in row.indices {
                let month = row[position].month
                var occurrences = store.occurrences(startingOn: month.firstDay..<month.endDay)
                var underWay = 0
                if let first = listedFrom, month.firstDay <= first, first < month.endDay {
                    let continuing = store.occurrences(touching: first).filter { $0.startDay < first }
                    occurrences = continuing + occurrences.filter { $0.startDay >= first }
                    underWay = continuing.count
                }
                if occurrences.isEmpty { continue }
                if width == nil {
                    width = renderer.rowWidth(grids)
                    out.append(UInt8(ascii: "\n"))
                }
                let rowWidth = width ?? 0
                if grids.count > 1 {
                    // The month's title, cut to the row's width where it is wider.
                    let start = out.count
                    if renderer.names.appendTitle(of: month, withYear: true, to: out) > rowWidth {
                        out.truncate(to: start)
                        out.append(DisplayWidth.truncated(renderer.names.title(of: month), to: rowWidth))
                    }
                    out.trimTrailingSpaces()
                    out.append(UInt8(ascii: "\n"))
                }
                for (place, occurrence) in occurrences.enumerated() {
                    let continuing = place < underWay
                    let index = continuing ? (listedFrom ?? month.firstDay) - month.firstDay : occurrence.startDay - month.firstDay
                    let label = row[position].labels.label(at: index)
                    if continuing || !appendLine(occurrence, label: label, width: lineWidth, cellWidth: renderer.cellWidth, to: out) {
                        let text = String(label)
                        let day = String(repeating: " ", count: max(0, renderer.cellWidth - text.count)) + text
                        out.append(lines.dayLine(occurrence, day: day, width: lineWidth, on: continuing ? month.firstDay + index : nil))
                    }
                    out.trimTrailingSpaces()
                    out.append(UInt8(ascii: "\n"))
                }
            }
        }
    }

    /// Appends what `lines.dayLine` gives for `occurrence` on the day labelled `label`, byte by
    /// byte, when that is plain: an ASCII summary without control characters and a line that
    /// fits `width` uncut. Returns false, having appended nothing, when it is not.
    private func appendLine(_ occurrence: Occurrence, label: Int, width: Int, cellWidth: Int, to out: ByteBuffer) -> Bool {
        guard label >= 0, lines.calendarWidth == 0, lines.colors == nil || occurrence.color == nil else { return false }
        let weekday = weekdayBytes[DayNumber.weekday(occurrence.startDay) - 1]
        var summary = occurrence.more > 0 ? occurrence.shownSummary : (occurrence.summary.isEmpty ? "(no title)" : occurrence.summary)
        var digitCount = 1
        var rest = label / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        let plain = summary.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        guard plain, let weekday,
              max(cellWidth, digitCount) + 1 + weekday.count + 2 + (occurrence.isAllDay ? 0 : 7) + summary.utf8.count <= width
        else { return false }
        MonthRenderer.appendNumber(label, width: cellWidth, to: out)
        out.append(UInt8(ascii: " "))
        out.append(weekday)
        out.appendSpaces(2)
        if !occurrence.isAllDay {
            let minutes = CivilTime.floorMod(occurrence.start, CivilTime.secondsPerDay) / 60
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
