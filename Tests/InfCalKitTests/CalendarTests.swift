import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Calendars other than the Gregorian one. Goldens were checked by eye against independent
/// sources, named beside each: Python's convertdate (Hebrew, Coptic) and lunardate (Chinese)
/// for the first day and length of every month.
@Suite struct CalendarGoldenTests {
    func render(_ arguments: [String]) throws -> String {
        try Fixture.output(arguments)
    }

    // convertdate.hebrew.to_gregorian(5784, m, 1) and month_length: Tishri from Sat
    // 2023-09-16 (30 days), Heshvan Mon (29), Kislev Tue (29), Tevet Wed (29), Shevat Thu (30),
    // Adar I Sat 2024-02-10 (30), Adar II Mon 2024-03-11 (29), Nisan Tue (30), Iyar Thu (29),
    // Sivan Fri (30), Tamuz Sun (29), Av Mon (30), Elul Wed 2024-09-04 (29).
    @Test func hebrew5784HasThirteenMonths() throws {
        #expect(try render(["--calendar", "hebrew", "--year", "5784", "--locale", "en_US"]) == """
                                          5784
                   Tishri               Heshvan                Kislev
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                               1      1  2  3  4  5  6         1  2  3  4  5
             2  3  4  5  6  7  8   7  8  9 10 11 12 13   6  7  8  9 10 11 12
             9 10 11 12 13 14 15  14 15 16 17 18 19 20  13 14 15 16 17 18 19
            16 17 18 19 20 21 22  21 22 23 24 25 26 27  20 21 22 23 24 25 26
            23 24 25 26 27 28 29  28 29                 27 28 29
            30

                   Tevet                 Shevat                Adar I
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                      1  2  3  4               1  2  3                     1
             5  6  7  8  9 10 11   4  5  6  7  8  9 10   2  3  4  5  6  7  8
            12 13 14 15 16 17 18  11 12 13 14 15 16 17   9 10 11 12 13 14 15
            19 20 21 22 23 24 25  18 19 20 21 22 23 24  16 17 18 19 20 21 22
            26 27 28 29           25 26 27 28 29 30     23 24 25 26 27 28 29
                                                        30

                  Adar II                Nisan                  Iyar
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                1  2  3  4  5  6         1  2  3  4  5               1  2  3
             7  8  9 10 11 12 13   6  7  8  9 10 11 12   4  5  6  7  8  9 10
            14 15 16 17 18 19 20  13 14 15 16 17 18 19  11 12 13 14 15 16 17
            21 22 23 24 25 26 27  20 21 22 23 24 25 26  18 19 20 21 22 23 24
            28 29                 27 28 29 30           25 26 27 28 29

                   Sivan                 Tamuz                   Av
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                            1  2   1  2  3  4  5  6  7      1  2  3  4  5  6
             3  4  5  6  7  8  9   8  9 10 11 12 13 14   7  8  9 10 11 12 13
            10 11 12 13 14 15 16  15 16 17 18 19 20 21  14 15 16 17 18 19 20
            17 18 19 20 21 22 23  22 23 24 25 26 27 28  21 22 23 24 25 26 27
            24 25 26 27 28 29 30  29                    28 29 30

                    Elul
            Su Mo Tu We Th Fr Sa
                      1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29

            """)
    }

    // lunardate: 2023 month 1 from Sun 2023-01-22 (29 days), 2 from Mon 2023-02-20 (30),
    // leap 2 from Wed 2023-03-22 (29), 3 from Thu 2023-04-20 (29).
    @Test func chinese2023HasItsLeapSecondMonthOnceAfterTheSecond() throws {
        #expect(try render(["--calendar", "chinese", "--from", "2023-01-22", "--forward", "4", "--columns", "4", "--locale", "en_US"]) == """
              First Month 2023     Second Month 2023    Leap Second Month 2023    Third Month 2023
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa    Su Mo Tu We Th Fr Sa
             1  2  3  4  5  6  7      1  2  3  4  5  6            1  2  3  4                 1  2  3
             8  9 10 11 12 13 14   7  8  9 10 11 12 13   5  6  7  8  9 10 11     4  5  6  7  8  9 10
            15 16 17 18 19 20 21  14 15 16 17 18 19 20  12 13 14 15 16 17 18    11 12 13 14 15 16 17
            22 23 24 25 26 27 28  21 22 23 24 25 26 27  19 20 21 22 23 24 25    18 19 20 21 22 23 24
            29                    28 29 30              26 27 28 29             25 26 27 28 29

            """)
        let zh = try render(["--calendar", "chinese", "--from", "2023-03-22", "--forward", "1", "--locale", "zh_CN"])
        #expect(zh.hasPrefix("    2023年闰2月\n日 一 二 三 四 五 六\n"))
        let year = try render(["--calendar", "chinese", "--year", "2023", "--locale", "en_US"])
        let titles = year.split(separator: "\n").filter { $0.contains("Month") }.flatMap { $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        #expect(titles == ["First Month", "Second Month", "Leap Second Month", "Third Month", "Fourth Month", "Fifth Month", "Sixth Month",
                           "Seventh Month", "Eighth Month", "Ninth Month", "Tenth Month", "Eleventh Month", "Twelfth Month"])
    }

    /// Korea had a leap third month in 2012, where China had a leap fourth; Foundation formats
    /// Dangi dates as Gregorian on Linux, which infcal works around.
    @Test func dangiHasItsOwnLeapMonths() throws {
        #expect(try render(["--calendar", "dangi", "--from", "2012-04-21", "--forward", "1", "--locale", "ko_KR"]).hasPrefix("    2012년 윤3월\n"))
        #expect(try render(["--calendar", "dangi", "--from", "2012-04-21", "--forward", "1", "--locale", "en_US"]).hasPrefix("Leap Third Month 2012\n"))
        // The same days are China's fourth month (lunardate: 2012 month 4 from 2012-04-21).
        #expect(try render(["--calendar", "chinese", "--from", "2012-04-21", "--forward", "1", "--locale", "en_US"]).hasPrefix(" Fourth Month 2012\n"))
    }

    // convertdate.coptic.to_gregorian(1740, 13, 1) is Fri 2024-09-06 and 1741-01-01 is
    // 2024-09-11: five days. Ethiopic Pagumen 2016 is the same month.
    @Test func theThirteenthMonthIsAMonth() throws {
        #expect(try render(["--calendar", "ethiopic", "--from", "2024-09-06", "--forward", "2", "--columns", "2", "--locale", "en_US"]) == """
                Pagumen 2016         Meskerem 2017
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                            1  2            1  2  3  4
             3  4  5               5  6  7  8  9 10 11
                                  12 13 14 15 16 17 18
                                  19 20 21 22 23 24 25
                                  26 27 28 29 30

            """)
        // A Coptic leap year's 13th month has six days.
        let nasie = try render(["--calendar", "coptic", "--from", "2023-09-06", "--forward", "1"])
        #expect(nasie == "     Nasie 1739\nSu Mo Tu We Th Fr Sa\n          1  2  3  4\n 5  6\n")
    }

    @Test func japaneseTitlesNameTheEraAcrossTheChange() throws {
        #expect(try render(["--calendar", "japanese", "--from", "2019-04", "--forward", "2", "--columns", "2", "--locale", "ja_JP"]) == """
                平成31年4月           令和元年5月
            日 月 火 水 木 金 土  日 月 火 水 木 金 土
                1  2  3  4  5  6            1  2  3  4
             7  8  9 10 11 12 13   5  6  7  8  9 10 11
            14 15 16 17 18 19 20  12 13 14 15 16 17 18
            21 22 23 24 25 26 27  19 20 21 22 23 24 25
            28 29 30              26 27 28 29 30 31

            """)
        #expect(try render(["--calendar", "japanese", "--from", "2019-04", "--forward", "2", "--columns", "2"])
            .hasPrefix("  April 31 Heisei         May 1 Reiwa\n"))
    }

    // The grids are ncal -C -A 1 2 2024's; each CJK character takes two cells, so "2024年2月"
    // is nine cells wide, centred with five spaces, and the second month starts in cell 22.
    @Test func chineseNamesLineUp() throws {
        #expect(try render(["--locale", "zh_CN", "--from", "2024-02", "--forward", "2", "--columns", "2"]) == """
                 2024年2月             2024年3月
            日 一 二 三 四 五 六  日 一 二 三 四 五 六
                         1  2  3                  1  2
             4  5  6  7  8  9 10   3  4  5  6  7  8  9
            11 12 13 14 15 16 17  10 11 12 13 14 15 16
            18 19 20 21 22 23 24  17 18 19 20 21 22 23
            25 26 27 28 29        24 25 26 27 28 29 30
                                  31

            """)
    }

    // Farvardin 1403 began on Wednesday 2024-03-20 (Nowruz). Persian weeks start on Saturday:
    // the header reads Saturday (شن) to Friday (جم), and day 1 stands under Wednesday (چه).
    @Test func persianSaturdayFirst() throws {
        #expect(try render(["--calendar", "persian", "--locale", "fa_IR", "--from", "2024-03-20", "--forward", "1"]) == """
                1403 فروردین
            شن یک دو سه چه پن جم
                         1  2  3
             4  5  6  7  8  9 10
            11 12 13 14 15 16 17
            18 19 20 21 22 23 24
            25 26 27 28 29 30 31

            """)
        let configuration = try Fixture.resolve(["--locale", "ar_EG"])
        #expect(configuration.firstWeekday == 7)
        let header = configuration.makeRenderer().formatRow([configuration.makeRenderer().grid(for: try #require(Fixture.month(2024, 3)))])[1]
        #expect(header.hasPrefix("سب")) // Saturday
    }
}


@Suite struct CalendarChoiceTests {
    /// infcal's names are Foundation's own: a locale's @calendar keyword resolves each to the
    /// same identifier.
    @Test func namesAreFoundationsNames() {
        for (name, identifier) in CalendarChoice.all {
            #expect(Locale(identifier: "en@calendar=\(name)").calendar.identifier == identifier, "\(name)")
        }
    }

    @Test func theSeventeenAreUsable() {
        let seventeen = ["gregorian", "iso8601", "buddhist", "chinese", "coptic", "dangi", "ethiopic", "ethiopic-amete-alem",
                         "hebrew", "indian", "islamic", "islamic-civil", "islamic-tbla", "islamic-umalqura", "japanese", "persian", "roc"]
        #expect(Array(CalendarChoice.usableNames.prefix(17)) == seventeen)
    }

    @Test func unknownAndUnusableCalendarsAreUsageErrors() throws {
        do {
            _ = try Fixture.resolve(["--calendar", "martian"])
            Issue.record("--calendar martian was accepted")
        } catch {
            #expect(error.description.hasPrefix("invalid value 'martian' for --calendar: expected one of gregorian, iso8601, "))
        }
        for name in CalendarChoice.all.map(\.name) where !CalendarChoice.usableNames.contains(name) {
            #expect(throws: UsageError.self) { try Fixture.resolve(["--calendar", name]) }
        }
    }

    @Test func listShowsTodaysMonthInEachCalendar() throws {
        let configuration = try Fixture.resolve(["--calendar", "list", "--today", "2024-02-15"])
        #expect(configuration.mode == .listCalendars)
        let lines = configuration.calendarList()
        #expect(lines.count == CalendarChoice.usableNames.count)
        // Names in one column, titles aligned in the next.
        let titleColumn = (CalendarChoice.usableNames.map(\.count).max() ?? 0) + 2
        var table: [String: String] = [:]
        for line in lines {
            let name = String(line.prefix { $0 != " " })
            #expect(line.dropFirst(titleColumn - 1).first == " " && line.dropFirst(titleColumn).first != " ", "\(line)")
            table[name] = String(line.dropFirst(titleColumn))
        }
        #expect(table["gregorian"] == "February 2024")
        #expect(table["hebrew"] == "Adar I 5784")
        #expect(table["chinese"] == "First Month 2024")
        #expect(table["ethiopic-amete-alem"] == "Yekatit 7516")
        #expect(table["japanese"] == "February 6 Reiwa")
    }

    /// The Chinese and Dangi limits are where Foundation's step first fails going forward from
    /// the present; past them its arithmetic recovers for stretches, which the limit keeps out.
    @Test(arguments: [Calendar.Identifier.chinese, .dangi])
    func cyclicCalendarsEndWhereFoundationFirstFails(identifier: Calendar.Identifier) throws {
        let calendar = MonthCalendar(identifier)
        let limit = try #require(calendar.upperLimit)
        let last = try #require(calendar.month(containing: limit - 1))
        #expect(last.endDay == limit)
        #expect(calendar.month(after: last) == nil)
        #expect(calendar.month(containing: limit) == nil)
        // Without the limit, the step from the last month fails its checks all the same...
        let unlimited = MonthCalendar(identifier, limited: false)
        #expect(unlimited.month(after: last) == nil)
        // ...and the month before it steps on soundly: the limit is the first failure there.
        let before = try #require(unlimited.month(before: last))
        #expect(unlimited.month(after: before) == last)
        // Months further on that Foundation would compute are kept out.
        let further = (1...2_000).lazy.map { limit + 30 * $0 }.first { unlimited.month(containing: $0) != nil }
        if let further { #expect(calendar.month(containing: further) == nil) }
    }

    /// Every stream ends at its calendar's limits: forward from near the upper one, backward
    /// from near the lower one, each month once, each step one month.
    @Test(arguments: CalendarChoice.usableNames)
    func streamsEndInBothDirections(name: String) throws {
        let calendar = MonthCalendar(try #require(CalendarChoice.identifier(named: name)))
        // The last day whose month Foundation computes soundly, found by bisection.
        var low = 0, high = 200_000_000
        #expect(calendar.month(containing: low) != nil && calendar.month(containing: high) == nil)
        while high - low > 1 {
            let middle = (low + high) / 2
            if calendar.month(containing: middle) != nil { low = middle } else { high = middle }
        }
        let nearTop = try #require(calendar.month(containing: low - 400))
        let forward = Array(MonthIndex(calendar: calendar, start: nearTop).forward.prefix(1_000))
        #expect(forward.count < 1_000, "\(name): no end going forward")
        // Julian day 0, 1 January 4713 BC, is day -2_451_911 here; start a year after it.
        let nearBottom = try #require(calendar.month(containing: -2_451_911 + 400))
        let backward = Array(MonthIndex(calendar: calendar, start: nearBottom).backward.prefix(1_000))
        #expect(backward.count < 1_000, "\(name): no end going backward")
        // The documented lower bound: the last month holds 1 January 4713 BC, whole (it may
        // start before it), and --from accepts that day in every calendar.
        #expect(backward.last.map { $0.contains(day: -2_451_911) } == true, "\(name): \(backward.last.map(String.init(describing:)) ?? "")")
        #expect(calendar.month(containing: -2_451_911) == backward.last)
        #expect(calendar.month(containing: -2_451_912) == nil)
        for months in [forward, backward.reversed()] {
            #expect(Set(months.map(\.firstDay)).count == months.count)
            for (a, b) in zip(months, months.dropFirst()) {
                #expect(a.endDay == b.firstDay && a.name != b.name, "\(name): \(a) then \(b)")
            }
        }
    }
}

@Suite struct LayoutTests {
    // ncal -C -j 2 2024.
    @Test func dayOfYear() throws {
        #expect(try Fixture.output(["--from", "2024-02", "--forward", "1", "-j"]) == """
                   February 2024
             Su  Mo  Tu  We  Th  Fr  Sa
                             32  33  34
             35  36  37  38  39  40  41
             42  43  44  45  46  47  48
             49  50  51  52  53  54  55
             56  57  58  59  60

            """)
        let december = try Fixture.output(["--from", "2024-12", "--forward", "1", "-j"])
        #expect(december.hasSuffix("366\n"))
    }

    // Python: date(2020, 12, 31).isocalendar() is week 53 and date(2021, 1, 4) week 1.
    @Test func isoWeekNumbersAtAYearEnd() throws {
        #expect(try Fixture.output(["--from", "2020-12", "--forward", "2", "-w", "--monday", "--columns", "2"]) == """
                 December 2020            January 2021
               Mo Tu We Th Fr Sa Su     Mo Tu We Th Fr Sa Su
            49     1  2  3  4  5  6  53              1  2  3
            50  7  8  9 10 11 12 13   1  4  5  6  7  8  9 10
            51 14 15 16 17 18 19 20   2 11 12 13 14 15 16 17
            52 21 22 23 24 25 26 27   3 18 19 20 21 22 23 24
            53 28 29 30 31            4 25 26 27 28 29 30 31

            """)
    }

    /// The locale rule in the US: Sunday weeks, week 1 holds 1 January.
    @Test func localeWeekNumbers() throws {
        let january = try Fixture.output(["--locale", "en_US", "--from", "2022-01", "--forward", "1", "--week-numbers=locale"])
        #expect(january.hasPrefix("     January 2022\n   Su Mo Tu We Th Fr Sa\n 1                    1\n 2  2  3"))
        let iso = try Fixture.output(["--locale", "en_US", "--from", "2022-01", "--forward", "1", "--week-numbers"])
        #expect(iso.hasPrefix("     January 2022\n   Su Mo Tu We Th Fr Sa\n52                    1\n 1  2  3"))
    }

    // ncal -C -y 2024 gives the same month rows; its heading sits two cells left of the centre.
    @Test func yearView() throws {
        let year = try Fixture.output(["--year", "2024"])
        let lines = year.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "                              2024")
        #expect(lines[1] == "      January               February               March")
        #expect(lines[2] == "Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa")
        #expect(year.components(separatedBy: "\n\n").count == 4)
        #expect(year.hasSuffix("29 30 31\n"))
        // The year of --from, and a conflict with --from when a year is named.
        #expect(try Fixture.output(["--year", "--from", "2023-06"]).hasPrefix("                              2023\n"))
        #expect(throws: UsageError.self) { try Fixture.resolve(["--year", "2023", "--from", "2023-06"]) }
        #expect(throws: UsageError.self) { try Fixture.resolve(["--year", "--forward"]) }
    }
}
