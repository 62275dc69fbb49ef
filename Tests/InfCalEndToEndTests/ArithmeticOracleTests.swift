import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The months infcal computes by the calendars' own rules (Gregorian and Julian with each
/// reform, Hebrew), every month of wide ranges, against independent implementations:
/// `ncal -C`, Python's `datetime`, PyPI `convertdate` and Foundation. Each skips, saying so,
/// when its oracle is missing.
@Suite struct ArithmeticOracleTests {
    static let lowerLimitDay = MonthCalendar.lowerLimitDay

    /// The first python3 on PATH that imports convertdate (pip may have put it in another
    /// Python than the system's), else nil.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" } ?? []
        return (path + ["/usr/bin/python3", "/usr/local/bin/python3"]).first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
            let output = try? runPython("import convertdate; print('ok')", with: candidate)
            return output?.hasPrefix("ok") == true
        }
    }()

    static let hasConvertdate = python != nil

    static func runPython(_ script: String, with python: String? = python) throws -> String {
        try BinaryRunner.runProgram(URL(fileURLWithPath: python ?? "/usr/bin/python3"), ["-c", script], environment: [:], deadline: 120).stdout
    }

    /// Every month from the one holding `day` on, while `keep` says so.
    static func months(_ calendar: MonthCalendar, from day: Int, while keep: (Month) -> Bool) -> [Month] {
        guard let first = calendar.month(containing: day) else { return [] }
        return Array(MonthIndex(calendar: calendar, start: first).forward.prefix(while: keep))
    }

    // MARK: Hebrew

    /// Every month of every Hebrew year from the one holding 1 January 4713 BC (year -952) to
    /// 10000 AM starts where `convertdate` starts it, and has Foundation's number: 1 Tishri ...
    /// 5 Shevat, 6 Adar I (leap years only), 7 Adar or Adar II, 8 Nisan ... 13 Elul.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the Hebrew comparison"))
    func hebrewMonthsMatchConvertdate() throws {
        // convertdate numbers months from Nisan (1) to Adar (12) and Adar II (13); its year
        // starts at Tishri (7). One line a year: the year, then the first day of each month
        // (as infcal's day numbers) in Tishri-first order.
        let table = try Self.runPython("""
            from convertdate import hebrew
            import math
            for y in range(-951, 10001):
                order = [7, 8, 9, 10, 11] + ([12, 13] if hebrew.leap(y) else [12]) + [1, 2, 3, 4, 5, 6]
                print(y, *[math.floor(hebrew.to_jd(y, m, 1) + 0.5) - 2451911 for m in order])
            """)
        var expected: [Int: (year: Int, month: Int)] = [:]
        for line in table.split(separator: "\n") {
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            guard let year = numbers.first else { continue }
            let leap = numbers.count == 14
            for (index, day) in numbers.dropFirst().enumerated() {
                // Foundation's numbers: in a common year Adar (the sixth in order) is month 7.
                let month = leap || index < 5 ? index + 1 : index + 2
                expected[day] = (year, month)
            }
        }
        #expect(expected.count > 135_000)
        let calendar = MonthCalendar(.hebrew)
        let months = Self.months(calendar, from: Self.lowerLimitDay) { $0.name.year <= 10_000 }
        // The first month holds 1 January 4713 BC and starts before it: 20 Tevet -952.
        #expect(months.first?.name == MonthName(era: 0, year: -952, month: 4))
        // convertdate's own year -952 has a 28-day Tevet (its arithmetic near Julian day 0 is a
        // day out), so that year is held to the rules alone: whole months of 29 or 30 days that
        // end where convertdate starts year -951 (checked below, with every later month).
        var compared = 0
        for (month, next) in zip(months, months.dropFirst()) where month.name.year == -952 {
            #expect((29...30).contains(month.dayCount) && month.endDay == next.firstDay, "\(month)")
            #expect(next.name.year == (month.name.month == 13 ? -951 : -952), "\(next)")
        }
        for month in months where month.name.year >= -951 {
            let want = expected[month.firstDay]
            #expect(want?.year == month.name.year && want?.month == month.name.month, "\(month)")
            #expect((29...30).contains(month.dayCount), "\(month)")
            compared += 1
        }
        // Every month convertdate lists from the first shown on is shown.
        #expect(compared == expected.count)
    }

    // MARK: Gregorian and Julian

    /// What `ncal -C` prints for each month of years 1-9999 (its default reform is Britain's,
    /// 1752): for each month, 42 cells of a Sunday-first grid (six weeks), each its day label
    /// or 0, one after another in a flat array (the text is ten megabytes: read as bytes).
    static func ncalGrids() throws -> [Int32] {
        let text = try BinaryRunner.runProgram(URL(fileURLWithPath: NcalAgreementTests.ncal ?? "/usr/bin/ncal"),
                                               ["-C", "-A", "119987", "1", "1"], environment: [:], deadline: 120).stdout
        // ncal underlines today by overstriking ("_\b3"): each "_\b" pair goes.
        let raw = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var at = 0
        while at < raw.count {
            if raw[at] == UInt8(ascii: "_"), at + 1 < raw.count, raw[at + 1] == 8 { at += 2; continue }
            bytes.append(raw[at])
            at += 1
        }
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 10 { starts.append(offset + 1) }
        starts.append(bytes.count + 1)
        func length(_ line: Int) -> Int { starts[line + 1] - 1 - starts[line] }
        var grids: [Int32] = []
        var line = 0
        while line + 7 < starts.count - 1 {
            let start = starts[line]
            guard length(line) >= 5, bytes[start] == UInt8(ascii: "S"), bytes[start + 1] == UInt8(ascii: "u"), bytes[start + 3] == UInt8(ascii: "M")
            else {
                line += 1
                continue
            }
            let columns = (length(line) + 2) / 22
            var row = [Int32](repeating: 0, count: columns * 42)
            for week in 0..<6 {
                let cells = starts[line + 1 + week], count = length(line + 1 + week)
                for column in 0..<columns {
                    for weekday in 0..<7 {
                        let offset = column * 22 + weekday * 3
                        guard offset + 2 <= count else { continue }
                        var label: Int32 = 0
                        for byte in bytes[cells + offset..<cells + offset + 2] where byte != 32 { label = label * 10 + Int32(byte - 48) }
                        row[column * 42 + week * 7 + weekday] = label
                    }
                }
            }
            grids += row
            line += 7
        }
        return grids
    }

    /// The same 42 cells for a month of infcal's model.
    static func grid(_ month: Month, in calendar: MonthCalendar) -> [Int32] {
        let grid = MonthGrid(month: month, in: calendar, firstWeekday: 1)
        var cells = [Int32](repeating: 0, count: 42)
        for index in 0..<month.dayCount where grid.leadingBlanks + index < 42 {
            cells[grid.leadingBlanks + index] = Int32(grid.labels.label(at: index))
        }
        return cells
    }

    /// Every month of years 1-9999 with the 1752 reform, day by day and weekday by weekday, is
    /// the month `ncal -C` prints.
    @Test(.enabled(if: NcalAgreementTests.ncal != nil, "ncal is not installed (apt-get install ncal); skipping the reform comparison"))
    func britishReformMatchesNcal() throws {
        let expected = try Self.ncalGrids()
        #expect(expected.count == 119_988 * 42)
        let calendar = MonthCalendar(.gregorian, reform: .british)
        let january1 = SolarDate.day(1, 1, 1, reform: .british)
        let months = Self.months(calendar, from: january1) { $0.name.era == 1 && $0.name.year <= 9_999 }
        #expect(months.count * 42 == expected.count)
        var mismatches = 0
        for (index, month) in months.enumerated() where (index + 1) * 42 <= expected.count {
            if Self.grid(month, in: calendar) != Array(expected[index * 42..<(index + 1) * 42]) {
                mismatches += 1
                if mismatches < 5 { Issue.record("\(month) differs from ncal") }
            }
        }
        #expect(mismatches == 0)
        // The reform month itself: 1, 2, then 14 to 30.
        let september = try #require(calendar.month(containing: SolarDate.day(1752, 9, 1, reform: .british)))
        #expect(september.dayCount == 19)
        #expect(Self.grid(september, in: calendar).filter { $0 != 0 } == [1, 2] + Array(14...30))
    }

    /// The command line: `--reform 1752` prints what `ncal -C` prints around the reform, with
    /// day-of-year numbers too (`ncal -C -j`); dates typed are read with the reform; a bad
    /// reform is a usage error that names the choices.
    @Test(.enabled(if: NcalAgreementTests.ncal != nil, "ncal is not installed (apt-get install ncal); skipping the reform comparison"))
    func reformOnTheCommandLine() throws {
        for (month, flags) in [(8, [String]()), (9, []), (10, []), (9, ["-j"])] {
            let result = try BinaryRunner.run(["--reform", "1752", "--from", "1752-\(month)", "--forward", "1", "--today", "2024-02-15"] + flags)
            #expect(result.status == 0)
            #expect(NcalAgreementTests.normalized(result.stdout) == (try NcalAgreementTests.ncalLines(["-C"] + flags + [String(month), "1752"])))
        }
        let year = try BinaryRunner.run(["--reform", "1752", "--year", "1752", "--today", "2024-02-15"])
        // ncal always prints six week rows, infcal as many as the month needs; the year
        // heading is centred differently.
        #expect(NcalAgreementTests.normalized(year.stdout).filter { !$0.isEmpty }.dropFirst()
                == (try NcalAgreementTests.ncalLines(["-C", "-y", "1752"])).filter { !$0.isEmpty }.dropFirst())
        // 1900-02-29 exists in the Julian calendar only; 1752-09-05 not with the 1752 reform.
        #expect(try BinaryRunner.run(["--reform", "julian", "--from", "1900-02-29", "--forward", "1"]).status == 0)
        #expect(try BinaryRunner.run(["--reform", "gregorian", "--from", "1900-02-29", "--forward", "1"]).status == 64)
        #expect(try BinaryRunner.run(["--reform", "1582", "--from", "1752-09-05", "--forward", "1"]).status == 0)
        let skipped = try BinaryRunner.run(["--reform", "1752", "--from", "1752-09-05", "--forward", "1"])
        #expect(skipped.status == 64 && skipped.stdout.isEmpty)
        #expect(skipped.stderr == "infcal: invalid value '1752-09-05' for --from: expected a day that exists (Julian before 1752-09-03, Gregorian from 1752-09-14)\n")
        let bad = try BinaryRunner.run(["--reform", "1600", "--forward", "1"])
        #expect(bad.status == 64 && bad.stdout.isEmpty)
        #expect(bad.stderr == "infcal: invalid value '1600' for --reform: expected 1582, 1752, gregorian or julian\n")
        // Proleptic Gregorian: October 1582 is whole, as Python's calendar prints it.
        let october = try BinaryRunner.run(["--reform", "gregorian", "--from", "1582-10", "--forward", "1"])
        #expect(october.stdout.contains(" 1  2\n 3  4  5  6  7  8  9\n"))
    }

    /// The first day of every month from 4713 BC to 9999 with the 1582 reform is Foundation's,
    /// and the day of the year and the week of the year (ISO and US rules) agree with
    /// Foundation's on days all over that range.
    @Test func papalReformMatchesFoundation() throws {
        var foundation = Calendar(identifier: .gregorian)
        foundation.timeZone = .gmt
        let calendar = MonthCalendar(.gregorian)
        let months = Self.months(calendar, from: Self.lowerLimitDay) { $0.name.era == 0 || $0.name.year <= 9_999 }
        #expect(months.count == (4_713 + 9_999) * 12)
        for month in months {
            let astronomical = month.name.era == 0 ? 1 - month.name.year : month.name.year
            let parts = DateComponents(era: astronomical >= 1 ? 1 : 0, year: month.name.year, month: month.name.month, day: 1, hour: 12)
            let start = foundation.date(from: parts).map(DayNumber.day(of:))
            if start != month.firstDay { Issue.record("\(month): Foundation starts it on day \(start ?? 0)") }
        }
        for day in stride(from: Self.lowerLimitDay, to: SolarDate.day(9_999, 12, 31, reform: .papal), by: 97) {
            let date = DayNumber.date(day)
            // Foundation's `ordinality(of: .day, in: .year)` is a day out in years BC; its
            // day-of-year component is not.
            #expect(calendar.dayOfYear(day) == foundation.component(.dayOfYear, from: date), "day \(day)")
            for (firstWeekday, minimumDays) in [(2, 4), (1, 1)] {
                var weeks = foundation
                weeks.firstWeekday = firstWeekday
                weeks.minimumDaysInFirstWeek = minimumDays
                #expect(calendar.weekOfYear(day, firstWeekday: firstWeekday, minimumDays: minimumDays)
                        == weeks.component(.weekOfYear, from: date), "day \(day), \(firstWeekday)/\(minimumDays)")
            }
        }
    }

    /// The proleptic Gregorian and the Julian reckonings start every month of years 1-9999 on
    /// the day Python's `datetime` (proleptic Gregorian) and `convertdate.julian` start it.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the Julian comparison"))
    func prolepticReckoningsMatchPython() throws {
        let table = try Self.runPython("""
            import datetime, math
            from convertdate import julian
            for y in range(1, 10000):
                for m in range(1, 13):
                    print(datetime.date(y, m, 1).toordinal() - 730486, math.floor(julian.to_jd(y, m, 1) + 0.5) - 2451911)
            """)
        let rows = table.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        #expect(rows.count == 119_988)
        for (reform, column) in [(Reform.gregorian, 0), (.julian, 1)] {
            let calendar = MonthCalendar(.gregorian, reform: reform)
            let months = Self.months(calendar, from: rows.first?[column] ?? 0) { $0.name.era == 1 && $0.name.year <= 9_999 }
            #expect(months.count == rows.count, "\(reform)")
            var mismatches = 0
            for (month, row) in zip(months, rows) where month.firstDay != row[column] {
                mismatches += 1
                if mismatches < 5 { Issue.record("\(reform): \(month) should start on day \(row[column])") }
            }
            #expect(mismatches == 0, "\(reform)")
        }
    }
}

/// Day numbers of dates in a reform's reckoning, for the tests.
enum SolarDate {
    static func day(_ year: Int, _ month: Int, _ day: Int, reform: Reform) -> Int {
        MonthCalendar(.gregorian, reform: reform).dayNumber(year: year, month: month, day: day) ?? .min
    }
}
