import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

@Suite struct PagerStateTests {
    typealias F = PagerFixture

    @Test func nextAndPreviousMonth() throws {
        var state = try F.state()
        F.type("n", into: &state)
        #expect(state.position == (2024, 3))
        F.type("pp", into: &state)
        #expect(state.position == (2024, 1))
        for key: Key in [.pageDown, .character(" "), .wheelDown] {
            _ = state.handle(key)
        }
        #expect(state.position == (2024, 4))
        for key: Key in [.pageUp, .character("b"), .wheelUp] {
            _ = state.handle(key)
        }
        #expect(state.position == (2024, 1))
        #expect(state.message == nil)
    }

    @Test func yearsMoveTwelveMonths() throws {
        var state = try F.state()
        F.type("N", into: &state)
        #expect(state.position == (2025, 2))
        F.type("PP", into: &state)
        #expect(state.position == (2023, 2))
        F.type("]", into: &state)
        #expect(state.position == (2024, 2))
        F.type("[", into: &state)
        #expect(state.position == (2023, 2))
    }

    @Test func countsRepeatMoves() throws {
        var state = try F.state()
        F.type("3n", into: &state)
        #expect(state.position == (2024, 5))
        #expect(state.count == nil)
        F.type("10P", into: &state)
        #expect(state.position == (2014, 5))
        F.type("2", into: &state)
        #expect(state.count == 2)
        _ = state.handle(.pageUp)
        #expect(state.position == (2014, 3))
        // A count of 0 moves nothing (the issue saw 0n move a month).
        F.type("0n", into: &state)
        #expect(state.position == (2014, 3))
    }

    @Test func countIsCappedEditedAndCancelled() throws {
        var state = try F.state()
        F.type("123456", into: &state)
        #expect(state.count == PagerState.maximumCount)
        _ = state.handle(.escape)
        #expect(state.count == nil)
        F.type("12", into: &state)
        _ = state.handle(.backspace)
        #expect(state.count == 1)
        _ = state.handle(.backspace)
        #expect(state.count == nil)
        // A count before a key that takes none is dropped.
        F.type("5t", into: &state)
        #expect(state.count == nil)
        F.type("n", into: &state)
        #expect(state.position == (2024, 3))
    }

    @Test func quitKeys() throws {
        for key: Key in [.character("q"), .escape, .interrupt] {
            var state = try F.state()
            #expect(state.handle(key) == .quit, "\(key.name)")
        }
        var state = try F.state()
        #expect(state.handle(.control(0x0C)) == .redraw)
        #expect(state.handle(.character("n")) == .draw)
    }

    @Test func todayGoesToTodaysMonth() throws {
        var state = try F.state(start: (1999, 12))
        F.type("t", into: &state)
        #expect(state.position == (2024, 2))
        F.type("5N", into: &state)
        _ = state.handle(.home)
        #expect(state.position == (2024, 2))
        state.setToday(try F.day(2024, 3, 1))
        F.type("t", into: &state)
        #expect(state.position == (2024, 3))
    }

    @Test func todayOutsideTheBoundsSaysSo() throws {
        var state = try F.state(start: (2020, 1), since: (2020, 1, 1), until: (2020, 12, 31))
        F.type("t", into: &state)
        #expect(state.position == (2020, 1))
        #expect(state.message?.text == "today is outside --since/--until")
    }

    @Test func boundsStopMovesAndSaySo() throws {
        var state = try F.state(until: (2024, 3, 31))
        F.type("n", into: &state)
        #expect(state.position == (2024, 3))
        #expect(state.message == nil)
        F.type("n", into: &state)
        #expect(state.position == (2024, 3))
        #expect(state.message?.text == "no later month")
        // The next key clears the message.
        F.type("p", into: &state)
        #expect(state.message == nil)
        // A count stops at the bound and says so.
        F.type("5n", into: &state)
        #expect(state.position == (2024, 3))
        #expect(state.message?.text == PagerState.boundAfter)
        F.type("N", into: &state)
        #expect(state.message?.text == PagerState.boundAfter)

        var early = try F.state(since: (2024, 2, 10))
        F.type("p", into: &early)
        #expect(early.position == (2024, 2))
        #expect(early.message?.text == "no earlier month")
    }

