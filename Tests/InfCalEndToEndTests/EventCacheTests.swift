import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import Testing

/// The parsed-event cache through the built binary: a cached run prints what a fresh reading
/// prints, in every view; a changed source or a damaged cache is noticed and the cache built
/// again; concurrent builders leave a valid cache; a cache that cannot be written costs
/// nothing but speed. The oracle is the same binary with `--no-cache`, which reads the files.
@Suite struct EventCacheTests {
    static let examples = EventCommandTests.root.appendingPathComponent("examples")

    /// A fresh directory holding `cache/` (the run's XDG_CACHE_HOME) and the calendars.
    struct Place {
        let root: URL
        var cacheHome: String { root.appendingPathComponent("cache").path }
        var cacheDirectory: String { cacheHome + "/infcal" }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        /// Writes `text` to `name` and dates it `age` seconds back (a source changed in the
        /// last two seconds is not cached, as the clock's tick could hide a change).
        @discardableResult
        func write(_ text: String, to name: String, age: TimeInterval = 3600) throws -> String {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            try setAge(url.path, age)
            return url.path
        }

        func setAge(_ path: String, _ age: TimeInterval) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
        }

        /// Runs infcal with this place's cache, then waits until the caches it left to be
        /// written are in place (their temporary files, made before it ended, are gone).
        func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> BinaryRunner.Result {
            let result = try BinaryRunner.run(arguments, environment: ["XDG_CACHE_HOME": cacheHome, "TZ": "Europe/Berlin"].merging(environment) { $1 })
            try waitForWriters()
            return result
        }

        /// Waits (at most 20 s) until no cache is being written in this place's directory.
        func waitForWriters() throws {
            let deadline = Date().addingTimeInterval(20)
            while writing, Date() < deadline { usleep(5_000) }
            try #require(!writing, "a cache was still being written 20 s after its run ended")
        }

