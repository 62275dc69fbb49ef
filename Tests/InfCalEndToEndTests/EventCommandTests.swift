import Foundation
import Testing

/// `--events`, `--agenda` and `--strict` through the built binary: output, warnings, exit statuses.
@Suite struct EventCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("examples/holidays.ics").path

    /// A fresh directory for the files a test writes.
    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func calendar(_ events: [(String, String)]) -> String {
        "BEGIN:VCALENDAR\n" + events.map { "BEGIN:VEVENT\nSUMMARY:\($0.0)\nDTSTART;VALUE=DATE:\($0.1)\nEND:VEVENT\n" }.joined() + "END:VCALENDAR\n"
    }

    @Test func theReadmeExample() throws {
        let result = try BinaryRunner.run(["--events", Self.example, "--agenda", "--from", "2024-03-25", "--forward", "2"],
                                          environment: ["TZ": "Europe/Berlin"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // Python's recurring_ical_events over the same file (less the RSCALE event, which it
        // cannot read), shown in Europe/Berlin, gives the same six occurrences.
        #expect(result.stdout == """
            2024-03-26 Tue  09:00-10:00  Standup
            2024-03-31 Sun  all-day      Easter Sunday
            2024-04-02 Tue  09:00-10:00  Standup
            2024-04-17 Wed  11:00-11:30  Standup (moved)
            2024-04-23 Tue  09:00-10:00  Standup
            2024-04-30 Tue  09:00-10:00  Standup

            """)
    }

    @Test func hebrewRuleAndBackwardOrder() throws {
        let result = try BinaryRunner.run(["--events", Self.example, "--agenda", "--from", "2028-12-31", "--backward", "--since", "2026"])
        #expect(result.status == 0)
        let rosh = result.stdout.split(separator: "\n").filter { $0.hasSuffix("Rosh Hashanah") }.map { String($0.prefix(10)) }
        // 1 Tishri 5787, 5788, 5789 (convertdate's Hebrew calendar), newest first.
        #expect(rosh == ["2028-09-21", "2027-10-02", "2026-09-12"])
    }

    @Test func missingFileIsExit66() throws {
        let result = try BinaryRunner.run(["--events", "/nonexistent/work.ics", "--agenda"])
        #expect(result.status == 66)
        #expect(result.stdout == "")
        #expect(result.stderr == "infcal: cannot read events from '/nonexistent/work.ics': No such file or directory\n")
    }

    @Test func warningsAndStrict() throws {
        let dir = try directory()
        let bad = dir.appendingPathComponent("work.ics")
        try write("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            SUMMARY:Fine
            DTSTART;VALUE=DATE:20240220
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Odd
            DTSTART;VALUE=DATE:20240221
            RRULE:FREQ=FORTNIGHTLY
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Odder
            DTSTART;VALUE=DATE:20240299
            END:VEVENT
            END:VCALENDAR

            """, to: bad)
        let result = try BinaryRunner.run(["--events", bad.path, "--agenda", "--forward", "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "2024-02-20 Tue  all-day      Fine\n")
        #expect(result.stderr == "infcal: \(bad.path):9: RRULE: unknown FREQ 'FORTNIGHTLY'; event skipped (and 1 more event skipped in this file)\n")
        let strict = try BinaryRunner.run(["--events", bad.path, "--agenda", "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stdout == "")
        // The last line counts the two skipped events (its wording also covers failed fetches).
        #expect(strict.stderr.split(separator: "\n").last?.hasPrefix("infcal: --strict: 2 events") == true)
    }

    @Test func directoriesEnvironmentAndStandardInput() throws {
        let dir = try directory()
        try write(Self.calendar([("Deep", "20240301")]), to: dir.appendingPathComponent("a/b/deep.ics"))
        try write(Self.calendar([("Top", "20240302")]), to: dir.appendingPathComponent("top.ICS"))
        try write("not a calendar", to: dir.appendingPathComponent("notes.txt"))
        let byDirectory = try BinaryRunner.run(["--events", dir.path, "--agenda", "--from", "2024-03", "--forward", "1"])
        #expect(byDirectory.stdout == "2024-03-01 Fri  all-day      Deep\n2024-03-02 Sat  all-day      Top\n")
        #expect(byDirectory.stderr == "")
        let byVariable = try BinaryRunner.run(["--agenda", "--from", "2024-03", "--forward", "1"],
                                              environment: ["INFCAL_EVENTS": dir.appendingPathComponent("top.ICS").path + "::/"
                                                            + dir.appendingPathComponent("a").path.dropFirst()])
        #expect(byVariable.stdout == byDirectory.stdout)
        let input = try BinaryRunner.runShell(
            "printf 'BEGIN:VEVENT\\r\\nSUMMARY:Piped\\r\\nDTSTART:20240303\\r\\nEND:VEVENT\\r\\n' | \"$INFCAL\" --today 2024-02-15 --events - --agenda --from 2024-03 --forward 1")
        #expect(input.stdout == "2024-03-03 Sun  all-day      Piped\n")
    }

    @Test func agendaUsageErrors() throws {
        let none = try BinaryRunner.run(["--agenda"], environment: ["INFCAL_EVENTS": nil])
        #expect(none.status == 64)
        #expect(none.stderr == "infcal: --agenda is not available: no events: give --events PATH, set INFCAL_EVENTS, configure a calendar or add one with infcal add\n")
        let paged = try BinaryRunner.run(["--agenda", "--year", "--events", Self.example])
        #expect(paged.status == 64)
        #expect(paged.stderr == "infcal: --agenda cannot be used together with --year\n")
    }

    /// Into a pipe with no bound the list runs until no event can come: a file of single
    /// events ends, a yearly one runs until the reader goes away.
    @Test func unboundedListsEnd() throws {
        let dir = try directory()
        let single = dir.appendingPathComponent("single.ics")
        try write(Self.calendar([("Once", "20300101")]), to: single)
        let finite = try BinaryRunner.run(["--events", single.path, "--agenda"], deadline: 10)
        #expect(finite.status == 0)
        #expect(finite.stdout == "2030-01-01 Tue  all-day      Once\n")
        let yearly = try BinaryRunner.runShell("\"$INFCAL\" --today 2024-02-15 --events '\(Self.example)' --agenda | head -3", deadline: 10)
        #expect(yearly.stdout.split(separator: "\n").count == 3)
    }
}
