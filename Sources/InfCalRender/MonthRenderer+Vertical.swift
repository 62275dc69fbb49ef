import InfCalModel
import InfCalEvents

/// How months are laid out.
public enum MonthLayout: Sendable {
    /// The classic `cal` layout: weekdays across, weeks down.
    case horizontal
    /// ncal's layout (`--vertical`): weekdays down the left side, weeks across.
    case vertical
}

/// ncal's vertical layout, as FreeBSD's ncal.c prints it (`monthranger`, `mkmonthr`): a title
/// line indented past the weekday column, then one line a weekday, each starting with its label
/// and then, month after month, a column a week (a space and the day right-aligned in its
/// cell), and with week numbers a last line of them under their columns. Each month takes six
/// week columns, or more where it needs or its title does, so months side by side line up.
extension MonthRenderer {
    /// Week columns a month takes at least: the most a month of 31 days can span.
    static let verticalWeekColumns = 6

    /// The cells the weekday labels take at the left of each line.
    var verticalLabelWidth: Int { names.labelWidth }

    /// The cells a week column takes: a space and a day cell.
    var verticalColumnWidth: Int { cellWidth + 1 }

    /// The cells `grid` takes beside the others, with `titleWidth` the width of its title.
    func verticalBlockWidth(_ grid: MonthGrid, titleWidth: Int) -> Int {
        max(max(Self.verticalWeekColumns, grid.weekCount) * verticalColumnWidth, titleWidth + 1)
    }

    /// The lines of `grids` side by side in the vertical layout: a title line, seven weekday
    /// lines, and a week-number line when the renderer shows week numbers.
    func appendVerticalRow(_ grids: [MonthGrid], to out: ByteBuffer) {
        let titles = grids.map { titleText($0.month) }
        let titleWidths = titles.map { DisplayWidth.of($0) }
        let widths = zip(grids, titleWidths).map { verticalBlockWidth($0, titleWidth: $1) }

        // Titles start two cells past the weekday labels, over the first week's digits.
        out.appendSpaces(verticalLabelWidth + 2)
        for (position, title) in titles.enumerated() {
            out.append(title)
            if position < titles.count - 1 { out.appendSpaces(widths[position] - titleWidths[position]) }
        }
        endLine(out)

        for row in 0..<7 {
            let label = names.weekdayLabels[(firstWeekday - 1 + row) % 7]
            out.appendSpaces(max(0, verticalLabelWidth - DisplayWidth.of(label)))
            out.append(label)
            for (position, grid) in grids.enumerated() {
                for week in 0..<grid.weekCount {
                    out.append(UInt8(ascii: " "))
                    if let cell = grid.cell(week: week, column: row) {
                        appendDay(cell.label, day: cell.day, width: cellWidth, to: out)
                    } else {
                        out.appendSpaces(cellWidth)
                    }
                }
                if position < grids.count - 1 { out.appendSpaces(widths[position] - grid.weekCount * verticalColumnWidth) }
            }
            endLine(out)
        }

        guard weekNumbers != nil else { return }
        out.appendSpaces(verticalLabelWidth)
        for (position, grid) in grids.enumerated() {
            for week in 0..<grid.weekCount {
                out.append(UInt8(ascii: " "))
                if let number = weekNumber(ofRowStarting: grid.month.firstDay - grid.leadingBlanks + 7 * week) {
                    Self.appendNumber(number, width: cellWidth, to: out)
                } else {
                    out.appendSpaces(cellWidth)
                }
            }
            if position < grids.count - 1 { out.appendSpaces(widths[position] - grid.weekCount * verticalColumnWidth) }
        }
        endLine(out)
    }

    /// The width of `grids` side by side in the vertical layout, the weekday labels included.
    func verticalRowWidth(_ grids: [MonthGrid]) -> Int {
        verticalLabelWidth + grids.map { verticalBlockWidth($0, titleWidth: DisplayWidth.of(titleText($0.month))) }.reduce(0, +)
    }

    /// Lines a row of months takes in the vertical layout.
    var verticalLineCount: Int { 8 + (weekNumbers == nil ? 0 : 1) }

    private func endLine(_ out: ByteBuffer) {
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
    }
}
