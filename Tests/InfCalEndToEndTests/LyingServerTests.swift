import Foundation
import Glibc
import Testing

/// Issue 34's lying server, each reproduction end to end against the feed server of the tests'
/// own (Tests/Servers/feed_server.py on 127.0.0.1 and a free port): a gzip bomb, a body of a
/// gigabyte with and without a Content-Length, a Content-Length shorter than the calendar, a
/// CalDAV collection with an href no file can be named after, one event cut short among
/// changed ones, and hrefs holding NUL, slashes and dot-dot. Each run is bounded in time (the
/// runner's deadline) and, where memory is the point, in address space (RLIMIT_AS, inherited
/// by the network helper, as `prlimit --as` sets it).
@Suite(.serialized) struct LyingServerTests {
    static let skip = TestServer.missing()

    /// The address space infcal and its helper each get in the memory tests: the helper's
    /// own start-up (Foundation, libcurl, their threads) takes about 250 MiB of it, the 64 MiB
    /// body limit the rest; a helper that held a 4 GiB bomb's expansion, or a gigabyte body,
    /// as the issue measured (2 GB, and a crash), could not live in it.
    static let memoryLimit = 640 << 20

    typealias Setup = SubscriptionTests.Setup
    static let agenda = SubscriptionTests.agenda

