import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Goldens for the cal layout. Each was checked by eye against an independent source, named
/// beside it: `ncal -C` from Debian's ncal package (with trailing blanks removed), `ncal -s IT`
/// for the 1582 reform (Italy changed calendars when Foundation does), or Python's calendar.
@Suite struct MonthRendererTests {
    func render(_ arguments: [String]) throws -> String {
        try Fixture.output(arguments)
    }

    // ncal -C 2 2024; also the example.
    @Test func oneMonth() throws {
        #expect(try render(["--from", "2024-02", "--forward", "1"]) == """
               February 2024
            Su Mo Tu We Th Fr Sa
                         1  2  3
             4  5  6  7  8  9 10
            11 12 13 14 15 16 17
            18 19 20 21 22 23 24
            25 26 27 28 29

            """)
    }

    // The grid lines are those of ncal -C -A 2 1 2024; ncal titles a row with the year alone,
    // infcal titles each month, centred the same way.
    @Test func threeSideBySide() throws {
        #expect(try render(["--from", "2024-01", "--forward", "3", "--columns", "3"]) == """
                January 2024         February 2024           March 2024
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                1  2  3  4  5  6               1  2  3                  1  2
             7  8  9 10 11 12 13   4  5  6  7  8  9 10   3  4  5  6  7  8  9
            14 15 16 17 18 19 20  11 12 13 14 15 16 17  10 11 12 13 14 15 16
            21 22 23 24 25 26 27  18 19 20 21 22 23 24  17 18 19 20 21 22 23
            28 29 30 31           25 26 27 28 29        24 25 26 27 28 29 30
                                                        31

            """)
    }

    // Rows of two, one blank line between rows; the last row holds one month.
    // Grids: ncal -C 11 2024, ncal -C 12 2024, ncal -C 1 2025.
    @Test func rowsAreSeparatedByOneBlankLine() throws {
        #expect(try render(["--from", "2024-11", "--forward", "3", "--columns", "2"]) == """
               November 2024         December 2024
            Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa
                            1  2   1  2  3  4  5  6  7
             3  4  5  6  7  8  9   8  9 10 11 12 13 14
            10 11 12 13 14 15 16  15 16 17 18 19 20 21
            17 18 19 20 21 22 23  22 23 24 25 26 27 28
            24 25 26 27 28 29 30  29 30 31

                January 2025
            Su Mo Tu We Th Fr Sa
                      1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29 30 31

            """)
    }

    // python3 -c 'import calendar; print(calendar.TextCalendar(0).formatmonth(2024, 2))'
    @Test func mondayFirst() throws {
        #expect(try render(["--from", "2024-02", "--forward", "1", "--monday"]) == """
               February 2024
            Mo Tu We Th Fr Sa Su
                      1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29

            """)
    }

    // ncal -s IT 10 1582 (vertical layout): Monday 1, Thursday 4, Friday 15.
    @Test func october1582() throws {
        #expect(try render(["--from", "1582-10", "--forward", "1"]) == """
                October 1582
            Su Mo Tu We Th Fr Sa
                1  2  3  4 15 16
            17 18 19 20 21 22 23
            24 25 26 27 28 29 30
            31

            """)
    }

    // Proleptic Julian: 15 March 44 BC (astronomical -43) is Julian day 1705426, a Wednesday.
    @Test func monthsBeforeYearOneCarryTheEra() throws {
        #expect(try render(["--from", "-0043-03", "--forward", "1"]) == """
                March 44 BC
            Su Mo Tu We Th Fr Sa
                      1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29 30 31

            """)
    }

    @Test func backwardIsNewestFirst() throws {
        let output = try render(["--from", "2024-03", "--backward", "3"])
        let titles = output.split(separator: "\n").filter { $0.contains("2024") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(titles == ["March 2024", "February 2024", "January 2024"])
    }

    @Test func highlightWrapsOnlyTheDigits() throws {
        let highlighted = try render(["--from", "2024-02", "--forward", "1", "--today", "2024-02-05", "--color", "always"])
        #expect(highlighted.contains(" 4  \u{1B}[7m5\u{1B}[27m  6"))
        let twoDigits = try render(["--from", "2024-02", "--forward", "1", "--today", "2024-02-15", "--color", "always"])
        #expect(twoDigits.contains("14 \u{1B}[7m15\u{1B}[27m 16"))
        let plain = try render(["--from", "2024-02", "--forward", "1", "--today", "2024-02-05", "--color", "never"])
        #expect(highlighted.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[27m", with: "") == plain)
        #expect(!plain.contains("\u{1B}"))
    }

    @Test func noLineEndsInWhitespace() throws {
        for columns in ["1", "2", "3", "5"] {
            let output = try render(["--from", "2023-01", "--forward", "40", "--columns", columns, "--today", "2023-03-31", "--color", "always"])
            for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(line.last != " ", "columns \(columns): '\(line)'")
            }
        }
    }

    @Test func titlesAreCentredByFloor() throws {
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: Fixture.gregorian), calendar: Fixture.gregorian, firstWeekday: 1)
        // "May 2024" is 8 cells: (20 - 8) / 2 = 6; "September 2024" is 14: 3.
        #expect(renderer.formatRow([renderer.grid(for: try #require(Fixture.month(2024, 5)))])[0] == "      May 2024")
        #expect(renderer.formatRow([renderer.grid(for: try #require(Fixture.month(2024, 9)))])[0] == "   September 2024")
        #expect(renderer.monthWidth == 20)
    }

    @Test func largeOutputIsWrittenInBlocks() throws {
        let configuration = try Fixture.resolve(["--from", "2024-01", "--forward", "2000"])
        let sink = CollectingSink()
        try configuration.makePrinter().print(configuration.months(), to: sink)
        // About 300 kB in 64 KiB blocks: a handful of writes, not one per line or month.
        #expect(sink.bytes.count > 250_000)
        #expect(sink.writes <= sink.bytes.count / (64 * 1024) + 1)
    }
}

@Suite struct CalendarNamesTests {
    /// The built-in POSIX names are what Foundation's en_US_POSIX locale says.
    @Test func builtInNamesMatchFoundationsPOSIXLocale() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        #expect(CalendarNames.posixMonthNames == formatter.standaloneMonthSymbols)
        #expect(CalendarNames.posixWeekdayNames == formatter.shortStandaloneWeekdaySymbols)
    }

    @Test func builtInTitlesMatchFoundation() throws {
        let builtIn = CalendarNames(locale: nil, calendar: Fixture.gregorian)
        let formatted = CalendarNames(locale: Locale(identifier: "en_US_POSIX"), calendar: Fixture.gregorian)
        for (year, month) in [(2024, 2), (1, 1), (0, 12), (-43, 3), (1582, 10), (10_000, 9)] {
            let month = try #require(Fixture.month(year, month))
            #expect(builtIn.title(of: month) == formatted.title(of: month))
            #expect(builtIn.monthName(of: month) == formatted.monthName(of: month))
        }
        #expect(builtIn.weekdayLabels == ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"])
    }
}
