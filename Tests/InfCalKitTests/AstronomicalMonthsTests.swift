import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The Chinese, Dangi and astronomical Islamic months infcal computes itself (`ChineseMonths`,
/// `IslamicMonths` on `IcuAstronomer`) are the months Foundation computes (the independent
/// oracle here is Foundation's ICU, through `MonthCalendar(_, limited: false)`, which steps
/// Foundation's own months with its checks): first day, length, name with its leap flag, and
/// the name of the month after, month by month over wide ranges and at random spots.
@Suite struct AstronomicalMonthsTests {
    static func mismatches(_ identifier: Calendar.Identifier, from startDay: Int, months count: Int) -> [String] {
        let own = MonthCalendar(identifier)
        let foundation = MonthCalendar(identifier, limited: false)
        guard own.rules != nil, foundation.rules == nil else { return ["not computed apart"] }
        var found: [String] = []
        guard var mine = own.month(containing: startDay), var theirs = foundation.month(containing: startDay) else {
            return ["no month at \(startDay)"]
        }
        for _ in 0..<count {
            if mine != theirs {
                found.append("\(mine) != \(theirs)")
                if found.count > 5 { break }
            }
            guard let nextMine = own.month(after: mine), let nextTheirs = foundation.month(after: theirs) else {
                if own.month(after: mine) != nil || foundation.month(after: theirs) != nil { found.append("end at \(mine)") }
                break
            }
            (mine, theirs) = (nextMine, nextTheirs)
        }
        return found
    }

    /// Chinese and Dangi years 1900-2100 (Apple's tables) and on either side (ICU's orbits).
    @Test(arguments: [Calendar.Identifier.chinese, .dangi])
    func lunisolarMonthsAreFoundations(identifier: Calendar.Identifier) {
        #expect(Self.mismatches(identifier, from: Fixture.day(1899, 1, 1), months: 2_500) == [])
        #expect(Self.mismatches(identifier, from: Fixture.day(1700, 1, 1), months: 2_500) == [])
        #expect(Self.mismatches(identifier, from: Fixture.day(2100, 6, 1), months: 1_300) == [])
    }

    /// Islamic years 1300-1600 AH.
    @Test func islamicMonthsAreFoundations() {
        #expect(Self.mismatches(.islamic, from: Fixture.day(1882, 11, 20), months: 3_620) == [])
    }

    /// Random spots over each calendar's whole range: the month holding the day, its neighbours.
    @Test(arguments: [Calendar.Identifier.chinese, .dangi, .islamic])
    func randomSpotsAreFoundations(identifier: Calendar.Identifier) {
        let own = MonthCalendar(identifier)
        let foundation = MonthCalendar(identifier, limited: false)
        let top = own.upperLimit ?? MonthCalendar.arithmeticUpperLimit
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        for _ in 0..<150 where failures < 5 {
            let day = Int.random(in: MonthCalendar.lowerLimitDay..<top, using: &generator)
            let mine = own.month(containing: day)
            let theirs = foundation.month(containing: day)
            if mine != theirs { failures += 1 }
            #expect(mine == theirs, "day \(day)")
            if let mine, let theirs, mine == theirs {
                #expect(own.month(after: mine) == foundation.month(after: theirs), "after day \(day)")
                #expect(own.month(before: mine) == foundation.month(before: theirs), "before day \(day)")
            }
        }
    }
}

extension AstronomicalMonthsTests {
    /// The Islamic calendar ends where Foundation's months end (Rabi' II 521623), both ways.
    @Test func islamicEndsWhereFoundationEnds() throws {
        let own = MonthCalendar(.islamic)
        let foundation = MonthCalendar(.islamic, limited: false)
        let limit = try #require(own.upperLimit)
        let last = try #require(own.month(containing: limit - 1))
        #expect(last.name == MonthName(era: 0, year: 521_623, month: 4))
        #expect(last.endDay == limit && own.month(after: last) == nil && own.month(containing: limit) == nil)
        #expect(foundation.month(containing: limit - 1) == last)
        #expect(foundation.month(after: last) == nil)
        let first = try #require(own.month(containing: MonthCalendar.lowerLimitDay))
        #expect(foundation.month(containing: MonthCalendar.lowerLimitDay) == first)
        #expect(own.month(before: first) == nil)
    }
}

extension AstronomicalMonthsTests {
    /// A formatter as Foundation formats a day of `identifier` in `locale` (the oracle).
    static func formatter(_ template: String, locale: String, _ identifier: Calendar.Identifier) -> DateFormatter {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = .gmt
        let formatter = DateFormatter()
        formatter.locale = CalendarNames.withWesternDigits(Locale(identifier: locale))
        formatter.calendar = calendar
        formatter.timeZone = .gmt
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    static let locales = ["en_US", "ar_SA", "fa_IR", "de_DE", "tr_TR", "ur_PK", "id_ID", "fr_FR", "ja_JP", "he_IL", "zh_CN", "ko_KR"]

    /// Islamic titles, put together from one frame and the month names of 1446 AH, are what
    /// Foundation formats from the month's first day, in years before the first too.
    @Test(arguments: locales)
    func islamicTitlesAreFoundations(locale: String) throws {
        let calendar = MonthCalendar(.islamic)
        let names = CalendarNames(locale: Locale(identifier: locale), calendar: calendar)
        let monthYear = Self.formatter("yMMMM", locale: locale, .islamic)
        let year = Self.formatter("y", locale: locale, .islamic)
        for start in [Fixture.day(2024, 7, 1), Fixture.day(600, 1, 1), Fixture.day(-3000, 5, 1), Fixture.day(300_000, 1, 1), MonthCalendar.lowerLimitDay] {
            var month = try #require(calendar.month(containing: start))
            for _ in 0..<13 {
                #expect(names.title(of: month) == monthYear.string(from: month.start), "\(month)")
                #expect(names.yearTitle(of: month) == year.string(from: month.start), "\(month)")
                month = try #require(calendar.month(after: month))
            }
        }
    }

    /// Chinese titles, whose frames come from a day of the same year of the present cycle, are
    /// what Foundation formats from a day of the month itself (leap months, which infcal names
    /// in its own words in English, aside), far from the present too.
    @Test(arguments: ["en_US", "zh_CN", "zh_TW", "ja_JP", "ko_KR", "vi_VN"])
    func chineseTitlesAreFoundations(locale: String) throws {
        let calendar = MonthCalendar(.chinese)
        let names = CalendarNames(locale: Locale(identifier: locale), calendar: calendar)
        // The locale's pattern with the related Gregorian year (r) for the year of the cycle (y),
        // as infcal titles these calendars.
        let monthYear = Self.formatter("yMMMM", locale: locale, .chinese)
        var pattern = ""
        var quoted = false
        for character in monthYear.dateFormat {
            if character == "'" { quoted.toggle() }
            if !quoted, character == "y" {
                if pattern.last != "r" { pattern.append("r") }
            } else {
                pattern.append(character)
            }
        }
        monthYear.dateFormat = pattern
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let day = Int.random(in: MonthCalendar.lowerLimitDay + 40..<(calendar.upperLimit ?? 0) - 40, using: &generator)
            let month = try #require(calendar.month(containing: day))
            guard !month.name.isLeapMonth else { continue }
            #expect(names.title(of: month) == monthYear.string(from: DayNumber.date(month.firstDay + 14)), "\(month)")
        }
    }
}

extension AstronomicalMonthsTests {
    /// Days of the year and weeks of the year, which count from the year's first month, are
    /// Foundation's too.
    @Test(arguments: [Calendar.Identifier.chinese, .dangi, .islamic])
    func daysAndWeeksOfTheYearAreFoundations(identifier: Calendar.Identifier) {
        let own = MonthCalendar(identifier)
        let foundation = MonthCalendar(identifier, limited: false)
        var generator = SystemRandomNumberGenerator()
        let spans = [Fixture.day(1900, 1, 1)..<Fixture.day(2100, 1, 1), Fixture.day(-3000, 1, 1)..<Fixture.day(30_000, 1, 1)]
        for span in spans {
            for _ in 0..<60 {
                let day = Int.random(in: span, using: &generator)
                #expect(own.dayOfYear(day) == foundation.dayOfYear(day), "day \(day)")
                #expect(own.weekOfYear(day, firstWeekday: 2, minimumDays: 4) == foundation.weekOfYear(day, firstWeekday: 2, minimumDays: 4),
                        "day \(day)")
            }
        }
    }
}

extension AstronomicalMonthsTests {
    /// Where ICU's search for a new moon lands on one day forward and the day before backward
    /// (Dangi year 50 of cycle 660, found by a sweep of the whole range both ways), the month
    /// before a month is the one whose step forward is that month, as in Foundation's stream.
    @Test func newMoonFoundOnTwoDays() throws {
        let own = MonthCalendar(.dangi)
        let foundation = MonthCalendar(.dangi, limited: false)
        let sixth = try #require(own.month(containing: 12_766_126))
        #expect(sixth.firstDay == 12_766_126 && sixth.name == MonthName(era: 660, year: 50, month: 6))
        let fifth = try #require(own.month(before: sixth))
        #expect(fifth.firstDay == 12_766_097 && fifth.name == MonthName(era: 660, year: 50, month: 5))
        #expect(own.month(after: fifth) == sixth)
        #expect(own.month(containing: 12_766_096) == own.month(before: fifth))
        #expect(foundation.month(before: sixth) == fifth)
        #expect(foundation.month(containing: 12_766_097) == fifth)
    }
}
