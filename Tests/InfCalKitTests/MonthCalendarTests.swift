import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

@Suite struct DayNumberTests {
    @Test func weekdayArithmeticAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        for day in stride(from: -2_000_000, through: 2_000_000, by: 9_973) {
            #expect(DayNumber.weekday(day) == calendar.component(.weekday, from: DayNumber.date(day)), "day \(day)")
        }
    }

    /// Only today depends on the zone. Samoa skipped 30 December 2011: its clocks went from
    /// the 29th (UTC-10) straight to the 31st (UTC+14).
    @Test func theLocalZoneDecidesToday() throws {
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        let beforeSkip = Date(timeIntervalSince1970: 1_325_160_000) // 2011-12-29 12:00 UTC
        let afterSkip = Date(timeIntervalSince1970: 1_325_246_400) // 2011-12-30 12:00 UTC
        #expect(DayNumber.localDate(of: beforeSkip, in: apia) == (2011, 12, 29))
        #expect(DayNumber.localDate(of: afterSkip, in: apia) == (2011, 12, 31))
        #expect(DayNumber.localDate(of: afterSkip, in: .gmt) == (2011, 12, 30))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(DayNumber.localDate(of: Date(timeIntervalSince1970: 1_704_034_800), in: tokyo) == (2024, 1, 1)) // 2023-12-31 15:00 UTC
    }

    @Test func dayNumbersRoundTrip() {
        for day in [-2_451_545, -1, 0, 1, 8_800, 1_000_000] {
            #expect(DayNumber.day(of: DayNumber.date(day)) == day)
        }
        // 2001-01-01 is day 0 and a Monday.
        #expect(DayNumber.weekday(0) == 2)
    }
}

@Suite struct MonthCalendarTests {
    let calendar = Fixture.gregorian

    @Test func monthContainingADay() throws {
        let february = try #require(Fixture.month(2024, 2, 15))
        #expect(february.name == MonthName(era: 1, year: 2024, month: 2))
        #expect(february.dayCount == 29)
        #expect(february.firstDay == Fixture.day(2024, 2, 1))
        #expect(february.contains(day: Fixture.day(2024, 2, 29)))
        #expect(!february.contains(day: Fixture.day(2024, 3, 1)))
    }

    @Test(arguments: [
        (2024, 29), (2023, 28), (2000, 29), (1900, 28), (1600, 29),
        // Julian before the reform: every fourth year is a leap year, 1500 too.
        (1500, 29), (1300, 29), (4, 29), (-43, 28), (-44, 29),
    ])
    func februaryLength(year: Int, days: Int) throws {
        #expect(try #require(Fixture.month(year, 2)).dayCount == days)
    }

    @Test func october1582HasTheDaysThatExist() throws {
        let october = try #require(Fixture.month(1582, 10))
        #expect(october.dayCount == 21)
        #expect(DayNumber.weekday(october.firstDay) == 2) // Monday 1 October
        let labels = calendar.dayLabels(of: october)
        #expect(labels == .listed(Array(1...4) + Array(15...31)))
        // Its neighbours are whole months.
        #expect(calendar.dayLabels(of: try #require(calendar.month(after: october))) == .consecutive)
        #expect(calendar.dayLabels(of: try #require(calendar.month(before: october))) == .consecutive)
    }

