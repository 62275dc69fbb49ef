import Foundation
import Testing

/// `--json` through the built binary: every line parsed by a real JSON parser (Foundation's
/// JSONSerialization), the days checked against Python's calendar and datetime modules, the
/// events against the README's agenda (itself checked with Python's recurring_ical_events).
@Suite struct JSONLinesTests {
    /// The lines of `text` parsed as JSON objects; a line that does not parse fails the test.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }

    /// Python checks each line of `path` (a month of infcal --json) against
    /// calendar.Calendar(first).monthdayscalendar, datetime's first and last day and, when the
    /// line has them, date.isocalendar's week of each row's Thursday; prints the count checked
    /// and any disagreement.
    static let pythonCheck = """
        import calendar, datetime, json, sys
        names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
        checked = 0
        for line in open(sys.argv[1]):
            m = json.loads(line)
            y, mo = m['year'], m['month']
            first = names.index(m['firstWeekday'])
            expected = [[d or None for d in w] for w in calendar.Calendar(first).monthdayscalendar(y, mo)]
            if m['weeks'] != expected: print('weeks', y, mo, m['weeks'], expected)
            start = datetime.date(y, mo, 1)
            end = datetime.date(y, mo, calendar.monthrange(y, mo)[1])
            if m['first'] != start.isoformat() or m['last'] != end.isoformat(): print('days', y, mo, m['first'], m['last'])
            if m['days'] != end.day: print('length', y, mo)
            if 'weekNumbers' in m:
                row = start.toordinal() - (start.weekday() - first) % 7
                for number in m['weekNumbers']:
                    thursday = row + (3 - first) % 7
                    # The last Thursday of 9999 is Python's last: a row past it has no oracle.
                    if thursday <= datetime.date.max.toordinal():
                        if number != datetime.date.fromordinal(thursday).isocalendar()[1]: print('week', y, mo, row, number)
                    row += 7
            checked += 1
        print('checked', checked)
        """

