import InfCalModel

/// The widths of a month's compact grid, named and decided here once, as util-linux cal.c keeps
/// them together in `cal_control` (`day_width`, `week_width`, the gutter between months): the
/// renderer, the columns that fit a terminal, the pager's strip and the month page all read
/// them from one value.
public struct GridMetrics: Equatable, Sendable {
    /// Cells a day takes: its number's (2, or 3 for days of the year), or the weekday labels'
    /// where they are wider.
    public let dayWidth: Int
    /// Cells of the week-number column with its space: 3, or 0 without week numbers.
    public let weekColumnWidth: Int

    /// Spaces between months side by side.
    public static let gutter = 2

    /// The widths of a grid numbered by `numbering`, with or without the week-number column of
    /// `weekNumbers`, under weekday labels of `labelWidth` cells.
    public init(numbering: DayNumbering, weekNumbers: WeekNumbering?, labelWidth: Int = CalendarNames.minimumLabelWidth) {
        dayWidth = max(numbering == .dayOfYear ? 3 : 2, labelWidth)
        weekColumnWidth = weekNumbers == nil ? 0 : 3
    }

    /// The width of a month's grid: the week column, seven days and the six spaces between them.
    public var monthWidth: Int { weekColumnWidth + 7 * dayWidth + 6 }

    /// The width of `columns` grids side by side, a gutter apart.
    public func rowWidth(columns: Int) -> Int {
        columns * monthWidth + Self.gutter * max(0, columns - 1)
    }

    /// Months that fit side by side in `width` cells, a gutter apart: at least one, at most `limit`.
    public func columns(fitting width: Int, limit: Int) -> Int {
        // A width beyond any terminal (COLUMNS=9223372036854775807) must not overflow.
        let usable = min(max(0, width), 100_000)
        return min(limit, max(1, (usable + Self.gutter) / (monthWidth + Self.gutter)))
    }

    /// The smallest month page (`--wall`, the pager's month page) of days this wide: seven
    /// cells of a day number and a line, two lines tall.
    public var smallestPage: TerminalSize {
        MonthPageLayout.smallest(numberWidth: dayWidth, weekColumnWidth: weekColumnWidth)
    }
}
