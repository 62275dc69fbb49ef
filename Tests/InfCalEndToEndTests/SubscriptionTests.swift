import Foundation
import InfCalPTY
import Testing

/// Subscriptions against a feed server of the test's own (Tests/Servers/feed_server.py, on
/// 127.0.0.1 and a free port): the cached copy, conditional requests, and every fault a
/// fetch can meet, each keeping the last good copy.
@Suite(.serialized) struct SubscriptionTests {
    static let skip = TestServer.missing()

    /// An iCalendar feed of one event on 2024-02-15, whose summary is `title`.
    static func feed(_ title: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:standup@example.org\r\n"
            + "DTSTAMP:20240101T000000Z\r\nDTSTART:20240215T100000Z\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static let agenda = ["--agenda", "--from", "2024-02", "--forward", "1"]

    /// A home with a config naming one subscription, `work`, at `path` of a running server.
    struct Setup {
        let home: TemporaryHome
        let server: TestServer

        init(path: String = "/switch.ics", extra: String = "") throws {
            home = try TemporaryHome()
            try Self.serve(SubscriptionTests.feed("Standup"), in: home)
            server = try TestServer("feed_server.py", directory: home.serverDirectory)
            try home.write("[events work]\nurl = \(server.url(path))\n\(extra)", to: "config.ini")
        }

        static func serve(_ feed: String, in home: TemporaryHome) throws {
            try feed.write(to: home.serverDirectory.appendingPathComponent("feed.ics"), atomically: true, encoding: .utf8)
        }

        /// Makes /switch.ics answer as `path` does.
        func mode(_ path: String) throws {
            try path.write(to: home.serverDirectory.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
        }

        var copy: String? {
            try? String(contentsOf: home.cache.appendingPathComponent("work.ics"), encoding: .utf8)
        }
    }

    @Test func aSubscriptionIsFetchedOnceThenReadFromItsCopyAndRefreshedWithAConditionalRequest() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        let first = try setup.home.run(Self.agenda)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Standup"))
        #expect(first.stderr.isEmpty)
        #expect(setup.server.requests.count == 1)
        // A fresh copy: no request at all.
        let second = try setup.home.run(Self.agenda)
        #expect(second.stdout == first.stdout)
        #expect(setup.server.requests.count == 1)
        // --refresh asks again, with the ETag the server gave: 304, the copy stays.
        let third = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(third.stdout == first.stdout)
        let requests = setup.server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.hasPrefix("GET /switch.ics \"") == true, "\(requests)")
        // A changed feed is a new copy.
        try Setup.serve(Self.feed("Standup moved"), in: setup.home)
        let fourth = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(fourth.stdout.contains("Standup moved"))
        // --offline never fetches, however old the copy.
        try Setup.serve(Self.feed("Never seen"), in: setup.home)
        let fifth = try setup.home.run(Self.agenda + ["--offline"])
        #expect(fifth.stdout.contains("Standup moved"))
        #expect(setup.server.requests.count == 3)
    }

