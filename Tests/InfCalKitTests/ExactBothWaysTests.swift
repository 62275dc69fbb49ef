import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Every month the same forward and backward, the spots where Foundation's arithmetic broke
/// that (each failed before infcal checked its months), and random spots in every calendar.
@Suite struct ExactBothWaysTests {

    /// The day number of a date read as the command line reads it (Julian before 1582-10-15).
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        Fixture.day(year, month, day)
    }

    /// `count` months forward from `start`, then back again from the last: the same months, and
    /// each starts the day after the one before it ends and keeps the calendar's invariants.
    static func checkBothWays(_ calendar: MonthCalendar, from start: Month, count: Int,
                              sourceLocation: SourceLocation = #_sourceLocation) -> [Month] {
        let forward = Array(MonthIndex(calendar: calendar, start: start).forward.prefix(count))
        guard let last = forward.last else { return [] }
        let backward = Array(MonthIndex(calendar: calendar, start: last).backward.prefix(count))
        #expect(Array(backward.reversed()) == forward, "\(calendar.identifier) from \(start)", sourceLocation: sourceLocation)
        for (month, next) in zip(forward, forward.dropFirst()) {
            #expect(month.endDay == next.firstDay && month.nextName == next.name, "\(month) then \(next)", sourceLocation: sourceLocation)
            #expect(MonthInvariants.admits(month, in: calendar.identifier), "\(month)", sourceLocation: sourceLocation)
            #expect(MonthInvariants.lengths(of: month, in: calendar.identifier).contains(month.dayCount), "\(month)",
                    sourceLocation: sourceLocation)
        }
        return forward
    }

    // MARK: Hebrew

    /// `--calendar hebrew --from 380101-03-15 --backward 3` showed "Elul -2", one month of
    /// 40 million days; every Hebrew month has 29 or 30 days.
    @Test func hebrewBackwardFarAway() throws {
        let calendar = MonthCalendar(.hebrew)
        let start = try #require(calendar.month(containing: Self.day(380_101, 3, 15)))
        let backward = Array(MonthIndex(calendar: calendar, start: start).backward.prefix(3))
        #expect(backward.count == 3)
        #expect(backward.allSatisfy { (29...30).contains($0.dayCount) && $0.name.year > 383_000 })
        _ = Self.checkBothWays(calendar, from: try #require(backward.last), count: 40)
    }

    /// Elul has 29 days in every year (Foundation gave Elul 88369 27 days, Elul 193151 and
    /// Elul 383856 31).
    @Test(arguments: [88_369, 193_151, 383_856])
    func elulHas29Days(year: Int) throws {
        let calendar = MonthCalendar(.hebrew)
        let tishri = HebrewMonths.newYear(year + 1)
        let elul = try #require(calendar.month(containing: tishri - 1))
        #expect(elul.name == MonthName(era: 0, year: year, month: 13))
        #expect(elul.dayCount == 29)
        _ = Self.checkBothWays(calendar, from: elul, count: 30)
    }

    /// Rosh Hashanah 5807 is Monday 2046-10-01 (convertdate and pyluach agree; Foundation says
    /// Tuesday 2046-10-02): Elul 5806 ends on 2046-09-30, whichever way it is reached.
    @Test func roshHashanah5807() throws {
        let calendar = MonthCalendar(.hebrew)
        let tishri = try #require(calendar.month(containing: Self.day(2046, 10, 1)))
        #expect(tishri.firstDay == Self.day(2046, 10, 1))
        #expect(tishri.name == MonthName(era: 0, year: 5807, month: 1))
        let names = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
        #expect(names.title(of: tishri) == "Tishri 5807")
        let elul = try #require(calendar.month(before: tishri))
        #expect(names.title(of: elul) == "Elul 5806")
        #expect(elul.lastDay == Self.day(2046, 9, 30))
        let fromElul = try #require(calendar.month(containing: Self.day(2046, 9, 15)))
        #expect(calendar.month(after: fromElul) == tishri)
        // Adar I and Adar II in the leap year 5784, Adar in the common year 5785.
        let adar1 = try #require(calendar.month(containing: Self.day(2024, 2, 15)))
        #expect(names.title(of: adar1) == "Adar I 5784")
        #expect(calendar.month(after: adar1).map(names.title(of:)) == "Adar II 5784")
        let adar = try #require(calendar.month(containing: Self.day(2025, 3, 15)))
        #expect(names.title(of: adar) == "Adar 5785")
    }

    // MARK: Chinese and Dangi

    /// `--calendar chinese --from 4743-12-15 --backward 4` skipped Ninth Month and gave Eighth
    /// Month 60 days; forward was right.
    @Test func chineseBackwardSkippedAMonth() throws {
        let calendar = MonthCalendar(.chinese)
        let names = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
        let start = try #require(calendar.month(containing: Self.day(4_743, 12, 15)))
        let backward = Array(MonthIndex(calendar: calendar, start: start).backward.prefix(4))
        #expect(backward.map(names.title(of:)) == ["Tenth Month 4743", "Ninth Month 4743", "Eighth Month 4743", "Leap Seventh Month 4743"])
        _ = Self.checkBothWays(calendar, from: try #require(backward.last), count: 12)
    }

    /// Days whose new moon falls seconds before midnight, where Foundation's two answers
    /// disagree by a day: each is accepted and lies in the month the stream shows it in (the
    /// last day of that month).
    @Test(arguments: [(Calendar.Identifier.chinese, 2_057, 9, 28), (.chinese, 2_097, 8, 7), (.dangi, 2_097, 1, 13)])
    func newMoonAtMidnight(identifier: Calendar.Identifier, year: Int, month: Int, day: Int) throws {
        let calendar = MonthCalendar(identifier)
        let target = Self.day(year, month, day)
        let found = try #require(calendar.month(containing: target))
        #expect(found.lastDay == target)
        let streamed = try #require(calendar.month(containing: target - 60))
        let holding = MonthIndex(calendar: calendar, start: streamed).forward.prefix(4).first { $0.contains(day: target) }
        #expect(holding == found)
        _ = Self.checkBothWays(calendar, from: streamed, count: 6)
        // The command line accepts it, and so it is as today.
        let from = String(format: "%04d-%02d-%02d", year, month, day)
        let name = CalendarChoice.name(of: identifier)
        #expect((try? Fixture.resolve(["--calendar", name, "--from", from, "--forward", "1"]))?.start == found)
        #expect((try? Fixture.resolve(["--calendar", name, "--forward", "1"], environment: Fixture.environment(today: (year, month, day))))?.start == found)
    }

    /// Dangi titles carry the Gregorian year the Dangi year begins in, however the month is
    /// reached: `--calendar dangi --from 2615-02-15` is in First Month 2615, and no title
    /// repeats going forward or differs going backward over years 2500-2800.
    @Test func dangiTitlesDoNotDependOnTheWayIn() throws {
        let calendar = MonthCalendar(.dangi)
        let first = try #require(calendar.month(containing: Self.day(2_615, 2, 15)))
        let fresh = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
        #expect(fresh.title(of: first) == "First Month 2615")
        let start = try #require(calendar.month(containing: Self.day(2_500, 1, 1)))
        let months = Self.checkBothWays(calendar, from: start, count: 300 * 12 + 110)
        let forwardNames = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
        let forwardTitles = months.map(forwardNames.title(of:))
        #expect(Set(forwardTitles).count == forwardTitles.count)
        let backwardNames = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
        #expect(Array(months.reversed().map(backwardNames.title(of:)).reversed()) == forwardTitles)
        // Each year's first month is titled with the Gregorian year it starts in.
        for month in months where month.name.month == 1 && !month.name.isLeapMonth {
            let gregorian = try #require(Fixture.gregorian.month(containing: month.firstDay))
            #expect(forwardTitles[months.firstIndex(of: month) ?? 0] == "First Month \(gregorian.name.year)")
        }
    }

    // MARK: Every calendar

    /// In every calendar, from the month holding 1 January 4713 BC (the first, which `--from`
    /// accepts) and from random days over its whole range: the months forward are the months
    /// backward, and each month's title is the same whichever way it is reached.
    @Test(arguments: CalendarChoice.usableNames)
    func randomSpotsAgree(name: String) throws {
        let identifier = try #require(CalendarChoice.identifier(named: name))
        let calendar = MonthCalendar(identifier)
        let first = try #require(calendar.month(containing: MonthCalendar.lowerLimitDay))
        #expect(calendar.month(before: first) == nil)
        #expect(calendar.month(containing: MonthCalendar.lowerLimitDay - 1) == nil)
        #expect((try? Fixture.resolve(["--calendar", name, "--from", "-4712-01-01", "--forward", "1"]))?.start == first)
        #expect(throws: UsageError.self) { try Fixture.resolve(["--calendar", name, "--from", "-4713-12-31", "--forward", "1"]) }
        _ = Self.checkBothWays(calendar, from: first, count: 30)
        let top = calendar.upperLimit ?? Fixture.day(500_000, 1, 1)
        var state: UInt64 = 4_713
        let lunisolar = identifier == .chinese || identifier == .dangi
        for _ in 0..<(lunisolar ? 6 : 30) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let day = MonthCalendar.lowerLimitDay + Int((state >> 33) % UInt64(top - 400 - MonthCalendar.lowerLimitDay))
            let month = try #require(calendar.month(containing: day), "day \(day)")
            let months = Self.checkBothWays(calendar, from: month, count: 14)
            let forward = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
            let backward = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
            let titles = months.map(forward.title(of:))
            #expect(Array(months.reversed().map(backward.title(of:)).reversed()) == titles)
            // --from any of its days finds the same month.
            for shown in months {
                #expect(calendar.month(containing: shown.lastDay) == shown && calendar.month(containing: shown.firstDay) == shown)
            }
        }
    }

    // MARK: The pager

    /// The pager's `g` (go to a date), `N` and `P` (a year on and back) reach the months the
    /// stream shows, with the same titles: Tishri 5807 and Elul 5806 in the Hebrew calendar,
    /// First Month 2615 in the Dangi one.
    @Test func pagerJumpsReachTheStreamsMonths() throws {
        for (identifier, date, title) in [(Calendar.Identifier.hebrew, "2046-10-01", "Tishri 5807"),
                                          (.hebrew, "2046-09-30", "Elul 5806"), (.dangi, "2615-02-15", "First Month 2615"),
                                          (.chinese, "2057-09-28", "Eighth Month 2057")] {
            let calendar = MonthCalendar(identifier)
            let names = CalendarNames(locale: Locale(identifier: "en_US"), calendar: calendar)
            let start = try #require(calendar.month(containing: 0))
            var state = PagerState(calendar: calendar, start: start, bounds: MonthBounds(), today: 0)
            state.goTo(date)
            let reached = state.current
            #expect(names.title(of: reached) == title)
            let parts = date.split(separator: "-").compactMap { Int($0) }
            #expect(calendar.month(containing: Self.day(parts[0], parts[1], parts[2])) == reached)
            // A year on and back again: the same month, and a year on is the month of that
            // number a stream forward reaches.
            _ = PagerFixture.type("N", into: &state)
            let later = state.current
            let streamed = MonthIndex(calendar: calendar, start: reached).forward.prefix(14).first {
                $0.name.month == reached.name.month && $0.name.isLeapMonth == reached.name.isLeapMonth && $0.firstDay > reached.firstDay
            }
            #expect(later == streamed, "\(title)")
            _ = PagerFixture.type("P", into: &state)
            #expect(state.current == reached, "\(title)")
            #expect(names.title(of: state.current) == title)
        }
    }
}
