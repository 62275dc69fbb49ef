import Foundation
import InfCalProcess
import Testing

/// `--search` as a user runs it, over `Tests/Fixtures/search/search.ics` (its README lists the
/// events). Expected lines are expanded by hand from the fixture's rules, weekdays by `ncal`
/// (`ncal -h 3 2024` and so on); the JSON agenda is checked against recurring-ical-events
/// filtered with Python's own folding (`str.casefold`, accents dropped after NFKD).
@Suite struct SearchEndToEndTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/search/search.ics").path

    static func run(_ arguments: [String], deadline: Double = 20) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["--no-cache", "--events", fixture] + arguments, deadline: deadline)
    }

    static let dentist = [
        "2024-03-05 Tue  09:00-10:00  Dentist",
        "2024-03-12 Tue  12:00-13:00  Lunch",
        "2024-04-05 Fri  09:00-10:00  Dentist",
        "2024-05-05 Sun  09:00-10:00  Dentist",
    ]

    @Test func theAgendaListsTheMatchesOnly() throws {
        let result = try Self.run(["--agenda", "--search", "DENTIST", "--from", "2024-03", "--until", "2024-12-31"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == Self.dentist)
        let zahn = try Self.run(["--agenda", "--search", "zahnarztin", "--from", "2024-01", "--until", "2030-12-31"])
        #expect(zahn.stdout.split(separator: "\n").map(String.init) == [
            "2024-04-10 Wed  all-day      Zahnärztin Dr. Öz",
            "2025-04-10 Thu  all-day      Zahnärztin Dr. Öz",
            "2026-04-10 Fri  all-day      Zahnärztin Dr. Öz",
        ])
        let places = try Self.run(["--agenda", "--search", "ISTANBUL", "--from", "2024-03", "--forward", "1"])
        #expect(places.stdout == "2024-03-20 Wed  08:00-18:00  Trip\n")
        let street = try Self.run(["--agenda", "--search", "strasse", "--from", "2024-03", "--forward", "1"])
        #expect(street.stdout == "2024-03-22 Fri  all-day      Party in the Hauptstraße\n")
    }

    /// Into a pipe, with no bound, the list ends once every matching rule is done (COUNT,
    /// UNTIL), and at once when nothing matches.
    @Test func aPipeEndsWhenNothingCanMatchAgain() throws {
        let counted = try Self.run(["--agenda", "--search", "dentist", "--from", "2024-01"])
        #expect(counted.status == 0, "\(counted.stderr)")
        #expect(counted.stdout.split(separator: "\n").map(String.init) == Self.dentist)
        let until = try Self.run(["--agenda", "--search", "öz", "--from", "2024-01"])
        #expect(until.status == 0)
        #expect(until.stdout.split(separator: "\n").count == 3)
        let none = try Self.run(["--agenda", "--search", "nobody at all", "--from", "2024-01"])
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
        // Backward too: before the first match there is nothing.
        let back = try Self.run(["--agenda", "--backward", "--search", "dentist", "--from", "2030-01"])
        #expect(back.stdout.split(separator: "\n").map(String.init) == Self.dentist.reversed())
        let json = try Self.run(["--agenda", "--json", "--search", "dentist", "--from", "2024-01"])
        #expect(json.status == 0)
        #expect(json.stdout.split(separator: "\n").count == 4)
    }

    /// A matching rule without end keeps the list going: a count of months bounds it, and so
    /// does the reader closing the pipe.
    @Test func anEndlessRuleGoesOnUntilABound() throws {
        let months = try Self.run(["--agenda", "--search", "standup", "--from", "2024-03", "--forward", "2"])
        // The Mondays of March and April 2024 (ncal -h 3 2024, ncal -h 4 2024).
        let mondays = ["03-04", "03-11", "03-18", "03-25", "04-01", "04-08", "04-15", "04-22", "04-29"]
        #expect(months.stdout.split(separator: "\n").map(String.init) == mondays.map { "2024-\($0) Mon  08:30-08:45  Standup" })
        let piped = try BinaryRunner.runShell("\"$INFCAL\" --today 2024-02-15 --no-cache --events '\(Self.fixture)' --agenda --search standup | sed -n '1000{p;q}'")
        // The 1000th Monday from 2024-03-04 is 999 weeks on (python: date(2024, 3, 4) + timedelta(weeks=999)).
        #expect(piped.stdout == "2043-04-27 Mon  08:30-08:45  Standup\n", "\(piped.stderr)")
    }

    /// Rules without end that can never occur after DTSTART (30 February, 31 April, every hour
    /// of 30 February) end the list in a pipe once the rest is past, as finished rules do: the
    /// run must end well within its deadline. Weekdays by `ncal -h 1 2024`.
    @Test func aRuleThatCanNeverOccurEndsThePipe() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-never-\(getpid()).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        let events = [
            ("n1", "DTSTART;VALUE=DATE:20240101", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "Never on 30 February"),
            ("n2", "DTSTART;VALUE=DATE:20240102", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4", "Never on 31 April"),
            ("n3", "DTSTART:20240103T100000Z", "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "Never an hour of 30 February"),
        ].map { "BEGIN:VEVENT\r\nUID:\($0.0)\r\n\($0.1)\r\nRRULE:\($0.2)\r\nSUMMARY:\($0.3)\r\nEND:VEVENT\r\n" }
        let single = "BEGIN:VEVENT\r\nUID:s\r\nDTSTART;VALUE=DATE:20240110\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\n"
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events.joined() + single + "END:VCALENDAR\r\n").utf8).write(to: file)
        let never = [
            "2024-01-01 Mon  all-day      Never on 30 February",
            "2024-01-02 Tue  all-day      Never on 31 April",
            "2024-01-03 Wed  10:00        Never an hour of 30 February",
        ]
        let piped = try BinaryRunner.runShell("set -o pipefail; \"$INFCAL\" --today 2024-02-15 --no-cache --events '\(file.path)' "
                                              + "--agenda --search never --from 2024-01 | cat", deadline: 60)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.split(separator: "\n").map(String.init) == never)
        let all = try BinaryRunner.run(["--no-cache", "--events", file.path, "--agenda", "--from", "2024-01"], deadline: 60)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.split(separator: "\n").map(String.init) == never + ["2024-01-10 Wed  all-day      Lunch"])
        let json = try BinaryRunner.run(["--no-cache", "--events", file.path, "--agenda", "--json", "--search", "never", "--from", "2024-01"],
                                        deadline: 60)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 3)
        // From after them all: nothing at all, at once.
        let later = try BinaryRunner.run(["--no-cache", "--events", file.path, "--agenda", "--from", "2025-01"], deadline: 60)
        #expect(later.status == 0 && later.stdout.isEmpty, "\(later.stderr)")
    }

    /// The stream's lists, the month page to a file and the month's JSON keep the matches only.
    @Test func everyViewKeepsTheMatchesOnly() throws {
        let stream = try Self.run(["--search", "dentist", "3", "2024"])
        #expect(stream.status == 0)
        #expect(stream.stdout.contains(" 5 Tue  09:00  Dent"))
        #expect(stream.stdout.contains("12 Tue  12:00  Lunch"))
        #expect(!stream.stdout.contains("Standup") && !stream.stdout.contains("Trip"))
        let wall = try Self.run(["--search", "dentist", "--wall", "--from", "2024-03", "-1"])
        #expect(wall.status == 0)
        #expect(wall.stdout.contains("09:00 D") && wall.stdout.contains("12:00 L"))
        #expect(!wall.stdout.contains("08:30") && !wall.stdout.contains("Trip"))
        let json = try Self.run(["--search", "dentist", "--json", "3", "2024"])
        let summaries = json.stdout.components(separatedBy: "\"summary\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(summaries == ["Dentist", "Lunch"])
    }

    @Test func usageErrors() throws {
        let empty = try Self.run(["--agenda", "--search", ""])
        #expect(empty.status == 64)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr == "infcal: invalid value '' for --search: expected a text to look for\n")
        let noEvents = try BinaryRunner.run(["--agenda", "--search", "x"], environment: ["INFCAL_EVENTS": nil, "HOME": "/nonexistent"])
        #expect(noEvents.status == 64)
        #expect(noEvents.stderr.hasPrefix("infcal: --search is not available: no events"))
    }

    static let python: String? = WriteCommandEndToEndTests.python

    /// The JSON agenda of each search against recurring-ical-events over the same years,
    /// filtered by Python's folding: an oracle that shares no code with infcal's.
    @Test(.enabled(if: python != nil,
                   "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func theJSONAgendaAgreesWithRecurringIcalEvents() throws {
        let script = """
            import sys, datetime, unicodedata, icalendar, recurring_ical_events
            def fold(text):
                return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            needle = fold(sys.argv[2])
            rows = []
            for event in recurring_ical_events.of(cal).between(datetime.date(2024, 1, 1), datetime.date(2027, 1, 1)):
                text = [str(event.get(name, "")) for name in ("SUMMARY", "LOCATION", "DESCRIPTION")]
                if any(needle in fold(part) for part in text):
                    start = event["DTSTART"].dt
                    shown = start.strftime("%Y-%m-%dT%H:%M") if isinstance(start, datetime.datetime) else start.strftime("%Y-%m-%d")
                    rows.append(shown + " " + str(event["SUMMARY"]))
            for row in sorted(rows):
                print(row)
            """
        for text in ["dentist", "ZAHNÄRZTIN", "zahnarztin", "istanbul", "STRASSE", "upstairs", "standup", "nothing"] {
            let python = try ChildProcess.run(try #require(Self.python), ["-c", script, Self.fixture, text], environment: nil, deadline: 60)
            #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
            let theirs = String(decoding: python.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
            let ours = try Self.run(["--agenda", "--json", "--search", text, "--from", "2024-01", "--until", "2026-12-31"])
            #expect(ours.status == 0)
            let mine = ours.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let start = object["start"] as? String, let summary = object["summary"] as? String else { return nil }
                return "\(start.prefix(16)) \(summary)"
            }.sorted()
            #expect(mine == theirs, "\(text)")
        }
    }
}