    @Test func aCopyOlderThanRefreshIsFetchedAgainAndNeverIsNot() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(extra: "refresh = never\n")
        defer { setup.server.stop() }
        _ = try setup.home.run(Self.agenda)
        _ = try setup.home.run(Self.agenda)
        #expect(setup.server.requests.count == 1)
        _ = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(setup.server.requests.count == 2)
    }

    /// Each fault the server plays, and the reason infcal must give.
    static let faults: [(mode: String, reason: String)] = [
        ("/status/503", "HTTP 503"),
        ("/status/404", "HTTP 404"),
        ("/hang", "timed out after 2 s"),
        ("/loop/0", "more than 5 redirects"),
        ("/short", "body cut short: 30 of 100000 bytes"),
        ("/html", "not iCalendar data: text/html"),
        ("/huge", "body over 64 MiB"),
        ("/auth.ics", "HTTP 401"),
    ]

    @Test(arguments: faults) func aFaultKeepsTheLastGoodCopyAndSaysSoOnce(mode: String, reason: String) throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(extra: "timeout = 2\n")
        defer { setup.server.stop() }
        let good = try setup.home.run(Self.agenda)
        #expect(good.status == 0 && good.stdout.contains("Standup"), "\(good.stderr)")
        let copy = setup.copy
        try setup.mode(mode)
        let failed = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(failed.status == 0)
        #expect(failed.stdout == good.stdout)
        let lines = failed.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(failed.stderr)")
        let expected = "infcal: work: fetch failed (\(reason)); showing the copy of "
        #expect(failed.stderr.hasPrefix(expected), "\(failed.stderr)")
        // The copy's time, as a date and a minute (TZ=UTC in these runs).
        let stamp = failed.stderr.dropFirst(expected.count).trimmingCharacters(in: .newlines)
        #expect(stamp.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d$"#, options: .regularExpression) != nil, "\(stamp)")
        #expect(setup.copy == copy)
        // With --strict the same run is an error.
        let strict = try setup.home.run(Self.agenda + ["--refresh", "--strict"])
        #expect(strict.status == 65, "\(strict.stderr)")
    }

    @Test func fiveRedirectsAreFollowed() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(path: "/redirect/5")
        defer { setup.server.stop() }
        let run = try setup.home.run(Self.agenda)
        #expect(run.status == 0 && run.stdout.contains("Standup"), "\(run.stderr)")
    }

    @Test func aServerThatIsGoneKeepsTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        let good = try setup.home.run(Self.agenda)
        setup.server.stop()
        let failed = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(failed.status == 0)
        #expect(failed.stdout == good.stdout)
        #expect(failed.stderr.hasPrefix("infcal: work: fetch failed (connection refused); showing the copy of "), "\(failed.stderr)")
    }

    @Test func aTLSFailureKeepsTheCopyAndNamesItsTime() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        // The plain http server answers a TLS handshake with nonsense. The copy is put in
        // place by hand, as fetched at 1700000000 s: 2023-11-14 22:13 UTC (date -u -d @1700000000).
        let url = "https://127.0.0.1:\(setup.server.port)/feed.ics"
        try setup.home.write("[events work]\nurl = \(url)\n", to: "config.ini")
        try FileManager.default.createDirectory(at: setup.home.cache, withIntermediateDirectories: true)
        try Self.feed("Standup").write(to: setup.home.cache.appendingPathComponent("work.ics"), atomically: true, encoding: .utf8)
        try "copy\nurl \(url)\nkind ics\nfetched 1700000000\n\n"
            .write(to: setup.home.cache.appendingPathComponent("work.meta"), atomically: true, encoding: .utf8)
        let failed = try setup.home.run(Self.agenda)
        #expect(failed.status == 0)
        #expect(failed.stdout.contains("Standup"))
        #expect(failed.stderr == "infcal: work: fetch failed (TLS failure); showing the copy of 2023-11-14 22:13\n")
    }

    @Test func anUnknownHostKeepsTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        // .invalid never resolves (RFC 6761 section 6.4): no real network is asked anything
        // it could answer. The copy is put in place by hand, as fetched at 1700000000 s.
        let home = try TemporaryHome()
        let url = "http://calendar.infcal.invalid/feed.ics"
        try home.write("[events work]\nurl = \(url)\n", to: "config.ini")
        try FileManager.default.createDirectory(at: home.cache, withIntermediateDirectories: true)
        try Self.feed("Standup").write(to: home.cache.appendingPathComponent("work.ics"), atomically: true, encoding: .utf8)
        try "copy\nurl \(url)\nkind ics\nfetched 1700000000\n\n"
            .write(to: home.cache.appendingPathComponent("work.meta"), atomically: true, encoding: .utf8)
        let failed = try home.run(Self.agenda)
        #expect(failed.status == 0)
        #expect(failed.stdout.contains("Standup"))
        #expect(failed.stderr == "infcal: work: fetch failed (unknown host calendar.infcal.invalid); showing the copy of 2023-11-14 22:13\n")
        let strict = try home.run(Self.agenda + ["--strict"])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("unknown host calendar.infcal.invalid"), "\(strict.stderr)")
    }

    @Test func withoutACopyAFailureSaysThereIsNone() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(path: "/status/500")
        defer { setup.server.stop() }
        let run = try setup.home.run(Self.agenda)
        #expect(run.status == 0)
        #expect(run.stderr == "infcal: work: fetch failed (HTTP 500); no copy to show yet\n")
    }

    @Test func aPasswordComesFromTheCommandOrNetrcAndIsNeverWrittenDown() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(path: "/auth.ics", extra: "username = user\npassword-command = echo secret\n")
        defer { setup.server.stop() }
        let run = try setup.home.run(Self.agenda + ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Standup"))
        #expect(setup.server.requests.last?.hasSuffix(" auth") == true)
        for file in try FileManager.default.contentsOfDirectory(atPath: setup.home.cache.path) {
            let text = try String(contentsOf: setup.home.cache.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("secret"), "\(file)")
        }
        #expect(!run.stdout.contains("secret") && !run.stderr.contains("secret"))
        // ~/.netrc gives both the user and the password.
        try setup.home.write("[events work]\nurl = \(setup.server.url("/auth.ics"))\n", to: "config.ini")
        try setup.home.write("machine 127.0.0.1\n  login user\n  password secret\n", to: ".netrc")
        let netrc = try setup.home.run(Self.agenda + ["--refresh"])
        #expect(netrc.status == 0 && netrc.stderr.isEmpty, "\(netrc.stderr)")
        #expect(setup.server.requests.last?.hasSuffix(" auth") == true)
    }

    @Test func aPasswordIsNotSentOverPlainHTTPToAnotherMachine() throws {
        // No server: infcal refuses before it looks the host up.
        let home = try TemporaryHome()
        try home.write("[events work]\nurl = http://calendar.example.invalid/work.ics\nusername = user\npassword-command = echo secret\n",
                       to: "config.ini")
        let run = try home.run(Self.agenda)
        #expect(run.status == 0)
        #expect(run.stderr == "infcal: work: fetch failed (a password goes over https only, or plain http to this machine); no copy to show yet\n")
    }

    // MARK: Without the helper, and in the pager

    @Test func withoutTheHelperTheCopyIsShownAndTheRunSaysSoOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        let good = try setup.home.run(Self.agenda)
        // infcal alone in a directory, and no helper on PATH either.
        let alone = setup.home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copy = alone.appendingPathComponent("infcal")
        // A hard link, not a copy: a copy's write descriptor can be inherited by a child that
        // another test forks at that moment, and exec then fails with "Text file busy".
        do { try FileManager.default.linkItem(at: BinaryRunner.executable, to: copy) } catch {
            try FileManager.default.copyItem(at: BinaryRunner.executable, to: copy)
        }
        let run = try BinaryRunner.runProgram(copy, ["--today", "2024-02-15", "--config", setup.home.config.path, "--refresh"] + Self.agenda,
                                              environment: setup.home.environment, deadline: 60)
        #expect(run.status == 0)
        #expect(run.stdout == good.stdout)
        #expect(run.stderr == "infcal: the network helper infcal-fetch is not installed (beside infcal or on PATH); showing the cached copies\n")
    }

    static func pager(_ setup: Setup) throws -> PseudoTerminalSession {
        try PseudoTerminalSession(
            executable: BinaryRunner.executable.path,
            arguments: ["--config", setup.home.config.path, "--refresh", "--today", "2024-02-15"],
            environment: PseudoTerminalSession.pinnedEnvironment.merging(setup.home.environment.compactMapValues { $0 }) { $1 },
            columns: 100, rows: 30, controllingTerminal: true, stdinFromNull: false)
    }

    @Test func atATerminalASlowFetchShowsItsProgressAndErasesIt() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        // /slow sends the feed in twenty pieces a tenth of a second apart.
        let setup = try Setup(path: "/slow")
        defer { setup.server.stop() }
        let session = try PseudoTerminalSession(
            executable: BinaryRunner.executable.path,
            arguments: ["--config", setup.home.config.path, "--today", "2024-02-15"] + Self.agenda,
            environment: PseudoTerminalSession.pinnedEnvironment.merging(setup.home.environment.compactMapValues { $0 }) { $1 },
            columns: 100, rows: 30, controllingTerminal: true, stdinFromNull: true)
        #expect(session.waitForExit() == .exited(0))
        let written = String(decoding: session.output, as: UTF8.self)
        #expect(written.contains("\rinfcal: work: fetching, "), "\(written.debugDescription)")
        #expect(written.contains(" bytes\u{1B}[K"))
        // Erased before the agenda: the screen shows the event and no progress.
        #expect(session.screen.contains("Standup"))
        #expect(!session.screen.contains("fetching"))
    }

    @Test func thePagerOpensOnTheCopyWhileTheServerSaysNothing() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(extra: "timeout = 60\n")
        defer { setup.server.stop() }
        _ = try setup.home.run(Self.agenda)
        try setup.mode("/hang")
        let session = try Self.pager(setup)
        // The page with the copy's event is drawn while the server holds the fetch unanswered.
        #expect(session.waitFor { $0.contains("Stan") }, "\(session.screen.text)")
        // The background fetch reaches the server, which then says nothing; the page stays.
        var polls = 0
        while setup.server.requests.count < 2, polls < 600 {
            _ = session.pump(timeout: 0.1)
            polls += 1
        }
        #expect(setup.server.requests.count == 2)
        #expect(setup.server.requests.last?.hasPrefix("GET /switch.ics") == true)
        #expect(session.exit == nil)
        // "10:00 Standup" fills a 13-cell cell; with a cell of padding each side it is cut.
        #expect(session.screen.contains("Standup") || session.screen.contains("Stan…"))
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test func thePagerRepaintsWhenAFresherCopyArrives() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.server.stop() }
        _ = try setup.home.run(Self.agenda)
        try Setup.serve(Self.feed("Retro"), in: setup.home)
        try setup.mode("/slow")
        let session = try Self.pager(setup)
        #expect(session.waitFor { $0.contains("Retro") }, "\(session.screen.text)")
        // Before the fresher copy, the pager had drawn the old one.
        let drawn = String(decoding: session.output, as: UTF8.self)
        let old = try #require(drawn.range(of: "Stan"), "the old copy was never drawn")
        let new = try #require(drawn.range(of: "Retro"))
        #expect(old.lowerBound < new.lowerBound)
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
