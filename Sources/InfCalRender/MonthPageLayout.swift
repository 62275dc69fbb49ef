/// The characters a month page draws its grid with: box-drawing lines where the character set
/// is UTF-8, `+ - |` elsewhere.
public struct BoxCharacters: Hashable, Sendable {
    /// The line along the top and bottom of a cell.
    public let horizontal: String
    /// The line between cells of a week.
    public let vertical: String
    /// Left end, crossing and right end of the top line, the lines between weeks and the bottom line.
    public let top: [String]
    public let middle: [String]
    public let bottom: [String]

    /// Box-drawing characters (U+2500 block): one cell each.
    public static let unicode = BoxCharacters(horizontal: "─", vertical: "│",
                                              top: ["┌", "┬", "┐"], middle: ["├", "┼", "┤"], bottom: ["└", "┴", "┘"])
    /// ASCII, for a character set that may lack the box-drawing characters.
    public static let ascii = BoxCharacters(horizontal: "-", vertical: "|",
                                            top: ["+", "+", "+"], middle: ["+", "+", "+"], bottom: ["+", "+", "+"])
}

/// Where a month page goes and how big its cells are: plain arithmetic on a size, no text.
///
/// The page is the month's title, the weekday names and a grid of seven columns and always six
/// week rows, so the grid never jumps between months of five and six weeks. A cell's pitch
/// (`cellWidth`, `cellHeight`) counts its inside and one of its lines; the grid is closed by one
/// more line on the right and at the bottom. What is left of the room goes to the margins, half
/// on each side (the right and bottom get the odd cell).
public struct MonthPageLayout: Hashable, Sendable {
    /// Cells from one vertical line to the next.
    public let cellWidth: Int
    /// Lines from one horizontal line to the next.
    public let cellHeight: Int
    /// Cells of the week-number column left of the grid (0 without one).
    public let weekColumnWidth: Int
    /// Cells the page's lines span (the screen's or the wall's width); the title is centred in it.
    public let width: Int
    /// Blank cells left of the grid.
    public let left: Int
    /// Blank lines above the title.
    public let top: Int

    /// Week rows on every page.
    public static let weeks = 6
    /// The largest grid drawn: on a bigger screen the margins grow instead, so that no size a
    /// terminal reports can make a frame of gigabytes.
    public static let largestGrid = TerminalSize(columns: 2_000, rows: 1_000)

    /// The grid's width: week column, seven cells and the closing line.
    public var gridWidth: Int { weekColumnWidth + 7 * cellWidth + 1 }
    /// The page's height: title, weekday names and the grid.
    public var height: Int { 2 + Self.weeks * cellHeight + 1 }

    /// The layout that fills `size` with a month whose day numbers take `numberWidth` cells,
    /// or nil when `size` cannot hold seven by six cells with one such number each.
    public static func filling(_ size: TerminalSize, numberWidth: Int, weekColumnWidth: Int) -> MonthPageLayout? {
        let columns = min(size.columns, largestGrid.columns)
        let rows = min(size.rows, largestGrid.rows)
        let cellWidth = (columns - weekColumnWidth - 1) / 7
        let cellHeight = (rows - 3) / weeks
        guard cellWidth >= numberWidth + 1, cellHeight >= 2 else { return nil }
        let gridWidth = weekColumnWidth + 7 * cellWidth + 1
        let height = 2 + weeks * cellHeight + 1
        return MonthPageLayout(cellWidth: cellWidth, cellHeight: cellHeight, weekColumnWidth: weekColumnWidth,
                               width: size.columns, left: (size.columns - gridWidth) / 2, top: (size.rows - height) / 2)
    }

    /// The smallest size `filling` accepts for `numberWidth` and `weekColumnWidth`.
    public static func smallest(numberWidth: Int, weekColumnWidth: Int) -> TerminalSize {
        TerminalSize(columns: weekColumnWidth + 7 * (numberWidth + 1) + 1, rows: 3 + weeks * 2)
    }

    /// The layout of a page printed `width` cells wide (`--wall`): cells as tall as what they
    /// hold needs, which is the day number's line; nil when `width` is too narrow.
    public static func wall(width: Int, numberWidth: Int, weekColumnWidth: Int) -> MonthPageLayout? {
        guard var layout = filling(TerminalSize(columns: width, rows: 3 + weeks * 2), numberWidth: numberWidth,
                                   weekColumnWidth: weekColumnWidth) else { return nil }
        layout = MonthPageLayout(cellWidth: layout.cellWidth, cellHeight: 2, weekColumnWidth: weekColumnWidth,
                                 width: width, left: layout.left, top: 0)
        return layout
    }
}
