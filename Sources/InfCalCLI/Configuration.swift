import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// Everything a run needs, resolved from the options and the environment (see
/// `Configuration.resolve`); nothing after resolution looks at the raw options again.
public struct Configuration {
    /// What the run does.
    public enum Mode: Equatable, Sendable {
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
        /// What `resolve` says of `--help` and `--version`; the program answers them (and
        /// `--completions`) before a configuration exists (`Configuration.specialMode`).
        case help
        case version
    }

    /// How many months stand side by side.
    public enum Columns: Equatable, Sendable {
        /// A count that stays: `--columns N`, or the year view's three away from a terminal.
        case fixed(Int)
        /// As many as fit the width (at most `Configuration.automaticColumnLimit`): `count` at
        /// the width known at the start; the pager fits them again when the terminal changes size.
        case fitted(count: Int)

        /// The count for the width known at the start.
        public var count: Int {
            switch self {
            case .fixed(let count), .fitted(let count): return count
            }
        }
    }

    public var mode: Mode
    public var calendar: MonthCalendar
    /// The locale names come from; nil is the POSIX locale.
    public var locale: Locale?
    /// The first day of the week, 1 (Sunday) to 7 (Saturday).
    public var firstWeekday: Int
    /// How days are numbered.
    public var numbering: DayNumbering = .dayOfMonth
    /// The week-number column, if any.
    public var weekNumbers: WeekNumbering?
    /// The month the run starts at (for the year view, the year's first month).
    public var start: Month
    public var bounds: MonthBounds
    /// Today's day number.
    public var today: Int
    /// Whether today follows the clock (no `--today`), so a long-running pager moves it at midnight.
    public var todayFollowsClock: Bool
    /// The day named by a positional DAY MONTH YEAR, highlighted in place of today, as cal does.
    public var markedDay: Int?
    /// Months side by side, fixed or fitted to the width.
    public var columnLayout: Columns
    /// Whether today is highlighted (and events drawn in their calendars' colours).
    public var color: Bool
    /// Whether colours are drawn as 24-bit (COLORTERM says the terminal has them), rather
    /// than as the nearest of 256.
    public var trueColor = false
    /// Weekdays across (cal) or down the side (ncal, `--vertical`).
    public var layout: MonthLayout = .horizontal
    /// Months (or with `--agenda` occurrences) as JSON Lines instead of text (`--json`).
    public var json = false
    /// How month pages look and where the pager starts (see `Configuration+Page.swift`).
    public var page = PageSettings()
    /// `--also`: the second calendar each day is shown in as well, or nil.
    public var also: MonthCalendar?

    /// Months side by side at the width known at the start.
    public var columns: Int { columnLayout.count }

    /// The month index the run walks.
    public var index: MonthIndex { MonthIndex(calendar: calendar, start: start, bounds: bounds) }

    /// The names for this run's calendar and locale.
    public func makeNames() -> CalendarNames {
        CalendarNames(locale: locale, calendar: calendar)
    }

    /// The renderer for this run.
    public func makeRenderer() -> MonthRenderer {
        var renderer = MonthRenderer(names: makeNames(), calendar: calendar, firstWeekday: firstWeekday,
                                     numbering: numbering, weekNumbers: weekNumbers, highlightedDay: color ? markedDay ?? today : nil)
        if mode == .year { renderer.titleStyle = .monthOnly }
        renderer.layout = layout
        renderer.also = also.map { AlsoCalendar(calendar: $0, locale: locale) }
        return renderer
    }

    /// The printer for this run.
    public func makePrinter() -> MonthPrinter {
        let renderer = makeRenderer()
        return MonthPrinter(renderer: renderer, columns: columns,
                            heading: mode == .year ? renderer.names.yearTitle(of: start) : nil)
    }

    /// The months the run prints, lazily, in a concrete sequence type: no `AnySequence` box,
    /// whose generic metadata the runtime would look up by name at start-up.
    public func months() -> MonthWalk {
        switch mode {
        case .forward(let count):
            return MonthWalk(from: start, count: count, step: index.increase)
        case .backward(let count):
            return MonthWalk(from: start, count: count, step: index.decrease)
        case .single, .paged:
            return MonthWalk(from: start, count: 1, step: { _ in nil })
        case .year:
            let first = start
            let walk = MonthIndex(calendar: calendar, start: first)
            return MonthWalk(from: first, count: nil, step: { month in
                walk.increase(month).flatMap { $0.name.isInSameYear(as: first.name) ? $0 : nil }
            }, admits: bounds.admits)
        case .months(let count):
            // The start may lie before --since (-3 at the bound): those months are left out.
            let walk = MonthIndex(calendar: calendar, start: start, bounds: MonthBounds(until: bounds.until))
            return MonthWalk(from: start, count: count, step: walk.increase, admits: bounds.admits)
        case .listCalendars, .help, .version:
            return MonthWalk(from: nil, count: 0, step: { _ in nil })
        }
    }

    /// Prints the months of the run (as `months()` has them) to `sink` as compact grids.
    public func printGrids(to sink: ByteSink) throws {
        try makePrinter().print(months(), to: sink)
    }

    /// The lines `--calendar list` prints: each usable calendar's name and today's month in it.
    public func calendarList() -> [String] {
        CalendarList.lines(today: today, locale: locale)
    }
}

extension Configuration {
    /// Most months `--columns` takes.
    public static let maximumColumns = 1000
    /// Most months `--columns auto` puts side by side, as cal does.
    public static let automaticColumnLimit = 3
    /// The width `--columns auto` assumes when standard output is not a terminal and COLUMNS is unset.
    public static let defaultWidth = 80

    /// Months of `monthWidth` cells that fit side by side in `width` cells, `gutter` apart: at
    /// least one, at most `automaticColumnLimit`.
    public static func automaticColumns(width: Int, monthWidth: Int, limit: Int = automaticColumnLimit) -> Int {
        MonthRenderer.columns(fitting: width, monthWidth: monthWidth, limit: limit)
    }
}

/// Months from a first one, each the step from the one before, until the step says nil or
/// `count` months are stepped over, those that `admits` turns down left out: the run's sequence,
/// a concrete type, so that printing it needs no generic metadata at run time
/// (`index.forward.prefix(count).lazy.filter(...)` does).
public struct MonthWalk: Sequence, IteratorProtocol {
    private var upcoming: Month?
    private var remaining: Int?
    private let step: (Month) -> Month?
    private let admits: ((Month) -> Bool)?

    /// Months from `first` (nil: none) by `step`, `count` of them (nil: until `step` says nil),
    /// without those `admits` turns down (they count towards `count`).
    init(from first: Month?, count: Int?, step: @escaping (Month) -> Month?, admits: ((Month) -> Bool)? = nil) {
        upcoming = first
        remaining = count
        self.step = step
        self.admits = admits
    }

    public mutating func next() -> Month? {
        while let month = upcoming, remaining.map({ $0 > 0 }) ?? true {
            remaining = remaining.map { $0 - 1 }
            // The step after the last month wanted is never taken.
            upcoming = remaining == 0 ? nil : step(month)
            if admits?(month) ?? true { return month }
        }
        return nil
    }
}
