import Foundation
import InfCalProcess
import Testing

/// CalDAV against a real Radicale server (PyPI `radicale`, run by Tests/Servers/radicale_server.py
/// on 127.0.0.1 and a free port), with two users and three calendars made and filled through
/// its own CalDAV API with curl, as another client would.
@Suite(.serialized) struct CalDAVTests {
    static let skip: String? = {
        if let missing = TestServer.missing(["radicale"]) { return missing + " (pip install radicale)" }
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") ? nil : "curl is not installed"
    }()

    /// A Radicale server with alice's calendars Work (red) and Home (green) and bob's Club
    /// (blue), and a home whose config names both accounts.
    final class Server {
        let home: TemporaryHome
        let server: TestServer

        /// `rights`: Radicale's rights backend (radicale_server.py's default is owner_only).
        init(rights: String? = nil) throws {
            home = try TemporaryHome()
            try "alice:apass\nbob:bpass\n".write(to: home.serverDirectory.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
            if let rights { try rights.write(to: home.serverDirectory.appendingPathComponent("rights"), atomically: true, encoding: .utf8) }
            server = try TestServer("radicale_server.py", directory: home.serverDirectory)
            try make("alice", "work", name: "Work", color: "#FF0000FF")
            try make("alice", "home", name: "Home", color: "#00FF00")
            try make("bob", "club", name: "Club", color: "#0000FF")
            try put("alice", "work", "standup", day: 15, "Standup")
            try put("alice", "work", "review", day: 16, "Review")
            try put("alice", "home", "dentist", day: 20, "Dentist")
            try put("bob", "club", "match", day: 17, "Match")
            try configure()
        }

        func configure(alicePassword: String = "apass", extra: String = "") throws {
            try home.write("""
            [events alice]
            url = \(server.url("/"))
            username = alice
            password-command = echo \(alicePassword)

            [events bob]
            url = \(server.url("/bob/club/"))
            username = bob
            password-command = echo bpass
            \(extra)
            """, to: "config.ini")
        }

        /// Runs curl as `user` with `arguments`; fails the test unless the server says 2xx.
        func curl(_ user: String, _ arguments: [String]) throws {
            let password = user == "alice" ? "apass" : "bpass"
            let run = try BinaryRunner.runProgram(URL(fileURLWithPath: "/usr/bin/curl"),
                                                  ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(user):\(password)"] + arguments,
                                                  environment: [:], deadline: 30)
            #expect(run.stdout.hasPrefix("2"), "curl \(arguments): \(run.stdout) \(run.stderr)")
        }

        func make(_ user: String, _ collection: String, name: String, color: String) throws {
            let body = """
            <?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" \
            xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop><D:displayname>\(name)</D:displayname>\
            <A:calendar-color>\(color)</A:calendar-color></D:prop></D:set></C:mkcalendar>
            """
            try curl(user, ["-X", "MKCALENDAR", "-H", "Content-Type: application/xml", "--data-binary", body,
                            server.url("/\(user)/\(collection)/")])
        }

        func put(_ user: String, _ collection: String, _ uid: String, day: Int, _ title: String) throws {
            let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)@example.org\r\n"
                + "DTSTAMP:20240101T000000Z\r\nDTSTART:202402\(day)T100000Z\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            try curl(user, ["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", event,
                            server.url("/\(user)/\(collection)/\(uid).ics")])
        }

        /// The occurrences of February 2024 as JSON objects.
        func events(_ arguments: [String] = []) throws -> (run: BinaryRunner.Result, events: [[String: Any]]) {
            let run = try home.run(["--agenda", "--json", "--from", "2024-02", "--forward", "1"] + arguments)
            let events = run.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return (run, events)
        }

        /// What the last `write` changed in the calendars' copies, each file checked as every
        /// written file is (`WrittenFiles`); nil without icalendar, or when the write failed
        /// (then a copy may have been fetched again: the server's bytes, not infcal's edit).
        var lastReport: WrittenFiles.Report?

        /// Runs `infcal add`, `edit` or `delete` (`arguments`) with this home's config file,
        /// and checks what a write that went through left in the copies (`lastReport`).
        func write(_ arguments: [String]) throws -> BinaryRunner.Result {
            let copies = WrittenFiles.Snapshot(home.cache)
            let run = try BinaryRunner.runProgram(BinaryRunner.executable, arguments,
                                                  environment: home.environment.merging(["INFCAL_CONFIG": home.config.path, "TZ": "UTC"]) { $1 },
                                                  deadline: 60)
            lastReport = run.status == 0 ? try WrittenFiles.check(home.cache, since: copies) : nil
            return run
        }

        /// What another client (curl, as `user`) gets for `path`: the status and the body.
        func get(_ user: String, _ path: String) throws -> (status: String, body: String) {
            let password = user == "alice" ? "apass" : "bpass"
            let run = try BinaryRunner.runProgram(URL(fileURLWithPath: "/usr/bin/curl"),
                                                  ["-s", "-w", "\n%{http_code}", "-u", "\(user):\(password)", server.url(path)],
                                                  environment: [:], deadline: 30)
            var lines = run.stdout.components(separatedBy: "\n")
            let status = lines.popLast() ?? ""
            return (status, lines.joined(separator: "\n"))
        }

        /// The requests logged since `start`, and the events their answers carried.
        func requests(since start: Int) -> (lines: [String], events: Int) {
            let lines = Array(server.requests.dropFirst(start))
            return (lines, lines.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +))
        }
    }

    static func pairs(_ events: [[String: Any]]) -> [String] {
        events.map { "\($0["calendarName"] as? String ?? "-"): \($0["summary"] as? String ?? "-")" }
    }

    @Test func discoversTheCalendarsOfAnAccountAndNamesThem() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        let (run, events) = try radicale.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        // alice's account URL names two calendars, discovered; bob's URL names one, by its own name.
        #expect(Self.pairs(events) == ["alice/Work: Standup", "alice/Work: Review", "bob: Match", "alice/Home: Dentist"])
        // Nothing holds a password: not the cache, not the output.
        let cache = radicale.home.cache.path
        for file in FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? [] {
            let text = (try? String(contentsOfFile: cache + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("apass") && !text.contains("bpass"), "\(file)")
        }
    }

    @Test func onlyAndHideChooseAccountsAndTheirDiscoveredCalendars() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        _ = try radicale.events()
        #expect(Self.pairs(try radicale.events(["--only", "bob"]).events) == ["bob: Match"])
        #expect(Self.pairs(try radicale.events(["--hide", "alice"]).events) == ["bob: Match"])
        #expect(Self.pairs(try radicale.events(["--only", "alice/Home"]).events) == ["alice/Home: Dentist"])
        #expect(Self.pairs(try radicale.events(["--hide", "alice/Work,bob"]).events) == ["alice/Home: Dentist"])
        let unknown = try radicale.events(["--only", "carol"])
        #expect(unknown.run.status == 64)
        #expect(unknown.run.stdout.isEmpty)
    }

    @Test func theServersColoursColourTheCalendars() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        let run = try radicale.home.run(["--agenda", "--from", "2024-02", "--forward", "1", "--color", "always"],
                                        environment: ["COLORTERM": "truecolor"])
        #expect(run.status == 0, "\(run.stderr)")
        // Work is #FF0000, Home #00FF00, Club #0000FF, as the calendars were made above.
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first { $0.contains("Standup") }?.contains("38;2;255;0;0") == true, "\(lines)")
        #expect(lines.first { $0.contains("Dentist") }?.contains("38;2;0;255;0") == true, "\(lines)")
        #expect(lines.first { $0.contains("Match") }?.contains("38;2;0;0;255") == true, "\(lines)")
    }

    @Test func aRefreshAfterOneChangeFetchesThatEventAloneAndAnotherClientsChangeShows() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        let first = try radicale.events()
        #expect(first.run.status == 0, "\(first.run.stderr)")
        // The first download was a calendar-query REPORT carrying every event.
        let initial = radicale.requests(since: 0)
        #expect(initial.lines.contains { $0.hasPrefix("REPORT /alice/work/ 207 2") }, "\(initial.lines)")
        // Another client changes one event.
        try radicale.put("alice", "work", "review", day: 16, "Review moved")
        let start = radicale.server.requests.count
        // A fresh cache: nothing asked, nothing new shown.
        let cached = try radicale.events()
        #expect(Self.pairs(cached.events) == Self.pairs(first.events))
        #expect(radicale.server.requests.count == start)
        // --refresh: sync-collection says which one changed, and only that one is fetched.
        let refreshed = try radicale.events(["--refresh"])
        #expect(refreshed.run.status == 0, "\(refreshed.run.stderr)")
        #expect(Self.pairs(refreshed.events).contains("alice/Work: Review moved"))
        let delta = radicale.requests(since: start)
        #expect(delta.events == 1, "\(delta.lines)")
        // A deleted event goes from the copy too.
        try radicale.curl("alice", ["-X", "DELETE", radicale.server.url("/alice/work/standup.ics")])
        let afterDelete = try radicale.events(["--refresh"])
        #expect(!Self.pairs(afterDelete.events).contains("alice/Work: Standup"))
        #expect(Self.pairs(afterDelete.events).contains("alice/Work: Review moved"))
    }

    @Test func aWrongPasswordIsAnHTTP401AndKeepsTheCopy() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        let good = try radicale.events()
        try radicale.configure(alicePassword: "wrong")
        let (run, events) = try radicale.events(["--refresh"])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("infcal: alice: fetch failed (HTTP 401); showing the copy of "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(Self.pairs(events) == Self.pairs(good.events))
    }

    // MARK: Writing

    /// The UID `infcal add` printed (after the tab of its one line).
    static func uid(_ run: BinaryRunner.Result) -> String {
        run.stdout.split(separator: "\n").first?.split(separator: "\t").last.map(String.init) ?? ""
    }

    @Test func addEditAndDeleteReachTheServerAndShowWithoutAnotherFetch() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        _ = try radicale.events()
        // An account with two calendars: which one is for --to to say.
        let ambiguous = try radicale.write(["add", "--to", "alice", "2024-02-21", "10:00", "Lunch"])
        #expect(ambiguous.status == 64, "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("alice/Work") && ambiguous.stderr.contains("alice/Home"), "\(ambiguous.stderr)")

        let added = try radicale.write(["add", "--to", "alice/Work", "2024-02-21", "10:00-11:00", "Lunch", "with", "Ana"])
        #expect(added.status == 0, "\(added.stderr)")
        let uid = Self.uid(added)
        if let report = radicale.lastReport { #expect(report.touched == [uid], "\(report)") }
        #expect(!uid.isEmpty)
        // Another client sees it at the name RFC 4791 leaves to the client: the UID and .ics.
        let seen = try radicale.get("alice", "/alice/work/\(uid).ics")
        #expect(seen.status == "200")
        #expect(seen.body.contains("SUMMARY:Lunch with Ana") && seen.body.contains("UID:\(uid)"), "\(seen.body)")
        #expect(radicale.server.requests.contains { $0.hasPrefix("PUT /alice/work/\(uid).ics 201") }, "\(radicale.server.requests)")
        // The copy holds it: the next view shows it without asking the server.
        let before = radicale.server.requests.count
        #expect(Self.pairs(try radicale.events().events).contains("alice/Work: Lunch with Ana"))
        #expect(radicale.server.requests.count == before)

        let edited = try radicale.write(["edit", uid, "--summary", "Lunch moved", "--location", "Café Lisboa"])
        #expect(edited.status == 0, "\(edited.stderr)")
        if let report = radicale.lastReport { #expect(report.changed == [uid] && report.touched == [uid]) }
        let changed = try radicale.get("alice", "/alice/work/\(uid).ics").body
        #expect(changed.contains("SUMMARY:Lunch moved") && changed.contains("LOCATION:Café Lisboa") && changed.contains("SEQUENCE:1"), "\(changed)")
        #expect(Self.pairs(try radicale.events().events).contains("alice/Work: Lunch moved"))

        // An event another client put there, edited surgically: its other lines stay.
        let other = try radicale.write(["edit", "standup@example.org", "--summary", "Daily standup"])
        #expect(other.status == 0, "\(other.stderr)")
        if let report = radicale.lastReport { #expect(report.touched == ["standup@example.org"]) }
        let standup = try radicale.get("alice", "/alice/work/standup.ics").body
        #expect(standup.contains("SUMMARY:Daily standup") && standup.contains("DTSTART:20240215T100000Z")
                && standup.contains("PRODID:-//infcal tests//EN"), "\(standup)")

        let deleted = try radicale.write(["delete", uid])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        if let report = radicale.lastReport { #expect(report.removed == [uid] && report.touched == [uid]) }
        #expect(try radicale.get("alice", "/alice/work/\(uid).ics").status == "404")
        let after = try radicale.events().events
        #expect(!Self.pairs(after).contains("alice/Work: Lunch moved"))
        #expect(Self.pairs(after).contains("alice/Work: Daily standup"))
        // A calendar that is one collection takes --to its own name.
        let bob = try radicale.write(["add", "--to", "bob", "2024-02-22", "Tournament"])
        #expect(bob.status == 0, "\(bob.stderr)")
        #expect(try radicale.get("bob", "/bob/club/\(Self.uid(bob)).ics").body.contains("SUMMARY:Tournament"))
    }

    @Test func aChangeByAnotherClientMeanwhileIsNeverOverwritten() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        _ = try radicale.events()
        // Another client changes the event after infcal's copy was made.
        try radicale.put("alice", "work", "review", day: 16, "Review by Bob")
        let edit = try radicale.write(["edit", "review@example.org", "--summary", "Review by Alice"])
        #expect(edit.status == 1)
        #expect(edit.stderr == "infcal: alice/Work: the event review@example.org changed on the server; nothing was written "
                + "(the copy now shows the server's version)\n", "\(edit.stderr)")
        #expect(radicale.server.requests.contains { $0.hasPrefix("PUT /alice/work/review.ics 412") }, "\(radicale.server.requests)")
        #expect(try radicale.get("alice", "/alice/work/review.ics").body.contains("SUMMARY:Review by Bob"))
        // The copy was fetched again: without --refresh the view shows the server's version.
        let pairs = Self.pairs(try radicale.events().events)
        #expect(pairs.contains("alice/Work: Review by Bob") && !pairs.contains("alice/Work: Review"), "\(pairs)")
        // A delete is guarded the same way.
        try radicale.put("alice", "work", "standup", day: 15, "Standup moved")
        let delete = try radicale.write(["delete", "standup@example.org"])
        #expect(delete.status == 1)
        #expect(delete.stderr.contains("changed on the server; nothing was written"), "\(delete.stderr)")
        #expect(try radicale.get("alice", "/alice/work/standup.ics").body.contains("SUMMARY:Standup moved"))
        // Now that the copy holds the server's version, the edit goes through.
        let again = try radicale.write(["edit", "review@example.org", "--summary", "Review by Alice"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try radicale.get("alice", "/alice/work/review.ics").body.contains("SUMMARY:Review by Alice"))
    }

    @Test func aWrongPasswordAReadonlyCalendarAndASubscriptionWriteNothing() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        _ = try radicale.events()
        let start = radicale.server.requests.count
        try radicale.configure(alicePassword: "wrong")
        let refused = try radicale.write(["add", "--to", "alice/Work", "2024-02-21", "Lunch"])
        #expect(refused.status == 77)
        #expect(refused.stderr == "infcal: alice/Work: write failed (HTTP 401); nothing was written\n", "\(refused.stderr)")
        // The one PUT was refused (401), and nothing else was tried.
        #expect(radicale.requests(since: start).lines.filter { $0.hasPrefix("PUT") }.map { $0.split(separator: " ")[2] } == ["401"],
                "\(radicale.requests(since: start).lines)")

        try radicale.configure(extra: """
        readonly = yes

        [events feed]
        url = \(radicale.server.url("/bob/club/match.ics"))
        username = bob
        password-command = echo bpass
        """)
        _ = try radicale.events()
        let readonly = try radicale.write(["add", "--to", "bob", "2024-02-21", "Lunch"])
        #expect(readonly.status == 77)
        #expect(readonly.stderr.contains("'bob' is readonly = yes"), "\(readonly.stderr)")
        let readonlyEdit = try radicale.write(["edit", "match@example.org", "--summary", "Mine"])
        #expect(readonlyEdit.status == 77, "\(readonlyEdit.stderr)")
        let subscription = try radicale.write(["add", "--to", "feed", "2024-02-21", "Lunch"])
        #expect(subscription.status == 77)
        #expect(subscription.stderr.contains("feed is a subscription"), "\(subscription.stderr)")
        #expect(try radicale.get("bob", "/bob/club/match.ics").body.contains("SUMMARY:Match"))
        #expect(radicale.requests(since: start).lines.filter { $0.hasPrefix("PUT") || $0.hasPrefix("DELETE") }.count == 1)
    }

    @Test func calendarNamesOneDiscoveredCalendarUnderTheSectionsName() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        let account = """

        [events family]
        url = \(radicale.server.url("/"))
        username = alice
        password-command = echo apass
        """
        // By the server's display name, then by the path on the server.
        try radicale.configure(extra: account + "\ncalendar = Home\n")
        let byName = try radicale.events(["--only", "family"])
        #expect(byName.run.status == 0, "\(byName.run.stderr)")
        #expect(Self.pairs(byName.events) == ["family: Dentist"])
        try radicale.configure(extra: account + "\ncalendar = /alice/work/\n")
        let byPath = try radicale.events(["--only", "family", "--refresh"])
        #expect(Self.pairs(byPath.events) == ["family: Standup", "family: Review"], "\(byPath.run.stderr)")
        // The section is one calendar, so --to takes its name.
        let added = try radicale.write(["add", "--to", "family", "2024-02-23", "Picnic"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try radicale.get("alice", "/alice/work/\(Self.uid(added)).ics").body.contains("SUMMARY:Picnic"))
        #expect(Self.pairs(try radicale.events(["--only", "family"]).events).contains("family: Picnic"))
    }

    /// An event whose href holds a space and a percent sign (`team lunch%.ics`): the copy's
    /// `etags` file keeps its href whole, so an edit goes to that resource and no other; an
    /// `etags` file of the first format (unescaped, as earlier versions wrote it) is still
    /// read, and written anew at the next refresh.
    @Test func anHrefWithASpaceAndAPercentSignIsWrittenBackToItself() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        func putLunch(_ title: String) throws {
            let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:lunch@example.org\r\n"
                + "DTSTAMP:20240101T000000Z\r\nDTSTART:20240219T120000Z\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            try radicale.curl("alice", ["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", event,
                                        radicale.server.url("/alice/work/team%20lunch%25.ics")])
        }
        try putLunch("Team lunch")
        #expect(Self.pairs(try radicale.events().events).contains("alice/Work: Team lunch"))
        let etags = radicale.home.cache.appendingPathComponent("alice.caldav/work/etags")
        let written = try String(contentsOf: etags, encoding: .utf8)
        #expect(written.hasPrefix("etags\nformat 2\n") && written.contains(" /alice/work/team%20lunch%25.ics \""), "\(written)")

        let edited = try radicale.write(["edit", "lunch@example.org", "--summary", "Team lunch moved"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try radicale.get("alice", "/alice/work/team%20lunch%25.ics").body.contains("SUMMARY:Team lunch moved"))
        // The server's log shows the path decoded: curl's PUT made it (201), infcal's changed it (204).
        #expect(radicale.server.requests.contains { $0.hasPrefix("PUT /alice/work/team lunch%.ics 204") }, "\(radicale.server.requests)")
        #expect(try radicale.get("alice", "/alice/work/team").status == "404")

        // The first format, as an earlier version wrote it: read, then mended by the refresh.
        let tag = try #require(CachedTag.of(written, file: "team%20lunch%25.ics"))
        let lines = written.split(separator: "\n").filter { !$0.hasPrefix("team%2520") && $0 != "format 2" }
        try (lines.joined(separator: "\n") + "\nteam%20lunch%25.ics /alice/work/team lunch%.ics " + tag + "\n\n")
            .write(to: etags, atomically: true, encoding: .utf8)
        try putLunch("Team lunch by Bob")
        let refreshed = try radicale.events(["--refresh"])
        #expect(refreshed.run.status == 0, "\(refreshed.run.stderr)")
        let pairs = Self.pairs(refreshed.events)
        #expect(pairs.filter { $0.hasPrefix("alice/Work: Team lunch") } == ["alice/Work: Team lunch by Bob"], "\(pairs)")
        #expect(try String(contentsOf: etags, encoding: .utf8).hasPrefix("etags\nformat 2\n"))
        let again = try radicale.write(["edit", "lunch@example.org", "--summary", "Team lunch by Alice"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try radicale.get("alice", "/alice/work/team%20lunch%25.ics").body.contains("SUMMARY:Team lunch by Alice"))
    }

    /// The ETag an `etags` file of the present format holds for `file`.
    enum CachedTag {
        static func of(_ text: String, file: String) -> String? {
            let escapedFile = file.replacingOccurrences(of: "%", with: "%25")
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(escapedFile + " ") }) else { return nil }
            return line.split(separator: " ").last.map(String.init)
        }
    }

    @Test func withoutSyncTokensARefreshComparesETagsAndFetchesOnlyTheChangedEvent() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try Server()
        defer { radicale.server.stop() }
        // The server from now on offers no sync-token and refuses sync-collection.
        try "".write(to: radicale.home.serverDirectory.appendingPathComponent("nosync"), atomically: true, encoding: .utf8)
        let first = try radicale.events()
        #expect(first.run.status == 0, "\(first.run.stderr)")
        let collection = try String(contentsOf: radicale.home.cache.appendingPathComponent("alice.caldav/work/collection"), encoding: .utf8)
        #expect(!collection.contains("sync-token"), "\(collection)")
        try radicale.put("alice", "work", "review", day: 16, "Review moved")
        try radicale.curl("alice", ["-X", "DELETE", radicale.server.url("/alice/home/dentist.ics")])
        let start = radicale.server.requests.count
        let refreshed = try radicale.events(["--refresh"])
        #expect(refreshed.run.status == 0, "\(refreshed.run.stderr)")
        let pairs = Self.pairs(refreshed.events)
        #expect(pairs.contains("alice/Work: Review moved") && pairs.contains("alice/Work: Standup"), "\(pairs)")
        #expect(!pairs.contains("alice/Home: Dentist"), "\(pairs)")
        let delta = radicale.requests(since: start)
        // One changed event fetched (by calendar-multiget), the ETags listed by PROPFIND, no sync-collection tried.
        #expect(delta.events == 1, "\(delta.lines)")
        #expect(delta.lines.contains { $0.hasPrefix("PROPFIND /alice/work/ 207") }, "\(delta.lines)")
        #expect(!delta.lines.contains { $0.hasPrefix("REPORT") && $0.contains(" 403 ") }, "\(delta.lines)")
    }
}