    @Test func theCalendarsLowerLimitIsABound() throws {
        var state = try F.state(start: (-4712, 1))
        F.type("p", into: &state)
        #expect(state.position == (-4712, 1))
        #expect(state.message?.text == PagerState.boundBefore)
        F.type("n", into: &state)
        #expect(state.position == (-4712, 2))
    }

    @Test func goToAMonthAndADay() throws {
        var state = try F.state()
        F.type("g", into: &state)
        #expect(state.screen == .prompt(""))
        F.type("2030-07", into: &state)
        #expect(state.screen == .prompt("2030-07"))
        #expect(state.handle(.enter) == .draw)
        #expect(state.screen == .months)
        #expect(state.position == (2030, 7))
        F.type("g1582-10-15", into: &state)
        _ = state.handle(.enter)
        #expect(state.position == (1582, 10))
        #expect(state.message == nil)
    }

    @Test func goToKeysAreTextNotCommands() throws {
        var state = try F.state()
        F.type("gq", into: &state)
        #expect(state.screen == .prompt("q"))
        _ = state.handle(.backspace)
        #expect(state.screen == .prompt(""))
        // Backspace on an empty prompt closes it.
        _ = state.handle(.backspace)
        #expect(state.screen == .months)
        #expect(state.position == (2024, 2))
    }

    @Test func goToEditsAndCancels() throws {
        var state = try F.state()
        F.type("g2030-077", into: &state)
        _ = state.handle(.backspace)
        #expect(state.screen == .prompt("2030-07"))
        _ = state.handle(.escape)
        #expect(state.screen == .months)
        #expect(state.position == (2024, 2))
        // Ctrl-C quits from the prompt too.
        F.type("g", into: &state)
        #expect(state.handle(.interrupt) == .quit)
    }

    struct BadDate: Sendable {
        let text: String
        let message: String
    }

    @Test(arguments: [
        BadDate(text: "2024-13", message: "not a date: '2024-13' (YYYY-MM or YYYY-MM-DD)"),
        BadDate(text: "soon", message: "not a date: 'soon' (YYYY-MM or YYYY-MM-DD)"),
        BadDate(text: "2023-02-29", message: "no such day: '2023-02-29'"),
        BadDate(text: "1582-10-10", message: "no such day: '1582-10-10'"),
        BadDate(text: "-5000-01", message: "'-5000-01' is outside the calendar"),
    ])
    func badDatesAreStatusLineErrors(_ bad: BadDate) throws {
        var state = try F.state()
        F.type("g" + bad.text, into: &state)
        #expect(state.handle(.enter) == .draw)
        #expect(state.screen == .months)
        #expect(state.position == (2024, 2))
        #expect(state.message == PagerState.Message(text: bad.message, isError: true))
    }

    @Test func goToOutsideTheBounds() throws {
        var state = try F.state(until: (2024, 6, 30))
        F.type("g2024-07-01", into: &state)
        _ = state.handle(.enter)
        #expect(state.position == (2024, 2))
        #expect(state.message?.text == "'2024-07-01' is outside --since/--until")
        F.type("g2024-06-30", into: &state)
        _ = state.handle(.enter)
        #expect(state.position == (2024, 6))
    }

    @Test func helpScreenAndBack() throws {
        var state = try F.state()
        F.type("?", into: &state)
        #expect(state.screen == .help)
        // Any key leaves the help without acting.
        #expect(state.handle(.character("n")) == .draw)
        #expect(state.screen == .months)
        #expect(state.position == (2024, 2))
        F.type("?", into: &state)
        #expect(state.handle(.character("q")) == .draw)
        #expect(state.screen == .months)
        F.type("?", into: &state)
        #expect(state.handle(.interrupt) == .quit)
    }

    @Test func unboundKeysSayHowToGetHelp() throws {
        var state = try F.state()
        F.type("x", into: &state)
        #expect(state.message?.text == "x: not a key here (? for help)")
        #expect(state.message?.isError == true)
        _ = state.handle(.unknown)
        #expect(state.message == nil)
        #expect(state.position == (2024, 2))
    }

    @Test func everyBindingIsReachableAndNoKeyIsBoundTwice() {
        let keys = PagerBindings.all.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(Set(PagerBindings.all.map(\.action)) == Set(PagerAction.allCases))
        for binding in PagerBindings.all {
            for key in binding.keys { #expect(PagerBindings.action(for: key) == binding.action) }
        }
    }
}

/// N and P move calendar years, whose length in months depends on the calendar.
@Suite struct PagerYearTests {
    func state(_ calendar: MonthCalendar, at day: Int) throws -> PagerState {
        let month = try #require(calendar.month(containing: day))
        return PagerState(calendar: calendar, start: month, bounds: MonthBounds(), today: day)
    }