        /// Whether a temporary file of a cache being written is in the directory.
        var writing: Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).contains { $0.hasSuffix(".tmp") }
        }

        /// The cache files there are.
        var caches: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).filter { $0.hasSuffix(".cache") }.sorted()
        }

        /// The one cache file, its inode (a rebuilt cache is a new file renamed into place).
        func cache() throws -> (path: String, inode: Int) {
            let names = caches
            try #require(names.count == 1, "cache files: \(names)")
            let path = cacheDirectory + "/" + names[0]
            let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
            return (path, inode)
        }

        /// Whether the cache at `path` opens as an intact cache of this version.
        func isValid(_ path: String) -> Bool {
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return data.withUnsafeBytes { EventCacheFormat.open($0) != nil }
        }
    }

    /// The views each check compares: agenda, JSON Lines of months and of the agenda, the
    /// month page (its cells), the stream with its lists, a year.
    static let views: [[String]] = [
        ["--agenda", "--from", "2024-01", "--forward", "12"],
        ["--json", "--from", "2024-02", "--forward", "3"],
        ["--json", "--agenda", "--from", "2024-01", "--forward", "12"],
        ["--wall", "--from", "2024-03", "--forward", "2", "--width", "120"],
        ["--from", "2024-03", "--forward", "3", "--columns", "3"],
        ["--year", "2024"],
        ["-3", "--from", "2023-12"],
    ]

    /// A calendar with zones, rules, exceptions, an override, a skipped event, alarms and a
    /// bad alarm (a warning).
    static let mixed = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Mixed
        COLOR:teal
        BEGIN:VEVENT
        UID:weekly
        SUMMARY:Weekly in Berlin
        DTSTART;TZID=Europe/Berlin:20240105T090000
        DTEND;TZID=Europe/Berlin:20240105T100000
        RRULE:FREQ=WEEKLY;UNTIL=20240630T000000Z
        EXDATE;TZID=Europe/Berlin:20240202T090000
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Weekly soon
        TRIGGER:-PT10M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=MIDDLE:-PT10M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20240209T090000
        SUMMARY:Weekly moved
        DTSTART;TZID=Europe/Berlin:20240209T150000
        DTEND;TZID=Europe/Berlin:20240209T160000
        END:VEVENT
        BEGIN:VEVENT
        UID:birthday
        SUMMARY:Birthday
        DTSTART;VALUE=DATE:19800315
        RRULE:FREQ=YEARLY
        END:VEVENT
        BEGIN:VEVENT
        UID:trip
        SUMMARY:Trip
        DTSTART;VALUE=DATE:20240226
        DTEND;VALUE=DATE:20240304
        END:VEVENT
        BEGIN:VEVENT
        UID:monthly
        SUMMARY:Monthly count
        DTSTART:20231120T120000Z
        RRULE:FREQ=MONTHLY;BYDAY=3MO;COUNT=6
        RDATE:20240801T120000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:broken
        SUMMARY:Broken
        DTSTART:not a date
        END:VEVENT
        END:VCALENDAR

        """

    /// Every view of `path` (of `views`) fresh (`--no-cache`), then twice through the cache
    /// (built, then used): the same output and warnings each time.
    static func expectSameViews(_ place: Place, _ path: String, _ label: String, views: [[String]] = Self.views,
                                environment: [String: String?] = [:]) throws {
        for view in views {
            let fresh = try place.run(["--events", path, "--no-cache"] + view, environment: environment)
            #expect(fresh.status == 0, "\(label) \(view): \(fresh.stderr)")
            for round in ["cold", "warm"] {
                let cached = try place.run(["--events", path] + view, environment: environment)
                #expect(cached.stdout == fresh.stdout, "\(label) \(view), \(round)")
                #expect(cached.stderr == fresh.stderr, "\(label) \(view), \(round)")
                #expect(cached.status == fresh.status)
            }
        }
    }

    @Test func cachedRunsShowWhatReadingShows() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        var paths = [try place.write(Self.mixed, to: "mixed.ics")]
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).sorted() where name.hasSuffix(".ics") {
            let text = try String(contentsOfFile: Self.examples.appendingPathComponent(name).path, encoding: .utf8)
            paths.append(try place.write(text, to: name))
        }
        for path in paths { try Self.expectSameViews(place, path, path) }
        // The test fixtures too (from other tools' test suites), each also over the two years
        // from its first event's DTSTART.
        let fixtures = EventCommandTests.root.appendingPathComponent("Tests/Fixtures")
        let found = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".ics") }.sorted() ?? []
        #expect(found.count >= 8, "fixtures: \(found)")
        for relative in found {
            let text = try String(contentsOfFile: fixtures.appendingPathComponent(relative).path, encoding: .utf8)
            let path = try place.write(text, to: "fixture-" + relative.replacingOccurrences(of: "/", with: "-"))
            paths.append(path)
            let event = text.range(of: "BEGIN:VEVENT").map { text[$0.upperBound...] } ?? Substring(text)
            let year = event.firstMatch(of: /DTSTART[^:\r\n]*:(\d{4})/).map { String($0.1) } ?? "2024"
            try Self.expectSameViews(place, path, relative, views: Self.views + [
                ["--agenda", "--from", year + "-01", "--forward", "24"],
                ["--json", "--agenda", "--from", year + "-01", "--forward", "24"],
            ])
        }
        #expect(place.caches.count == paths.count)
        for name in place.caches { #expect(place.isValid(place.cacheDirectory + "/" + name)) }
        // A directory of them is one cache.
        let directory = place.root.appendingPathComponent("vdir").path
        for (index, path) in paths.enumerated() {
            try place.write(try String(contentsOfFile: path, encoding: .utf8), to: "vdir/sub\(index % 2)/\(index).ics")
        }
        try place.setAge(directory, 3600)
        for sub in ["sub0", "sub1"] { try place.setAge(directory + "/" + sub, 3600) }
        try Self.expectSameViews(place, directory, "vdir")
        #expect(place.caches.count == paths.count + 1)
    }

    /// Events lasting long that repeat often (issue 34): the issue's files in the months it
    /// names, and a calendar of long, dense and zoned ones in the cache's years, where a table
    /// can hold the instances of those that are neither too long nor too dense.
    @Test func lastingEventsShowWhatReadingShows() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let files = [("daily", LastingEventTests.daily, "2015-01"), ("secondly", LastingEventTests.secondly, "1847-01"),
                     ("minutely", LastingEventTests.minutely, "1847-01"), ("weekly", LastingEventTests.weekly, "2021-01")]
        for (name, text, month) in files {
            let path = try place.write(text, to: name + ".ics")
            try Self.expectSameViews(place, path, name, views: [
                ["--agenda", "--days", "--from", month, "--forward", "1"], ["--json", "--from", month, "--forward", "1"],
                ["--json", "--agenda", "--from", month, "--forward", "1"], ["--wall", "--from", month, "--forward", "1", "--width", "120"],
                ["--from", month, "--forward", "1"],
            ])
        }
        let path = try place.write(Self.lasting, to: "lasting.ics")
        try Self.expectSameViews(place, path, "lasting", views: Self.views + [["--agenda", "--days", "--from", "2024-03", "--forward", "2"]])
    }

    /// Long, dense and zoned events, RDATE periods, several rules and an EXRULE, in 2024.
    static let lasting = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:hundred
        SUMMARY:Hundred days
        DTSTART:20240105T090000Z
        DURATION:P100D
        RRULE:FREQ=WEEKLY;BYDAY=FR,SA;UNTIL=20241231T000000Z
        EXDATE:20240216T090000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:sixty
        SUMMARY:Sixty days
        DTSTART;TZID=Europe/Berlin:20240101T083000
        DURATION:P60D
        RRULE:FREQ=DAILY;COUNT=400
        END:VEVENT
        BEGIN:VEVENT
        UID:minutes
        SUMMARY:Two hours
        DTSTART:20240301T000000Z
        DURATION:PT2H
        RRULE:FREQ=MINUTELY;UNTIL=20240320T000000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:rules
        SUMMARY:Two rules
        DTSTART;TZID=America/New_York:20231101T100000
        DURATION:P500D
        RRULE:FREQ=DAILY
        RRULE:FREQ=HOURLY;INTERVAL=5
        EXRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=10
        END:VEVENT
        BEGIN:VEVENT
        UID:periods
        SUMMARY:Periods
        DTSTART;VALUE=DATE:20240101
        RDATE;VALUE=PERIOD:20240105T000000Z/P300D,20240201T000000Z/P2D
        END:VEVENT
        END:VCALENDAR

        """

    @Test func aChangedSourceIsReadAgain() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let agenda = ["--agenda", "--from", "2024-01", "--forward", "12"]
        let path = try place.write(Self.mixed, to: "mixed.ics")
        _ = try place.run(["--events", path] + agenda)
        var last = try place.cache()
        func expectRebuilt(_ what: String) throws {
            let fresh = try place.run(["--events", path, "--no-cache"] + agenda)
            let cached = try place.run(["--events", path] + agenda)
            #expect(cached.stdout == fresh.stdout, "\(what)")
            let now = try place.cache()
            #expect(now.inode != last.inode, "\(what): the cache was not built again")
            #expect(place.isValid(now.path))
            #expect(try place.run(["--events", path] + agenda).stdout == fresh.stdout, "\(what), then warm")
            last = now
        }
        // Touched: only the modification time differs.
        try place.setAge(path, 7200)
        try expectRebuilt("touched")
        // Truncated.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(Self.mixed.utf8.count / 2))
        try handle.close()
        try place.setAge(path, 5000)
        try expectRebuilt("truncated")
        // Replaced by a file of the same size and modification time, with other text: only
        // the inode tells.
        try place.write(Self.mixed, to: "mixed.ics", age: 4000)
        try expectRebuilt("rewritten")
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        let other = try place.write(Self.mixed.replacingOccurrences(of: "Birthday", with: "Namesday"), to: "other.ics", age: 4000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: other)
        try #require(rename(other, path) == 0)
        try expectRebuilt("replaced, same size and time")
        #expect(try place.run(["--events", path] + agenda).stdout.contains("Namesday"))
    }

    @Test func aChangedDirectoryIsReadAgain() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let agenda = ["--agenda", "--from", "2024-01", "--forward", "12"]
        let directory = place.root.appendingPathComponent("vdir").path
        func event(_ summary: String, _ day: String) -> String {
            EventCommandTests.calendar([(summary, day)])
        }
        try place.write(event("First", "20240110"), to: "vdir/a.ics")
        try place.write(event("Second", "20240220"), to: "vdir/deep/b.ics")
        try place.setAge(directory + "/deep", 3600)
        try place.setAge(directory, 3600)
        func expectFresh(_ what: String, contains text: String?, lacks gone: String? = nil) throws {
            let fresh = try place.run(["--events", directory, "--no-cache"] + agenda)
            for round in ["cold", "warm"] {
                let cached = try place.run(["--events", directory] + agenda)
                #expect(cached.stdout == fresh.stdout, "\(what), \(round)")
            }
            if let text { #expect(fresh.stdout.contains(text), "\(what)") }
            if let gone { #expect(!fresh.stdout.contains(gone), "\(what)") }
        }
        try expectFresh("built", contains: "Second")
        // A file changed in place in a subdirectory (its directory's time does not change).
        try place.write(event("Changed", "20240220"), to: "vdir/deep/b.ics", age: 1800)
        try place.setAge(directory + "/deep", 3600)
        try expectFresh("changed in place", contains: "Changed", lacks: "Second")
        // A file added to a subdirectory.
        try place.write(event("Added", "20240305"), to: "vdir/deep/c.ics", age: 1800)
        try place.setAge(directory + "/deep", 1700)
        try expectFresh("added", contains: "Added")
        // A file removed.
        try FileManager.default.removeItem(atPath: directory + "/a.ics")
        try place.setAge(directory, 1600)
        try expectFresh("removed", contains: nil, lacks: "First")
    }

    @Test func aDamagedCacheIsBuiltAgain() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        // Decode everything (a long agenda), so that a damaged event record is read too.
        let agenda = ["--agenda", "--from", "1980-01", "--forward", "600"]
        let path = try place.write(Self.mixed, to: "mixed.ics")
        let fresh = try place.run(["--events", path, "--no-cache"] + agenda)
        _ = try place.run(["--events", path] + agenda)
        let intact = try place.cache()
        let original = try #require(FileManager.default.contents(atPath: intact.path))
        // A fixed sequence (a linear congruential generator), so that a failure replays.
        var seed: UInt64 = 20
        func below(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(max(1, n)))
        }
        var damaged: [(String, Data)] = []
        for round in 0..<6 {
            var bytes = original
            let start = below(bytes.count - 16)
            for offset in start..<(start + 1 + below(16)) { bytes[offset] = UInt8(below(256)) }
            if bytes != original { damaged.append(("random bytes \(round) at \(start)", bytes)) }
        }
        damaged.append(("truncated", original.prefix(original.count / 2)))
        damaged.append(("empty", Data()))
        var versioned = original
        versioned[16] = versioned[16] &+ 1
        damaged.append(("another version", versioned))
        damaged.append(("another byte order", Data(original.prefix(8)) + Data(original[8..<16].reversed()) + original.dropFirst(16)))
        for (what, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: intact.path))
            let result = try place.run(["--events", path] + agenda)
            #expect(result.stdout == fresh.stdout, "\(what)")
            #expect(result.stderr == fresh.stderr, "\(what)")
            #expect(FileManager.default.contents(atPath: intact.path) == original, "\(what): the cache was not built again")
        }
    }

    @Test func twoProcessesBuildingOneCacheLeaveAValidOne() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let agenda = ["--agenda", "--from", "2024-01", "--forward", "12"]
        let path = try place.write(Self.mixed, to: "mixed.ics")
        let fresh = try place.run(["--events", path, "--no-cache"] + agenda)
        for round in 0..<3 {
            try? FileManager.default.removeItem(atPath: place.cacheHome)
            let command = (0..<4).map { _ in
                "XDG_CACHE_HOME='\(place.cacheHome)' \"$INFCAL\" --today 2024-02-15 --events '\(path)' \(agenda.joined(separator: " ")) > /dev/null &"
            }.joined(separator: " ") + " wait"
            let both = try BinaryRunner.runShell(command)
            #expect(both.status == 0)
            try place.waitForWriters()
            let cache = try place.cache()
            #expect(place.isValid(cache.path), "round \(round)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place.cacheDirectory)) ?? []
            #expect(names.allSatisfy { $0.hasSuffix(".cache") }, "left behind: \(names)")
            #expect(try place.run(["--events", path] + agenda).stdout == fresh.stdout)
        }
    }

    /// The cache is written by a process the run leaves behind, which holds none of its output:
    /// a reader of the run's output sees its end while the cache is still being written (its
    /// temporary file is there). Tried three times, as the writer could in principle end
    /// before the reader looks; a writer that held the output would never let it see one.
    @Test func theRunsOutputEndsBeforeItsCacheIsWritten() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let path = try place.write(Self.large, to: "large.ics")
        let command = """
            for round in 1 2 3; do
              rm -rf '\(place.cacheHome)'
              XDG_CACHE_HOME='\(place.cacheHome)' "$INFCAL" --today 2024-02-15 --events '\(path)' --from 2024-03 -1 | cat > /dev/null
              ls -a '\(place.cacheDirectory)'
            done
            """
        let seen = try BinaryRunner.runShell(command)
        try place.waitForWriters()
        #expect(seen.status == 0)
        #expect(seen.stdout.contains(".tmp"), "no cache was being written when the run's output ended: \(seen.stdout)")
        let cache = try place.cache()
        #expect(place.isValid(cache.path))
        let fresh = try place.run(["--events", path, "--no-cache", "--from", "2024-03", "-1"])
        #expect(try place.run(["--events", path, "--from", "2024-03", "-1"]).stdout == fresh.stdout)
    }

    /// A small calendar's cache is written by the run itself: in place when the run ends,
    /// with nothing left being written (a script may look for it at once).
    @Test func aSmallCacheIsInPlaceWhenTheRunEnds() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let path = try place.write(Self.mixed, to: "mixed.ics")
        let run = try BinaryRunner.run(["--events", path, "--from", "2024-03", "-1"], environment: ["XDG_CACHE_HOME": place.cacheHome])
        #expect(run.status == 0)
        #expect(!place.writing)
        #expect(place.isValid(try place.cache().path))
    }

    /// 20,000 events a day apart: a cache whose writing takes long enough to be seen.
    static let large: String = {
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<20_000 {
            let day = String(format: "%04d%02d%02d", 2015 + index % 20, 1 + index % 12, 1 + index % 28)
            text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nSUMMARY:Event \(index)\r\nDTSTART:\(day)T090000Z\r\n"
                + "DTEND:\(day)T100000Z\r\nDESCRIPTION:Notes on event \(index)\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }()

    /// A run started while the cache it needs is still being written (by the process a run
    /// just before it left that to) waits for it rather than read the calendar again: strace
    /// shows it open the cache's temporary file and never the calendar for reading. Tried up
    /// to three times, as the writer may be done before the second run looks; one round in
    /// which the second run found it at work is required.
    @Test func aRunWaitsForTheCacheBeingWritten() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            print("EventCacheTests: strace is not installed: waiting for a cache being written is not checked")
            return
        }
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let path = try place.write(Self.large, to: "large.ics")
        let fresh = try place.run(["--events", path, "--no-cache", "--from", "2024-03", "-1"])
        let trace = place.root.appendingPathComponent("trace").path
        var found = false
        for _ in 0..<3 where !found {
            try? FileManager.default.removeItem(atPath: place.cacheHome)
            let run = "--today 2024-02-15 --events '\(path)' --from 2024-03 -1"
            let second = try BinaryRunner.runShell("""
                export XDG_CACHE_HOME='\(place.cacheHome)' TZ=Europe/Berlin
                "$INFCAL" \(run) > /dev/null && strace -f -e trace=openat -o '\(trace)' "$INFCAL" \(run)
                """)
            try place.waitForWriters()
            #expect(second.status == 0)
            #expect(second.stdout == fresh.stdout)
            let opened = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("openat(") }
            guard opened.contains(where: { $0.contains(".tmp\"") }) else { continue }
            found = true
            let reads = opened.filter { $0.contains("\"\(path)\"") && !$0.contains("O_DIRECTORY") }
            #expect(reads.isEmpty, "the second run read the calendar again: \(reads)")
        }
        #expect(found, "the cache was written each time before the second run looked for it")
    }

    @Test func aCacheThatCannotBeWrittenCostsOnlySpeed() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let agenda = ["--agenda", "--from", "2024-01", "--forward", "12"]
        let calendar = Self.mixed.replacingOccurrences(of: "DTSTART:not a date", with: "DTSTART:20240101T000000Z")
            .replacingOccurrences(of: "RELATED=MIDDLE", with: "RELATED=END")
        let path = try place.write(calendar, to: "good.ics")
        let fresh = try place.run(["--events", path, "--no-cache"] + agenda)
        #expect(fresh.stderr == "")
        // XDG_CACHE_HOME naming a file: the cache directory cannot be made.
        let blocked = try place.write("not a directory", to: "blocked")
        for _ in 0..<2 {
            let result = try place.run(["--events", path] + agenda, environment: ["XDG_CACHE_HOME": blocked])
            #expect(result.status == 0)
            #expect(result.stdout == fresh.stdout)
            #expect(result.stderr == "")
        }
        let strict = try place.run(["--events", path, "--strict"] + agenda, environment: ["XDG_CACHE_HOME": blocked])
        #expect(strict.status == 0)
        #expect(strict.stdout == fresh.stdout)
        #expect(strict.stderr.hasPrefix("infcal: cannot write the event cache"), "\(strict.stderr)")
        // A read-only directory (which root may write into anyway).
        if getuid() != 0 {
            try FileManager.default.createDirectory(atPath: place.cacheDirectory, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: place.cacheDirectory)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: place.cacheDirectory) }
            let result = try place.run(["--events", path] + agenda)
            #expect(result.stdout == fresh.stdout)
            #expect(result.stderr == "")
        } else {
            print("EventCacheTests: running as root, which writes into a read-only directory: that case is not checked")
        }
        // --no-cache writes none, and standard input is never cached.
        let other = try Place()
        defer { try? FileManager.default.removeItem(at: other.root) }
        _ = try other.run(["--events", path, "--no-cache"] + agenda)
        _ = try BinaryRunner.runShell("XDG_CACHE_HOME='\(other.cacheHome)' \"$INFCAL\" --events - --agenda --from 2024-01 --forward 12 < '\(path)' > /dev/null")
        try other.waitForWriters()
        #expect(other.caches.isEmpty)
    }
}
