import InfCalModel
import InfCalEvents
import InfCalRender

// The bodies of the views: the month page, the strip of compact grids, the year page (the week's
// is in PagerView+Week).
extension PagerView {
    /// What a view puts above the status line.
    struct Body {
        /// The lines, from the top of the screen (scrolled and clipped by the caller).
        var lines: [String]
        /// Where the screen stands, for the status line.
        var position: String
        /// Months the screen shows.
        var monthCount: Int
        /// The line of the selected day, which scrolling keeps on the screen.
        var focus = 0
    }

    /// The body of `state`'s view in `room` (the screen without its status line), or the size
    /// the screen needs at least when nothing fits.
    func body(for state: PagerState, room: TerminalSize) -> Result<Body, TooSmall> {
        switch state.view {
        case .monthPage:
            var page = monthPage(for: state)
            page.events = shownEvents(for: state)?.occurrencesByDay(state.current.firstDay..<state.current.endDay) ?? [:]
            guard let layout = page.layout(filling: room) else {
                // Too small for the page: the compact grid of the month.
                return strip(for: state, room: room, columns: 1, rows: 1)
            }
            let lines = Array(repeating: "", count: layout.top) + page.lines(for: state.current, layout: layout)
            return .success(Body(lines: lines, position: renderer.names.title(of: state.current), monthCount: 1))
        case .strip:
            return strip(for: state, room: room, columns: columnCount(width: room.columns), rows: nil)
        case .yearPage:
            return yearPage(for: state, room: room)
        case .week:
            return weekBody(for: state, room: room)
        }
    }

    /// Months in rows of `columns` (shrunk while automatic and too wide), `rows` rows or as
    /// many as fit, centred.
    func strip(for state: PagerState, room: TerminalSize, columns: Int, rows: Int?) -> Result<Body, TooSmall> {
        let rowCount = max(1, rows ?? (room.rows + 1) / (renderer.rowLineCount + 1))
        var columnCount = max(1, columns)
        var renderer = marking(state)
        while true {
            let months = Array(state.index.forward.prefix(columnCount * rowCount))
            renderer.markedDays = markedDays(months, events: shownEvents(for: state))
            let grids = months.map(renderer.grid(for:))
            let rowsOfGrids = Self.rows(grids, columns: columnCount)
            // Titles wider than a grid (a long leap-month name) widen their column.
            let width = max(renderer.metrics.rowWidth(columns: min(columnCount, grids.count)), rowsOfGrids.map(renderer.rowWidth).max() ?? 0)
            let height = rowsOfGrids.count * (renderer.rowLineCount + 1) - 1
            if width > room.columns, self.columns == nil || rows != nil, columnCount > 1 {
                columnCount -= 1
                continue
            }
            guard width <= room.columns, renderer.rowLineCount <= room.rows else {
                return .failure(TooSmall(needed: TerminalSize(columns: width, rows: renderer.rowLineCount + 1)))
            }
            let left = String(repeating: " ", count: (room.columns - width) / 2)
            var lines = Array(repeating: "", count: max(0, (room.rows - height) / 2))
            for (number, row) in rowsOfGrids.enumerated() {
                if number > 0 { lines.append("") }
                lines += Self.lines(of: row, renderer: renderer, left: left)
            }
            return .success(Body(lines: lines, position: range(months), monthCount: months.count))
        }
    }

    /// The calendar year of the state's month under its heading, as `--year` prints it, in as
    /// few rows as the width allows; scrolled when taller than `room`.
    func yearPage(for state: PagerState, room: TerminalSize) -> Result<Body, TooSmall> {
        let months = state.calendar.monthsOfYear(holding: state.current).filter(state.bounds.admits)
        var renderer = marking(state)
        renderer.titleStyle = .monthOnly
        renderer.markedDays = markedDays(months, events: shownEvents(for: state))
        let grids = months.map(renderer.grid(for:))
        let fit = renderer.metrics.columns(fitting: room.columns, limit: .max)
        let rowCount = (grids.count + fit - 1) / max(1, fit)
        let columnCount = max(1, (grids.count + max(1, rowCount) - 1) / max(1, rowCount))
        let rowsOfGrids = Self.rows(grids, columns: columnCount)
        let width = rowsOfGrids.map(renderer.rowWidth).max() ?? 0
        guard width <= room.columns, renderer.rowLineCount <= room.rows else {
            return .failure(TooSmall(needed: TerminalSize(columns: max(width, renderer.monthWidth), rows: renderer.rowLineCount + 1)))
        }
        let left = String(repeating: " ", count: (room.columns - width) / 2)
        let heading = months.first.map { renderer.names.yearTitle(of: $0) } ?? ""
        var lines = [String(repeating: " ", count: max(0, (room.columns - DisplayWidth.of(heading)) / 2)) + heading]
        var focus = 0
        for (number, row) in rowsOfGrids.enumerated() {
            if number > 0 { lines.append("") }
            if let grid = row.first(where: { $0.month.contains(day: state.selected) }) {
                focus = lines.count + 2 + (state.selected - grid.month.firstDay + grid.leadingBlanks) / 7
            }
            lines += Self.lines(of: row, renderer: renderer, left: left)
        }
        if lines.count < room.rows {
            let top = (room.rows - lines.count) / 2
            lines = Array(repeating: "", count: top) + lines
            focus += top
        }
        return .success(Body(lines: lines, position: heading, monthCount: months.count, focus: focus))
    }

    /// `grids` cut into rows of `columns` (the last row may be shorter).
    static func rows(_ grids: [MonthGrid], columns: Int) -> [[MonthGrid]] {
        stride(from: 0, to: grids.count, by: columns).map { Array(grids[$0..<min(grids.count, $0 + columns)]) }
    }

    /// The lines of one row of grids side by side, each `rowLineCount` tall, behind `left`
    /// (a blank line stays empty, so that nothing trails on it).
    static func lines(of row: [MonthGrid], renderer: MonthRenderer, left: String) -> [String] {
        let rendered = renderer.formatRow(row)
        return (0..<renderer.rowLineCount).map { $0 < rendered.count && !rendered[$0].isEmpty ? left + rendered[$0] : "" }
    }

    /// The days of `months` with events of `events`, marked in the compact grids.
    func markedDays(_ months: [Month], events: EventStore?) -> Set<Int> {
        guard let events, let first = months.map(\.firstDay).min(),
              let end = months.map(\.endDay).max() else { return [] }
        return events.daysTouched(first..<end)
    }

    /// A screen too small for what it should show, and the size it needs.
    struct TooSmall: Error {
        let needed: TerminalSize
    }
}
