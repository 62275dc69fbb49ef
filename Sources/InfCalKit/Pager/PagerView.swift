/// Composes the pager's frames: the month grids centred on the screen and a status line.
///
/// Pure: a state and a terminal size in, a `Frame` out, so the layout can be tested without a
/// terminal. The grid block always takes `gridLines` lines (a six-week month's height), so the
/// titles stay put as months of five and six weeks follow each other.
public struct PagerView {
    /// The renderer of the grids (calendar, names, first weekday, numbering); its highlighted
    /// day is set from the state's today.
    public let renderer: MonthRenderer
    /// Whether today is highlighted.
    public let highlightToday: Bool
    /// Months side by side, or nil for as many as the width takes, at most
    /// `Configuration.automaticColumnLimit` (recomputed at every size).
    public let columns: Int?

    /// Lines of the grid block in the classic layout: title, weekday header and six weeks (the
    /// renderer's `rowLineCount`).
    public static let gridLines = 8
    /// The go-to prompt's label.
    public static let promptLabel = "Go to (YYYY-MM or YYYY-MM-DD): "

    /// A view drawing with `renderer`; `columns` nil means automatic.
    public init(renderer: MonthRenderer, highlightToday: Bool, columns: Int?) {
        self.renderer = renderer
        self.highlightToday = highlightToday
        self.columns = columns
    }

    /// The view of a run: columns fitted to the width follow the terminal's width as it changes.
    public init(configuration: Configuration) {
        let fixed: Int?
        switch configuration.columnLayout {
        case .fixed(let count): fixed = count
        case .fitted: fixed = nil
        }
        self.init(renderer: configuration.makeRenderer(), highlightToday: configuration.color, columns: fixed)
    }

    /// Months side by side on a screen `width` cells wide.
    public func columnCount(width: Int) -> Int {
        columns ?? Configuration.automaticColumns(width: width, monthWidth: renderer.monthWidth)
    }

    /// The cells `count` months side by side take.
    public func blockWidth(columns count: Int) -> Int {
        count * renderer.monthWidth + (count - 1) * MonthRenderer.gutter
    }

    // MARK: Frames

    /// The frame for `state` on a terminal of `size`.
    public func frame(for state: PagerState, size: TerminalSize) -> Frame {
        var frame = Frame(size: size)
        guard size.rows > 0, size.columns > 0 else { return frame }
        let count = columnCount(width: size.columns)
        let months = Array(state.index.forward.prefix(count))
        let grids = months.map(renderer.grid(for:))
        // Titles wider than a grid (a long leap-month name) widen their column.
        let width = max(blockWidth(columns: count), renderer.rowWidth(grids))
        let needed = TerminalSize(columns: width, rows: renderer.rowLineCount + 1)
        guard size.columns >= needed.columns, size.rows >= needed.rows else {
            frame.lines[0] = Self.fit("terminal too small: \(needed.columns)x\(needed.rows) needed, \(size.columns)x\(size.rows) here",
                                      width: size.rows == 1 ? size.columns - 1 : size.columns)
            return frame
        }
        let statusRow = size.rows - 1
        switch state.screen {
        case .help:
            place(PagerBindings.helpLines, in: &frame, rows: statusRow)
            frame.lines[statusRow] = Self.fit("Press any key to return", width: size.columns - 1)
        case .months, .prompt:
            var renderer = self.renderer
            renderer.highlightedDay = highlightToday ? state.today : nil
            let lines = renderer.formatRow(grids)
            let left = String(repeating: " ", count: (size.columns - width) / 2)
            let top = (statusRow - renderer.rowLineCount) / 2
            for (offset, line) in lines.prefix(renderer.rowLineCount).enumerated() where !line.isEmpty {
                frame.lines[top + offset] = left + line
            }
            if case .prompt(let text) = state.screen {
                let prompt = Self.fit(Self.promptLabel + text, width: size.columns - 1)
                frame.lines[statusRow] = prompt
                frame.cursor = ScreenPosition(row: statusRow, column: DisplayWidth.of(prompt))
            } else {
                frame.lines[statusRow] = statusLine(for: state, months: months, width: size.columns - 1)
            }
        }
        return frame
    }

    /// The status line: the message of the last key or where the screen stands, a count being
    /// typed, then as many of the main keys as fit in `width` cells.
    func statusLine(for state: PagerState, months: [Month], width: Int) -> String {
        var left = state.message?.text ?? position(of: months)
        if let count = state.count { left += "  count: \(count)" }
        let room = width - DisplayWidth.of(left) - 3
        var kept: [(order: Int, text: String)] = []
        var used = 0
        for hint in PagerBindings.hints {
            let cost = DisplayWidth.of(hint.text) + (kept.isEmpty ? 0 : 2)
            if used + cost > room { break }
            kept.append(hint)
            used += cost
        }
        let hints = kept.sorted { $0.order < $1.order }.map(\.text).joined(separator: "  ")
        return Self.fit(hints.isEmpty ? left : left + "   " + hints, width: width)
    }

    /// "February 2024" for one month; for several "February to April 2024" within a year,
    /// else "December 2024 to February 2025".
    func position(of months: [Month]) -> String {
        guard let first = months.first else { return "" }
        guard let last = months.last, months.count > 1 else { return renderer.names.title(of: first) }
        let sameYear = first.name.isInSameYear(as: last.name)
        let start = sameYear ? renderer.names.monthName(of: first) : renderer.names.title(of: first)
        return start + " to " + renderer.names.title(of: last)
    }

    /// Places `lines` as a block centred in the first `rows` rows, clipped to the frame.
    private func place(_ lines: [String], in frame: inout Frame, rows: Int) {
        let width = lines.map { DisplayWidth.of($0) }.max() ?? 0
        let left = String(repeating: " ", count: max(0, (frame.size.columns - width) / 2))
        let top = max(0, (rows - lines.count) / 2)
        for (offset, line) in lines.prefix(rows).enumerated() where !line.isEmpty {
            frame.lines[top + offset] = Self.fit(left + line, width: frame.size.columns)
        }
    }

    /// `text` cut to `width` cells (plain text, no escape sequences).
    static func fit(_ text: String, width: Int) -> String {
        DisplayWidth.prefix(of: text, fitting: max(0, width))
    }
}