    /// The short-month rule in `dayLabels` against asking Foundation for every day.
    @Test(arguments: [Calendar.Identifier.gregorian, .iso8601, .buddhist, .japanese, .republicOfChina, .coptic, .ethiopicAmeteMihret])
    func dayLabelsAgreeWithFoundationDayByDay(identifier: Calendar.Identifier) throws {
        let calendar = MonthCalendar(identifier)
        var month = try #require(calendar.month(containing: Fixture.day(1580, 1, 1)))
        for _ in 0..<72 {
            let expected = (month.firstDay...month.lastDay).map { calendar.calendar.component(.day, from: DayNumber.date($0)) }
            #expect(calendar.dayLabels(of: month) == (expected == Array(1...month.dayCount) ? .consecutive : .listed(expected)),
                    "\(identifier) \(month)")
            month = try #require(calendar.month(after: month))
        }
    }

    @Test func stepsWalkMonthByMonth() throws {
        let start = try #require(Fixture.month(2023, 11))
        let forward = Array(MonthIndex(calendar: calendar, start: start).forward.prefix(4)).map(\.name)
        #expect(forward == [
            MonthName(era: 1, year: 2023, month: 11), MonthName(era: 1, year: 2023, month: 12),
            MonthName(era: 1, year: 2024, month: 1), MonthName(era: 1, year: 2024, month: 2),
        ])
        let backward = Array(MonthIndex(calendar: calendar, start: start).backward.prefix(3)).map(\.name.month)
        #expect(backward == [11, 10, 9])
        // Steps and lengths agree: each month ends where the next begins.
        let months = Array(MonthIndex(calendar: calendar, start: start).forward.prefix(30))
        for (a, b) in zip(months, months.dropFirst()) { #expect(a.endDay == b.firstDay) }
    }

    @Test func yearZeroIsOneBC() throws {
        let january = try #require(Fixture.month(1, 1))
        let december = try #require(calendar.month(before: january))
        #expect(december.name == MonthName(era: 0, year: 1, month: 12))
    }

    /// Foundation pins every date before 1 January 4713 BC to that day; the index must end there.
    @Test func backwardStreamEndsAt4713BC() throws {
        let start = try #require(Fixture.month(-4711, 3))
        let months = Array(MonthIndex(calendar: calendar, start: start).backward.prefix(100))
        #expect(months.count == 15) // March 4712 BC back to January 4713 BC
        #expect(months.last?.name == MonthName(era: 0, year: 4713, month: 1))
        #expect(Set(months.map(\.name)).count == months.count)
        let first = try #require(months.last)
        #expect(calendar.month(before: first) == nil)
        // Foundation's own step does move the date back, but its components stay pinned.
        let pinned = try #require(calendar.calendar.date(byAdding: .month, value: -1, to: first.start))
        #expect(pinned < first.start)
        #expect(calendar.calendar.component(.year, from: pinned) == 4713)
    }

    @Test func forwardStreamEndsAtTheUpperLimit() throws {
        let start = try #require(Fixture.month(506_712, 1))
        let months = Array(MonthIndex(calendar: calendar, start: start).forward.prefix(100))
        #expect(months.count > 1 && months.count < 100)
        #expect(Set(months.map(\.name)).count == months.count)
        for (a, b) in zip(months, months.dropFirst()) { #expect(a.endDay == b.firstDay && a.name != b.name) }
        let last = try #require(months.last)
        #expect(calendar.month(after: last) == nil)
        #expect(calendar.month(containing: last.endDay + 40) == nil)
    }

    @Test func userBoundsEndTheIndexWithoutComputingPastThem() throws {
        let bounds = MonthBounds(since: Fixture.day(2024, 1, 20), until: Fixture.day(2024, 4, 1))
        let start = try #require(Fixture.month(2024, 2))
        let index = MonthIndex(calendar: calendar, start: start, bounds: bounds)
        #expect(Array(index.forward).map(\.name.month) == [2, 3, 4])
        #expect(Array(index.backward).map(\.name.month) == [2, 1])
        #expect(bounds.admits(start))
        #expect(!bounds.admits(try #require(Fixture.month(2023, 12))))
        #expect(!bounds.admits(try #require(Fixture.month(2024, 5))))
    }
}

@Suite struct MonthGridTests {
    @Test func february2024() throws {
        let month = try #require(Fixture.month(2024, 2))
        let sunday = MonthGrid(month: month, firstWeekday: 1)
        #expect(sunday.leadingBlanks == 4) // Thursday 1 February
        #expect(sunday.weekCount == 5)
        #expect(sunday.cell(week: 0, column: 3) == nil)
        #expect(sunday.cell(week: 0, column: 4)?.label == 1)
        #expect(sunday.cell(week: 4, column: 4)?.label == 29)
        #expect(sunday.cell(week: 4, column: 5) == nil)
        let monday = MonthGrid(month: month, firstWeekday: 2)
        #expect(monday.leadingBlanks == 3)
        let saturday = MonthGrid(month: month, firstWeekday: 7)
        #expect(saturday.leadingBlanks == 5)
        #expect(saturday.weekCount == 5)
    }

    @Test func everyFirstWeekdayPutsDayOneUnderItsWeekday() throws {
        let month = try #require(Fixture.month(2024, 9)) // Sunday 1 September
        for first in 1...7 {
            let grid = MonthGrid(month: month, firstWeekday: first)
            #expect((first - 1 + grid.leadingBlanks) % 7 == 0, "first weekday \(first)")
        }
    }

    @Test func october1582Grid() throws {
        let month = try #require(Fixture.month(1582, 10))
        let grid = MonthGrid(month: month, in: Fixture.gregorian, firstWeekday: 1)
        let rows = (0..<grid.weekCount).map { week in (0..<7).map { grid.cell(week: week, column: $0)?.label } }
        #expect(rows == [
            [nil, 1, 2, 3, 4, 15, 16],
            [17, 18, 19, 20, 21, 22, 23],
            [24, 25, 26, 27, 28, 29, 30],
            [31, nil, nil, nil, nil, nil, nil],
        ])
    }
}