    /// A calendar whose weekly standup has one occurrence moved (a RECURRENCE-ID override at
    /// the end of the file), so that a body cut short would move it back.
    static let movedFeed = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//infcal tests//EN\r
        BEGIN:VEVENT\r
        UID:standup@example.org\r
        DTSTAMP:20240101T000000Z\r
        DTSTART:20240201T100000Z\r
        RRULE:FREQ=WEEKLY;COUNT=4\r
        SUMMARY:Standup\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@example.org\r
        DTSTAMP:20240101T000000Z\r
        RECURRENCE-ID:20240215T100000Z\r
        DTSTART:20240216T140000Z\r
        SUMMARY:Standup moved\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aGzipBombStopsAtTheLimitAndKeepsTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        let good = try setup.home.run(Self.agenda)
        #expect(good.stdout.contains("Standup"), "\(good.stderr)")
        try setup.mode("/bomb")
        let run = try BinaryRunner.run(["--config", setup.home.config.path] + Self.agenda + ["--refresh"],
                                       environment: setup.home.environment, deadline: 60, memoryLimit: Self.memoryLimit)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("infcal: work: fetch failed (body over 64 MiB); showing the copy of "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout == good.stdout)
        #expect(setup.copy == SubscriptionTests.feed("Standup"))
    }

    /// A gigabyte announced by its Content-Length is refused before its body is read; one
    /// without (the connection's end ends it) is counted as it comes and cut at the limit.
    /// Neither leaves a copy, nor crashes the helper, with no copy to fall back on.
    @Test(arguments: ["/gigabyte", "/endless"])
    func aGigabyteWithoutACopyIsRefusedWithoutACrash(path: String) throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        try setup.mode(path)
        let run = try BinaryRunner.run(["--config", setup.home.config.path] + Self.agenda,
                                       environment: setup.home.environment, deadline: 60, memoryLimit: Self.memoryLimit)
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        #expect(run.stderr == "infcal: work: fetch failed (body over 64 MiB); no copy to show yet\n", "\(run.stderr)")
        #expect(setup.copy == nil)
        // The helper that met it ended after answering; the next run starts another and
        // fetches as ever.
        try setup.mode("/feed.ics")
        let next = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(next.stdout.contains("Standup"), "\(next.stderr)")
    }

    @Test func aContentLengthShorterThanTheCalendarNeverReplacesTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        try Setup.serve(Self.movedFeed, in: setup.home)
        let good = try setup.home.run(Self.agenda)
        #expect(good.stdout.contains("Standup moved") && good.stderr.isEmpty, "\(good.stdout) \(good.stderr)")
        try setup.mode("/cut")
        let cut = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(cut.status == 0)
        #expect(cut.stderr.hasPrefix("infcal: work: fetch failed (body cut short: no END:VCALENDAR at its end ("), "\(cut.stderr)")
        // The moved occurrence stays where it was moved; no event vanished.
        #expect(cut.stdout == good.stdout)
        #expect(setup.copy == Self.movedFeed)
    }

    // MARK: A CalDAV collection that lies

    /// A CalDAV calendar at /cal/ of the feed server, its events the files of `cal/`.
    struct Collection {
        let setup: Setup

        init() throws {
            setup = try Setup(path: "/cal/")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        var folder: URL { setup.home.serverDirectory.appendingPathComponent("cal") }
        var copy: URL { setup.home.cache.appendingPathComponent("work.caldav") }

        /// An event on day `day` of February 2024 in the file `file`, at `href` when given.
        func put(_ file: String, day: Int, _ title: String, href: String? = nil) throws {
            let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:\(file)@example.org\r\n"
                + "DTSTAMP:20240101T000000Z\r\nDTSTART:202402\(day)T100000Z\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            try event.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
            if let href { try Data(href.utf8).write(to: folder.appendingPathComponent(file + ".href")) }
        }

        /// Every file of the copy, by its path under `work.caldav`.
        func files() -> [String: String] {
            var found: [String: String] = [:]
            for case let path as String in FileManager.default.enumerator(atPath: copy.path)?.allObjects ?? [] {
                let url = copy.appendingPathComponent(path)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                found[path] = (try? String(contentsOf: url, encoding: .utf8)) ?? "?"
            }
            return found
        }

        func summaries(_ extra: [String] = []) throws -> (run: BinaryRunner.Result, titles: [String]) {
            let run = try setup.home.run(["--agenda", "--json", "--from", "2024-02", "--forward", "1"] + extra)
            let titles = run.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["summary"] as? String
            }
            return (run, titles)
        }
    }

    /// Issue 34: an href of 300 letters made the fetch fail with a 5 KB message after the
    /// other events had been replaced. It is stored under its hash now, beside the others,
    /// and found again by its href when it changes.
    @Test func anHrefTooLongForAFileNameIsStoredUnderItsHash() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let collection = try Collection()
        defer { collection.setup.server.stop() }
        let long = "/cal/" + String(repeating: "a", count: 300) + ".ics"
        try collection.put("first.ics", day: 12, "First")
        try collection.put("long", day: 13, "Long", href: long)
        try collection.put("third.ics", day: 14, "Third")
        let (run, titles) = try collection.summaries()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(titles == ["First", "Long", "Third"])
        let names = collection.files().keys.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        #expect(names.allSatisfy { $0.utf8.count <= 200 }, "\(names)")
        // The hashed name: h-, the SHA-256 of the 300-letter segment (Python's hashlib), .ics.
        #expect(names.contains("h-" + Self.sha256(String(repeating: "a", count: 300) + ".ics") + ".ics"), "\(names)")
        // Changed on the server: the ETags differ, and the multiget asks for the long href itself.
        try collection.put("long", day: 13, "Long changed", href: long)
        let again = try collection.summaries(["--refresh"])
        #expect(again.run.stderr.isEmpty, "\(again.run.stderr)")
        #expect(again.titles == ["First", "Long changed", "Third"])
        #expect(collection.setup.server.requests.contains { $0.hasPrefix("REPORT /cal/") }, "\(collection.setup.server.requests)")
    }

    /// A refresh is one step: two events changed on the server, one of them sent cut short
    /// (no END:VCALENDAR); the fetch fails, says so in one short line, and the copy is the
    /// last good one, whole: neither change is in it, and nothing is left beside it.
    @Test func aRefreshWithOneEventCutShortChangesNothing() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let collection = try Collection()
        defer { collection.setup.server.stop() }
        try collection.put("a.ics", day: 12, "Alpha")
        try collection.put("b.ics", day: 13, "Beta")
        try collection.put("c.ics", day: 14, "Gamma")
        let good = try collection.summaries()
        #expect(good.titles == ["Alpha", "Beta", "Gamma"], "\(good.run.stderr)")
        let before = collection.files()
        // Alpha changes whole; Beta changes and goes out cut, under an href with a terminal escape.
        try collection.put("a.ics", day: 12, "Alpha changed")
        try FileManager.default.removeItem(at: collection.folder.appendingPathComponent("b.ics"))
        try collection.put("b.ics.cut", day: 13, "Beta changed", href: "/cal/b.ics")
        let failed = try collection.summaries(["--refresh"])
        #expect(failed.run.status == 0)
        #expect(failed.run.stderr.hasPrefix("infcal: work: fetch failed (the event at /cal/b.ics is cut short (no END:VCALENDAR)); "
                                            + "showing the copy of "), "\(failed.run.stderr)")
        #expect(failed.titles == ["Alpha", "Beta", "Gamma"])
        #expect(collection.files() == before)
        // An href holding an escape and a line break is quoted short and inert.
        try collection.put("b.ics.cut", day: 13, "Beta changed", href: "/cal/\u{1B}]52;c;AAAA\u{7}\n" + String(repeating: "x", count: 400))
        let hostile = try collection.summaries(["--refresh"])
        let line = hostile.run.stderr
        #expect(line.split(separator: "\n").count == 1 && line.count < 300, "\(line)")
        #expect(!line.contains("\u{1B}") && !line.contains("\u{7}") && line.contains("\\x1b]52;c;AAAA\\x07\\n"), "\(line)")
        #expect(collection.files() == before)
        // Whole again on the server: the next refresh takes both changes.
        try FileManager.default.removeItem(at: collection.folder.appendingPathComponent("b.ics.cut"))
        try FileManager.default.removeItem(at: collection.folder.appendingPathComponent("b.ics.cut.href"))
        try collection.put("b.ics", day: 13, "Beta changed")
        let mended = try collection.summaries(["--refresh"])
        #expect(mended.titles == ["Alpha changed", "Beta changed", "Gamma"], "\(mended.run.stderr)")
    }

    /// Hrefs holding NUL, an escaped slash, dot-dot: each event is stored under a name of its
    /// own inside the collection's directory, nothing outside it.
    @Test func hrefsThatCannotBeFileNamesStayInsideTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let collection = try Collection()
        defer { collection.setup.server.stop() }
        try collection.put("nul", day: 12, "Nul", href: "/cal/a\u{0}b.ics")
        try collection.put("slash", day: 13, "Slash", href: "/cal/..%2F..%2F..%2Fescape.ics")
        try collection.put("dots", day: 14, "Dots", href: "/cal/%2E%2E")
        let (run, titles) = try collection.summaries()
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(titles.sorted() == ["Dots", "Nul", "Slash"])
        let files = collection.files().keys.sorted()
        #expect(files.count == 5 && files.allSatisfy { $0.hasPrefix("calendar/") && $0.split(separator: "/").count == 2 }, "\(files)")
        let cache = try FileManager.default.contentsOfDirectory(atPath: collection.setup.home.cache.path).sorted()
        #expect(cache == ["work.caldav", "work.lock", "work.meta"], "\(cache)")
    }

    /// The SHA-256 of `text` in hex, by Python's hashlib.
    static func sha256(_ text: String) -> String {
        let run = try? BinaryRunner.runProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                               ["python3", "-c", "import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", text],
                                               environment: [:], deadline: 30)
        return run?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
}
