import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Pager states and views pinned to fixed dates, so no test depends on the real date, zone or locale.
enum PagerFixture {
    static let gregorian = MonthCalendar(.gregorian)

    static func day(_ year: Int, _ month: Int, _ day: Int) throws -> Int {
        try DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
    }

    /// A pager standing on the month of `start` (default 2024-02), today 2024-02-15.
    static func state(start: (Int, Int) = (2024, 2), today: (Int, Int, Int) = (2024, 2, 15),
                      since: (Int, Int, Int)? = nil, until: (Int, Int, Int)? = nil,
                      view: PagerState.View = .monthPage) throws -> PagerState {
        let first = try day(start.0, start.1, 1)
        let month = try #require(gregorian.month(containing: first))
        let bounds = MonthBounds(since: try since.map { try day($0.0, $0.1, $0.2) },
                                 until: try until.map { try day($0.0, $0.1, $0.2) })
        return PagerState(calendar: gregorian, start: month, bounds: bounds,
                          today: try day(today.0, today.1, today.2), view: view)
    }

    /// The view of a POSIX-locale, Sunday-first run.
    static func view(columns: Int? = 1, highlight: Bool = false, box: BoxCharacters = .ascii) -> PagerView {
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: 1)
        return PagerView(renderer: renderer, highlightToday: highlight, columns: columns, box: box)
    }

    /// Feeds `keys` (typed as text: each character one key) to `state`; returns the last outcome.
    @discardableResult
    static func type(_ text: String, into state: inout PagerState) -> PagerState.Outcome {
        var outcome = PagerState.Outcome.draw
        for character in text { outcome = state.handle(.character(character)) }
        return outcome
    }
}

extension PagerState {
    /// The current month as (year, month), astronomical years.
    var position: (Int, Int) {
        (current.name.era == 0 ? 1 - current.name.year : current.name.year, current.name.month)
    }
}
