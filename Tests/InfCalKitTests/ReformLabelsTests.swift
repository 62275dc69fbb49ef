import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Titles, year headings, ISO week numbers and the agenda's start under `--reform`, against the
/// 33 sample dates of Reingold and Dershowitz, *Calendrical Calculations* (3rd ed.), Appendix C,
/// as the TeX tables of espinielli/pycalcal give them (`dates1.tex`: R.D., Gregorian, ISO and
/// Julian columns; Julian years before 1 count BC without a year 0).
@Suite struct ReformLabelsTests {
    /// R.D., proleptic Gregorian (year, month, day), ISO (year, week, weekday), Julian (year, month, day).
    static let book: [(rd: Int, gregorian: (Int, Int, Int), iso: (Int, Int, Int), julian: (Int, Int, Int))] = [
        (-214193, (-586, 7, 24), (-586, 29, 7), (-587, 7, 30)),
        (-61387, (-168, 12, 5), (-168, 49, 3), (-169, 12, 8)),
        (25469, (70, 9, 24), (70, 39, 3), (70, 9, 26)),
        (49217, (135, 10, 2), (135, 39, 7), (135, 10, 3)),
        (171307, (470, 1, 8), (470, 2, 3), (470, 1, 7)),
        (210155, (576, 5, 20), (576, 21, 1), (576, 5, 18)),
        (253427, (694, 11, 10), (694, 45, 6), (694, 11, 7)),
        (369740, (1013, 4, 25), (1013, 16, 7), (1013, 4, 19)),
        (400085, (1096, 5, 24), (1096, 21, 7), (1096, 5, 18)),
        (434355, (1190, 3, 23), (1190, 12, 5), (1190, 3, 16)),
        (452605, (1240, 3, 10), (1240, 10, 6), (1240, 3, 3)),
        (470160, (1288, 4, 2), (1288, 14, 5), (1288, 3, 26)),
        (473837, (1298, 4, 27), (1298, 17, 7), (1298, 4, 20)),
        (507850, (1391, 6, 12), (1391, 23, 7), (1391, 6, 4)),
        (524156, (1436, 2, 3), (1436, 5, 3), (1436, 1, 25)),
        (544676, (1492, 4, 9), (1492, 14, 6), (1492, 3, 31)),
        (567118, (1553, 9, 19), (1553, 38, 6), (1553, 9, 9)),
        (569477, (1560, 3, 5), (1560, 9, 6), (1560, 2, 24)),
        (601716, (1648, 6, 10), (1648, 24, 3), (1648, 5, 31)),
        (613424, (1680, 6, 30), (1680, 26, 7), (1680, 6, 20)),
        (626596, (1716, 7, 24), (1716, 30, 5), (1716, 7, 13)),
        (645554, (1768, 6, 19), (1768, 24, 7), (1768, 6, 8)),
        (664224, (1819, 8, 2), (1819, 31, 1), (1819, 7, 21)),
        (671401, (1839, 3, 27), (1839, 13, 3), (1839, 3, 15)),
        (694799, (1903, 4, 19), (1903, 16, 7), (1903, 4, 6)),
        (704424, (1929, 8, 25), (1929, 34, 7), (1929, 8, 12)),
        (708842, (1941, 9, 29), (1941, 40, 1), (1941, 9, 16)),
        (709409, (1943, 4, 19), (1943, 16, 1), (1943, 4, 6)),
        (709580, (1943, 10, 7), (1943, 40, 4), (1943, 9, 24)),
        (727274, (1992, 3, 17), (1992, 12, 2), (1992, 3, 4)),
        (728714, (1996, 2, 25), (1996, 8, 7), (1996, 2, 12)),
        (744313, (2038, 11, 10), (2038, 45, 3), (2038, 10, 28)),
        (764652, (2094, 7, 18), (2094, 28, 7), (2094, 7, 5)),
    ]

    /// The grids' day number of R.D. `rd` (R.D. 730486 is 2001-01-01, day 0).
    static func day(_ rd: Int) -> Int { rd - 730_486 }

    static let english = CalendarNames.posixMonthNames

