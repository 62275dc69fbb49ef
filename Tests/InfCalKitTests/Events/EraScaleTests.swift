import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// RSCALE rules in calendars whose year numbers restart at an era (RFC 7529 with CLDR's
/// calendars): a yearly or monthly rule steps from the last year of an era into the next.
///
/// The Japanese goldens come from the era table (the Cabinet Office's: Showa 64 ended on
/// 1989-01-07, Heisei began 1989-01-08; Heisei 31 ended on 2019-04-30, Reiwa began 2019-05-01)
/// and the Japanese calendar's months and days, the Gregorian ones since 1873: a rule keeps
/// its month and day, and each Gregorian year is one year of the rule. The R.O.C., Coptic and
/// Ethiopic rules, whose era 0 counts years backwards or from the creation, are checked
/// against ICU itself (Foundation's `Calendar.date(byAdding: .year)` at noon UTC, read directly).
@Suite struct EraScaleTests {
    func dates(_ lines: [String], from: Int, to: Int) -> [String] { EventFixture.days(lines, from: from, to: to) }

    @Test func aJapaneseYearlyRuleGoesOnFromHeiseiIntoReiwa() {
        // Heisei 30-06-01: Reiwa 1 begins on 1 May 2019, before the day of the rule.
        #expect(dates(["DTSTART;VALUE=DATE:20180601", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;COUNT=5"], from: 2018, to: 2030)
                == ["2018-06-01", "2019-06-01", "2020-06-01", "2021-06-01", "2022-06-01"])
        // Heisei 30-03-01: Heisei 31-03-01 is still Heisei, the next one Reiwa 2.
        #expect(dates(["DTSTART;VALUE=DATE:20180301", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;COUNT=4"], from: 2018, to: 2030)
                == ["2018-03-01", "2019-03-01", "2020-03-01", "2021-03-01"])
        // Showa 63 into Heisei, whose first year began on 8 January 1989.
        #expect(dates(["DTSTART;VALUE=DATE:19880105", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;COUNT=3"], from: 1988, to: 2000)
                == ["1988-01-05", "1989-01-05", "1990-01-05"])
        #expect(dates(["DTSTART;VALUE=DATE:19880110", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;COUNT=3"], from: 1988, to: 2000)
                == ["1988-01-10", "1989-01-10", "1990-01-10"])
        // The last day of Heisei, and BYMONTH in a year that two eras share.
        #expect(dates(["DTSTART;VALUE=DATE:20170430", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;COUNT=4"], from: 2017, to: 2030)
                == ["2017-04-30", "2018-04-30", "2019-04-30", "2020-04-30"])
        // DTSTART is the first instance (RFC 5545 section 3.8.5.3) though January is not in BYMONTH.
        #expect(dates(["DTSTART;VALUE=DATE:20180115", "RRULE:RSCALE=JAPANESE;FREQ=YEARLY;BYMONTH=3,6;COUNT=6"], from: 2018, to: 2030)
                == ["2018-01-15", "2018-03-15", "2018-06-15", "2019-03-15", "2019-06-15", "2020-03-15"])
    }

    /// Each year of the Japanese scale, across every era change from 1600 to 2100 (Meiji,
    /// Taisho, Showa, Heisei, Reiwa among them), is one Gregorian year: its twelve months begin
    /// on the Gregorian months' first days (proleptic Gregorian day numbers, computed apart).
    @Test func theJapaneseYearsAreTheGregorianOnes() throws {
        let scale = try #require(RecurrenceScales.scale(named: "JAPANESE") as? MonthCalendarScale)
        for year in 1600...2100 {
            let months = scale.months(ofYear: year)
            #expect(months.map(\.firstDay) == (1...12).map { CivilTime.day(year: year, month: $0, day: 1) }, "\(year)")
            #expect(months.map(\.number) == Array(1...12), "\(year)")
        }
    }

    @Test func aJapaneseMonthlyRuleGoesOnAcrossAnEra() {
        #expect(dates(["DTSTART;VALUE=DATE:20190115", "RRULE:RSCALE=JAPANESE;FREQ=MONTHLY;COUNT=7"], from: 2019, to: 2020)
                == ["2019-01-15", "2019-02-15", "2019-03-15", "2019-04-15", "2019-05-15", "2019-06-15", "2019-07-15"])
        #expect(dates(["DTSTART;VALUE=DATE:19881215", "RRULE:RSCALE=JAPANESE;FREQ=MONTHLY;COUNT=4"], from: 1988, to: 1990)
                == ["1988-12-15", "1989-01-15", "1989-02-15", "1989-03-15"])
        // Every fifth month from Heisei 30-11-30: 2020-02-30 does not exist, and RFC 7529's
        // default SKIP=OMIT leaves it out.
        #expect(dates(["DTSTART;VALUE=DATE:20181130", "RRULE:RSCALE=JAPANESE;FREQ=MONTHLY;INTERVAL=5;COUNT=4"], from: 2018, to: 2021)
                == ["2018-11-30", "2019-04-30", "2019-09-30", "2020-07-30"])
    }

    /// ICU's answer for `count` yearly steps from `start` (a proleptic Gregorian date, as
    /// RFC 5545 reads DATE values, at noon UTC), read from Foundation directly; SKIP=OMIT drops
    /// the steps ICU clamps to another day of the month.
    func icuYears(_ identifier: Calendar.Identifier, _ start: (Int, Int, Int), count: Int) -> [String] {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = .gmt
        let first = Date(timeIntervalSince1970: TimeInterval(CivilTime.day(year: start.0, month: start.1, day: start.2) * 86_400 + 43_200))
        let day = calendar.component(.day, from: first)
        return (0..<count).compactMap { step -> String? in
            guard let date = calendar.date(byAdding: .year, value: step, to: first), calendar.component(.day, from: date) == day else { return nil }
            let civil = CivilTime.date(ofDay: CivilTime.floorDiv(Int(date.timeIntervalSince1970), 86_400))
            return String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
        }
    }

    @Test(arguments: [("ROC", Calendar.Identifier.republicOfChina, (1905, 6, 1)), ("COPTIC", .coptic, (280, 6, 1)),
                      ("ETHIOPIC", .ethiopicAmeteMihret, (3, 6, 1))])
    func yearlyRulesCountOnFromEraZero(_ name: String, _ identifier: Calendar.Identifier, _ start: (Int, Int, Int)) {
        let expected = icuYears(identifier, start, count: 12)
        #expect(expected.count == 12, "\(expected)")
        let dtstart = String(format: "%04d%02d%02d", start.0, start.1, start.2)
        #expect(dates(["DTSTART;VALUE=DATE:" + dtstart, "RRULE:RSCALE=\(name);FREQ=YEARLY;COUNT=12"], from: start.0, to: start.0 + 13)
                == expected)
    }
}
