import Foundation
import Testing
import InfCalPTY

/// The stream with `--events`: days with events marked when colour is on, the grids untouched
/// when it is off, and each row's occurrences listed under it, whole into a pipe.
@Suite struct StreamEventsTests {
    static let berlin: [String: String?] = ["TZ": "Europe/Berlin"]

    /// The lines of `text` up to its first empty line (the grid of the first row).
    static func firstGrid(_ text: String) -> [String] {
        Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.map(String.init))
    }

    /// Two months side by side with colour off: the grid is byte for byte the grid without
    /// events (which NcalAgreementTests hold to `ncal -C`), then a blank line and the list.
    /// The list checked by eye against examples/holidays.ics: the weekly Tuesday standup at
    /// 09:00 Europe/Berlin until April, less the EXDATE of 9 April, the 16th moved to the 17th
    /// at 11:00, Easter on Sunday 31 March.
    @Test func rowWithEventsBelowIt() throws {
        let arguments = ["--from", "2024-03", "--forward", "2", "-c", "2", "--color", "never"]
        let plain = try BinaryRunner.run(arguments, environment: Self.berlin)
        let result = try BinaryRunner.run(["--events", EventCommandTests.example] + arguments, environment: Self.berlin)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == plain.stdout + """

            March 2024
             5 Tue  09:00  Standup
            12 Tue  09:00  Standup
            19 Tue  09:00  Standup
            26 Tue  09:00  Standup
            31 Sun  Easter Sunday
            April 2024
             2 Tue  09:00  Standup
            17 Wed  11:00  Standup (moved)
            23 Tue  09:00  Standup
            30 Tue  09:00  Standup

            """)
    }

    /// One month a row: each month's list under it, into a pipe not cut to the 20 cells of the
    /// grid; a month without events gets no list. The grid is `ncal -C 3 2024`'s.
    @Test func oneMonthARowIntoAPipeIsWhole() throws {
        let result = try BinaryRunner.run(["--events", EventCommandTests.example, "--from", "2024-03", "--forward", "3"],
                                          environment: Self.berlin)
        #expect(result.stdout == """
                 March 2024
            Su Mo Tu We Th Fr Sa
                            1  2
             3  4  5  6  7  8  9
            10 11 12 13 14 15 16
            17 18 19 20 21 22 23
            24 25 26 27 28 29 30
            31

             5 Tue  09:00  Standup
            12 Tue  09:00  Standup
            19 Tue  09:00  Standup
            26 Tue  09:00  Standup
            31 Sun  Easter Sunday

                 April 2024
            Su Mo Tu We Th Fr Sa
                1  2  3  4  5  6
             7  8  9 10 11 12 13
            14 15 16 17 18 19 20
            21 22 23 24 25 26 27
            28 29 30

             2 Tue  09:00  Standup
            17 Wed  11:00  Standup (moved)
            23 Tue  09:00  Standup
            30 Tue  09:00  Standup

                  May 2024
            Su Mo Tu We Th Fr Sa
                      1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29 30 31

            """)
    }

    /// With colour on, the days with events (and only they) are bold and underlined, today
    /// keeps its reverse video; without the escapes the grid is the plain one.
    @Test func markedDaysWithColour() throws {
        let arguments = ["--from", "2024-03", "--forward", "1", "--color", "always", "--today", "2024-03-05"]
        let result = try BinaryRunner.run(["--events", EventCommandTests.example] + arguments, environment: Self.berlin)
        let grid = Self.firstGrid(result.stdout)
        let on = "\u{1B}[1;4m", off = "\u{1B}[22;24m"
        #expect(grid[3] == " 3  4  \u{1B}[7m\(on)5\(off)\u{1B}[27m  6  7  8  9")
        #expect(grid[4] == "10 11 \(on)12\(off) 13 14 15 16")
        #expect(grid[7] == "\(on)31\(off)")
        #expect(grid.joined().components(separatedBy: on).count - 1 == 5)
        let plain = try BinaryRunner.run(arguments + ["--color", "never"], environment: Self.berlin)
        let stripped = grid.joined(separator: "\n").replacingOccurrences(of: on, with: "").replacingOccurrences(of: off, with: "")
            .replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[27m", with: "")
        #expect(stripped == Self.firstGrid(plain.stdout).joined(separator: "\n"))
    }

    /// A multi-day event marks each of its days (recurring_ical_events agrees: 2024-05-30 to
    /// 2024-06-02 inclusive); it is listed once, on its first day, in the month it starts.
    @Test func multiDayEventsMarkEveryDay() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("trip.ics")
        try Data("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:t\nSUMMARY:Trip\nDTSTART;VALUE=DATE:20240530\nDTEND;VALUE=DATE:20240603\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
            .write(to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--from", "2024-05", "--forward", "2", "-c", "2", "--color", "always"])
        let grid = Self.firstGrid(result.stdout)
        let on = "\u{1B}[1;4m", off = "\u{1B}[22;24m"
        #expect(grid[6] == "26 27 28 29 \(on)30\(off) \(on)31\(off)     23 24 25 26 27 28 29")
        #expect(grid[2] == "          1  2  3  4                     \(on)1\(off)")
        #expect(grid[3] == " 5  6  7  8  9 10 11   \(on)2\(off)  3  4  5  6  7  8")
        #expect(result.stdout.hasSuffix("\nMay 2024\n30 Thu  Trip\n"))
    }

    /// Without events nothing changes, with colour on too; INFCAL_EVENTS alone acts exactly as
    /// --events does, in the stream and in --json (issue 11 item 1: set it once).
    @Test func withoutEventsNothingChanges() throws {
        let arguments = ["--from", "2024-03", "--forward", "2", "--color", "always"]
        let plain = try BinaryRunner.run(arguments, environment: ["INFCAL_EVENTS": nil])
        #expect(!plain.stdout.contains("\u{1B}[1;4m"))
        let empty = try BinaryRunner.run(arguments, environment: ["INFCAL_EVENTS": "::"])
        #expect(empty.stdout == plain.stdout)
        for extra in [[], ["--json"]] {
            let variable = try BinaryRunner.run(arguments + extra, environment: ["INFCAL_EVENTS": EventCommandTests.example])
            let option = try BinaryRunner.run(arguments + extra + ["--events", EventCommandTests.example], environment: ["INFCAL_EVENTS": nil])
            #expect(variable.status == 0)
            #expect(variable.stdout == option.stdout)
            #expect(variable.stdout != plain.stdout)
        }
        // A missing file in it is the error --events gives, naming the path.
        let missing = "/nonexistent/infcal-missing.ics"
        let byVariable = try BinaryRunner.run(arguments, environment: ["INFCAL_EVENTS": missing])
        let byOption = try BinaryRunner.run(arguments + ["--events", missing], environment: ["INFCAL_EVENTS": nil])
        #expect(byVariable.status == 66)
        #expect(byVariable.stdout == "")
        #expect(byVariable.stderr == byOption.stderr)
        #expect(byVariable.stderr.contains(missing))
        // Answers that show no months read no events.
        for other in [["--completions", "bash"], ["--calendar", "list"]] {
            let answer = try BinaryRunner.run(other, environment: ["INFCAL_EVENTS": missing])
            #expect(answer.status == 0, "\(other)")
            #expect(answer.stderr == "", "\(other)")
        }
    }

    /// `--wall --events`: each month's cells are as tall as its busiest day needs, and list the
    /// events as the pager's month page does (checked by eye against examples/team.ics: four
    /// events on Tuesday 12 March, Berlin time), a space from both lines of the cell.
    @Test func wallPagesListEvents() throws {
        let examples = URL(fileURLWithPath: EventCommandTests.example).deletingLastPathComponent()
        let arguments = ["--wall", "--width", "100", "--from", "2024-03", "--forward", "1", "--color", "never",
                         "--events", EventCommandTests.example, "--events", examples.appendingPathComponent("team.ics").path]
        let result = try BinaryRunner.run(arguments, environment: ["TZ": "Europe/Berlin", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let twelfth = try #require(lines.firstIndex { $0.hasPrefix("│          10 │          11 │          12 │") })
        // Cut text keeps a space from both cell lines, as the day numbers do.
        #expect(lines[twelfth + 1].hasPrefix("│             │ 07:00 Gym   │ 09:00 Stan… │"))
        #expect(lines[twelfth + 2].hasPrefix("│             │             │ 10:00 1:1…  │"))
        #expect(lines[twelfth + 3].hasPrefix("│             │             │ 12:30 Lunc… │"))
        #expect(lines[twelfth + 4].hasPrefix("│             │             │ 16:30 Dent… │"))
        #expect(lines[twelfth + 5].hasPrefix("├"))
        // Every row of the grid keeps its eight lines in the same columns.
        let grid = lines.filter { $0.hasPrefix("│") }
        #expect(Set(grid.map { $0.count }).count == 1)
        #expect(!result.stdout.contains("\u{1B}"))
    }

    /// At a terminal the lines are cut to the terminal's width (28 columns here), not to the
    /// 20 cells of the grid: `17 Wed  11:00  Standup (moved)` is 30 cells.
    @Test func atATerminalCutToItsWidth() throws {
        let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                arguments: ["--events", EventCommandTests.example, "--from", "2024-04",
                                                            "--forward", "1", "--color", "never"],
                                                environment: PseudoTerminalSession.pinnedEnvironment.merging(["TZ": "Europe/Berlin"]) { $1 },
                                                columns: 28, rows: 40)
        #expect(session.waitForExit() == .exited(0))
        let lines = String(decoding: session.output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
            .split(separator: "\n").map(String.init)
        #expect(lines.contains(" 2 Tue  09:00  Standup"), "\(lines)")
        #expect(lines.contains("17 Wed  11:00  Standup (mov…"), "\(lines)")
    }

    /// Events already under way on the first day listed: a conference of 30 March to 2 April
    /// (all day, DTEND 3 April exclusive, RFC 5545 3.6.1) and a night from 31 March 22:00 to
    /// 1 April 02:00 head April's list, marked continuing; `--json` lists them in April with
    /// their true starts. Listed from March they are March's, and April does not repeat them.
    @Test func underWayOnTheFirstDayListed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-underway-\(getpid()).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
            + "BEGIN:VEVENT\r\nUID:c\r\nSUMMARY:Conference\r\nDTSTART;VALUE=DATE:20140330\r\nDTEND;VALUE=DATE:20140403\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:n\r\nSUMMARY:Night\r\nDTSTART:20140331T220000\r\nDTEND:20140401T020000\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:m\r\nSUMMARY:Meeting\r\nDTSTART:20140408T100000\r\nDTEND:20140408T110000\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n").utf8).write(to: file)
        let utc: [String: String?] = ["TZ": "UTC"]
        let april = try BinaryRunner.run(["--events", file.path, "--from", "2014-04", "--forward", "1"], environment: utc)
        #expect(april.stdout.hasSuffix("\n\n 1 Tue  Conference  (continuing)\n 1 Tue  Night  (continuing)\n 8 Tue  10:00  Meeting\n"),
                "\(april.stdout)")
        let json = try BinaryRunner.run(["--events", file.path, "--from", "2014-04", "--forward", "1", "--json"], environment: utc)
        #expect(json.stdout.contains("\"events\":[{\"start\":\"2014-03-30\",\"end\":\"2014-04-03\",\"allDay\":true,\"summary\":\"Conference\""),
                "\(json.stdout)")
        #expect(json.stdout.contains("{\"start\":\"2014-03-31T22:00:00\",\"end\":\"2014-04-01T02:00:00\",\"allDay\":false,\"summary\":\"Night\""))
        let both = try BinaryRunner.run(["--events", file.path, "--from", "2014-03", "--forward", "2"], environment: utc)
        #expect(both.stdout.components(separatedBy: "Conference").count == 2)
        #expect(!both.stdout.contains("(continuing)"))
        let jsonBoth = try BinaryRunner.run(["--events", file.path, "--from", "2014-03", "--forward", "2", "--json"], environment: utc)
        #expect(jsonBoth.stdout.components(separatedBy: "Conference").count == 2)
    }
}
