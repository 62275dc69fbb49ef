import Foundation
import Testing

/// Events that last for years and repeat often (issue 34): every view of a month of them runs
/// in bounded memory and time, and shows, of each day, the first 48 instances under way and
/// the first 48 beginning, each list's last saying how many more. The counts are checked
/// against the test's own arithmetic (days and seconds since year 0, weeks) and, where an
/// instance's start can be listed, against python-dateutil's `rrule`.
@Suite struct LastingEventTests {
    /// What the issue set: a month of any of these in under 256 MiB.
    static let memoryLimit = 256 << 20
    /// A guard against a hang, not a measure (a debug build runs these in a second or three).
    static let deadline = 60.0
    static let limit = 48

    /// An event `x` from DTSTART `start` to DTEND `end`, repeating by `rule`.
    static func event(_ start: String, _ end: String, _ rule: String) -> String {
        HostileInputTests.calendar("BEGIN:VEVENT\nUID:d1\nDTSTART:\(start)\nDTEND:\(end)\nRRULE:\(rule)\nSUMMARY:x\nEND:VEVENT\n")
    }

    /// The issue's files.
    static let daily = event("00000101T000000", "20150901T100000", "FREQ=DAILY")
    static let secondly = event("00000101T000000", "20241220T140000", "FREQ=SECONDLY")
    static let minutely = event("00000101T000000", "20241220T140000", "FREQ=MINUTELY;BYSECOND=" + (0...59).map(String.init).joined(separator: ","))
    static let weekly = event("00000101T000000Z", "20210101T000000Z", "FREQ=WEEKLY;UNTIL=20210104T000000Z")

