import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The three views and what keys do in each; the defects of the pager the month page's issue
/// lists (0n, capped counts, the go-to prompt's line editing).
@Suite struct PagerViewsTests {
    typealias F = PagerFixture

    @Test func vCyclesTheViewsAndTheStatusLineNamesThem() throws {
        var state = try F.state()
        let view = F.view(columns: nil)
        let size = TerminalSize(columns: 100, rows: 40)
        #expect(state.view == .monthPage)
        #expect(view.frame(for: state, size: size).lines[39].hasPrefix("February 2024  [month page]"))
        F.type("v", into: &state)
        #expect(state.view == .strip)
        #expect(view.frame(for: state, size: size).lines[39].hasPrefix("February 2024 - May 2025  [strip]"))
        F.type("v", into: &state)
        #expect(state.view == .yearPage)
        let year = view.frame(for: state, size: size)
        #expect(year.lines[39].hasPrefix("2024  [year page]"))
        #expect(year.lines.contains { $0.contains("January") && $0.contains("April") })
        F.type("v", into: &state)
        #expect(state.view == .week)
        #expect(view.frame(for: state, size: size).lines[39].hasPrefix("2024-02-11 - 17  [week]"))
        F.type("v", into: &state)
        #expect(state.view == .monthPage)
        // The help names the views.
        #expect(PagerBindings.all.contains { $0.action == .cycleView && $0.summary.contains("month page, strip, year page, week") })
    }

    @Test func yearPageMovesByYearsAndScrollsToTheSelection() throws {
        var state = try F.state(view: .yearPage)
        let view = F.view(columns: nil)
        F.type("n", into: &state)
        #expect(state.position == (2025, 2))
        F.type("p", into: &state)
        #expect(state.position == (2024, 2))
        // At 80x24 the year's four rows of three months are taller than the screen: the page
        // scrolls as little as keeps the selected day on it.
        let size = TerminalSize(columns: 80, rows: 24)
        let top = view.frame(for: state, size: size)
        #expect(top.lines[0].trimmingCharacters(in: .whitespaces) == "2024")
        #expect(top.lines[23].contains("lines 1-23/36"))
        // 40 weeks after 2024-02-15 is 2024-11-21 (Python's datetime), on the fourth row of months.
        F.type("40j", into: &state)
        #expect(state.selected == (try F.day(2024, 11, 21)) && state.position == (2024, 11))
        let bottom = view.frame(for: state, size: size)
        #expect(bottom.lines.contains { $0.contains("October") && $0.contains("December") })
        #expect(bottom.lines.contains { $0.contains("\u{1B}[7m21\u{1B}[27m") })
        // Past the year's last day: the next year's page (46 weeks on is 2025-01-02).
        F.type("6j", into: &state)
        #expect(state.selected == (try F.day(2025, 1, 2)) && state.position == (2025, 1))
        _ = state.handle(.up)
        #expect(state.position == (2024, 12))
    }

    @Test func theHebrewYearPageHasThirteenMonths() throws {
        let hebrew = MonthCalendar(.hebrew)
        let month = try #require(hebrew.month(containing: try F.day(2024, 2, 15)))
        let state = PagerState(calendar: hebrew, start: month, bounds: MonthBounds(), today: try F.day(2024, 2, 15), view: .yearPage)
        #expect(hebrew.monthsOfYear(holding: month).count == 13)
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: hebrew), calendar: hebrew, firstWeekday: 1)
        let frame = PagerView(renderer: renderer, highlightToday: false, columns: nil).frame(for: state, size: TerminalSize(columns: 200, rows: 60))
        let text = frame.lines.joined(separator: "\n")
        #expect(text.contains("Adar I") && text.contains("Adar II") && text.contains("Tishri") && text.contains("Elul"))
    }

    @Test func stripPagesAScreenfulWithSpaceAndB() throws {
        var state = try F.state(view: .strip)
        let view = F.view(columns: nil)
        state.room = view.room(for: state, size: TerminalSize(columns: 80, rows: 24))
        #expect(state.room.monthsPerScreen == 6)
        _ = state.handle(.character(" "))
        #expect(state.position == (2024, 8))
        _ = state.handle(.pageDown)
        #expect(state.position == (2025, 2))
        _ = state.handle(.character("b"))
        #expect(state.position == (2024, 8))
        F.type("n", into: &state)
        #expect(state.position == (2024, 9))
        // On the month page a screenful is a month.
        var page = try F.state()
        _ = page.handle(.pageDown)
        #expect(page.position == (2024, 3))
    }

    @Test func aZeroCountMovesNothingAndABigCountSaysItIsCapped() throws {
        var state = try F.state()
        F.type("0n", into: &state)
        #expect(state.position == (2024, 2))
        #expect(state.message == nil)
        F.type("123456", into: &state)
        #expect(state.count == PagerState.maximumCount && state.countCapped)
        F.type("N", into: &state)
        #expect(state.message?.text == "count capped at 9999")
        #expect(state.position == (12023, 2))
        F.type("99999999999999999999999n", into: &state)
        #expect(state.position == (12856, 5))
        #expect(!state.countCapped)
    }

    @Test func promptKnowsCtrlUAndCtrlW() throws {
        var state = try F.state()
        F.type("g2024-03 15", into: &state)
        #expect(state.screen == .prompt("2024-03 15"))
        _ = state.handle(.control(0x17))
        #expect(state.screen == .prompt("2024-03 "))
        _ = state.handle(.control(0x17))
        #expect(state.screen == .prompt(""))
        F.type("2030-01", into: &state)
        _ = state.handle(.control(0x15))
        #expect(state.screen == .prompt(""))
        F.type("2030-07", into: &state)
        _ = state.handle(.enter)
        #expect(state.position == (2030, 7))
    }

    @Test func wheelMovesAMonthOrAYear() throws {
        var state = try F.state()
        _ = state.handle(.wheelDown)
        #expect(state.position == (2024, 3))
        _ = state.handle(.wheelUp)
        _ = state.handle(.wheelUp)
        #expect(state.position == (2024, 1))
        F.type("vv", into: &state)
        _ = state.handle(.wheelDown)
        #expect(state.position == (2025, 1))
    }
}