    /// Titles follow the reform in every locale, not Foundation's 1582: under `--reform
    /// gregorian` each sample date's month is titled with its proleptic Gregorian month and
    /// year, under `--reform julian` with its Julian one; year headings likewise.
    @Test func titlesFollowTheReform() {
        let locale = Locale(identifier: "en_US")
        for (reform, column) in [(Reform.gregorian, 0), (Reform.julian, 1)] {
            let calendar = MonthCalendar(.gregorian, reform: reform)
            let names = CalendarNames(locale: locale, calendar: calendar)
            for date in Self.book {
                let (year, month, _) = column == 0 ? date.gregorian : date.julian
                // Gregorian years are astronomical (0 is 1 BC); Julian ones skip 0.
                let bc = column == 0 ? (year <= 0 ? 1 - year : nil) : (year < 0 ? -year : nil)
                let yearText = bc.map { "\($0) BC" } ?? "\(year)"
                guard let found = calendar.month(containing: Self.day(date.rd)) else {
                    Issue.record("R.D. \(date.rd): no month")
                    continue
                }
                #expect(names.title(of: found) == "\(Self.english[month - 1]) \(yearText)", "R.D. \(date.rd) \(reform)")
                #expect(names.yearTitle(of: found) == yearText, "R.D. \(date.rd) \(reform)")
            }
        }
    }

    /// Composed titles are what Foundation formats where both agree (after 1582, under the
    /// default reform), in locales whose patterns differ: order, standalone forms, suffixes.
    @Test(arguments: ["de_DE", "fr_FR", "ru_RU", "ja_JP", "fi_FI", "ar_EG", "he_IL"])
    func titlesAsFoundationFormatsThemToday(_ identifier: String) {
        let calendar = MonthCalendar(.gregorian)
        let names = CalendarNames(locale: Locale(identifier: identifier), calendar: calendar)
        let formatter = DateFormatter()
        formatter.locale = CalendarNames.withWesternDigits(Locale(identifier: identifier))
        formatter.calendar = calendar.calendar
        formatter.timeZone = .gmt
        formatter.setLocalizedDateFormatFromTemplate("yMMMM")
        for date in Self.book where date.gregorian.0 > 1600 {
            guard let found = calendar.month(containing: Self.day(date.rd)) else { continue }
            #expect(names.title(of: found) == formatter.string(from: found.start), "\(identifier) R.D. \(date.rd)")
        }
    }

    /// ISO week numbers before 1582 under `--reform gregorian` count from the proleptic
    /// Gregorian 4 January (the book's ISO column: 1096-05-24 is week 21, 1553-09-19 week 38).
    @Test func isoWeeksFollowTheReform() {
        let calendar = MonthCalendar(.gregorian, reform: .gregorian)
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: calendar), calendar: calendar, firstWeekday: 2,
                                     weekNumbers: .iso)
        for date in Self.book {
            let day = Self.day(date.rd)
            let rowStart = day - (DayNumber.weekday(day) - 2 + 7) % 7
            #expect(renderer.weekNumber(ofRowStarting: rowStart) == date.iso.1, "R.D. \(date.rd)")
        }
    }

    /// The agenda's start day (`--from`) is read with `--reform`, as the grids read dates:
    /// Gregorian 1096-05-24 is R.D. 400085 under `--reform gregorian`, Julian 2094-07-05 is
    /// R.D. 764652 under `--reform julian`.
    @Test func agendaStartFollowsTheReform() throws {
        func start(_ arguments: [String]) throws -> Int? {
            let environment = Fixture.environment()
            let raw = try ArgumentParser.parse(["--events", "x", "--agenda"] + arguments)
            return try Configuration.resolveRun(raw, environment: environment).events.agenda?.startDay
        }
        #expect(try start(["--reform", "gregorian", "--from", "1096-05-24"]) == Self.day(400_085))
        #expect(try start(["--reform", "julian", "--from", "2094-07-05"]) == Self.day(764_652))
        #expect(try start(["--from", "1096-05-18"]) == Self.day(400_085))
    }
}
