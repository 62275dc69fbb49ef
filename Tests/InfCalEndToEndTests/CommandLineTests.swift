import Foundation
import InfCalProcess
import Testing

/// Runs of the built binary: exit statuses, messages, streams and how output ends.
@Suite struct CommandLineTests {
    @Test func printsTheIssueExample() throws {
        let result = try BinaryRunner.run(["--from", "2024-02", "--forward", "1"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // ncal -C 2 2024, trailing blanks removed.
        #expect(result.stdout == """
               February 2024
            Su Mo Tu We Th Fr Sa
                         1  2  3
             4  5  6  7  8  9 10
            11 12 13 14 15 16 17
            18 19 20 21 22 23 24
            25 26 27 28 29

            """)
    }

    @Test func streamsSixMonthsFromTheFromMonth() throws {
        let result = try BinaryRunner.run(["--from", "2024-01", "--forward", "6"])
        #expect(result.status == 0)
        let months = result.stdout.components(separatedBy: "\n\n")
        #expect(months.count == 6)
        #expect(months.first?.hasPrefix("    January 2024\n") == true)
        #expect(months.last?.hasPrefix("     June 2024\n") == true)
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let stderr: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["--from", "2024-13"],
                  stderr: "infcal: invalid value '2024-13' for --from: expected YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)\n"),
        UsageCase(arguments: ["--frm"], stderr: "infcal: unknown option '--frm' (did you mean '--from'?)\n"),
        UsageCase(arguments: ["--forward", "2", "--backward"], stderr: "infcal: --forward cannot be used together with --backward\n"),
        UsageCase(arguments: ["--forward", "0"],
                  stderr: "infcal: invalid value '0' for --forward: expected a count: a whole number from 1 up\n"),
        UsageCase(arguments: ["--since", "2024-02", "--until", "2024-01-31"],
                  stderr: "infcal: invalid value '2024-01-31' for --until: expected a date not before --since 2024-02\n"),
        UsageCase(arguments: ["--columns"], stderr: "infcal: missing value for --columns: expected a number from 1 to 1000, or auto\n"),
        UsageCase(arguments: ["--forward", "abc"], stderr: "infcal: invalid value 'abc' for --forward: expected a count: a whole number from 1 up\n"),
        UsageCase(arguments: ["2024-03"],
                  stderr: "infcal: invalid value '2024-03' for MONTH: expected a month: 1 to 12, or a name such as march or mar; did you mean '--from 2024-03'?\n"),
        // Beyond what a count can hold: every numeric option names its range.
        UsageCase(arguments: ["--forward", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for --forward: expected a count: a whole number from 1 up\n"),
        UsageCase(arguments: ["--backward", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for --backward: expected a count: a whole number from 1 up\n"),
        UsageCase(arguments: ["-n", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for -n: expected a count: a whole number from 1 up\n"),
        UsageCase(arguments: ["-A", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for -A: expected a count: a whole number from 0 up\n"),
        UsageCase(arguments: ["--columns", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for --columns: expected a number from 1 to 1000, or auto\n"),
        UsageCase(arguments: ["--wall", "--width", "99999999999999999999"],
                  stderr: "infcal: invalid value '99999999999999999999' for --width: expected a width in columns from 22 to 10000\n"),
        UsageCase(arguments: ["--days"], stderr: "infcal: --days is not available: it groups the lines of --agenda under day headings\n"),
        UsageCase(arguments: ["--agenda", "--days", "--json", "--events", "/dev/null"], stderr: "infcal: --days cannot be used together with --json\n"),
    ]

    @Test(arguments: usageCases)
    func usageErrorsSayWhatWasExpected(_ usage: UsageCase) throws {
        let result = try BinaryRunner.run(usage.arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == usage.stderr)
    }

    /// `--year` beyond the calendar names the calendar's last year, and that year is one it
    /// has: the next is refused with the same message (Gregorian, Hebrew).
    @Test func aYearTooFarNamesTheCalendarsLastYear() throws {
        for calendar in ["gregorian", "hebrew"] {
            let far = try BinaryRunner.run(["--calendar", calendar, "--year", "99999999999999999999"])
            #expect(far.status == 64 && far.stdout.isEmpty)
            let prefix = "infcal: invalid value '99999999999999999999' for --year: expected a year of the calendar, from 1 to "
            #expect(far.stderr.hasPrefix(prefix), "\(far.stderr)")
            let last = try #require(Int(far.stderr.dropFirst(prefix.count).prefix { $0.isNumber }))
            #expect(last > 9999, "\(calendar): \(last)")
            let shown = try BinaryRunner.run(["--calendar", calendar, "--year", String(last)])
            #expect(shown.status == 0, "\(calendar) \(last): \(shown.stderr)")
            let next = try BinaryRunner.run(["--calendar", calendar, "--year", String(last + 1)])
            #expect(next.status == 64)
            #expect(next.stderr == "infcal: invalid value '\(last + 1)' for --year: expected a year of the calendar, from 1 to \(last)\n")
        }
    }

    /// A positional YEAR past a million (`infcal 2000000`, as cal takes it) names the same
    /// range as one just past the calendar's end, and that last year is one it shows
    /// (Gregorian, Hebrew); with a MONTH it names the dates the positional date reads.
    @Test func aPositionalYearTooFarNamesTheRange() throws {
        for calendar in ["gregorian", "hebrew"] {
            for year in ["2000000", "99999999999999999999"] {
                let far = try BinaryRunner.run(["--calendar", calendar, year])
                #expect(far.status == 64 && far.stdout.isEmpty)
                let prefix = "infcal: invalid value '\(year)' for YEAR: expected a year of the calendar, from 1 to "
                #expect(far.stderr.hasPrefix(prefix), "\(far.stderr)")
                let last = try #require(Int(far.stderr.dropFirst(prefix.count).prefix { $0.isNumber }))
                #expect(last > 9999, "\(calendar): \(last)")
                #expect(try BinaryRunner.run(["--calendar", calendar, String(last)]).status == 0, "\(calendar) \(last)")
                let next = try BinaryRunner.run(["--calendar", calendar, String(last + 1)])
                #expect(next.stderr == "infcal: invalid value '\(last + 1)' for YEAR: expected a year of the calendar, from 1 to \(last)\n")
                #expect(far.stderr == next.stderr.replacingOccurrences(of: "'\(last + 1)'", with: "'\(year)'"))
            }
        }
        let month = try BinaryRunner.run(["3", "2000000"])
        let near = try BinaryRunner.run(["3", "999999"])
        #expect(month.status == 64 && near.status == 64)
        #expect(month.stderr == near.stderr.replacingOccurrences(of: "'999999'", with: "'2000000'") && !month.stderr.isEmpty, "\(month.stderr)")
    }

    @Test func hugeCountStreamsUntilTheReaderStops() throws {
        // A valid count far beyond the calendar: it streams; `head` ends it.
        let shell = try BinaryRunner.runShell("\"$INFCAL\" --forward 9223372036854775807 --from 2024-01 | head -3; echo \"status ${PIPESTATUS[0]}\"")
        #expect(shell.stdout == "    January 2024\nSu Mo Tu We Th Fr Sa\n    1  2  3  4  5  6\nstatus 0\n")
        #expect(shell.stderr == "")
    }

    @Test func aClosedPipeIsANormalEnd() throws {
        // An endless stream into a reader that leaves after a few bytes: status 0, no message.
        var out: [Int32] = [-1, -1]
        try #require(pipe(&out) == 0)
        // Neither end may stay open in the child: its own read end would keep the pipe alive.
        for fd in out { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-pipe-\(getpid())").path
        defer { unlink(errFile) }
        let pid = try ChildProcess.spawn(BinaryRunner.executable.path, ["--forward", "--today", "2024-02-15"],
                                         environment: BinaryRunner.baseEnvironment,
                                         redirections: [.inputFromNull, .duplicate(fd: 1, from: out[1]), .output(2, toFile: errFile)])
        close(out[1])
        var head = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < 100 {
            let got = head[count...].withUnsafeMutableBytes { read(out[0], $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            count += got
        }
        #expect(count == 100)
        close(out[0])
        let exit = ChildProcess.wait(pid, deadline: 10)
        #expect(exit != nil, "infcal kept running after its reader left")
        if exit == nil { kill(pid, SIGKILL); _ = ChildProcess.wait(pid) }
        #expect(exit == .exited(0))
        #expect((try? String(contentsOfFile: errFile, encoding: .utf8)) == "")
    }

    @Test func aFullDiskIsAnError() throws {
        let run = try ChildProcess.run(BinaryRunner.executable.path, ["--forward", "100", "--today", "2024-02-15"],
                                       environment: BinaryRunner.baseEnvironment,
                                       output: .open(fd: 1, path: "/dev/full", flags: O_WRONLY), deadline: 10)
        #expect(!run.timedOut)
        #expect(run.exit == .exited(1))
        #expect(String(decoding: run.standardError, as: UTF8.self) == "infcal: write error: No space left on device\n")
    }

    @Test func todayIsPinnedAndHighlighted() throws {
        let result = try BinaryRunner.run(["--today", "2024-02-05", "--forward", "1", "--color", "always"])
        #expect(result.stdout.hasPrefix("   February 2024\n"))
        #expect(result.stdout.contains(" 4  \u{1B}[7m5\u{1B}[27m  6"))
        // Not a terminal: auto means no highlight.
        let auto = try BinaryRunner.run(["--today", "2024-02-05", "--forward", "1"])
        #expect(!auto.stdout.contains("\u{1B}"))
    }

    @Test func relativeDatesCountFromToday() throws {
        let result = try BinaryRunner.run(["--today", "2024-12-31", "--from", "+2", "--forward", "1"])
        #expect(result.stdout.hasPrefix("   February 2025\n"))
    }

    @Test func noDirectionIntoAPipeStreamsWithoutEnd() throws {
        let shell = try BinaryRunner.runShell("\"$INFCAL\" --today 2024-02-15 | head -40 | grep -c 2024")
        // Months February onwards: the first 40 lines hold five titles of 2024.
        #expect(Int(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 4)
    }

    @Test func columnsSideBySide() throws {
        let result = try BinaryRunner.run(["--from", "2024-01", "--forward", "2", "--columns", "2"])
        #expect(result.stdout.hasPrefix("    January 2024         February 2024\nSu Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa\n"))
        let auto = try BinaryRunner.run(["--from", "2024-01", "--forward", "4", "--columns", "auto"], environment: ["COLUMNS": "44"])
        #expect(auto.stdout.hasPrefix("    January 2024         February 2024\n"))
    }

    @Test func backwardFromTheFirstMonthOfTimeEnds() throws {
        let result = try BinaryRunner.run(["--from", "-4712-03", "--backward"])
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "\n\n").count == 3)
        // 1 January 4713 BC is Julian day 0, a Monday.
        #expect(result.stdout.hasSuffix("  January 4713 BC\nSu Mo Tu We Th Fr Sa\n    1  2  3  4  5  6\n 7  8  9 10 11 12 13\n14 15 16 17 18 19 20\n21 22 23 24 25 26 27\n28 29 30 31\n"))
    }

    @Test func forwardToTheLastMonthEnds() throws {
        let result = try BinaryRunner.run(["--from", "506712-06", "--forward"])
        #expect(result.status == 0)
        let titles = result.stdout.components(separatedBy: "\n\n").map { $0.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces) }
        #expect(titles.count > 3 && titles.count < 30)
        #expect(Set(titles).count == titles.count)
    }

    @Test func helpAndVersion() throws {
        let help = try BinaryRunner.run(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: infcal [OPTION]... [[DAY] MONTH] YEAR\n"))
        let version = try BinaryRunner.run(["-V"])
        #expect(version.status == 0 && version.stdout.hasPrefix("infcal "))
    }

    /// An events directory without any `.ics` file (here one holding only a `.txt`) is one
    /// warning line naming it; the grid is printed as without events. One with an `.ics`
    /// file in a subdirectory is not warned about.
    @Test func anEventsDirectoryWithoutIcsFilesIsAWarning() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-noics-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("deeper"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: root.appendingPathComponent("notes.txt"))
        let plain = try BinaryRunner.run(["--from", "2024-03", "--forward", "1"])
        let result = try BinaryRunner.run(["--events", root.path, "--from", "2024-03", "--forward", "1"])
        #expect(result.status == 0)
        #expect(result.stderr == "infcal: \(root.path): no .ics file in this directory\n")
        #expect(result.stdout == plain.stdout)
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: root.appendingPathComponent("deeper/empty.ics"))
        let found = try BinaryRunner.run(["--events", root.path, "--from", "2024-03", "--forward", "1"])
        #expect(found.status == 0)
        #expect(found.stderr == "")
    }
}
