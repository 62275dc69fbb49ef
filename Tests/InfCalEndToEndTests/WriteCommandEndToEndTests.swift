import Foundation
import InfCalProcess
import Testing

/// `infcal add`, `edit` and `delete` run as a user runs them: round trips on the repository's
/// calendars, concurrent writers, a writer killed at random points, and what other programs
/// (Python's icalendar and recurring-ical-events, khal) read back.
@Suite(.serialized) struct WriteCommandEndToEndTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    /// A fresh directory for one test.
    static func scratch(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-write-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs infcal with `arguments`, HOME in `home`, no config file, TZ `zone`.
    static func infcal(_ arguments: [String], home: URL, zone: String = "UTC", deadline: Double = 60) throws -> BinaryRunner.Result {
        try BinaryRunner.runProgram(BinaryRunner.executable, arguments,
                                    environment: ["HOME": home.path, "TZ": zone, "XDG_CONFIG_HOME": home.path + "/no-config",
                                                  "XDG_CACHE_HOME": home.path + "/cache"], deadline: deadline)
    }

    static func bytes(_ url: URL) -> [UInt8] { Array(FileManager.default.contents(atPath: url.path) ?? Data()) }

    /// Runs the write `arguments` on `calendar` as `infcal` does, and checks what it wrote
    /// (`WrittenFiles`): the run, and the validator's report (nil without icalendar).
    static func write(_ arguments: [String], on calendar: URL, home: URL, zone: String = "UTC",
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (run: BinaryRunner.Result, report: WrittenFiles.Report?) {
        let before = WrittenFiles.Snapshot(calendar)
        let run = try infcal(arguments, home: home, zone: zone)
        return (run, try WrittenFiles.check(calendar, since: before, sourceLocation: sourceLocation))
    }

    /// The UID `add` printed after its tab.
    static func uid(_ result: BinaryRunner.Result) -> String {
        String(result.stdout.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    static var exampleFiles: [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted()
            .filter { $0.hasSuffix(".ics") }.map { examples.appendingPathComponent($0) }
    }

    /// add then delete gives back every example calendar byte for byte (as LF and as CRLF),
    /// and the add touched nothing but the bytes it inserted.
    @Test func addThenDeleteGivesBackTheFile() throws {
        let home = try Self.scratch("roundtrip")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(!Self.exampleFiles.isEmpty)
        for example in Self.exampleFiles {
            let original = Self.bytes(example)
            let crlf = Array(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
            for (label, data) in [("LF", original), ("CRLF", crlf)] {
                let file = home.appendingPathComponent(example.lastPathComponent)
                try Data(data).write(to: file)
                let (added, addReport) = try Self.write(["add", "--to", file.path, "2024-03-05", "16:30-17:15", "Coffee, with; Ana",
                                                         "--location", "Café Lisboa", "--every", "week", "--count", "3"], on: file, home: home)
                #expect(added.status == 0, "\(added.stderr)")
                if let addReport { #expect(addReport.added == [Self.uid(added)] && addReport.touched == [Self.uid(added)]) }
                #expect(added.stdout.hasPrefix("2024-03-05 Tue  16:30-17:15  Coffee, with; Ana\t"))
                let after = Self.bytes(file)
                #expect(after.count > data.count)
                // Only an insertion: the same bytes before and after it.
                let common = zip(after, data).prefix { $0 == $1 }.count
                let tail = zip(after.reversed(), data.reversed()).prefix { $0 == $1 }.count
                #expect(common + tail >= data.count, "\(example.lastPathComponent) \(label): bytes other than the insertion changed")
                #expect(after.contains(0x0D) == (label == "CRLF"), "the file's own line ends")
                let (deleted, deleteReport) = try Self.write(["delete", "--to", file.path, Self.uid(added)], on: file, home: home)
                #expect(deleted.status == 0, "\(deleted.stderr)")
                if let deleteReport { #expect(deleteReport.removed == [Self.uid(added)] && deleteReport.touched == [Self.uid(added)]) }
                #expect(Self.bytes(file) == data, "\(example.lastPathComponent) \(label): add then delete is not the original")
            }
        }
    }

    /// An edit of an existing event changes only the lines of that event.
    @Test func editChangesOnlyThatEvent() throws {
        let home = try Self.scratch("edit")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("team.ics")
        let original = String(decoding: Self.bytes(Self.examples.appendingPathComponent("team.ics")), as: UTF8.self)
        try original.write(to: file, atomically: false, encoding: .utf8)
        let (result, report) = try Self.write(["edit", "--to", file.path, "lunch@example", "--summary", "Lunch with Ana and Bo", "13:00"],
                                              on: file, home: home, zone: "Europe/Berlin")
        #expect(result.status == 0, "\(result.stderr)")
        if let report { #expect(report.changed == ["lunch@example"] && report.touched == ["lunch@example"] && report.zonesAdded.isEmpty) }
        let edited = String(decoding: Self.bytes(file), as: UTF8.self)
        func split(_ text: String) -> (before: [Substring], event: [Substring], after: [Substring]) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let uid = lines.firstIndex(of: "UID:lunch@example"),
                  let begin = lines[..<uid].lastIndex(of: "BEGIN:VEVENT"),
                  let end = lines[uid...].firstIndex(of: "END:VEVENT") else { return (lines[...].map { $0 }, [], []) }
            return (Array(lines[..<begin]), Array(lines[begin...end]), Array(lines[(end + 1)...]))
        }
        let (before, event, after) = split(original)
        let (newBefore, newEvent, newAfter) = split(edited)
        #expect(newBefore == before)
        #expect(newAfter == after)
        #expect(newEvent.contains("SUMMARY:Lunch with Ana and Bo"))
        #expect(newEvent.contains("DTSTART;TZID=Europe/Berlin:20240312T130000"))
        #expect(newEvent.contains("DTEND;TZID=Europe/Berlin:20240312T140000"))
        #expect(newEvent.contains("SEQUENCE:1"))
        #expect(newEvent.count == event.count + 3) // SEQUENCE, DTSTAMP, LAST-MODIFIED
        // Not found anywhere, and found nowhere writable.
        let missing = try Self.infcal(["delete", "--to", file.path, "nobody@example"], home: home)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nobody@example"))
    }

    /// Bad input is exit 64 with nothing written, and the default calendar is made on the
    /// first add and read by the views with no configuration.
    @Test func defaultCalendarAndBadInput() throws {
        let home = try Self.scratch("default")
        defer { try? FileManager.default.removeItem(at: home) }
        for bad in [["add", "2023-02-29", "x"], ["add", "x", "--every", "FORTNIGHTLY"], ["add", "10:00-10:00", "x"], ["add"],
                    ["add", "a\u{1B}[2Jb"], ["add", "x", "--location", "a\u{7}"]] {
            let result = try Self.infcal(bad, home: home)
            #expect(result.status == 64, "\(bad)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        let calendar = home.appendingPathComponent(".local/share/infcal/calendar.ics")
        #expect(!FileManager.default.fileExists(atPath: calendar.path), "a refused add wrote nothing")
        let (added, report) = try Self.write(["add", "--today", "2024-02-15", "friday", "10:00", "Dentist"], on: calendar, home: home,
                                             zone: "Europe/Berlin")
        #expect(added.status == 0, "\(added.stderr)")
        if let report { #expect(report.added == [Self.uid(added)] && report.zonesAdded == ["Europe/Berlin"]) }
        #expect(added.stdout.hasPrefix("2024-02-16 Fri  10:00-11:00  Dentist\t"))
        let text = String(decoding: Self.bytes(calendar), as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        let agenda = try Self.infcal(["--agenda", "--uid", "--from", "2024-02", "--forward", "1"], home: home, zone: "Europe/Berlin")
        #expect(agenda.stdout == added.stdout, "\(agenda.stderr)")
        // An end before the start is on the next day, here across the night clocks go forward:
        // 23:30 CET is 22:30 UTC and 03:30 CEST 01:30 UTC (Python's zoneinfo), three hours.
        let (night, nightReport) = try Self.write(["add", "--today", "2024-02-15", "2024-03-30", "23:30-03:30", "Party"], on: calendar,
                                                  home: home, zone: "Europe/Berlin")
        #expect(night.status == 0, "\(night.stderr)")
        if let nightReport { #expect(nightReport.touched == [Self.uid(night)] && nightReport.zonesAdded.isEmpty) }
        #expect(night.stdout.hasPrefix("2024-03-30 Sat  23:30 → 2024-03-31 03:30  Party\t"), "\(night.stdout)")
        let nightText = String(decoding: Self.bytes(calendar), as: UTF8.self)
        #expect(nightText.contains("DTSTART;TZID=Europe/Berlin:20240330T233000\r\n"))
        #expect(nightText.contains("DTEND;TZID=Europe/Berlin:20240331T033000\r\n"))
        let readonly = home.appendingPathComponent("ro.ics")
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: readonly)
        let url = try Self.infcal(["add", "--to", "https://example.com/cal.ics", "x"], home: home)
        #expect(url.status == 77)
    }

    /// Twenty `infcal add` started at once on one file leave twenty new events and every old one.
    @Test func concurrentAddsLoseNothing() throws {
        let home = try Self.scratch("concurrent")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("team.ics")
        let original = Self.bytes(Self.examples.appendingPathComponent("team.ics"))
        try Data(original).write(to: file)
        let before = WrittenFiles.Snapshot(file)
        let result = try BinaryRunner.runShell("""
            export HOME='\(home.path)' TZ=UTC XDG_CONFIG_HOME='\(home.path)/none'
            for i in $(seq 1 20); do "$INFCAL" add --to '\(file.path)' 2024-04-01 "Event $i" > '\(home.path)'/out.$i 2>&1 & done
            wait
            cat '\(home.path)'/out.*
            """, deadline: 120)
        #expect(result.status == 0)
        let text = String(decoding: Self.bytes(file), as: UTF8.self)
        for i in 1...20 { #expect(text.contains("SUMMARY:Event \(i)\n"), "Event \(i) is missing: \(result.stdout)") }
        let old = String(decoding: original, as: UTF8.self)
        for line in old.split(separator: "\n") where line.hasPrefix("UID:") { #expect(text.contains(line + "\n")) }
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == old.components(separatedBy: "BEGIN:VEVENT").count - 1 + 20)
        if let report = try WrittenFiles.check(file, since: before) { #expect(report.added.count == 20 && report.touched.count == 20) }
    }

    /// A writer killed with SIGKILL at random points while it writes a 50 MB calendar leaves
    /// the old file or the new one, complete, every time.
    @Test func killedWritersLeaveTheOldOrTheNewFile() throws {
        let home = try Self.scratch("crash")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("big.ics")
        var previous = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\n".utf8)
        previous.reserveCapacity(50_100_000)
        let description = String(repeating: "Notes of the meeting, ", count: 18)
        var index = 0
        while previous.count < 50_000_000 {
            previous += ("BEGIN:VEVENT\r\nUID:big-\(index)@test\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240101T100000Z\r\n"
                + "SUMMARY:Event \(index)\r\nDESCRIPTION:\(description)\r\nEND:VEVENT\r\n").utf8
            index += 1
        }
        previous += "END:VCALENDAR\r\n".utf8
        try Data(previous).write(to: file)
        // Data compares with memcmp: fifty megabytes a round cost little even unoptimised.
        var old = Data(previous)
        let environment = ["HOME": home.path, "TZ": "UTC", "XDG_CONFIG_HOME": home.path + "/none", "PATH": "/usr/bin:/bin"]
        // How long one add takes here, so that the kills fall all over it.
        let started = Date()
        let first = try ChildProcess.run(BinaryRunner.executable.path, ["add", "--to", file.path, "2024-05-01", "Timed"],
                                         environment: environment, deadline: 60)
        #expect(first.exit == .exited(0))
        let span = max(0.02, Date().timeIntervalSince(started) * 1.2)
        old = try Data(contentsOf: file)
        var generator = SystemRandomNumberGenerator()
        var kept = 0, replaced = 0
        for round in 0..<100 {
            let pid = try ChildProcess.spawn(BinaryRunner.executable.path, ["add", "--to", file.path, "2024-05-02", "Kill \(round)"],
                                             environment: environment, redirections: [.inputFromNull, .output(1, toFile: "/dev/null"),
                                                                                        .output(2, toFile: "/dev/null")])
            usleep(UInt32(Double.random(in: 0..<span, using: &generator) * 1_000_000))
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            let now = try Data(contentsOf: file)
            if now == old {
                kept += 1
                continue
            }
            // The new file: the old one with exactly one event inserted before END:VCALENDAR.
            let head = old.count - "END:VCALENDAR\r\n".utf8.count
            let prefixMatches = now.count > old.count && now.prefix(head) == old.prefix(head)
            let inserted = prefixMatches ? String(decoding: now.suffix(from: now.startIndex + head), as: UTF8.self) : ""
            #expect(prefixMatches && inserted.hasPrefix("BEGIN:VEVENT\r\n") && inserted.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n")
                    && inserted.contains("SUMMARY:Kill \(round)\r\n"), "round \(round): neither the old file nor the new one")
            if !prefixMatches { break }
            replaced += 1
            old = now
        }
        // What the last write left, against the file before the first: the events added.
        if let report = try WrittenFiles.check(file, since: WrittenFiles.Snapshot(file, bytes: previous)) {
            #expect(report.added.count == replaced + 1 && report.touched.count == replaced + 1)
        }
        // No temporary file is mistaken for a calendar: only .ics files are read.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []
        #expect(leftovers.filter { $0.hasSuffix(".ics") } == ["big.ics"])
        // The next write removes the temporary files the killed ones left.
        let next = try ChildProcess.run(BinaryRunner.executable.path, ["add", "--to", file.path, "2024-05-03", "After"],
                                        environment: environment, deadline: 60)
        #expect(next.exit == .exited(0))
        let remaining = ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).filter { $0.hasSuffix(".tmp") }
        #expect(remaining.isEmpty, "\(remaining)")
        print("crash test: \(kept) kills left the old file, \(replaced) the new one; "
              + "\(leftovers.filter { $0.hasSuffix(".tmp") }.count) temporary files left, removed by the next write")
    }

    /// A failed write exits 1 saying why, and the file is as it was (a file size limit
    /// makes the write fail with EFBIG, as a full disk fails it with ENOSPC).
    @Test func failedWriteLeavesTheFile() throws {
        let home = try Self.scratch("efbig")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("cal.ics")
        let original = Array(("BEGIN:VCALENDAR\r\n" + String(repeating: "X-PAD:" + String(repeating: "x", count: 60) + "\r\n", count: 400)
            + "END:VCALENDAR\r\n").utf8)
        try Data(original).write(to: file)
        let result = try BinaryRunner.runShell("""
            export HOME='\(home.path)' TZ=UTC XDG_CONFIG_HOME='\(home.path)/none'
            trap '' XFSZ; ulimit -f 16
            "$INFCAL" add --to '\(file.path)' 2024-01-01 Big
            """)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("File too large") && result.stderr.contains("cal.ics"), "\(result.stderr)")
        #expect(Self.bytes(file) == original)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []
        #expect(leftovers.allSatisfy { !$0.hasSuffix(".tmp") }, "\(leftovers)")
    }

    /// The programs called `name` on this process's PATH, then in the usual places.
    static func programs(_ name: String) -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"])
            .map { $0 + "/" + name }.filter { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A python3 that has the oracle modules.
    static let python: String? = programs("python3").first { candidate in
        (try? ChildProcess.run(candidate, ["-c", "import icalendar, recurring_ical_events"], environment: nil, deadline: 30).exit) == .exited(0)
    }

    static let khal: String? = programs("khal").first

    /// What infcal writes, Python's icalendar and recurring-ical-events read back: the same
    /// occurrences over ten years (start, end, summary), escapes and zones included.
    @Test(.enabled(if: python != nil,
                   "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func pythonReadsItBack() throws {
        let home = try Self.scratch("python")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("mine.ics")
        let adds: [[String]] = [
            ["2024-03-04", "09:00-09:30", "Standup; daily, almost", "--every", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "--until", "2026-12-31"],
            ["2024-10-27", "01:30", "Across the change", "--for", "2h", "--every", "week", "--count", "10"],
            ["2025-05-04", "Birthday of Ana", "--every", "year", "--description", "Cake\nand \\ candles"],
            ["2024-08-11", "Holiday", "--until", "2024-08-20"],
            ["2024-01-31", "18:00", "Month end", "--every", "month", "--count", "14"],
            ["2024-06-01", "22:15-23:45", "Night"],
        ]
        for words in adds {
            let (result, report) = try Self.write(["add", "--to", file.path] + words, on: file, home: home, zone: "Europe/Berlin")
            #expect(result.status == 0, "\(words): \(result.stderr)")
            if let report { #expect(report.added == [Self.uid(result)] && report.touched == [Self.uid(result)], "\(words)") }
        }
        let edit = try Self.infcal(["--agenda", "--uid", "--events", file.path, "--from", "2024-03", "--forward", "1"], home: home, zone: "Europe/Berlin")
        let standup = edit.stdout.split(separator: "\n").first { $0.contains("Standup") }.map { String($0.split(separator: "\t").last ?? "") } ?? ""
        let late = try Self.write(["edit", "--to", file.path, standup, "--occurrence", "2024-03-06", "10:00", "--summary", "Late"], on: file,
                                  home: home, zone: "Europe/Berlin")
        #expect(late.run.status == 0, "\(late.run.stderr)")
        // A new override, after its master, which stays as it was.
        if let report = late.report { #expect(report.added == [standup] && report.touched == [standup]) }
        let gone = try Self.write(["delete", "--to", file.path, standup, "--occurrence", "2024-03-08"], on: file, home: home, zone: "Europe/Berlin")
        #expect(gone.run.status == 0, "\(gone.run.stderr)")
        if let report = gone.report { #expect(report.changed == [standup] && report.touched == [standup]) }
        let ours = try Self.infcal(["--json", "--agenda", "--events", file.path, "--from", "2024-01", "--forward", "120"], home: home, zone: "Europe/Berlin")
        #expect(ours.status == 0, "\(ours.stderr)")
        let oursLines = ours.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let start = object["start"] as? String, let end = object["end"] as? String, let summary = object["summary"] as? String
            else { return nil }
            return "\(start.prefix(16)) \(end.prefix(16)) \(summary)"
        }
        let script = """
            import sys, datetime, icalendar, recurring_ical_events, zoneinfo
            berlin = zoneinfo.ZoneInfo("Europe/Berlin")
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            def shown(value):
                if isinstance(value, datetime.datetime):
                    return value.astimezone(berlin).strftime("%Y-%m-%dT%H:%M")
                return value.strftime("%Y-%m-%d")
            events = recurring_ical_events.of(cal).between(datetime.date(2024, 1, 1), datetime.date(2034, 1, 1))
            rows = []
            for event in events:
                start, end = event["DTSTART"].dt, event["DTEND"].dt
                rows.append((shown(start), shown(end), str(event["SUMMARY"])))
            for row in sorted(rows):
                print(*row)
            for event in cal.walk("VEVENT"):
                if "DESCRIPTION" in event:
                    print("DESCRIPTION", repr(str(event["DESCRIPTION"])))
            """
        let python = try ChildProcess.run(try #require(Self.python), ["-c", script, file.path], environment: nil, deadline: 60)
        let theirs = String(decoding: python.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
        // infcal writes all-day dates as YYYY-MM-DD in JSON; timed ones with an offset, cut to minutes here.
        let mine = oursLines.map { $0 }.sorted()
        #expect(theirs.filter { !$0.hasPrefix("DESCRIPTION") } == mine)
        #expect(theirs.contains("DESCRIPTION 'Cake\\nand \\\\ candles'"))
        #expect(mine.count > 150)
    }

    /// khal reads a vdir infcal wrote into: one file per event, named from its UID.
    @Test(.enabled(if: khal != nil,
                   "khal is missing (pip install khal); skipping the vdir read-back"))
    func khalReadsTheVdir() throws {
        let home = try Self.scratch("khal")
        defer { try? FileManager.default.removeItem(at: home) }
        let vdir = home.appendingPathComponent("calendars/mine")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        var uids: [String] = []
        for words in [["2024-03-05", "16:30-17:15", "Coffee with Ana"], ["2024-03-06", "Conference", "--until", "2024-03-07"],
                      ["2024-03-04", "09:00", "Standup", "--every", "day", "--count", "3"]] {
            let (result, report) = try Self.write(["add", "--to", vdir.path] + words, on: vdir, home: home, zone: "Europe/Berlin")
            #expect(result.status == 0, "\(result.stderr)")
            if let report { #expect(report.added == [Self.uid(result)] && report.touched == [Self.uid(result)]) }
            uids.append(Self.uid(result))
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: vdir.path)) ?? []).sorted()
        #expect(files == uids.map { $0 + ".ics" }.sorted())
        let config = home.appendingPathComponent("khal.conf")
        try KhalConfig.text(name: "mine", vdir: vdir.path, database: home.path + "/khal.db", zone: "Europe/Berlin").write(to: config, atomically: true, encoding: .utf8)
        let khal = try BinaryRunner.runShell("""
            export HOME='\(home.path)' TZ=Europe/Berlin LC_ALL=C.UTF-8 PATH='\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")'
            '\(try #require(Self.khal))' -c '\(config.path)' list --format '{start} {end} {title}' 2024-03-04 2024-03-09
            """, deadline: 120)
        #expect(khal.status == 0, "\(khal.stderr)")
        let lines = Set(khal.stdout.split(separator: "\n").map(String.init))
        for expected in ["2024-03-05 16:30 2024-03-05 17:15 Coffee with Ana", "2024-03-04 09:00 2024-03-04 10:00 Standup",
                         "2024-03-06 09:00 2024-03-06 10:00 Standup", "2024-03-06 2024-03-07 Conference"] {
            #expect(lines.contains(expected), "khal shows \(khal.stdout)")
        }
        // delete removes the event's file.
        let (deleted, report) = try Self.write(["delete", "--to", vdir.path, uids[0]], on: vdir, home: home)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        if let report { #expect(report.removed == [uids[0]] && report.touched == [uids[0]]) }
        #expect(!FileManager.default.fileExists(atPath: vdir.appendingPathComponent(uids[0] + ".ics").path))
    }

    /// `add` in a zone writes a VTIMEZONE beside the event; `delete` of that event, the last
    /// one to name the zone, takes it away too: the file is as it was, byte for byte.
    @Test func addThenDeleteInAZoneGivesBackTheFile() throws {
        let home = try Self.scratch("zone")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        let original = Array(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN", "BEGIN:VEVENT", "UID:u",
                              "DTSTAMP:20240101T000000Z", "DTSTART:20240301T100000Z", "SUMMARY:In UTC", "END:VEVENT", "END:VCALENDAR", ""]
            .joined(separator: "\r\n").utf8)
        try Data(original).write(to: file)
        let (added, addReport) = try Self.write(["add", "--to", file.path, "2024-03-05", "16:30", "Coffee"], on: file, home: home, zone: "Europe/Berlin")
        #expect(added.status == 0, "\(added.stderr)")
        if let addReport { #expect(addReport.added == [Self.uid(added)] && addReport.zonesAdded == ["Europe/Berlin"]) }
        #expect(String(decoding: Self.bytes(file), as: UTF8.self).contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        let (deleted, deleteReport) = try Self.write(["delete", "--to", file.path, Self.uid(added)], on: file, home: home, zone: "Europe/Berlin")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        if let deleteReport { #expect(deleteReport.removed == [Self.uid(added)] && deleteReport.zonesRemoved == ["Europe/Berlin"]) }
        #expect(Self.bytes(file) == original, "\(String(decoding: Self.bytes(file), as: UTF8.self))")
    }
}
