import Foundation
import Glibc
import InfCalProcess
import Testing

/// `infcal check` run as a user runs it: on the tests' fixtures (whose findings are known and
/// listed here, and in the fixtures' READMEs), on a vdir with every planted mistake, with its
/// exit statuses, its `--json` read by Python's json, its duplicates compared with what
/// Python's icalendar counts (`Tests/Oracles/check_oracle.py`), a cached subscription read
/// without a request, and a tree that is byte for byte and time for time the same after it.
@Suite(.serialized) struct CheckEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures")
    static let oracle = root.appendingPathComponent("Tests/Oracles/check_oracle.py").path
    static let python = WriteCommandEndToEndTests.programs("python3").first
    /// A python3 that has icalendar.
    static let icalendar: String? = WriteCommandEndToEndTests.programs("python3").first { candidate in
        (try? ChildProcess.run(candidate, ["-c", "import icalendar"], environment: nil, deadline: 30).exit) == .exited(0)
    }

    /// Runs `infcal check ARGUMENTS` with a home of its own in `home` (HOME, the config, cache
    /// and data directories below it: no config file unless the test writes one).
    static func check(_ arguments: [String], home: URL, environment: [String: String?] = [:], deadline: Double = 30) throws -> BinaryRunner.Result {
        var variables: [String: String?] = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                                            "XDG_CACHE_HOME": home.path + "/cache", "XDG_DATA_HOME": home.path + "/data"]
        for (key, value) in environment { variables[key] = value }
        return try BinaryRunner.runProgram(BinaryRunner.executable, ["check"] + arguments, environment: variables, deadline: deadline)
    }

    /// A finding as these tests compare them: the file (below `base`, when it is), the line,
    /// the kind and the UID.
    struct Row: Equatable, CustomStringConvertible {
        let file: String
        let line: Int?
        let kind: String
        let uid: String?
        init(_ file: String, _ line: Int?, _ kind: String, _ uid: String? = nil) {
            (self.file, self.line, self.kind, self.uid) = (file, line, kind, uid)
        }
        var description: String { "\(file):\(line.map(String.init) ?? "-") \(kind) \(uid ?? "-")" }
    }

    /// The JSON lines of `output` as objects.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// The rows of `output` (JSON lines), files below `base` named from there.
    static func rows(_ output: String, below base: URL) throws -> [Row] {
        try objects(output).map { object in
            let file = object["file"] as? String ?? "?"
            let prefix = base.path + "/"
            return Row(file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file, object["line"] as? Int,
                       object["kind"] as? String ?? "?", object["uid"] as? String)
        }
    }

    // MARK: The fixtures

    static let google = "5k3o2p9q8r7s6t5u4v3w2x1y0z@google.com"
    static let outlook = "040000008200E00074C5B7101A82E00800000000D0F4E3E8A58ADB01000000000000000010000000C3D2B1A0F9E8D7C6B5A49382716E5F4D"
    static let outlookSeries = "040000008200E00074C5B7101A82E00800000000A1B2C3D4E5F6DB01000000000000000010000000112233445566778899AABBCCDDEEFF00"
    static let thunderbird = "8f1b6c2e-4d3a-4e7b-9c1d-2a3b4c5d6e7f"

    /// Every fixture file as a calendar of its own: each is clean on its own but for two of
    /// recurring-ical-events' (a second copy of UID 111 with a higher SEQUENCE, which those
    /// tests are about); the invitations of one event (a request, its update, a reply, a
    /// counter, a cancel) share their UIDs, which across calendars is a warning. The libical
    /// fixtures are tables of rules, not .ics files.
    @Test func everyFixtureFileOnItsOwn() throws {
        let home = try WriteCommandEndToEndTests.scratch("check-fixtures")
        defer { try? FileManager.default.removeItem(at: home) }
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".ics") }.sorted()
        #expect(files.count == 21, "\(files)")
        let run = try Self.check(["--json"] + files.flatMap { ["--events", Self.fixtures.appendingPathComponent($0).path] }, home: home)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(try Self.rows(run.stdout, below: Self.fixtures) == [
            Row("invitations/google-request.ics", 6, "duplicate-uid-across-calendars", Self.google),
            Row("invitations/google-update.ics", 6, "duplicate-uid-across-calendars", Self.google),
            Row("invitations/outlook-request.ics", 20, "duplicate-uid-across-calendars", Self.outlook),
            Row("invitations/outlook-series-request.ics", 20, "duplicate-uid-across-calendars", Self.outlookSeries),
            Row("invitations/thunderbird-request.ics", 30, "duplicate-uid-across-calendars", Self.thunderbird),
            Row("recurring-ical-events/issue_148_exdate_and_rdate_updated.ics", 17, "duplicate-uid", "111"),
            Row("recurring-ical-events/issue_163_deleted_modification.ics", 2, "duplicate-uid-across-calendars", "111"),
            Row("recurring-ical-events/issue_163_deleted_modification.ics", 29, "duplicate-uid", "111"),
        ])
    }

    /// Each fixture directory as one calendar (a vdir): the invitations' messages of one event
    /// are copies of it, or (the series and its cancelled occurrence) its split.
    @Test func everyFixtureDirectoryAsACalendar() throws {
        let home = try WriteCommandEndToEndTests.scratch("check-fixture-directories")
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = ["invitations", "khal", "libical", "recurring-ical-events", "search"]
        let run = try Self.check(["--json"] + directories.flatMap { ["--events", Self.fixtures.appendingPathComponent($0).path] }, home: home)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(try Self.rows(run.stdout, below: Self.fixtures) == [
            Row("invitations/google-request.ics", 6, "duplicate-uid", Self.google),
            Row("invitations/google-update.ics", 6, "duplicate-uid", Self.google),
            Row("invitations/outlook-request.ics", 20, "duplicate-uid", Self.outlook),
            Row("invitations/outlook-series-request.ics", 20, "split-uid", Self.outlookSeries),
            Row("invitations/thunderbird-request.ics", 30, "duplicate-uid", Self.thunderbird),
            Row("libical", nil, "empty-directory"),
            Row("recurring-ical-events/issue_148_exdate_and_rdate_updated.ics", 17, "duplicate-uid", "111"),
            Row("recurring-ical-events/issue_163_deleted_modification.ics", 2, "duplicate-uid", "111"),
            Row("recurring-ical-events/issue_163_deleted_modification.ics", 29, "duplicate-uid", "111"),
        ])
        // Alone, the clean ones are clean: exit 0, and the text says so.
        let clean = try Self.check(["--events", Self.fixtures.appendingPathComponent("khal").path,
                                    "--events", Self.fixtures.appendingPathComponent("search/search.ics").path], home: home)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout.hasSuffix("\n2 calendars, 2 files checked: no problems found\n"), "\(clean.stdout)")
    }

    // MARK: Planted mistakes

    /// A vdir `work` (named by the config file) with every mistake, `other.ics` (by --events)
    /// sharing a UID with it, and the lines each mistake is on.
    struct Planted {
        let home: URL
        var vdir: URL { home.appendingPathComponent("work") }
        var other: URL { home.appendingPathComponent("other.ics") }
        /// The dead writer's temporary file, and a live one's (this process's), which is no finding.
        let stale: String
        let live: String

        static func calendar(_ components: [String]) -> String {
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN"] + components + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        }

        static func event(_ lines: [String]) -> [String] { ["BEGIN:VEVENT", "DTSTAMP:20240101T000000Z"] + lines + ["END:VEVENT"] }

        // a.ics, line by line (each event BEGIN, DTSTAMP, its lines, END): 1-3 the calendar's
        // head; 4-9 the series (UID 6, DTSTART 7, RRULE 8); 10-16 its override (not a
        // duplicate); 17-23 a second override of the same occurrence, in UTC; 24-29 `one`;
        // 30-35 `one` again; 36-40 no UID; 41-45 no DTSTART; 46-52 30 February (RRULE on 50);
        // 53-58 a zone on Mars (DTSTART on 56); 59-66 every occurrence excluded; 67-73
        // FREQ=FORTNIGHTLY (RRULE on 71).
        static let a = calendar(
            event(["UID:series", "DTSTART;TZID=Europe/Berlin:20240101T100000", "RRULE:FREQ=WEEKLY"])
            + event(["UID:series", "RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000", "DTSTART;TZID=Europe/Berlin:20240108T110000",
                     "SUMMARY:moved"])
            + event(["UID:series", "RECURRENCE-ID:20240108T090000Z", "DTSTART;TZID=Europe/Berlin:20240108T120000", "SUMMARY:again"])
            + event(["UID:one", "DTSTART:20240102T100000Z", "SUMMARY:one"])
            + event(["UID:one", "DTSTART:20240102T100000Z", "SUMMARY:one"])
            + event(["DTSTART:20240103T100000Z", "SUMMARY:nameless"])
            + event(["UID:nostart", "SUMMARY:when?"])
            + event(["UID:feb30", "DTSTART;VALUE=DATE:20240130", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "SUMMARY:never again"])
            + event(["UID:mars", "DTSTART;TZID=Mars/Olympus Mons:20240104T100000", "SUMMARY:far"])
            + event(["UID:gone", "DTSTART:20240105T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "EXDATE:20240105T100000Z",
                     "EXDATE:20240106T100000Z"])
            + event(["UID:fortnight", "DTSTART:20240107T100000Z", "RRULE:FREQ=FORTNIGHTLY", "SUMMARY:?"]))
        // b.ics: the event `one` again (BEGIN on 4); c.ics: an override of `series` on its own (BEGIN on 4).
        static let b = calendar(event(["UID:one", "DTSTART:20240102T100000Z", "SUMMARY:one"]))
        static let c = calendar(event(["UID:series", "RECURRENCE-ID;TZID=Europe/Berlin:20240115T100000",
                                       "DTSTART;TZID=Europe/Berlin:20240115T110000"]))
        // other.ics: `one` in another calendar (BEGIN on 4), and an event of its own.
        static let otherText = calendar(event(["UID:one", "DTSTART:20240102T100000Z"]) + event(["UID:mine", "DTSTART:20240102T100000Z"]))

        init(_ name: String) throws {
            home = try WriteCommandEndToEndTests.scratch(name)
            let manager = FileManager.default
            try manager.createDirectory(at: home.appendingPathComponent("work/sub"), withIntermediateDirectories: true)
            try manager.createDirectory(at: home.appendingPathComponent("config/infcal"), withIntermediateDirectories: true)
            try Data(Self.a.utf8).write(to: home.appendingPathComponent("work/a.ics"))
            try Data(Self.b.utf8).write(to: home.appendingPathComponent("work/b.ics"))
            try Data(Self.c.utf8).write(to: home.appendingPathComponent("work/sub/c.ics"))
            try Data("Shopping list\nmilk\n".utf8).write(to: home.appendingPathComponent("work/notes.ics"))
            try Data(Self.otherText.utf8).write(to: home.appendingPathComponent("other.ics"))
            #expect(mkfifo(home.appendingPathComponent("work/pipe.ics").path, 0o644) == 0)
            // A link to nothing: a file that cannot be read, even by root.
            #expect(symlink("nowhere.ics", home.appendingPathComponent("work/gone.ics").path) == 0)
            // Larger than infcal reads, without its bytes: a sparse file.
            let big = home.appendingPathComponent("work/big.ics").path
            #expect(FileManager.default.createFile(atPath: big, contents: nil))
            #expect(truncate(big, off_t(65 << 20)) == 0)
            // A writer that is gone: a process started and waited for.
            let gone = try ChildProcess.spawn("/bin/true", [], environment: [:], redirections: [])
            _ = ChildProcess.wait(gone)
            stale = ".a.ics.infcal-\(gone)-1.tmp"
            live = ".b.ics.infcal-\(getpid())-1.tmp"
            try Data(Self.a.utf8).write(to: home.appendingPathComponent("work/" + stale))
            try Data(Self.b.utf8).write(to: home.appendingPathComponent("work/" + live))
            try Data("[events work]\npath = \(home.appendingPathComponent("work").path)\n".utf8)
                .write(to: home.appendingPathComponent("config/infcal/config"))
        }

        func remove() { try? FileManager.default.removeItem(at: home) }

        /// What `check --events other.ics` must find, in order.
        var expected: [Row] {
            [
                Row("work/a.ics", 17, "duplicate-uid", "series"),
                Row("work/a.ics", 30, "duplicate-uid", "one"),
                Row("work/a.ics", 36, "missing-uid"),
                Row("work/a.ics", 41, "missing-dtstart", "nostart"),
                Row("work/a.ics", 50, "rule-never-recurs", "feb30"),
                Row("work/a.ics", 56, "unknown-tzid", "mars"),
                Row("work/a.ics", 59, "never-occurs", "gone"),
                Row("work/a.ics", 71, "skipped-event", "fortnight"),
                Row("work/b.ics", 4, "duplicate-uid", "one"),
                Row("work/big.ics", nil, "too-large"),
                Row("work/gone.ics", nil, "unreadable"),
                Row("work/notes.ics", nil, "not-icalendar"),
                Row("work/pipe.ics", nil, "special-file"),
                Row("work/sub/c.ics", 4, "split-uid", "series"),
                Row("work/" + stale, nil, "stale-temporary"),
                Row("other.ics", 4, "duplicate-uid-across-calendars", "one"),
            ]
        }
    }

    @Test func plantedMistakesAreFoundWhereTheyAre() throws {
        let planted = try Planted("check-planted")
        defer { planted.remove() }
        let json = try Self.check(["--json", "--events", planted.other.path], home: planted.home)
        #expect(json.status == 65, "\(json.stderr)")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        #expect(try Self.rows(json.stdout, below: planted.home) == planted.expected)
        // The calendars by name: the config file's, then the path of --events.
        let names = try Self.objects(json.stdout).map { $0["calendar"] as? String ?? "?" }
        #expect(names == Array(repeating: "work", count: 15) + [planted.other.path])
        // The text: a line a calendar, a line a finding, the summary.
        let text = try Self.check(["--events", planted.other.path], home: planted.home)
        #expect(text.status == 65)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "work (\(planted.vdir.path)): 7 files, 15 errors")
        #expect(lines.contains("\(planted.vdir.path)/gone.ics: unreadable: No such file or directory; infcal skips it"))
        #expect(lines[1] == "\(planted.vdir.path)/a.ics:17: duplicate-uid: UID 'series' and RECURRENCE-ID '20240108T090000Z' again "
                + "in this file (first at line 10): a second copy of the same occurrence")
        #expect(lines.contains("\(planted.vdir.path)/b.ics:4: duplicate-uid: UID 'one' is also in \(planted.vdir.path)/a.ics:24: "
                               + "two files hold the same component"))
        #expect(lines.contains("\(planted.other.path): 1 file, 1 warning"))
        #expect(lines.contains("\(planted.other.path):4: duplicate-uid-across-calendars: UID 'one' is also in calendar 'work' "
                               + "(\(planted.vdir.path)/a.ics:24)"))
        #expect(lines.suffix(3) == ["", "2 calendars, 8 files checked: 15 errors, 1 warning", ""])
    }

    /// A file infcal may not read is a finding; as root, every file can be read, and the test
    /// says so (the planted vdir's link to nothing is one as root too).
    @Test func anUnreadableFileIsAFinding() throws {
        guard getuid() != 0 else {
            print("CheckEndToEndTests: running as root, which reads every file; skipping the unreadable file")
            return
        }
        let home = try WriteCommandEndToEndTests.scratch("check-unreadable")
        defer {
            chmod(home.appendingPathComponent("cal/locked.ics").path, 0o644)
            try? FileManager.default.removeItem(at: home)
        }
        try FileManager.default.createDirectory(at: home.appendingPathComponent("cal"), withIntermediateDirectories: true)
        try Data(Planted.b.utf8).write(to: home.appendingPathComponent("cal/locked.ics"))
        #expect(chmod(home.appendingPathComponent("cal/locked.ics").path, 0) == 0)
        let run = try Self.check(["--json", "--events", home.appendingPathComponent("cal").path], home: home)
        #expect(run.status == 65)
        #expect(try Self.rows(run.stdout, below: home) == [Row("cal/locked.ics", nil, "unreadable")])
    }

    // MARK: Exit statuses

    @Test func exitStatuses() throws {
        let home = try WriteCommandEndToEndTests.scratch("check-statuses")
        defer { try? FileManager.default.removeItem(at: home) }
        let clean = home.appendingPathComponent("clean.ics")
        try Data(Planted.calendar(Planted.event(["UID:x", "DTSTART:20240101T100000Z"])).utf8).write(to: clean)
        // Clean: 0, and --json prints nothing.
        let json = try Self.check(["--json", "--events", clean.path], home: home)
        #expect(json.status == 0 && json.stdout.isEmpty && json.stderr.isEmpty, "\(json.stdout)\(json.stderr)")
        // Warnings alone: 0.
        let twice = try Self.check(["--events", clean.path, "--events", clean.path], home: home)
        #expect(twice.status == 0, "\(twice.stdout)")
        #expect(twice.stdout.contains(": duplicate-uid-across-calendars: "))
        // A calendar that is not there: 66, naming it, nothing printed.
        let missing = try Self.check(["--events", home.appendingPathComponent("nowhere.ics").path], home: home)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nowhere.ics") && missing.stdout.isEmpty, "\(missing.stderr)")
        // Nothing to check: 66, saying how to name a calendar.
        let none = try Self.check([], home: home)
        #expect(none.status == 66 && none.stderr.contains("no calendars to check"), "\(none.stderr)")
        // INFCAL_EVENTS stands for --events.
        let variable = try Self.check([], home: home, environment: ["INFCAL_EVENTS": clean.path])
        #expect(variable.status == 0 && variable.stdout.hasPrefix("\(clean.path): 1 file, clean\n"), "\(variable.stdout)")
        // A bad config file: 78, naming the file and the line.
        let config = home.appendingPathComponent("bad.ini")
        try Data("[events work]\npath\n".utf8).write(to: config)
        let bad = try Self.check([], home: home, environment: ["INFCAL_CONFIG": config.path])
        #expect(bad.status == 78 && bad.stderr.contains("bad.ini:2"), "\(bad.stderr)")
        // Usage: an operand, an option of another command, --json with a value.
        for arguments in [["work"], ["--to", "x"], ["--json=yes"], ["--today", "2024-01-01"]] {
            let usage = try Self.check(arguments, home: home)
            #expect(usage.status == 64 && usage.stdout.isEmpty, "\(arguments): \(usage.stderr)")
        }
        // --help: the options and the exit statuses.
        let help = try Self.check(["--help"], home: home)
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: infcal check [OPTION]...\n") && help.stdout.contains("--json"))
    }

    // MARK: Never writes

    /// Every entry below a directory: its path, type, mode, size, modification and change
    /// times (to the nanosecond) and, for a regular file, its bytes.
    static func snapshot(_ directory: URL) -> [String: String] {
        var entries: [String: String] = [:]
        func walk(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            let bytes = (info.st_mode & S_IFMT) == S_IFREG && info.st_size < (1 << 20)
                ? (FileManager.default.contents(atPath: path).map { Data($0).base64EncodedString() } ?? "unreadable") : ""
            entries[path] = "\(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
                + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) \(bytes)"
            if (info.st_mode & S_IFMT) == S_IFDIR {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { walk(path + "/" + name) }
            }
        }
        walk(directory.path)
        return entries
    }

    /// The home (the calendars, the config, the cache directory) is the same after a check as
    /// before, in bytes and in times, and no cache was written; the same calendars read by an
    /// agenda write their cache, so that its absence means something.
    @Test func itNeverWrites() throws {
        let planted = try Planted("check-never-writes")
        defer { planted.remove() }
        // Aged, so that a cache would be written for them (files younger than 2 s are not cached).
        let old = Date(timeIntervalSinceNow: -3600)
        for name in ["work/a.ics", "work/b.ics", "work/sub/c.ics", "work/notes.ics", "other.ics"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: planted.home.appendingPathComponent(name).path)
        }
        let before = Self.snapshot(planted.home)
        for arguments in [["--events", planted.other.path], ["--json", "--events", planted.other.path], ["--json"]] {
            let run = try Self.check(arguments, home: planted.home)
            #expect(run.status == 65)
        }
        let after = Self.snapshot(planted.home)
        let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(after == before, "new or gone: \(Set(after.keys).symmetricDifference(before.keys)), changed: \(changed)")
        #expect(!FileManager.default.fileExists(atPath: planted.home.appendingPathComponent("cache").path))
        // The agenda of the same calendars writes its cache.
        let agenda = try BinaryRunner.runProgram(BinaryRunner.executable, ["--today", "2024-01-01", "--agenda", "--events", planted.other.path,
                                                                            "--from", "2024-01", "--forward", "1"],
                                                 environment: ["HOME": planted.home.path, "XDG_CONFIG_HOME": planted.home.path + "/config",
                                                               "XDG_CACHE_HOME": planted.home.path + "/cache"], deadline: 60)
        #expect(agenda.status == 0, "\(agenda.stderr)")
        var cached = false
        for _ in 0..<100 where !cached {
            cached = !((try? FileManager.default.contentsOfDirectory(atPath: planted.home.appendingPathComponent("cache/infcal").path)) ?? []).isEmpty
            if !cached { usleep(50_000) }
        }
        #expect(cached, "the agenda wrote no cache: the check's test proves nothing")
    }

    // MARK: Python

    /// The duplicates infcal finds are those Python's icalendar counts (by its own reading
    /// of UIDs and RECURRENCE-IDs), on the planted calendars and the fixtures' directories.
    @Test(.enabled(if: icalendar != nil, "python3 with icalendar is missing (pip install icalendar); skipping the UID count"))
    func duplicatesAreWhatIcalendarCounts() throws {
        let planted = try Planted("check-icalendar")
        defer { planted.remove() }
        // The config file names the vdir; --events the rest.
        let given = [planted.other.path] + ["invitations", "recurring-ical-events", "khal"].map { Self.fixtures.appendingPathComponent($0).path }
        let calendars = [planted.vdir.path] + given
        let run = try Self.check(["--json"] + given.flatMap { ["--events", $0] }, home: planted.home)
        #expect(run.status == 65)
        var infcal: (duplicates: Set<[String]>, splits: Set<[String]>, across: Set<[String]>) = ([], [], [])
        for object in try Self.objects(run.stdout) {
            let calendar = object["calendar"] as? String ?? "?", file = object["file"] as? String ?? "?", uid = object["uid"] as? String ?? "?"
            switch object["kind"] as? String {
            case "duplicate-uid": infcal.duplicates.insert([calendar, file, uid])
            case "split-uid": infcal.splits.insert([calendar, file, uid])
            case "duplicate-uid-across-calendars": infcal.across.insert([calendar, uid])
            default: break
            }
        }
        let python = try ChildProcess.run(try #require(Self.icalendar), [Self.oracle, "uids"] + calendars, environment: nil, deadline: 120)
        #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
        let counted = try #require(try JSONSerialization.jsonObject(with: Data(python.standardOutput)) as? [String: [[String]]])
        // The calendar "work" is the vdir's path to the oracle.
        func named(_ rows: Set<[String]>) -> Set<[String]> {
            Set(rows.map { row in row.first == "work" ? [planted.vdir.path] + row.dropFirst() : row })
        }
        #expect(named(infcal.duplicates) == Set(counted["duplicates"] ?? []))
        #expect(named(infcal.splits) == Set(counted["splits"] ?? []))
        #expect(named(infcal.across) == Set(counted["across"] ?? []))
        #expect(!infcal.duplicates.isEmpty && !infcal.splits.isEmpty && !infcal.across.isEmpty)
    }

    /// `--json` is JSON to Python: every line an object of the fields the man page lists, of
    /// their types, the same findings Foundation reads, a UID with control characters too.
    @Test(.enabled(if: python != nil, "python3 is missing; skipping the JSON check"))
    func jsonIsWhatPythonReads() throws {
        let planted = try Planted("check-python-json")
        defer { planted.remove() }
        try Data(Planted.calendar(Planted.event(["UID:tab\\there\u{1B}[2J\u{202E}", "DTSTART:20240101T100000Z"])
                                  + Planted.event(["UID:tab\\there\u{1B}[2J\u{202E}", "DTSTART:20240101T100000Z"])).utf8)
            .write(to: planted.home.appendingPathComponent("work/odd.ics"))
        let run = try Self.check(["--json", "--events", planted.other.path], home: planted.home)
        let output = planted.home.appendingPathComponent("check.json")
        try Data(run.stdout.utf8).write(to: output)
        let python = try ChildProcess.run(try #require(Self.python), [Self.oracle, "json", output.path], environment: nil, deadline: 60)
        #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(python.standardOutput)) as? [[Any]])
        let foundation = try Self.objects(run.stdout)
        #expect(rows.count == foundation.count && rows.count == planted.expected.count + 1)
        for (row, object) in zip(rows, foundation) {
            #expect(row[3] as? String == object["kind"] as? String)
            #expect(row[1] as? String == object["file"] as? String)
        }
        // The UID as written (its escape `\t` read as TEXT does not apply: a UID is taken whole).
        let odd = try #require(foundation.first { ($0["file"] as? String)?.hasSuffix("odd.ics") == true })
        #expect(odd["uid"] as? String == "tab\\there\u{1B}[2J\u{202E}")
        // The message is inert: no escape character, no bidirectional override.
        let message = odd["message"] as? String ?? ""
        #expect(!message.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(message)")
        #expect(!run.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    }

    /// Rules that recur rarely or never, each from its DTSTART; whether they recur is what
    /// python-dateutil finds within twice the Gregorian cycle.
    static let rareRules: [(start: String, rules: [String])] = [
        ("20240101T090000", ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
                             "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
                             "FREQ=YEARLY;BYYEARDAY=366", "FREQ=YEARLY;BYYEARDAY=-366;BYMONTH=2", "FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH",
                             "FREQ=MONTHLY;BYDAY=5MO;BYMONTH=2", "FREQ=MONTHLY;BYMONTHDAY=-30;BYMONTH=2",
                             "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31;BYDAY=MO", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
                             "FREQ=WEEKLY;INTERVAL=2;BYMONTH=2;BYDAY=MO"]),
        // From 2025 every fourth year is never a leap year; every third is.
        ("20250101T090000", ["FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=29"]),
        // Every twelfth month from April is always April.
        ("20240401T090000", ["FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31", "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30"]),
    ]

    /// The rules `check` says never recur are those python-dateutil finds no instance of
    /// after DTSTART; and libical's table (`Tests/Fixtures/libical`, every case an event)
    /// holds none, every rule of it recurring (a case whose COUNT or UNTIL ends it at DTSTART
    /// too: a rule cut short is no finding), but one RSCALE infcal does not know.
    @Test(.enabled(if: python != nil && (try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import dateutil"], environment: nil,
                                                               deadline: 30).exit) == .exited(0),
                   "python3 with dateutil is missing (pip install python-dateutil); skipping the rules that never recur"))
    func rulesThatNeverRecurAreThoseDateutilFindsNothingOf() throws {
        let home = try WriteCommandEndToEndTests.scratch("check-rules")
        defer { try? FileManager.default.removeItem(at: home) }
        var events: [String] = []
        var recurs: [String: Bool] = [:]
        for (group, (start, rules)) in Self.rareRules.enumerated() {
            let python = try ChildProcess.run(try #require(Self.python), [Self.oracle, "recurs", start] + rules, environment: nil, deadline: 120)
            #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(python.standardOutput)) as? [Bool])
            #expect(answers.count == rules.count)
            for (index, (rule, answer)) in zip(rules, answers).enumerated() {
                let uid = "rule-\(group)-\(index)"
                recurs[uid] = answer
                events += Planted.event(["UID:" + uid, "DTSTART:" + start, "RRULE:" + rule])
            }
        }
        let file = home.appendingPathComponent("rules.ics")
        try Data(Planted.calendar(events).utf8).write(to: file)
        let run = try Self.check(["--json", "--events", file.path], home: home)
        let never = try Self.rows(run.stdout, below: home)
        #expect(never.allSatisfy { $0.kind == "rule-never-recurs" }, "\(never)")
        #expect(Set(never.compactMap(\.uid)) == Set(recurs.filter { !$0.value }.map(\.key)))
        #expect(recurs.values.contains(true) && recurs.values.contains(false))
        // libical's rules, one event a case.
        for table in ["icalrecur_test", "icalrecur_test_rscale", "icalrecur_test_rscale_withicu"] {
            let text = try String(contentsOf: Self.fixtures.appendingPathComponent("libical/\(table).txt"), encoding: .utf8)
            var events: [String] = []
            var rule: (line: Int, text: String)?
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("RRULE:") { rule = (number + 1, String(line)) }
                if line.hasPrefix("DTSTART:"), let (ruleLine, ruleText) = rule {
                    let start = line.dropFirst("DTSTART:".count)
                    events += Planted.event(["UID:\(table):\(ruleLine)", (start.count == 8 ? "DTSTART;VALUE=DATE:" : "DTSTART:") + start, ruleText])
                    rule = nil
                }
            }
            #expect(events.count > 50)
            try Data(Planted.calendar(events).utf8).write(to: home.appendingPathComponent("\(table).ics"))
        }
        let libical = try Self.check(["--json", "--events", home.appendingPathComponent("icalrecur_test.ics").path,
                                      "--events", home.appendingPathComponent("icalrecur_test_rscale.ics").path,
                                      "--events", home.appendingPathComponent("icalrecur_test_rscale_withicu.ics").path], home: home)
        #expect(try Self.rows(libical.stdout, below: home).map { "\($0.file) \($0.kind) \($0.uid ?? "-")" }
                == ["icalrecur_test_rscale.ics skipped-event icalrecur_test_rscale:3"])
    }

    // MARK: Subscriptions

    /// A subscription is checked in its cached copy, with no request even when its copy is
    /// due (refresh = 0); one never fetched is a warning.
    @Test func aSubscriptionIsCheckedInItsCopyWithoutARequest() throws {
        try #require(SubscriptionTests.skip == nil, Comment(rawValue: SubscriptionTests.skip ?? ""))
        let setup = try SubscriptionTests.Setup(extra: "refresh = 0\n")
        defer { setup.server.stop() }
        try SubscriptionTests.Setup.serve(Planted.calendar(Planted.event(["UID:feed", "DTSTART:20240215T100000Z"])
                                                           + Planted.event(["UID:feed", "DTSTART:20240215T100000Z"])), in: setup.home)
        let fetched = try setup.home.run(["--agenda", "--from", "2024-02", "--forward", "1"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(setup.server.requests.count == 1)
        try setup.home.write("[events work]\nurl = \(setup.server.url("/switch.ics"))\nrefresh = 0\n\n"
                             + "[events later]\nurl = \(setup.server.url("/later.ics"))\n", to: "config.ini")
        var environment = setup.home.environment
        environment["INFCAL_CONFIG"] = setup.home.config.path
        let run = try BinaryRunner.runProgram(BinaryRunner.executable, ["check", "--json"], environment: environment, deadline: 30)
        #expect(run.status == 65, "\(run.stderr)")
        let copy = setup.home.cache.appendingPathComponent("work.ics").path
        #expect(try Self.rows(run.stdout, below: setup.home.root) == [
            Row("cache/infcal/work.ics", 9, "duplicate-uid", "feed"),
            Row(setup.server.url("/later.ics"), nil, "not-fetched"),
        ], "\(copy)")
        #expect(setup.server.requests.count == 1, "\(setup.server.requests)")
    }
}