    @Test func hebrewYearsOfTwelveAndThirteenMonths() throws {
        let hebrew = MonthCalendar(.hebrew)
        // Adar II 5784 (from 2024-03-11; month 7) a year on is Adar 5785 (from 2025-03-01).
        var pager = try state(hebrew, at: try PagerFixture.day(2024, 3, 20))
        PagerFixture.type("N", into: &pager)
        #expect(pager.current.name == MonthName(era: 0, year: 5785, month: 7))
        #expect(pager.current.firstDay == (try PagerFixture.day(2025, 3, 1)))
        // Adar I 5784 (month 6) has no month in 5785: the next one, Adar, stands in.
        var adarI = try state(hebrew, at: try PagerFixture.day(2024, 2, 20))
        #expect(adarI.current.name.month == 6)
        PagerFixture.type("N", into: &adarI)
        #expect(adarI.current.name == MonthName(era: 0, year: 5785, month: 7))
        PagerFixture.type("P", into: &adarI)
        #expect(adarI.current.name == MonthName(era: 0, year: 5784, month: 7))
        // Thirteen months back from Tishri 5785 is Tishri 5784: a leap year.
        var tishri = try state(hebrew, at: try PagerFixture.day(2024, 10, 5))
        PagerFixture.type("P", into: &tishri)
        #expect(tishri.current.name == MonthName(era: 0, year: 5784, month: 1))
    }

    @Test func chineseLeapMonthsAreSkipped() throws {
        let chinese = MonthCalendar(.chinese)
        // The leap second month of 2023 (from 2023-03-22) a year on is the second month of 2024.
        var pager = try state(chinese, at: try PagerFixture.day(2023, 3, 25))
        #expect(pager.current.name.isLeapMonth)
        PagerFixture.type("N", into: &pager)
        #expect(pager.current.name.month == 2 && !pager.current.name.isLeapMonth)
        #expect(pager.current.firstDay == (try PagerFixture.day(2024, 3, 10)))
    }

    @Test func gregorianYearsAreTwelveMonths() throws {
        var pager = try PagerFixture.state(start: (2024, 2))
        PagerFixture.type("3N", into: &pager)
        #expect(pager.position == (2027, 2))
        PagerFixture.type("10P", into: &pager)
        #expect(pager.position == (2017, 2))
    }
}

/// Many years at once jump with Foundation, then walk the last year: the same month as
/// walking year by year.
@Suite struct PagerYearJumpTests {
    @Test(arguments: [Calendar.Identifier.gregorian, .hebrew, .chinese])
    func jumpingEqualsWalking(identifier: Calendar.Identifier) throws {
        let calendar = MonthCalendar(identifier)
        for (day, years) in [(try PagerFixture.day(2024, 3, 20), 7), (try PagerFixture.day(2023, 3, 25), -5), (try PagerFixture.day(2024, 2, 15), 40)] {
            let start = try #require(calendar.month(containing: day))
            var jumped = PagerState(calendar: calendar, start: start, bounds: MonthBounds(), today: day)
            jumped.move(years: years)
            var walked = PagerState(calendar: calendar, start: start, bounds: MonthBounds(), today: day)
            for _ in 0..<years.magnitude { walked.move(years: years.signum()) }
            #expect(jumped.current == walked.current, "\(identifier) \(years) years from \(start)")
        }
    }

    @Test func aJumpPastABoundStopsAtItAndSaysSo() throws {
        var pager = try PagerFixture.state(start: (2024, 2), until: (2030, 6, 30))
        PagerFixture.type("20N", into: &pager)
        // As a count of months does, it goes as far as the bound lets it: June 2030.
        #expect(pager.position == (2030, 6))
        #expect(pager.message?.text == PagerState.boundAfter)
    }
}

/// The selected day: moves by days and weeks, pages turned where it leaves the screen, the
/// bounds, counts, and the day number kept by moves of months. Expected days are Python's
/// `datetime.date` arithmetic (`date(2024, 2, 15) + timedelta(weeks=2)` is 2024-02-29).
@Suite struct PagerSelectionTests {
    typealias F = PagerFixture