    func check(_ arguments: [String], months: Int) throws {
        let result = try BinaryRunner.run(["--json"] + arguments)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let objects = try Self.objects(result.stdout)
        #expect(objects.count == months)
        for object in objects {
            #expect(object["calendar"] as? String == "gregorian")
            #expect(object["era"] as? Int == 1)
            #expect(object["events"] == nil)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-json-\(UUID().uuidString).jsonl")
        try Data(result.stdout.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let python = try BinaryRunner.runProgram(URL(fileURLWithPath: CalendarOracleTests.python ?? "/usr/bin/python3"),
                                                 ["-c", Self.pythonCheck, file.path], environment: [:], deadline: 120)
        #expect(python.stdout == "checked \(months)\n", "\(arguments)")
        #expect(python.stderr == "")
    }

    // Gregorian from 1583 on in both (Python's calendar is proleptic Gregorian), up to 9999,
    // where Python's dates end; Sunday and Monday first, with and without ISO week numbers.
    @Test(.enabled(if: CalendarOracleTests.python != nil, "python3 is not installed; skipping the JSON calendar comparison"),
          arguments: [
              (["--from", "1600-01", "--forward", "2400"], 2400),
              (["--from", "9999-12", "--backward", "1800", "-m", "-w"], 1800),
              (["--from", "2000-01", "--forward", "1200", "--first-weekday", "thursday", "-w"], 1200),
              (["-y", "2024", "--locale", "de_DE"], 12),
          ])
    func daysMatchPython(_ arguments: [String], months: Int) throws {
        try check(arguments, months: months)
    }

    /// Before 1582-10-15 the months are Julian, as cal prints them, yet `first` and `last` are
    /// ISO 8601's proleptic Gregorian dates (convertdate.julian.to_gregorian: 1582-10-01 Julian
    /// is 1582-10-11; 4713 BC January 1 is -4713-11-24, astronomical year numbering).
    @Test func julianMonthsHaveGregorianDates() throws {
        let reform = try Self.objects(try BinaryRunner.run(["--json", "--from", "1582-10", "--forward", "1"]).stdout)
        #expect(reform.first?["first"] as? String == "1582-10-11")
        #expect(reform.first?["last"] as? String == "1582-10-31")
        #expect(reform.first?["days"] as? Int == 21)
        let firstWeek = try #require((reform.first?["weeks"] as? [[Any]])?.first)
        #expect(firstWeek.map { $0 as? Int } == [nil, 1, 2, 3, 4, 15, 16])
        #expect(firstWeek.first is NSNull)
        let result = try BinaryRunner.run(["--json", "--from", "-4712-01", "--backward"])
        let oldest = try Self.objects(result.stdout)
        #expect(result.status == 0)
        #expect(oldest.count == 1, "the stream ends at the calendar's first month")
        #expect(oldest.first?["title"] as? String == "January 4713 BC")
        #expect(oldest.first?["era"] as? Int == 0)
        #expect(oldest.first?["year"] as? Int == 4713)
        #expect(oldest.first?["first"] as? String == "-4713-11-24")
        #expect(oldest.first?["last"] as? String == "-4713-12-24")
        let far = try Self.objects(try BinaryRunner.run(["--json", "--from", "10000-02", "--forward", "1"]).stdout)
        #expect(far.first?["first"] as? String == "+10000-02-01")
        #expect(far.first?["last"] as? String == "+10000-02-29")
    }

    /// An endless stream into a reader that stops: a normal end, exit 0, nothing on stderr.
    @Test func endlessStreamIntoClosedPipe() throws {
        let result = try BinaryRunner.runShell("""
            "$INFCAL" --json --forward --today 2024-02-15 | head -n 3000 | tail -n 1; echo "status ${PIPESTATUS[0]}"
            """)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.last == "status 0")
        // 3000 months after February 2024: January 2274.
        #expect(lines.first?.contains("\"title\":\"January 2274\"") == true)
    }

    @Test func otherCalendarsAndLocales() throws {
        let result = try BinaryRunner.run(["--json", "--calendar", "hebrew", "--locale", "he_IL", "--from", "2024-03-01", "--forward", "2"])
        let months = try Self.objects(result.stdout)
        #expect(months.map { $0["calendar"] as? String } == ["hebrew", "hebrew"])
        #expect(months.map { $0["locale"] as? String } == ["he_IL", "he_IL"])
        // Adar I and Adar II 5784 (convertdate.hebrew.to_gregorian(5784, 12, 1) = 2024-02-10,
        // (5784, 13, 1) = 2024-03-11).
        #expect(months.map { $0["first"] as? String } == ["2024-02-10", "2024-03-11"])
        #expect(months.map { $0["year"] as? Int } == [5784, 5784])
        #expect(months.map { $0["days"] as? Int } == [30, 29])
    }

    /// The events of the README's example in Europe/Berlin: the offsets follow the zone's
    /// daylight-saving change on 2024-03-31; all-day events are dates with an exclusive end.
    @Test func eventsInMonthsAndAgenda() throws {
        let environment: [String: String?] = ["TZ": "Europe/Berlin"]
        let months = try Self.objects(try BinaryRunner.run(
            ["--json", "--events", EventCommandTests.example, "--from", "2024-03", "--forward", "2"], environment: environment).stdout)
        let march = try #require(months.first?["events"] as? [[String: Any]])
        #expect(march.map { $0["start"] as? String } == ["2024-03-05T09:00:00+01:00", "2024-03-12T09:00:00+01:00",
                                                          "2024-03-19T09:00:00+01:00", "2024-03-26T09:00:00+01:00", "2024-03-31"])
        #expect(march.last?["end"] as? String == "2024-04-01")
        #expect(march.last?["allDay"] as? Bool == true)
        #expect(march.last?["uid"] as? String == "easter-2024@example")
        #expect(march.last?["source"] as? String == EventCommandTests.example)
        let april = try #require(months.last?["events"] as? [[String: Any]])
        #expect(april.map { $0["summary"] as? String } == ["Standup", "Standup (moved)", "Standup", "Standup"])
        #expect(april[1]["end"] as? String == "2024-04-17T11:30:00+02:00")

        let agenda = try BinaryRunner.run(["--json", "--agenda", "--events", EventCommandTests.example, "--from", "2024-03-25",
                                           "--forward", "2"], environment: environment)
        let lines = try Self.objects(agenda.stdout)
        // The README's agenda of the same run (checked with recurring_ical_events).
        #expect(lines.map { $0["start"] as? String } == ["2024-03-26T09:00:00+01:00", "2024-03-31", "2024-04-02T09:00:00+02:00",
                                                         "2024-04-17T11:00:00+02:00", "2024-04-23T09:00:00+02:00",
                                                         "2024-04-30T09:00:00+02:00"])
        #expect(lines.allSatisfy { $0["weeks"] == nil })
    }

    /// Summaries with quotes, backslashes, control characters and characters outside the BMP
    /// come back intact through a JSON parser.
    @Test func awkwardSummariesSurviveTheParser() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("odd \"name\".ics")
        let summary = "Say \"hi\" \\ to 😀 and Ωmega\u{7F}"
        let escaped = summary.replacingOccurrences(of: "\\", with: "\\\\")
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\u{1}y\r\nDTSTART:20240402T090000Z\r\nSUMMARY:\(escaped)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: file)
        let result = try BinaryRunner.run(["--json", "--agenda", "--events", file.path, "--from", "2024-04", "--forward", "1"])
        let lines = try Self.objects(result.stdout)
        #expect(lines.count == 1)
        #expect(lines.first?["summary"] as? String == summary)
        #expect(lines.first?["source"] as? String == file.path)
        #expect(lines.first?["start"] as? String == "2024-04-02T09:00:00+00:00")
    }

    @Test func conflictsAreUsageErrors() throws {
        for arguments in [["--json", "--paged"], ["--json", "--calendar", "list"], ["--json", "--wall"]] {
            let result = try BinaryRunner.run(arguments)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(result.stderr.contains("--json"))
        }
    }
}
