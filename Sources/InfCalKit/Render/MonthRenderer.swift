/// Formats month grids as text in the classic `cal` layout.
///
/// A ladder of small steps, as CPython's `TextCalendar`: a day cell, a week, the weekday header,
/// the title, a month, then months side by side. Widths are display widths (terminal cells),
/// and the highlight of today wraps only the digits, so it never moves a column. Lines are
/// appended as UTF-8 bytes to a buffer, each ending in a newline and never in a space.
public struct MonthRenderer {
    /// The names of months and weekdays.
    public let names: CalendarNames
    /// Cells a day takes: 2 for days of the month.
    public let cellWidth: Int
    /// The day to highlight (a day number), or nil for none.
    public var highlightedDay: Int?
    /// The escape sequences that start and end the highlight.
    public static let highlightOn: [UInt8] = Array("\u{1B}[7m".utf8)
    public static let highlightOff: [UInt8] = Array("\u{1B}[27m".utf8)
    /// Spaces between months side by side.
    public static let gutter = 2

    /// The weekday header, laid out for `firstWeekday`, and its width.
    private let header: [UInt8]

    /// A renderer writing names from `names`, weeks starting on `firstWeekday` (1 is Sunday), the
    /// day `highlightedDay` (a day number) in reverse video when given.
    public init(names: CalendarNames, firstWeekday: Int, highlightedDay: Int? = nil) {
        self.names = names
        self.cellWidth = names.headerWidth
        self.highlightedDay = highlightedDay
        header = Array(Self.weekHeader(names: names, firstWeekday: firstWeekday, cellWidth: names.headerWidth).utf8)
    }

    /// The width of one month in cells: seven day cells and the spaces between them.
    public var monthWidth: Int { 7 * cellWidth + 6 }

    // MARK: The ladder

    /// The weekday header: each label right-aligned in its cell, as `cal` does.
    static func weekHeader(names: CalendarNames, firstWeekday: Int, cellWidth: Int) -> String {
        (0..<7).map { column in
            let label = names.weekdayLabels[(firstWeekday - 1 + column) % 7]
            return String(repeating: " ", count: max(0, cellWidth - DisplayWidth.of(label))) + label
        }.joined(separator: " ")
    }

    /// The title centred over the month: left padding floor((width - title) / 2), none after.
    public func formatTitle(_ month: Month) -> String {
        let title = names.title(of: month)
        return String(repeating: " ", count: max(0, (monthWidth - DisplayWidth.of(title)) / 2)) + title
    }

    /// Appends one day cell: its number right-aligned in `cellWidth` cells, highlighted if today.
    @inline(__always)
    func appendDay(_ cell: MonthGrid.Cell, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        var count = 0
        var value = cell.label
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[5 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0 && count < 6
        }
        for _ in count..<max(count, cellWidth) { out.append(UInt8(ascii: " ")) }
        let highlighted = cell.day == highlightedDay
        if highlighted { out.append(contentsOf: Self.highlightOn) }
        withUnsafeBytes(of: &digits) { buffer in out.append(contentsOf: buffer[(6 - count)...]) }
        if highlighted { out.append(contentsOf: Self.highlightOff) }
    }

    /// Appends week `week` of `grid`: exactly `monthWidth` cells, blank cells as spaces.
    func appendWeek(_ grid: MonthGrid, week: Int, to out: inout [UInt8]) {
        for column in 0..<7 {
            if column > 0 { out.append(UInt8(ascii: " ")) }
            if week < grid.weekCount, let cell = grid.cell(week: week, column: column) {
                appendDay(cell, to: &out)
            } else {
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: cellWidth))
            }
        }
    }

    /// Appends line `line` of `grid` (0 the title, 1 the header, then the weeks) and returns the
    /// cells it took. Lines past the last week are empty.
    func appendLine(_ line: Int, of grid: MonthGrid, to out: inout [UInt8]) -> Int {
        switch line {
        case 0:
            let title = formatTitle(grid.month)
            out.append(contentsOf: title.utf8)
            return DisplayWidth.of(title)
        case 1:
            out.append(contentsOf: header)
            return monthWidth
        default:
            guard line - 2 < grid.weekCount else { return 0 }
            appendWeek(grid, week: line - 2, to: &out)
            return monthWidth
        }
    }

    /// Appends `grids` side by side, `gutter` spaces apart: a title line, a header line and as many
    /// week lines as the longest month needs; shorter months are padded so the rows line up.
    public func appendRow(_ grids: [MonthGrid], to out: inout [UInt8]) {
        let lineCount = 2 + (grids.map(\.weekCount).max() ?? 0)
        for line in 0..<lineCount {
            for (position, grid) in grids.enumerated() {
                let width = appendLine(line, of: grid, to: &out)
                if position < grids.count - 1 {
                    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(0, monthWidth - width) + Self.gutter))
                }
            }
            while out.last == UInt8(ascii: " ") { out.removeLast() }
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The lines of `grids` side by side, without newlines (for tests and the pager).
    public func formatRow(_ grids: [MonthGrid]) -> [String] {
        var bytes: [UInt8] = []
        appendRow(grids, to: &bytes)
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }
}
