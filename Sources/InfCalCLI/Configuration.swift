import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// How a run that shows months shows them, resolved from the options and the environment (see
/// `Configuration.resolve`): the months, the calendar, the names, the widths, colour. The run
/// plan (`RunPlan`) is built from it; nothing after resolution looks at the raw options again.
struct Configuration {
    /// What the run does.
    enum Mode: Equatable, Sendable {
        /// Print months from the start onwards; `count` nil means until a bound.
        case forward(count: Int?)
        /// Print months from the start backwards, newest first.
        case backward(count: Int?)
        /// Print the start month alone (at a terminal, with no direction given, when the pager
        /// cannot run there).
        case single
        /// Print the months of the calendar year that holds the start month, under a heading.
        case year
        /// Print `count` months from the start, three a row, as cal's `-3` and `-n` print them
        /// (also one month named on the command line, even at a terminal).
        case months(count: Int)
        /// Print the calendars this platform computes, each with the name of today's month.
        case listCalendars
        /// The interactive pager (`--paged`, or a terminal with no direction given).
        case paged
        /// Print weeks by the hour (`--week`): which ones, `Configuration.weeks` says.
        case weeks
    }

    /// How many months stand side by side.
    enum Columns: Equatable, Sendable {
        /// A count that stays: `--columns N`, or the year view's three away from a terminal.
        case fixed(Int)
        /// As many as fit the width (at most `Configuration.automaticColumnLimit`): `count` at
        /// the width known at the start; the pager fits them again when the terminal changes size.
        case fitted(count: Int)

        /// The count for the width known at the start.
        var count: Int {
            switch self {
            case .fixed(let count), .fitted(let count): return count
            }
        }
    }

    var mode: Mode
    var calendar: MonthCalendar
    /// The locale names come from; nil is the POSIX locale.
    var locale: Locale?
    /// The first day of the week, 1 (Sunday) to 7 (Saturday).
    var firstWeekday: Int
    /// How days are numbered.
    var numbering: DayNumbering = .dayOfMonth
    /// The week-number column, if any.
    var weekNumbers: WeekNumbering?
    /// The month the run starts at (for the year view, the year's first month).
    var start: Month
    var bounds: MonthBounds
    /// Today's day number.
    var today: Int
    /// Whether today follows the clock (no `--today`), so a long-running pager moves it at midnight.
    var todayFollowsClock: Bool
    /// The day named by a positional DAY MONTH YEAR, highlighted in place of today, as cal does.
    var markedDay: Int?
    /// Months side by side, fixed or fitted to the width.
    var columnLayout: Columns
    /// Whether today is highlighted (and events drawn in their calendars' colours).
    var color: Bool
    /// Whether colours are drawn as 24-bit (COLORTERM says the terminal has them), rather
    /// than as the nearest of 256.
    var trueColor = false
    /// Weekdays across (cal) or down the side (ncal, `--vertical`).
    var layout: MonthLayout = .horizontal
    /// Months (or with `--agenda` occurrences) as JSON Lines instead of text (`--json`).
    var json = false
    /// How month pages look and where the pager starts (see `Configuration+Page.swift`).
    var page = PageSettings()
    /// `--also`: the second calendar each day is shown in as well, or nil.
    var also: MonthCalendar?
    /// The days `--from` names, when it is given (the agenda starts at its first or last).
    var fromPeriod: ClosedRange<Int>?
    /// The zone times are shown in (`--zone`).
    var zone: ZoneChoice = .local
    /// The zones the pager's `z` shows times in after `zone` (`--zones`).
    var zones: [ZoneChoice] = []
    /// The hours the week shows (`--hours`); nil: those of its events.
    var weekHours: Range<Int>?
    /// The weeks `--week` prints, and as how many columns (`--width`, else COLUMNS, ...).
    var weeks: ShownWeeks?
    var weekWidth = Configuration.defaultWidth

    /// Months side by side at the width known at the start.
    var columns: Int { columnLayout.count }

    /// The month index the run walks.
    var index: MonthIndex { MonthIndex(calendar: calendar, start: start, bounds: bounds) }

    /// The names for this run's calendar and locale.
    func makeNames() -> CalendarNames {
        CalendarNames(locale: locale, calendar: calendar)
    }

    /// The renderer for this run.
    func makeRenderer() -> MonthRenderer {
        var renderer = MonthRenderer(names: makeNames(), calendar: calendar, firstWeekday: firstWeekday,
                                     numbering: numbering, weekNumbers: weekNumbers, highlightedDay: color ? markedDay ?? today : nil)
        if mode == .year { renderer.titleStyle = .monthOnly }
        renderer.layout = layout
        renderer.also = also.map { AlsoCalendar(calendar: $0, locale: locale) }
        return renderer
    }

    /// The printer for this run.
    func makePrinter() -> MonthPrinter {
        let renderer = makeRenderer()
        return MonthPrinter(renderer: renderer, columns: columns,
                            heading: mode == .year ? renderer.names.yearTitle(of: start) : nil)
    }

    /// The months the run shows: decided here, from the mode, and nowhere else.
    var shown: ShownMonths {
        let walk: ShownMonths.Walk
        switch mode {
        case .forward(let count): walk = .forward(count: count)
        case .backward(let count): walk = .backward(count: count)
        case .single, .paged: walk = .single
        case .year: walk = .year
        case .months(let count): walk = .run(count: count)
        case .listCalendars, .weeks: walk = .none
        }
        return ShownMonths(calendar: calendar, start: start, bounds: bounds, walk: walk)
    }

    /// The months the run prints, lazily (see `ShownMonths`).
    func months() -> MonthWalk {
        shown.months()
    }

    /// Prints the months of the run (as `months()` has them) to `sink` as compact grids.
    func printGrids(to sink: ByteSink) throws {
        try makePrinter().print(months(), to: sink)
    }

    /// The lines `--calendar list` prints: each usable calendar's name and today's month in it.
    func calendarList() -> [String] {
        CalendarList.lines(today: today, locale: locale)
    }
}

extension Configuration {
    /// Most months `--columns` takes.
    static let maximumColumns = 1000
    /// Most months `--columns auto` puts side by side, as cal does.
    static let automaticColumnLimit = 3
    /// The width `--columns auto` assumes when standard output is not a terminal and COLUMNS is unset.
    static let defaultWidth = 80
}
