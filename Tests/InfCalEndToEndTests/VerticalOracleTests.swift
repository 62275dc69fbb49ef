import Foundation
import Testing

/// `--vertical` against Debian's `ncal` in its own (vertical) layout, without -C: the same
/// lines, trailing blanks aside, for single months, months side by side, the year view, day
/// of year numbers, week numbers and Monday first. ncal's default reform is 1752, so the
/// months compared are Gregorian in both (from 1753). `ncal -h` turns off its highlight, and
/// infcal's today lies far away. Skips, saying so, where ncal is not installed.
@Suite struct VerticalOracleTests {
    static let ncal = NcalAgreementTests.ncal

    static func ours(_ arguments: [String]) throws -> [String] {
        let result = try BinaryRunner.run(["--vertical", "--today", "1000-01-01"] + arguments)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        return NcalAgreementTests.normalized(result.stdout)
    }

    static func theirs(_ arguments: [String]) throws -> [String] {
        try NcalAgreementTests.ncalLines(["-h"] + arguments)
    }

    /// Months of every length and every first weekday, leap Februaries, far years.
    static let months: [(Int, Int)] = [
        (1753, 1), (1800, 2), (1900, 2), (2000, 2), (2015, 2), (2024, 2), (2024, 3), (2024, 9), (2026, 11), (2027, 5),
        (2100, 2), (2400, 2), (3000, 8), (9999, 12), (2020, 6), (2021, 1), (2021, 8), (1970, 1),
    ]

    @Test(.enabled(if: ncal != nil, "ncal is not installed (apt-get install ncal); skipping the ncal comparison"))
    func singleMonthsMatchNcal() throws {
        for (year, month) in Self.months {
            let from = String(format: "%04d-%02d", year, month)
            #expect(try Self.ours(["--from", from, "--forward", "1"]) == (try Self.theirs([String(month), String(year)])), "\(from)")
            #expect(try Self.ours(["--from", from, "--forward", "1", "-j"]) == (try Self.theirs(["-j", String(month), String(year)])), "\(from) -j")
            // Week numbers with Monday first only, where both are ISO weeks: with Sunday first,
            // Debian's ncal numbers Sunday-to-Saturday weeks (week 1 holding 4 January), while
            // infcal's ISO column shows the ISO week of each column's Thursday.
            #expect(try Self.ours(["--from", from, "--forward", "1", "-w", "-m"]) == (try Self.theirs(["-w", "-M", String(month), String(year)])), "\(from) -w -M")
        }
    }

    /// `--columns 3` as `ncal -3`, `ncal -A`/`-B` (no year heading when the first month is not
    /// a quarter's first), and a stream of single months as ncal prints them one by one.
    @Test(.enabled(if: ncal != nil, "ncal is not installed (apt-get install ncal); skipping the ncal comparison"))
    func monthsSideBySideMatchNcal() throws {
        #expect(try Self.ours(["--from", "2024-01", "--forward", "3", "-c", "3"]) == (try Self.theirs(["-3", "-d", "2024-02"])))
        #expect(try Self.ours(["--from", "2023-12", "--forward", "3", "-c", "3", "-w", "-m"]) == (try Self.theirs(["-3", "-w", "-M", "-d", "2024-01"])))
        #expect(try Self.ours(["--from", "2024-06", "--forward", "3", "-c", "3", "-j"]) == (try Self.theirs(["-j", "-A", "2", "-d", "2024-06"])))
        let stream = try Self.ours(["--from", "2024-11", "--forward", "3"])
        let single = try ["11 2024", "12 2024", "1 2025"].map { try Self.theirs($0.split(separator: " ").map(String.init)) }
        #expect(stream == single.joined(separator: [""]).map { $0 })
    }

    @Test(.enabled(if: ncal != nil, "ncal is not installed (apt-get install ncal); skipping the ncal comparison"))
    func yearViewsMatchNcal() throws {
        for year in ["1753", "2024", "2025", "9999"] {
            #expect(try Self.ours(["-y", year]) == (try Self.theirs([year])), "\(year)")
            #expect(try Self.ours(["-y", year, "-j"]) == (try Self.theirs(["-j", year])), "\(year) -j")
            #expect(try Self.ours(["-y", year, "-w", "-m"]) == (try Self.theirs(["-w", "-M", year])), "\(year) -w -M")
        }
    }

    /// Every calendar and a few locales: seven weekday lines, each a label and then columns
    /// of the same width, every day of the month once, in order down the columns.
    @Test(arguments: ["gregorian", "hebrew", "chinese", "islamic", "persian", "coptic", "ethiopic", "japanese", "indian"])
    func everyCalendarLaysOutEveryDayOnce(calendar: String) throws {
        for locale in ["C", "de_DE", "pt_BR", "zh_CN", "ar_EG", "sw_KE"] {
            let result = try BinaryRunner.run(["--vertical", "--calendar", calendar, "--locale", locale, "--from", "2024-03", "--forward", "2", "-c", "2"])
            #expect(result.status == 0, "\(calendar) \(locale): \(result.stderr)")
            let lines = NcalAgreementTests.normalized(result.stdout)
            #expect(lines.count == 8, "\(calendar) \(locale)")
            let days = lines.dropFirst().flatMap { $0.split(separator: " ").compactMap { Int($0) } }
            // Two months' days, each month's 1 ... n exactly once.
            #expect(days.filter { $0 == 1 }.count == 2 && days.count >= 58 && Set(days).count <= 31, "\(calendar) \(locale): \(days)")
        }
    }
}