    @Test func movesByDaysAndWeeksWithCounts() throws {
        var state = try F.state()
        #expect(state.selected == (try F.day(2024, 2, 15)))
        F.type("3l", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 18)))
        F.type("h", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 17)))
        _ = state.handle(.right)
        _ = state.handle(.left)
        _ = state.handle(.left)
        #expect(state.selected == (try F.day(2024, 2, 16)))
        F.type("2j", into: &state)
        // 2024-02-16 + 2 weeks = 2024-03-01: the page turns to March.
        #expect(state.selected == (try F.day(2024, 3, 1)) && state.position == (2024, 3))
        _ = state.handle(.up)
        #expect(state.selected == (try F.day(2024, 2, 23)) && state.position == (2024, 2))
        F.type("k", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 16)))
        // Days run on across years: 2024-02-16 - 60 days = 2023-12-18.
        F.type("60h", into: &state)
        #expect(state.selected == (try F.day(2023, 12, 18)) && state.position == (2023, 12))
        #expect(state.message == nil)
    }

    @Test func monthsAndYearsKeepTheDayNumber() throws {
        var state = try F.state(start: (2024, 1), today: (2024, 1, 31))
        #expect(state.selected == (try F.day(2024, 1, 31)))
        F.type("n", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 29)))
        F.type("n", into: &state)
        #expect(state.selected == (try F.day(2024, 3, 29)))
        F.type("N", into: &state)
        #expect(state.selected == (try F.day(2025, 3, 29)))
        F.type("2p", into: &state)
        #expect(state.selected == (try F.day(2025, 1, 29)))
        _ = state.handle(.pageDown)
        #expect(state.selected == (try F.day(2025, 2, 28)))
        F.type("t", into: &state)
        #expect(state.selected == (try F.day(2024, 1, 31)) && state.position == (2024, 1))
        state.goTo("2030-07-04")
        #expect(state.selected == (try F.day(2030, 7, 4)) && state.position == (2030, 7))
        F.type("10l", into: &state)
        state.goTo("2031-02")
        #expect(state.selected == (try F.day(2031, 2, 14)) && state.position == (2031, 2))
        state.goTo("2031-04-31")
        #expect(state.message?.text == "no such day: '2031-04-31'")
        #expect(state.selected == (try F.day(2031, 2, 14)))
    }

    @Test func theSelectionStopsAtTheBounds() throws {
        var state = try F.state(today: (2024, 2, 15), since: (2024, 2, 10), until: (2024, 3, 5))
        F.type("5h", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 10)) && state.message == nil)
        F.type("h", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 10)))
        #expect(state.message?.text == PagerState.dayBoundBefore)
        F.type("9j", into: &state)
        #expect(state.selected == (try F.day(2024, 3, 5)) && state.position == (2024, 3))
        #expect(state.message?.text == PagerState.dayBoundAfter)
        // A month away from the bound, the day is cut to the bound.
        F.type("p", into: &state)
        #expect(state.selected == (try F.day(2024, 2, 10)))
        // The calendar's own first day: no day before it.
        var first = try F.state(start: (-4712, 1), today: (2024, 2, 15))
        #expect(first.selected == MonthCalendar.lowerLimitDay)
        F.type("k", into: &first)
        #expect(first.selected == MonthCalendar.lowerLimitDay && first.message?.text == PagerState.dayBoundBefore)
    }

    @Test func theStripTurnsOnlyWhenTheSelectionLeavesIt() throws {
        var state = try F.state(view: .strip)
        state.room = PagerState.Room(monthsPerScreen: 3)
        F.type("3j", into: &state)
        // 2024-03-07: still on the screen of February to April.
        #expect(state.selected == (try F.day(2024, 3, 7)) && state.position == (2024, 2))
        F.type("8j", into: &state)
        // 2024-05-02: the strip turns a month, May its last.
        #expect(state.selected == (try F.day(2024, 5, 2)) && state.position == (2024, 3))
        // A move of the strip carries the selection along, in the same place on the screen.
        F.type("n", into: &state)
        #expect(state.selected == (try F.day(2024, 6, 2)) && state.position == (2024, 4))
        // A smaller screen (a resize) keeps the selection on it.
        state.room = PagerState.Room(monthsPerScreen: 1)
        #expect(state.position == (2024, 6))
        F.type("v", into: &state)
        #expect(state.view == .yearPage && state.position == (2024, 6))
    }
}
