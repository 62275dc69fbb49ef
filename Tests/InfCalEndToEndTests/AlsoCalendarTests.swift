import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalPager
import InfCalPTY
import Testing

/// `--also CALENDAR`: each day in a second calendar on `--wall` pages, the pager's month page,
/// the stream, the agenda and `--json`. The other calendar's dates come from PyPI's
/// `convertdate` (Hebrew, the civil Islamic calendar, Persian) and Python's own `datetime` and
/// `calendar` (Gregorian); each test that needs them skips, saying so, without them.
@Suite struct AlsoCalendarTests {
    static let hasConvertdate = ArithmeticOracleTests.hasConvertdate

    /// The Hebrew month names as infcal numbers the months (Foundation's numbers: 1 Tishri ...
    /// 6 Adar I in leap years, 7 Adar or Adar II, ... 13 Elul).
    static let hebrewNames = ["Tishri", "Heshvan", "Kislev", "Tevet", "Shevat", "Adar I", "Adar", "Nisan", "Iyar",
                              "Sivan", "Tamuz", "Av", "Elul"]

    /// The days from Gregorian `first` for `count` days (by ISO date) in `calendar`, as
    /// convertdate has them, the Hebrew months renumbered as Foundation numbers them
    /// (convertdate counts from Nisan), with whether the year is a (Hebrew) leap year.
    static func oracle(_ calendar: String, first: (Int, Int, Int), count: Int) throws -> [String: (year: Int, month: Int, day: Int, leap: Bool)] {
        let script = """
            import datetime
            from convertdate import hebrew, islamic, persian
            d = datetime.date(\(first.0), \(first.1), \(first.2))
            for _ in range(\(count)):
                kind = '\(calendar)'
                if kind == 'hebrew':
                    y, m, day = hebrew.from_gregorian(d.year, d.month, d.day)
                    print(d.isoformat(), y, m, day, int(hebrew.leap(y)))
                elif kind == 'islamic-civil':
                    y, m, day = islamic.from_gregorian(d.year, d.month, d.day)
                    print(d.isoformat(), y, m, day, 0)
                elif kind == 'islamic-tbla':
                    # The tabular calendar with the astronomical (Thursday) epoch: a day ahead of the civil one.
                    e = d + datetime.timedelta(days=1)
                    y, m, day = islamic.from_gregorian(e.year, e.month, e.day)
                    print(d.isoformat(), y, m, day, 0)
                elif kind == 'persian':
                    y, m, day = persian.from_gregorian(d.year, d.month, d.day)
                    print(d.isoformat(), y, m, day, 0)
                d += datetime.timedelta(days=1)
            """
        var table: [String: (year: Int, month: Int, day: Int, leap: Bool)] = [:]
        for line in try ArithmeticOracleTests.runPython(script).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 5, let y = Int(parts[1]), var m = Int(parts[2]), let d = Int(parts[3]) else { continue }
            let leap = parts[4] == "1"
            if calendar == "hebrew" { m = Self.hebrewNumber(convertdate: m, leap: leap) }
            table[String(parts[0])] = (y, m, d, leap)
        }
        return table
    }

    /// Foundation's number of convertdate's Hebrew month `month` (Nisan 1 ... Adar 12, Adar II 13).
    static func hebrewNumber(convertdate month: Int, leap: Bool) -> Int {
        switch month {
        case 7...11: return month - 6          // Tishri 1 ... Shevat 5
        case 12: return leap ? 6 : 7           // Adar I in a leap year, else Adar
        case 13: return 7                      // Adar II
        default: return month + 7              // Nisan 8 ... Elul 13
        }
    }

    /// The cells of an ASCII `--wall` page: each week's number line and the line under it
    /// split at the grid's bars, trimmed.
    static func cells(_ page: String) -> [(primary: String, also: String)] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [(String, String)] = []
        for (index, line) in lines.enumerated() where line.drop(while: { $0 == " " }).hasPrefix("|") && index > 0 && index + 1 < lines.count && lines[index - 1].contains("+-") {
            let numbers = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            let under = lines[index + 1].split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            for (number, other) in zip(numbers, under) {
                result.append((number.trimmingCharacters(in: .whitespaces), other.trimmingCharacters(in: .whitespaces)))
            }
        }
        return result.filter { !$0.0.isEmpty }
    }

    // MARK: --wall

    /// December 2026 with `--also hebrew`: every cell's Hebrew day is convertdate's, the
    /// month's name where a Hebrew month starts ("1 Tevet"), and the title names both months.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the --also comparison"))
    func wallWithHebrewDays() throws {
        let run = try BinaryRunner.run(["--wall", "--width", "80", "--also", "hebrew", "--from", "2026-12", "-1"])
        #expect(run.status == 0, "\(run.stderr)")
        let oracle = try Self.oracle("hebrew", first: (2026, 12, 1), count: 31)
        let cells = Self.cells(run.stdout)
        #expect(cells.count == 31)
        for (primary, also) in cells {
            guard let day = Int(primary), let want = oracle[String(format: "2026-12-%02d", day)] else {
                Issue.record("cell \(primary)")
                continue
            }
            let name = Self.hebrewNames[want.month - 1]
            #expect(also == (want.day == 1 ? "1 \(name)" : String(want.day)), "2026-12-\(day): \(also)")
        }
        // 1 December 2026 is 21 Kislev 5787, 31 December 21 Tevet (convertdate, checked above).
        let first = try #require(oracle["2026-12-01"]), last = try #require(oracle["2026-12-31"])
        let title = "December 2026 · \(Self.hebrewNames[first.month - 1]) – \(Self.hebrewNames[last.month - 1]) \(last.year)"
        #expect(run.stdout.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) == title)
    }

    /// Kislev 5787 with `--also gregorian`: each cell carries its Gregorian day, as convertdate's
    /// Hebrew-to-Gregorian conversion has it, with Python's calendar's month name where a
    /// Gregorian month starts.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the --also comparison"))
    func hebrewMonthWithGregorianDays() throws {
        // 2026-11-15 lies in Kislev 5787.
        let run = try BinaryRunner.run(["--calendar", "hebrew", "--also", "gregorian", "--wall", "--width", "100",
                                        "--from", "2026-11-15", "-1"])
        #expect(run.status == 0, "\(run.stderr)")
        let script = """
            import calendar
            from convertdate import hebrew
            for d in range(1, hebrew.month_length(5787, 9) + 1):
                y, m, day = hebrew.to_gregorian(5787, 9, d)
                print(d, ('%d %s' % (day, calendar.month_name[m])) if day == 1 else day)
            """
        let expected = try ArithmeticOracleTests.runPython(script).split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
        }
        let cells = Self.cells(run.stdout)
        #expect(cells.count == expected.count && cells.count >= 29)
        for (cell, want) in zip(cells, expected) {
            #expect(cell.primary == want.0 && cell.also == want.1, "\(cell) vs \(want)")
        }
        #expect(run.stdout.contains("Kislev 5787 · November – December 2026"))
    }

    /// The whole page of `--wall --also hebrew` at 100 columns: the layout around the days,
    /// whose Hebrew dates `wallWithHebrewDays` checks against convertdate at another width
    /// (this golden was the README's picture, checked by eye against that test's days).
    @Test func wallPageWithHebrewDaysAt100Columns() throws {
        let run = try BinaryRunner.run(["--wall", "--width", "100", "--also", "hebrew", "--from", "2026-12", "-1"],
                                       environment: ["LC_ALL": "C.UTF-8"])
        #expect(run.status == 0)
        #expect(run.stdout == """
                                            December 2026 · Kislev – Tevet 5787
                Sunday        Monday        Tuesday      Wednesday     Thursday       Friday       Saturday
            ┌─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┐
            │             │             │           1 │           2 │           3 │           4 │           5 │
            │             │             │          21 │          22 │          23 │          24 │          25 │
            ├─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┤
            │           6 │           7 │           8 │           9 │          10 │          11 │          12 │
            │          26 │          27 │          28 │          29 │          30 │     1 Tevet │           2 │
            ├─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┤
            │          13 │          14 │          15 │          16 │          17 │          18 │          19 │
            │           3 │           4 │           5 │           6 │           7 │           8 │           9 │
            ├─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┤
            │          20 │          21 │          22 │          23 │          24 │          25 │          26 │
            │          10 │          11 │          12 │          13 │          14 │          15 │          16 │
            ├─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┤
            │          27 │          28 │          29 │          30 │          31 │             │             │
            │          17 │          18 │          19 │          20 │          21 │             │             │
            ├─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┼─────────────┤
            │             │             │             │             │             │             │             │
            │             │             │             │             │             │             │             │
            └─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┘

            """)
    }

    // MARK: --json

    /// `--json --also` gives each day of the month an object in the other calendar: Hebrew,
    /// the civil and the tabular Islamic calendars and the Persian one, each day convertdate's.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the --also comparison"), arguments: ["hebrew", "islamic-civil", "islamic-tbla", "persian"])
    func jsonCarriesTheOtherDate(_ calendar: String) throws {
        let run = try BinaryRunner.run(["--json", "--also", calendar, "--from", "2026-11", "--forward", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        let oracle = try Self.oracle(calendar, first: (2026, 11, 1), count: 30 + 31 + 31)
        var compared = 0
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let days = try #require(object["also"] as? [[String: Any]])
            #expect(days.count == object["days"] as? Int)
            for day in days {
                let date = try #require(day["date"] as? String)
                let want = try #require(oracle[date])
                #expect(day["calendar"] as? String == calendar)
                #expect(day["year"] as? Int == want.year && day["month"] as? Int == want.month && day["day"] as? Int == want.day,
                        "\(date): \(day) vs \(want)")
                #expect(day["leapMonth"] as? Bool == false)
                if calendar == "hebrew" { #expect(day["monthName"] as? String == Self.hebrewNames[want.month - 1]) }
                compared += 1
            }
        }
        #expect(compared == 92)
    }

    /// An Islamic month with `--also gregorian` shows its Gregorian dates: each day of each
    /// month is convertdate's conversion of that Islamic date, named by Python's calendar.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the --also comparison"))
    func islamicMonthsWithGregorianDates() throws {
        let run = try BinaryRunner.run(["--calendar", "islamic-civil", "--also", "gregorian", "--json", "--from", "2026-12",
                                        "--forward", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        var months: [(year: Int, month: Int, also: [[String: Any]])] = []
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let year = try #require(object["year"] as? Int), month = try #require(object["month"] as? Int)
            months.append((year, month, try #require(object["also"] as? [[String: Any]])))
        }
        #expect(months.count == 3)
        let script = "import calendar\nfrom convertdate import islamic\n" + months.map { month in
            "for d in range(1, islamic.month_length(\(month.year), \(month.month)) + 1):\n"
                + "    y, m, day = islamic.to_gregorian(\(month.year), \(month.month), d)\n"
                + "    print(y, m, day, calendar.month_name[m])\n"
        }.joined()
        let expected = try ArithmeticOracleTests.runPython(script).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let days = months.flatMap(\.also)
        #expect(days.count == expected.count && days.count >= 88)
        for (day, want) in zip(days, expected) {
            #expect(day["calendar"] as? String == "gregorian" && day["era"] as? Int == 1)
            #expect("\(day["year"] ?? "") \(day["month"] ?? "") \(day["day"] ?? "") \(day["monthName"] ?? "")" == want.joined(separator: " "),
                    "\(day) vs \(want)")
        }
    }

    // MARK: The agenda and the stream

    /// `--agenda --also hebrew`: each line carries its day's Hebrew date after the weekday,
    /// `2026-12-05 Sat  [25 Kislev 5787]  09:00-10:00  Standup`, the dates convertdate's; the
    /// times after it line up.
    @Test(.enabled(if: hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the --also comparison"))
    func agendaCarriesTheOtherDate() throws {
        let file = NSTemporaryDirectory() + "infcal-also-\(getpid()).ics"
        try """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//infcal tests//EN\r
            BEGIN:VEVENT\r
            UID:standup\r
            DTSTART:20261205T090000Z\r
            DTEND:20261205T100000Z\r
            SUMMARY:Standup\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:eve\r
            DTSTART;VALUE=DATE:20261211\r
            SUMMARY:New month\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:later\r
            DTSTART:20270301T120000Z\r
            SUMMARY:March\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try BinaryRunner.run(["--events", file, "--agenda", "--also", "hebrew", "--since", "2026-12-01", "--until", "2027-03-31"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let oracle = try Self.oracle("hebrew", first: (2026, 12, 1), count: 121)
        var timeColumns: Set<Int> = []
        for line in lines {
            let date = String(line.prefix(10))
            let want = try #require(oracle[date])
            #expect(line.contains("  [\(want.day) \(Self.hebrewNames[want.month - 1]) \(want.year)]  "), "\(line)")
            if let close = line.firstIndex(of: "]") {
                let after = line[line.index(after: close)...]
                timeColumns.insert(line.distance(from: line.startIndex, to: close) + 1 + (after.count - after.drop { $0 == " " }.count))
            }
        }
        #expect(timeColumns.count == 1, "\(lines)")
        #expect(lines.first == "2026-12-05 Sat  [25 Kislev 5787]   09:00-10:00  Standup")
        // --json: the occurrence's start day in the other calendar.
        let json = try BinaryRunner.run(["--events", file, "--agenda", "--json", "--also", "hebrew", "--since", "2026-12-01",
                                         "--until", "2026-12-31"])
        let first = try #require(json.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let also = try #require(object["also"] as? [String: Any])
        #expect(also["day"] as? Int == oracle["2026-12-05"]?.day && also["monthName"] as? String == "Kislev")
    }

    /// Into a pipe the grids stay cal's, byte for byte: `--also` adds one line under each row,
    /// the other calendar's months centred under each grid.
    @Test func streamKeepsTheGridAndAddsALine() throws {
        let plain = try BinaryRunner.run(["--from", "2026-12", "-1"])
        let also = try BinaryRunner.run(["--from", "2026-12", "-1", "--also", "hebrew"])
        var lines = also.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 3)
        let added = lines.remove(at: lines.count - 2)
        #expect(lines.joined(separator: "\n") == plain.stdout)
        #expect(added == "Kislev – Tevet 5787")
    }

    // MARK: Errors and the option table

    /// A bad identifier is a usage error naming the option, the value and the calendars, with
    /// the nearest as a suggestion; nothing on standard output.
    @Test func badIdentifierIsAUsageError() throws {
        let run = try BinaryRunner.run(["--also", "hebrw"])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("--also") && run.stderr.contains("'hebrw'") && run.stderr.contains("did you mean 'hebrew'"))
        let list = try BinaryRunner.run(["--also", "list"])
        #expect(list.status == 64 && list.stdout.isEmpty)
    }

    /// The completions offer the calendars for `--also`, and the config file takes it as a key.
    @Test func completionsAndConfigKnowIt() throws {
        let bash = try BinaryRunner.run(["--completions", "bash"])
        #expect(bash.stdout.contains("--also"))
        let config = NSTemporaryDirectory() + "infcal-also-config-\(getpid())"
        try "[options]\nalso = persian\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try BinaryRunner.run(["--config", config, "--from", "2026-12", "-1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Azar – Dey 1405"))
    }

    /// Smaller cells choose gracefully: the month's name cut (three characters at least),
    /// then the number alone, then nothing. 11 December 2026 is 1 Tevet 5787 (convertdate,
    /// in `wallWithHebrewDays`).
    @Test func smallCellsChooseGracefully() throws {
        let also = AlsoCalendar(calendar: MonthCalendar(.hebrew), locale: nil)
        let day = try #require(MonthCalendar(.gregorian).dayNumber(year: 2026, month: 12, day: 11))
        let tevet = try #require(also.day(day))
        #expect([9, 7, 6, 5, 4, 1, 0].map { also.cellText(tevet, width: $0) } == ["1 Tevet", "1 Tevet", "1 Teve", "1 Tev", "1", "1", ""])
        let next = try #require(also.day(day + 9))
        #expect(also.cellText(next, width: 1) == "" && also.cellText(next, width: 2) == "10")
        // Walking on from the month found, and back to a day before it, gives the same days.
        #expect(also.day(day - 1)?.label == 30 && also.day(day)?.label == 1)
    }

    /// At 80x24 with events the cells keep their one line for events: the Hebrew day moves to
    /// the number's line, left of the number, the month's name cut to fit ("1 Tev").
    @Test func pagerWithEventsPutsTheOtherDayBesideTheNumber() throws {
        let file = NSTemporaryDirectory() + "infcal-also-pager-\(getpid()).ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART;VALUE=DATE:20261211\r\nSUMMARY:Eve\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try PagerEndToEndTests.start(["--also", "hebrew", "--from", "2026-12", "--events", file], columns: 80, rows: 24,
                                                   environment: MonthPageEndToEndTests.utf8, firstFrame: "Kislev – Tevet 5787")
        let numbers = try #require((0..<24).first { session.screen.line($0).contains("   6 │") })
        let line = session.screen.line(numbers)
        #expect(line.contains("│ 1 Tev 11 │") && line.contains("│ 26     6 │"), "\(session.screen.text)")
        #expect(session.screen.line(numbers + 1).contains("Eve"))
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    // MARK: The pager

    /// At a terminal, 80x24 and 200x60: the title names the Hebrew months and the cells carry
    /// the Hebrew days, "1 Tevet" under 11 December.
    @Test(arguments: [(80, 24), (200, 60)])
    func pagerCellsShowTheOtherDay(columns: Int, rows: Int) throws {
        let session = try PagerEndToEndTests.start(["--also", "hebrew", "--from", "2026-12"], columns: columns, rows: rows,
                                                   environment: MonthPageEndToEndTests.utf8, firstFrame: "Kislev – Tevet 5787")
        #expect(session.screen.contains("December 2026 · Kislev – Tevet 5787"))
        #expect(session.waitFor { $0.contains("1 Tevet") && !$0.line(rows - 1).isEmpty }, "\(session.screen.text)")
        // The week of 6 to 12 December: the line of its numbers, then the line of the Hebrew days.
        let numbers = try #require((0..<rows).first { session.screen.line($0).contains("   6 │") }, "\(session.screen.text)")
        let under = session.screen.line(numbers + 1)
        #expect(under.contains("1 Tevet") && under.contains("26") && under.contains("30"), "\(session.screen.text)")
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