    /// Days from 0000-01-01 to the proleptic Gregorian date: 365 a year and the leap days of
    /// the years before (year 0 is one), then the month's and the day's.
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let leap = { (y: Int) in (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
        let lengths = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leapDays = year == 0 ? 0 : (year - 1) / 4 - (year - 1) / 100 + (year - 1) / 400 + 1
        return 365 * year + leapDays + lengths.prefix(month - 1).reduce(0, +) + day - 1
    }

    /// Runs infcal on `text` (`--no-cache`) with `arguments`, bounded in memory and time; the
    /// run must end well and say nothing on standard error.
    static func run(_ text: String, _ arguments: [String]) throws -> String {
        let dir = try HostileInputTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("F.ics")
        try HostileInputTests.write(text, to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--no-cache"] + arguments, deadline: deadline, memoryLimit: memoryLimit)
        #expect(!result.signalled && result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.status) \(result.stderr.prefix(300))")
        return result.stdout
    }

    /// The days of `--agenda --days` output: each day's heading (`Thursday, 2015-01-01`) with
    /// its lines.
    static func agendaDays(_ output: String) -> [(heading: String, lines: [String])] {
        var days: [(heading: String, lines: [String])] = []
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix(" ") { if !days.isEmpty { days[days.count - 1].lines.append(line) } } else { days.append((line, [])) }
        }
        return days
    }

    /// The N of `(+N more this day)` in `line`, or nil.
    static func more(_ line: String) -> Int? {
        line.firstMatch(of: /\(\+(\d+) more this day\)/).flatMap { Int($0.1) }
    }

    /// Each day of January 2015 lists 48 instances of the daily event under way (all of them
    /// began on 0000-01-01 or later and end in September 2015), the last saying how many more:
    /// the days since 0000-01-01, less 48; and the one beginning that day.
    @Test func aDailyEventLastingMillenniaListsEachDay() throws {
        let days = Self.agendaDays(try Self.run(Self.daily, ["--agenda", "--days", "--from", "2015-01", "--forward", "1"]))
        #expect(days.count == 31)
        for (index, day) in days.enumerated() {
            #expect(day.heading.hasSuffix(String(format: "2015-01-%02d", index + 1)))
            let underWay = day.lines.filter { $0.hasSuffix("(continuing)") }
            #expect(underWay.count == Self.limit)
            #expect(Self.more(underWay.last ?? "") == Self.days(2015, 1, index + 1) - Self.limit, "\(day.heading)")
            #expect(day.lines.count == Self.limit + 1)
        }
    }

    /// The plain grid and the JSON of January 1847 of an event of every second (by FREQ, or
    /// by a minute's sixty BYSECONDs) lasting until 2024: under way on the 1st are the seconds
    /// since 0000-01-01, of which the first 48 are listed; each day lists its first 48 seconds
    /// and says 86,352 more.
    @Test(arguments: ["secondly", "minutely"])
    func anEventOfEverySecondLastingMillenniaListsTheFirstOnes(_ name: String) throws {
        let text = name == "secondly" ? Self.secondly : Self.minutely
        let seconds = Self.days(1847, 1, 1) * 86_400
        let grid = try Self.run(text, ["--from", "1847-01", "--forward", "1"]).split(separator: "\n").map(String.init)
        let underWay = grid.filter { $0.hasSuffix("(continuing)") }
        #expect(underWay.count == Self.limit)
        #expect(Self.more(underWay.last ?? "") == seconds - Self.limit)
        for day in 1...31 {
            // A list's line (`31 Sun  00:00  x`), not a week of the grid (` 3  4  5 ...`).
            let beginning = grid.filter { $0.hasPrefix(String(format: "%2d ", day)) && $0.contains("x") && !$0.hasSuffix("(continuing)") }
            #expect(beginning.count == Self.limit, "day \(day)")
            #expect(Self.more(beginning.last ?? "") == 86_400 - Self.limit, "day \(day)")
        }
        let json = try Self.run(text, ["--json", "--from", "1847-01", "--forward", "1"])
        let month = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try #require(month["events"] as? [[String: Any]])
        #expect(events.count == Self.limit + 31 * Self.limit)
        #expect(events.prefix(Self.limit).map { $0["start"] as? String } == (0..<Self.limit).map { String(format: "0000-01-01T00:00:%02d", $0) })
        #expect(events[Self.limit - 1]["moreThisDay"] as? Int == seconds - Self.limit)
        #expect(events[Self.limit - 1]["end"] as? String == "2024-12-20T14:00:47")
        #expect(events.dropFirst(Self.limit).filter { $0["moreThisDay"] as? Int == 86_400 - Self.limit }.count == 31)
    }

    /// A weekly rule from year 0 to 2021 whose instances each last until 2021 plus their own
    /// weeks: on a day of January 2021 the instances under way are those of week k with
    /// 7k > the days since 1 January (still going) and beginning before the day, up to UNTIL.
    @Test func aWeeklyEventUnderWayForMillenniaListsEachDay() throws {
        let days = Self.agendaDays(try Self.run(Self.weekly, ["--agenda", "--days", "--from", "2021-01", "--forward", "1"]))
        #expect(days.count == 31)
        let untilWeek = (Self.days(2021, 1, 4) - Self.days(0, 1, 1)) / 7
        for (index, day) in days.enumerated() {
            let since = Self.days(2021, 1, index + 1)
            // k from the first whose end is past the day's start to the last beginning before it.
            let first = index / 7 + 1
            let last = min(untilWeek, (since - 1) / 7)
            let underWay = day.lines.filter { $0.hasSuffix("(continuing)") }
            #expect(underWay.count == Self.limit)
            #expect(Self.more(underWay.last ?? "") == last - first + 1 - Self.limit, "\(day.heading)")
            let beginning = since % 7 == 0 && since / 7 <= untilWeek ? 1 : 0
            #expect(day.lines.count == Self.limit + beginning, "\(day.heading)")
        }
    }

    /// Every view of a month of each file ends well within the limits, and lists no more than
    /// the limit of a day.
    @Test(arguments: ["daily", "secondly", "minutely", "weekly"])
    func everyViewIsBounded(_ name: String) throws {
        let (text, month) = [("daily", (Self.daily, "2015-01")), ("secondly", (Self.secondly, "1847-01")),
                             ("minutely", (Self.minutely, "1847-01")), ("weekly", (Self.weekly, "2021-01"))].first { $0.0 == name }?.1 ?? ("", "")
        for view in [["--wall", "--width", "120"], ["--agenda"], ["--agenda", "--json"], ["--json"], ["--agenda", "--days"], [],
                     ["--wall", "--width", "60", "--color", "always"]] {
            let output = try Self.run(text, ["--from", month, "--forward", "1"] + view)
            // A month of days, each at most 48 under way and 48 beginning, and some lines more.
            #expect(output.split(separator: "\n").count < 31 * 2 * Self.limit + 200, "\(name) \(view)")
        }
        // A year of grids: every day of it has instances under way, and is marked (bold, underlined).
        let year = try Self.run(text, ["--year", String(month.prefix(4)), "--color", "always"])
        #expect(year.components(separatedBy: "\u{1B}[1;4m").count - 1 == 365, "\(name)")
    }

    // MARK: Against dateutil

    /// A python3 with dateutil (`DateutilOracleTests.python`) whose zoneinfo knows the zones
    /// of the cases.
    static let python: String? = DateutilOracleTests.python.flatMap { python in
        let check = "from zoneinfo import ZoneInfo; ZoneInfo('Europe/Berlin'); ZoneInfo('America/New_York')"
        let result = try? BinaryRunner.runProgram(URL(fileURLWithPath: python), ["-c", check],
                                                  environment: ["PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 120)
        return result?.status == 0 ? python : nil
    }

    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/underway_oracle.py").path

    struct Case: Encodable {
        let start: String
        let zone: String?
        let rule: String
        let exdates: [String]
        /// Whole days (DURATION takes at most 100,000,000 of a unit).
        let seconds: Int
        let day: String
    }

    struct Expected: Decodable {
        let count: Int
        let first: [String]
    }

    /// Rules dateutil can expand over what is under way: dense ones over days, sparse ones over
    /// centuries, with EXDATEs, COUNT, UNTIL, INTERVAL, and a zone whose clocks change.
    static let cases = [
        Case(start: "20000103T090000", zone: nil, rule: "FREQ=DAILY;BYDAY=MO,TU", exdates: ["20000110T090000", "20020603T090000"],
             seconds: 3 * 366 * 86_400, day: "2002-06-15"),
        Case(start: "20200101T003000", zone: nil, rule: "FREQ=HOURLY;INTERVAL=5", exdates: [], seconds: 200 * 86_400, day: "2020-09-01"),
        Case(start: "20210301T090000", zone: nil, rule: "FREQ=MINUTELY;BYHOUR=9", exdates: [], seconds: 30 * 86_400, day: "2021-03-20"),
        Case(start: "20100102T120000", zone: nil, rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", exdates: ["20120114T120000"],
             seconds: 5 * 366 * 86_400, day: "2014-01-01"),
        Case(start: "19000131T000000", zone: nil, rule: "FREQ=MONTHLY;BYMONTHDAY=31", exdates: [], seconds: 20 * 366 * 86_400, day: "1915-07-04"),
        Case(start: "16040229T060000", zone: nil, rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", exdates: [],
             seconds: 400 * 366 * 86_400, day: "2000-03-01"),
        Case(start: "20240101T000000", zone: nil, rule: "FREQ=SECONDLY;BYSECOND=0,15,30,45", exdates: [], seconds: 2 * 86_400, day: "2024-01-05"),
        Case(start: "19500101T080000", zone: nil, rule: "FREQ=DAILY;COUNT=5000", exdates: [], seconds: 50 * 366 * 86_400, day: "1975-01-01"),
        Case(start: "19991231T230000", zone: nil, rule: "FREQ=HOURLY;UNTIL=20000301T000000", exdates: [], seconds: 366 * 86_400, day: "2000-06-01"),
        Case(start: "20230101T090000", zone: "Europe/Berlin", rule: "FREQ=DAILY", exdates: ["20230401T090000"],
             seconds: 100 * 86_400, day: "2023-04-02"),
        Case(start: "20230310T013000", zone: "America/New_York", rule: "FREQ=HOURLY;BYHOUR=1,2,3", exdates: [],
             seconds: 40 * 86_400, day: "2023-04-10"),
    ]

    /// The instances under way on each case's day, as `--agenda --json` from that day lists
    /// them first, against dateutil's: the first 48 starts, and the last's count of the rest.
    @Test(.enabled(if: python != nil, "python3 with python-dateutil and zoneinfo's zones is not installed; skipping the comparison of what is under way"))
    func whatIsUnderWayIsWhatDateutilFinds() throws {
        let encoded = String(decoding: try JSONEncoder().encode(Self.cases), as: UTF8.self)
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: Self.python ?? "python3"), [Self.oracle, encoded],
                                                 environment: ["PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 600)
        let expected = try JSONDecoder().decode([Expected].self, from: Data(result.stdout.utf8))
        #expect(expected.count == Self.cases.count, "\(result.stderr.prefix(500))")
        for (item, want) in zip(Self.cases, expected) {
            let zone = item.zone.map { ";TZID=\($0)" } ?? ""
            let text = HostileInputTests.calendar("BEGIN:VEVENT\nUID:u\nSUMMARY:u\nDTSTART\(zone):\(item.start)\nDURATION:P\(item.seconds / 86_400)D\n"
                + "RRULE:\(item.rule)\n" + (item.exdates.isEmpty ? "" : "EXDATE\(zone):\(item.exdates.joined(separator: ","))\n") + "END:VEVENT\n")
            let output = try Self.run(text, ["--agenda", "--json", "--from", item.day, "--forward", "1"])
            let lines = try output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let underWay = lines.filter { ($0["start"] as? String ?? "") < item.day }
            #expect(underWay.map { $0["start"] as? String ?? "" } == want.first, "\(item.rule) on \(item.day)")
            let more = underWay.last?["moreThisDay"] as? Int ?? 0
            #expect(underWay.count + more == want.count, "\(item.rule) on \(item.day)")
        }
    }
}
