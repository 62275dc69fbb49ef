import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The vertical layout (`--vertical`) as a renderer and in the pager. The end-to-end tests
/// compare it with ncal itself; these pin what the pager and the highlight do with it.
@Suite struct VerticalLayoutTests {
    static func renderer(weeks: WeekNumbering? = nil, highlighted: Int? = nil) -> MonthRenderer {
        var renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: Fixture.gregorian), calendar: Fixture.gregorian,
                                     firstWeekday: 1, weekNumbers: weeks, highlightedDay: highlighted)
        renderer.layout = .vertical
        return renderer
    }

    /// `ncal -h -w -M 2 2024` (Debian ncal 12.1.8), trailing blanks removed; today (the 15th)
    /// in reverse video around its digits only.
    @Test func mondayFirstWithWeekNumbersAndToday() throws {
        var renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: Fixture.gregorian), calendar: Fixture.gregorian,
                                     firstWeekday: 2, weekNumbers: .iso, highlightedDay: Fixture.day(2024, 2, 15))
        renderer.layout = .vertical
        let lines = renderer.formatRow([renderer.grid(for: try #require(Fixture.month(2024, 2)))])
        #expect(lines == [
            "    February 2024",
            "Mo     5 12 19 26",
            "Tu     6 13 20 27",
            "We     7 14 21 28",
            "Th  1  8 \u{1B}[7m15\u{1B}[27m 22 29",
            "Fr  2  9 16 23",
            "Sa  3 10 17 24",
            "Su  4 11 18 25",
            "    5  6  7  8  9",
        ])
        #expect(renderer.rowLineCount == 9)
        #expect(renderer.rowWidth([renderer.grid(for: try #require(Fixture.month(2024, 2)))]) == 20)
    }

    /// The pager draws all nine lines of a vertical month with week numbers.
    @Test func thePagerShowsTheWholeVerticalMonth() throws {
        let view = PagerView(renderer: Self.renderer(weeks: .iso), highlightToday: false, columns: 1)
        let frame = view.frame(for: try PagerFixture.state(view: .strip), size: TerminalSize(columns: 80, rows: 24))
        let shown = frame.lines.map { MonthPageTests.plain($0).trimmingCharacters(in: .whitespaces) }
        #expect(shown.contains("February 2024"))
        #expect(shown.contains("Th  1  8 15 22 29"))
        #expect(shown.contains("5  6  7  8  9"))
    }
}
