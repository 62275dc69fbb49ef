import Foundation
import InfCalPTY
import Testing

/// What a hostile or careless file, file name, variable or signal gets through the built
/// binary: no hang, no crash, memory bounded, nothing raw on the terminal, no good event lost.
/// Each case is one a fuzzing run found, reproduced with a file of a few lines.
@Suite struct HostileInputTests {
    /// A fresh directory for the files a test writes.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    /// A calendar of `body` (VEVENT lines and components), CRLF-free as most tests write them.
    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\n" + body + "END:VCALENDAR\n"
    }

    /// Whether `text` holds a byte that drives a terminal: C0 controls other than newline, DEL,
    /// C1 controls (as UTF-8) or the bidi embeddings, overrides and isolates.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    // MARK: The environment

    /// TZ=$'\xff' trapped in Foundation's CFTimeZoneCreateWithName (SIGILL). A malformed TZ
    /// counts as unset: UTC, so the run is the one without TZ.
    @Test(arguments: ["\\xff", "\\xc3", "Europe/Berlin\\x01", "\\xe2\\x80\\xae"])
    func malformedZoneCountsAsUnset(value: String) throws {
        let bad = try BinaryRunner.runShell("TZ=$'\(value)' \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        let unset = try BinaryRunner.runShell("unset TZ; \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        #expect(!bad.signalled)
        #expect(bad.stdout == unset.stdout, "TZ=$'\(value)'")
        #expect(bad.stdout.hasSuffix("status 0\n"))
        #expect(bad.stderr == "")
        let directory = try BinaryRunner.runShell("TZDIR=$'\\xff' \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        #expect(directory.stdout == unset.stdout)
    }

    // MARK: Nothing raw on the terminal

    /// An OSC 52 payload after DTSTART put `rm -rf ~` into the clipboard; OSC 0 in a value or a
    /// file name set the window title; a newline in a file name forged a second message line.
    @Test func warningsQuoteFileValuesAndNamesInert() throws {
        let dir = try Self.directory()
        let payload = "\u{1B}]52;c;cm0gLXJmIH4K\u{07}"
        let values = [
            "DTSTART:" + payload, "DTSTART:20240301T090000Z\nDURATION:" + payload,
            "DTSTART:20240301T090000Z\nRRULE:FREQ=" + payload, "DTSTART;TZID=\u{1B}]0;title\u{07}:20240301T090000",
            "DTSTART:20240301T090000Z\nEXDATE:" + payload, "DTSTART:20240301T090000Z\nRDATE:" + payload,
            "DTSTART:20240301T090000Z\nRECURRENCE-ID:\u{9B}2J\u{202E}",
        ]
        for (index, value) in values.enumerated() {
            let name = "bad\u{1B}]0;title\u{07}\nforged: line \(index)\u{202E}.ics"
            try Self.write(Self.calendar("BEGIN:VEVENT\nUID:x\(index)\nSUMMARY:s\n\(value)\nEND:VEVENT\n"),
                           to: dir.appendingPathComponent(name))
        }
        let result = try BinaryRunner.run(["--events", dir.path, "--agenda", "--from", "2024-03-01", "--forward", "1"])
        #expect(result.status == 0)
        #expect(!Self.hasRawControl(result.stderr), "\(result.stderr.debugDescription)")
        // One line per warning: no forged line.
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("infcal: ") }, "\(result.stderr)")
        #expect(result.stderr.contains("\\x1b]52;c;"))
        #expect(result.stderr.contains("bad\\x1b]0;title\\x07\\nforged: line 0\\u{202e}.ics"))
        // The go-to prompt's error and missing paths quote the same way.
        let missing = try BinaryRunner.run(["--events", "/nonexistent/\u{1B}[2J\u{202E}.ics"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "infcal: cannot read events from '/nonexistent/\\x1b[2J\\u{202e}.ics': No such file or directory\n")
        let variable = try BinaryRunner.run(["-1"], environment: ["INFCAL_EVENTS": "/nonexistent/\u{9B}x"])
        #expect(variable.stderr == "infcal: cannot read events from '/nonexistent/\\u{9b}x': No such file or directory\n")
    }

    /// Text views never show C0, C1 or bidi controls from a file; JSON escapes them as \uXXXX
    /// (U+009B came through raw, as did U+202E in every text view).
    @Test func viewsAndJSONCarryNoRawControls() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("evil.ics")
        try Self.write(Self.calendar("""
            BEGIN:VEVENT
            UID:e1
            DTSTART:20240305T090000Z
            SUMMARY:csi\u{9B}2Jx bidi\u{202E}desrever\u{202C} iso\u{2066}late\u{2069} esc\u{1B}[31m del\u{7F}
            END:VEVENT

            """), to: file)
        // The stream cuts its lines to the month's width; the agenda and the page show the rest.
        let views: [(arguments: [String], showsAll: Bool)] = [
            (["--agenda"], true), (["--forward", "1"], false), (["--wall", "--forward", "1", "--width", "200"], true),
            (["--forward", "1", "--color", "always"], false),
        ]
        for view in views {
            let result = try BinaryRunner.run(["--events", file.path, "--from", "2024-03"] + view.arguments,
                                              environment: ["LC_ALL": "C.UTF-8"])
            #expect(result.status == 0)
            #expect(!view.showsAll || result.stdout.contains("csi 2Jx bidi"), "\(view)")
            // Colour itself is infcal's (bold and underline around a day): only the rest is checked.
            let text = result.stdout.replacingOccurrences(of: "\u{1B}[1;4m", with: "").replacingOccurrences(of: "\u{1B}[22;24m", with: "")
            #expect(!Self.hasRawControl(text), "\(view): \(text.debugDescription)")
        }
        let json = try BinaryRunner.run(["--events", file.path, "--from", "2024-03", "--agenda", "--json", "--forward", "1"])
        #expect(json.status == 0)
        #expect(!Self.hasRawControl(json.stdout), "\(json.stdout.debugDescription)")
        // Python's json.dumps (ensure_ascii) writes these characters the same way.
        #expect(json.stdout.contains("csi\\u009b2Jx bidi\\u202edesrever\\u202c iso\\u2066late\\u2069 esc\\u001b[31m del\\u007f"))
    }

    /// Emoji joined by U+200D, flags and skin tones are one wide cluster: the month page's
    /// borders line up, as Python's `wcwidth.wcswidth` measures each line (skips without it).
    @Test func emojiClustersKeepTheMonthPageAligned() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("emoji.ics")
        try Self.write(Self.calendar("""
            BEGIN:VEVENT
            DTSTART;VALUE=DATE:20240305
            SUMMARY:👨‍👩‍👧 family 🇩🇪 flag 👍🏽 ok
            END:VEVENT
            BEGIN:VEVENT
            DTSTART;VALUE=DATE:20240306
            SUMMARY:🇩🇪🇫🇷
            END:VEVENT

            """), to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--wall", "--from", "2024-03", "--forward", "1", "--width", "80"],
                                          environment: ["LC_ALL": "C.UTF-8"])
        #expect(result.status == 0)
        let script = try Self.directory().appendingPathComponent("widths.py")
        try Self.write("import sys, wcwidth\nlines = sys.stdin.read().split('\\n')[2:-2]\n"
                       + "print(sorted({wcwidth.wcswidth(l) for l in lines if l.strip()}))\n", to: script)
        let path = try Self.directory().appendingPathComponent("page.txt")
        try Self.write(result.stdout, to: path)
        // The caller's PATH: pip may have put wcwidth beside a python3 that is not the system's.
        let measured = try BinaryRunner.runProgram(URL(fileURLWithPath: "/bin/bash"),
                                                   ["-c", "python3 -c 'import wcwidth' 2>/dev/null || { echo skip; exit 0; }; python3 \"$0\" < \"$1\"",
                                                    script.path, path.path],
                                                   environment: ["PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 20)
        if measured.stdout == "skip\n" {
            print("python3 with wcwidth is not installed (pip install wcwidth); skipping the width check against it")
            return
        }
        // Every line of the grid (the title and the weekday header aside) is equally wide.
        #expect(measured.stdout.split(separator: ",").count == 1, "\(measured.stdout) \(result.stdout)")
    }

    // MARK: Bounded input

    /// The address space each run may use here: many times what any of them needs when
    /// reading is bounded, far below what unbounded reading took (1.09 GB, then an abort).
    static let memoryLimit = 600 << 20

    static let good = calendar("BEGIN:VEVENT\nUID:good\nDTSTART;VALUE=DATE:20240305\nSUMMARY:good event\nEND:VEVENT\n")

    /// /dev/zero, /dev/urandom and a 2 GB sparse file grew to 1.09 GB and aborted (or
    /// allocated their size at once): each is a one-line warning, skipped, exit 65 with --strict.
    @Test func devicesAndHugeFilesCostNoMoreThanTheLimit() throws {
        let dir = try Self.directory()
        let sparse = dir.appendingPathComponent("sparse.ics")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        for path in ["/dev/zero", "/dev/urandom", sparse.path] {
            let result = try BinaryRunner.run(["--events", path, "-1"], memoryLimit: Self.memoryLimit)
            #expect(!result.signalled && result.status == 0, "\(path): \(result.stderr)")
            #expect(result.stderr == "infcal: \(path): larger than 64 MiB, the most infcal reads from a file; skipped\n")
            let strict = try BinaryRunner.run(["--events", path, "-1", "--strict"], memoryLimit: Self.memoryLimit)
            #expect(strict.status == 65, "\(path)")
        }
        let input = try BinaryRunner.runShell("ulimit -v \(Self.memoryLimit >> 10); \"$INFCAL\" --events - -1 --strict < /dev/zero; echo \"status $?\"")
        #expect(input.stdout == "status 65\n")
        #expect(input.stderr.hasPrefix("infcal: (standard input): larger than 64 MiB"))
    }

    /// A FIFO in a directory blocked for ever; a socket, a looping link and a subdirectory that
    /// cannot be listed stopped the run. Each is a warning naming it; the good file is read.
    @Test func aDirectoryReadsRegularFilesAndWarnsAboutTheRest() throws {
        let dir = try Self.directory()
        try Self.write(Self.good, to: dir.appendingPathComponent("good.ics"))
        #expect(mkfifo(dir.appendingPathComponent("pipe.ics").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop.ics").path, withDestinationPath: "loop.ics")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.ics").path, withDestinationPath: "good.ics")
        let result = try BinaryRunner.run(["--events", dir.path, "--agenda", "--from", "2024-03", "--forward", "1"], deadline: 20)
        #expect(result.status == 0)
        #expect(result.stdout == "2024-03-05 Tue  all-day      good event\n2024-03-05 Tue  all-day      good event\n")
        #expect(result.stderr == """
            infcal: \(dir.path)/loop.ics: Too many levels of symbolic links; skipped
            infcal: \(dir.path)/pipe.ics: a FIFO, not a regular file; skipped

            """)
        let strict = try BinaryRunner.run(["--events", dir.path, "--agenda", "--from", "2024-03", "--forward", "1", "--strict"])
        #expect(strict.status == 65)
    }

    /// A FIFO named explicitly is read as process substitution gives it; one nobody writes to
    /// ends after a bounded wait (exit 66) instead of blocking for ever.
    @Test func aNamedFIFOIsReadAndOneWithoutWriterEnds() throws {
        let piped = try BinaryRunner.runShell("\"$INFCAL\" --events <(printf '\(Self.good.replacingOccurrences(of: "\n", with: "\\n"))') --agenda --from 2024-03 --forward 1")
        #expect(piped.stdout == "2024-03-05 Tue  all-day      good event\n", "\(piped.stderr)")
        let dir = try Self.directory()
        let fifo = dir.appendingPathComponent("lonely.ics").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let lonely = try BinaryRunner.run(["--events", fifo, "-1"], deadline: 30)
        #expect(lonely.status == 66)
        #expect(lonely.stderr == "infcal: cannot read events from '\(fifo)': a FIFO that no program wrote to within 10 s\n")
    }

    /// An unreadable directory given to --events was silently ignored: it is exit 66, as the
    /// man page says. Run as an unprivileged user (root reads any directory): skipped when
    /// setpriv cannot switch to one.
    @Test func anUnreadableDirectoryIsExit66() throws {
        let dir = try Self.directory()
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try Self.write(Self.good, to: locked.appendingPathComponent("a.ics"))
        try Self.write(Self.good, to: dir.appendingPathComponent("good.ics"))
        #expect(chmod(locked.path, 0o000) == 0)
        defer { _ = chmod(locked.path, 0o700) }
        #expect(chmod(dir.path, 0o755) == 0)
        let user = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        if !user.isEmpty, (try BinaryRunner.runShell("setpriv --reuid=65534 --regid=65534 --clear-groups true")).status != 0 {
            print("setpriv cannot run a command as nobody here; skipping the unreadable-directory check")
            return
        }
        let whole = try BinaryRunner.runShell(user + "\"$INFCAL\" --today 2024-02-15 --events '\(locked.path)' -1; echo \"status $?\"")
        #expect(whole.stdout.hasSuffix("status 66\n"))
        #expect(whole.stderr == "infcal: cannot read events from '\(locked.path)': Permission denied\n")
        let inside = try BinaryRunner.runShell(user + "\"$INFCAL\" --events '\(dir.path)' --agenda --from 2024-03 --forward 1; echo \"status $?\"")
        #expect(inside.stdout == "2024-03-05 Tue  all-day      good event\nstatus 0\n")
        #expect(inside.stderr == "infcal: \(locked.path): a directory that cannot be listed: Permission denied; skipped\n")
    }

    // MARK: Recovery

    /// An unclosed BEGIN:X-THING dropped every later event with exit 0 even with --strict;
    /// a missing END:VEVENT swallowed the next event; a continuation after END:VEVENT joined
    /// onto it; END:VTOOD lost everything after it. Each is now a warning with its line, no
    /// later event is lost, and --strict makes it exit 65.
    @Test(arguments: [
        ("BEGIN:X-THING\nX-A:b\n", "2024-03-05", "infcal: FILE:5: BEGIN:X-THING (line 3) has no END:X-THING; closed here\n"),
        ("BEGIN:VEVENT\nUID:open\nDTSTART;VALUE=DATE:20240301\nSUMMARY:open\n", "2024-03-05",
         "infcal: FILE:3: no END:VEVENT before line 7; event skipped\n"),
        ("BEGIN:VTODO\nSUMMARY:todo\nEND:VTOOD\n", "2024-03-05",
         "infcal: FILE:5: END:VTOOD does not match BEGIN:VTODO (line 3); that component ends here\n"),
    ])
    func structuralErrorsLoseNoLaterEvent(broken: String, day: String, warning: String) throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("broken.ics")
        try Self.write(Self.calendar(broken + "BEGIN:VEVENT\nUID:later\nDTSTART;VALUE=DATE:20240305\nSUMMARY:later event\nEND:VEVENT\n"), to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--agenda", "--from", "2024-03", "--forward", "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "\(day) Tue  all-day      later event\n")
        #expect(result.stderr == warning.replacingOccurrences(of: "FILE", with: file.path))
        let strict = try BinaryRunner.run(["--events", file.path, "--agenda", "--from", "2024-03", "--forward", "1", "--strict"])
        #expect(strict.status == 65)
    }

    @Test func aContinuationAfterEndKeepsBothEvents() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("folded.ics")
        try Self.write(Self.calendar("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20240304\nSUMMARY:first\nEND:VEVENT\n x\n"
                                     + "BEGIN:VEVENT\nDTSTART;VALUE=DATE:20240305\nSUMMARY:second\nEND:VEVENT\n"), to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--agenda", "--from", "2024-03", "--forward", "1"])
        #expect(result.stdout == "2024-03-04 Mon  all-day      first\n2024-03-05 Tue  all-day      second\n")
        #expect(result.stderr == "infcal: \(file.path):6: END:VEVENTX does not match BEGIN:VEVENT (line 3); that component ends here\n")
        #expect(try BinaryRunner.run(["--events", file.path, "-1", "--strict"]).status == 65)
    }

    // MARK: Dates typed

    /// `--from -0043` was 43 months ago; it is 44 BC (the README's `-0043-03` is March 44 BC),
    /// as ncal and Python's datetime number years astronomically (year -43 is 44 BC).
    @Test func aSignedFourDigitNumberIsAYear() throws {
        #expect(try BinaryRunner.run(["--from", "-0043", "-1"]).stdout.hasPrefix("   January 44 BC\n"))
        #expect(try BinaryRunner.run(["--from", "+10000", "-1"]).stdout.hasPrefix("   January 10000\n"))
        #expect(try BinaryRunner.run(["--from", "-3", "-1"]).stdout.hasPrefix("   November 2023\n"))
        let bad = try BinaryRunner.run(["--from", "-0043-13"])
        #expect(bad.stderr == "infcal: invalid value '-0043-13' for --from: expected YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)\n")
    }

    // MARK: Bounded work

    /// A 16-line file hung infcal: a VTIMEZONE observance with RRULE:FREQ=SECONDLY (for a
    /// TZID Foundation does not know) cost 2.5 s and 586 MB per occurrence of a weekly event.
    /// The observance is used as one transition, with a warning; the year's agenda finishes.
    @Test func aDenseZoneRuleIsOneTransition() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("zone.ics")
        try Self.write(Self.calendar("""
            BEGIN:VTIMEZONE
            TZID:Hostile/Zone
            BEGIN:STANDARD
            DTSTART:19700101T000000
            RRULE:FREQ=SECONDLY
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:weekly
            DTSTART;TZID=Hostile/Zone:20240101T090000
            RRULE:FREQ=WEEKLY
            SUMMARY:weekly
            END:VEVENT

            """), to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--agenda", "--from", "2024-01", "--forward", "12"],
                                          deadline: 60, memoryLimit: Self.memoryLimit)
        #expect(!result.signalled && result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        // 09:00 at +02:00 (TZOFFSETTO from the single transition) is 07:00 UTC, every Monday of 2024.
        #expect(lines.count == 53)
        #expect(lines.first == "2024-01-01 Mon  07:00        weekly")
        #expect(result.stderr == "infcal: \(file.path):7: VTIMEZONE STANDARD RRULE recurs more often than yearly; used as a single transition at its DTSTART\n")
    }

    /// FREQ=SECONDLY took 1.15 GB for `--json --forward 1`, 784 MB for `--wall`, and two such
    /// events aborted. A day shows its first instances and says how many more (86,400 a day
    /// less the 48 kept); JSON marks the cut on the last one kept; memory stays small.
    @Test func aDenseRuleShowsTheFirstInstancesOfADayAndHowManyMore() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("seconds.ics")
        let event = { (uid: String) in "BEGIN:VEVENT\nUID:\(uid)\nDTSTART:20240101T000000Z\nRRULE:FREQ=SECONDLY\nSUMMARY:\(uid)\nEND:VEVENT\n" }
        try Self.write(Self.calendar(event("one") + event("two")), to: file)
        let json = try BinaryRunner.run(["--events", file.path, "--json", "--agenda", "--from", "2024-01", "--forward", "1"],
                                        deadline: 60, memoryLimit: Self.memoryLimit)
        #expect(!json.signalled && json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n")
        // 31 days, two events, 48 instances a day each.
        #expect(lines.count == 31 * 2 * 48)
        #expect(lines.filter { $0.contains("\"moreThisDay\":86352") }.count == 31 * 2)
        #expect(lines[95].contains("\"start\":\"2024-01-01T00:00:47+00:00\"") && lines[95].contains("\"moreThisDay\":86352"))
        for view in [["--wall", "--width", "120"], ["--agenda"], []] {
            let text = try BinaryRunner.run(["--events", file.path, "--from", "2024-01", "--forward", "1"] + view,
                                            deadline: 60, memoryLimit: Self.memoryLimit)
            #expect(!text.signalled && text.status == 0, "\(view)")
        }
        let agenda = try BinaryRunner.run(["--events", file.path, "--agenda", "--from", "2024-01", "--forward", "1"], deadline: 60)
        #expect(agenda.stdout.contains("2024-01-01 Mon  00:00        one (+86352 more this day)\n"))
    }

    // MARK: Ctrl-Z

    /// Whether a process called `name` runs in the session `session` and every such process
    /// is stopped (state `T` in /proc/PID/stat, proc(5)).
    static func isStopped(_ name: String, inSession session: pid_t) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var states: [Character] = []
        for entry in entries where Int32(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            // "PID (COMM) STATE PPID PGRP SESSION ...": COMM may hold spaces, so it is cut at its parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard stat[stat.index(after: open)..<close] == name, fields.count > 4, Int32(fields[3]) == session,
                  let state = fields[0].first else { continue }
            states.append(state)
        }
        return !states.isEmpty && states.allSatisfy { $0 == "T" }
    }

    /// The pager stayed stopped after Ctrl-Z and `fg` when it was not its process group's
    /// leader (`sh -c 'infcal --paged'`: 12 of 12 times); less comes back every time. An
    /// interactive bash runs it as a job, as a user's shell does; `; true` keeps sh from
    /// handing its process over to infcal, so sh leads the group.
    @Test(arguments: ["sh -c '\"$INFCAL\" --paged --today 2024-02-15; true'", "\"$INFCAL\" --paged --today 2024-02-15"])
    func thePagerComesBackFromCtrlZ(command: String) throws {
        let session = try PseudoTerminalSession(
            executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
            environment: PseudoTerminalSession.pinnedEnvironment.merging(
                ["PS1": "ready> ", "INFCAL": BinaryRunner.executable.path, "XDG_CACHE_HOME": BinaryRunner.cacheHome]) { $1 })
        try #require(session.waitFor("ready>"), "no prompt: \(session.screen.text)")
        try session.send(command + "\r")
        try #require(session.waitFor("February 2024"), "no pager: \(session.screen.text)")
        for round in 0..<3 {
            // What comes after the mark only: the screen still shows the rounds before. Each
            // key goes in once the program that reads it is reading: bash once it has said
            // the job stopped and drawn its prompt again, the pager once it has drawn its page.
            var mark = session.output.count
            try session.send([0x1A])
            #expect(session.waitFor { !$0.usesAlternateScreen }, "round \(round): \(session.screen.text)")
            // bash says the job stopped and prompts again. Its "Stopped" may be drawn before
            // infcal leaves the alternate screen, and go with it: `jobs` asks again.
            #expect(session.waitForOutput(after: mark, ["Stopped", "ready> "]), "round \(round): \(session.screen.text)")
            mark = session.output.count
            try session.send("jobs\r")
            #expect(session.waitForOutput(after: mark, ["Stopped", "ready> "]), "round \(round): \(session.screen.text)")
            #expect(session.screen.text.contains("Stopped"), "round \(round): \(session.screen.text)")
            // bash reports the job stopped once its own child has stopped: under sh, that is sh,
            // while infcal may still be restoring the terminal. fg goes in once infcal itself is
            // stopped, else its SIGCONT could come before infcal's own stop, which then lasts.
            #expect(session.waitFor { _ in Self.isStopped("infcal", inSession: session.pid) },
                    "round \(round): infcal never stopped: \(session.screen.text)")
            // Entering the alternate screen clears it: the page shown is drawn anew, after the
            // pager took the terminal back.
            try session.send("fg\r")
            #expect(session.waitFor { $0.usesAlternateScreen && $0.contains("February 2024") }, "round \(round): \(session.screen.text)")
        }
        try session.send("n")
        #expect(session.waitFor("March 2024"), "\(session.screen.text)")
        let mark = session.output.count
        try session.send("q")
        #expect(session.waitFor { !$0.usesAlternateScreen })
        #expect(session.waitForOutput(after: mark, ["ready> "]), "\(session.screen.text)")
        try session.send("exit\r")
        #expect(session.waitForExit() != nil)
    }
}
