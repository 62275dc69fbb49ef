import Foundation

/// The events of the stream (`--events` with months printed as text): days with events marked
/// in the grids when colour is on, and under each row of months the occurrences that start in
/// its months, one line each, ` 2 Tue  09:00  Standup`, cut to the row's width.
///
/// With colour off the grids stay byte for byte what they are without events.
public struct StreamEvents {
    public let store: EventStore
    /// Whether days with events are marked (bold and underlined): when colour is on.
    public let marksDays: Bool
    /// Formats the lines (the locale's weekday abbreviations).
    let lines: AgendaPrinter

    public init(store: EventStore, marksDays: Bool, locale: Locale?) {
        self.store = store
        self.marksDays = marksDays
        lines = AgendaPrinter(locale: locale, width: nil)
    }

    /// The days of `grids` that some occurrence touches (multi-day events on each of their days).
    public func markedDays(_ grids: [MonthGrid]) -> Set<Int> {
        guard let first = grids.map(\.month.firstDay).min(), let end = grids.map(\.month.endDay).max() else { return [] }
        return Set(store.occurrencesByDay(first..<end).keys)
    }

    /// The lines listed under `grids` side by side, without newlines: each month's occurrences
    /// in order of start; when several months share the row, each month's list is headed by
    /// its title.
    public func listLines(_ grids: [MonthGrid], renderer: MonthRenderer) -> [String] {
        let width = renderer.rowWidth(grids)
        var result: [String] = []
        for grid in grids {
            let occurrences = store.occurrences(startingOn: grid.month.firstDay..<grid.month.endDay)
            if occurrences.isEmpty { continue }
            if grids.count > 1 { result.append(DisplayWidth.truncated(renderer.names.title(of: grid.month), to: width)) }
            for occurrence in occurrences {
                let index = occurrence.startDay - grid.month.firstDay
                let label = String(grid.labels.label(at: index))
                let day = String(repeating: " ", count: max(0, renderer.cellWidth - label.count)) + label
                result.append(lines.dayLine(occurrence, day: day, width: width))
            }
        }
        return result
    }

    /// Appends `grids` side by side with their days marked, then, after a blank line, the list
    /// of their occurrences when there are any.
    func appendRow(_ grids: [MonthGrid], renderer: MonthRenderer, to out: ByteBuffer) {
        var marking = renderer
        if marksDays { marking.markedDays = markedDays(grids) }
        marking.appendRow(grids, to: out)
        let list = listLines(grids, renderer: renderer)
        guard !list.isEmpty else { return }
        out.append(UInt8(ascii: "\n"))
        for line in list {
            out.append(line)
            out.trimTrailingSpaces()
            out.append(UInt8(ascii: "\n"))
        }
    }
}
