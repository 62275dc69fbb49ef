import Foundation
import Testing

/// CalDAV collections whose names and paths need escaping, and `calendar =` choosing one
/// calendar of an account, against a real Radicale server (`CalDAVTests.Server`: alice's Work
/// and Home, bob's Club, made through Radicale's own CalDAV API with curl).
@Suite(.serialized) struct CalDAVCollectionTests {
    /// A collection whose display name is `team cal%` and whose path holds a space and a
    /// percent sign (`/alice/team cal%/`, sent as `team%20cal%25`), beside one whose display
    /// name holds a tab and a line break: synced, shown, written to with `infcal add`, synced
    /// again; the server holds the new event and the view shows both.
    @Test func aCollectionNamedTeamCalPercentIsSyncedShownAndWrittenTo() throws {
        try #require(CalDAVTests.skip == nil, Comment(rawValue: CalDAVTests.skip ?? ""))
        let radicale = try CalDAVTests.Server()
        defer { radicale.server.stop() }
        try radicale.make("alice", "team%20cal%25", name: "team cal%", color: "#123456")
        try radicale.make("alice", "tabs", name: "Tab\there\nand there", color: "#654321")
        try radicale.put("alice", "team%20cal%25", "kickoff", day: 12, "Kickoff")
        try radicale.put("alice", "tabs", "tabbed", day: 13, "Tabbed")

        let first = try radicale.events()
        #expect(first.run.status == 0 && first.run.stderr.isEmpty, "\(first.run.stderr)")
        let pairs = CalDAVTests.pairs(first.events)
        #expect(pairs.contains("alice/team cal%: Kickoff"), "\(pairs)")
        // The display name comes back whole, its tab and line break included (JSON escapes them).
        #expect(pairs.contains("alice/Tab\there\nand there: Tabbed"), "\(pairs)")
        // The server's log shows the path decoded: the collection was downloaded at its own path.
        #expect(radicale.server.requests.contains { $0.hasPrefix("REPORT /alice/team cal%/ 207 1") }, "\(radicale.server.requests)")
        // Its directory in the cache, and the collection file's fields each on one line, escaped.
        let collection = try String(contentsOf: radicale.home.cache.appendingPathComponent("alice.caldav/team%20cal%25/collection"),
                                    encoding: .utf8)
        #expect(collection.hasPrefix("collection\nformat 3\nhref /alice/team%20cal%25/\nname team%20cal%25\n"), "\(collection)")
        let agenda = try radicale.home.run(["--agenda", "--from", "2024-02", "--forward", "1"])
        #expect(agenda.status == 0, "\(agenda.stderr)")
        #expect(agenda.stdout.contains("alice/team cal%") && agenda.stdout.contains("Kickoff"), "\(agenda.stdout)")

        let added = try radicale.write(["add", "--to", "alice/team cal%", "2024-02-21", "10:00-11:00", "Lunch"])
        #expect(added.status == 0, "\(added.stderr)")
        let uid = CalDAVTests.uid(added)
        #expect(!uid.isEmpty)
        #expect(radicale.server.requests.contains { $0.hasPrefix("PUT /alice/team cal%/\(uid).ics 201") }, "\(radicale.server.requests)")
        let seen = try radicale.get("alice", "/alice/team%20cal%25/\(uid).ics")
        #expect(seen.status == "200" && seen.body.contains("SUMMARY:Lunch") && seen.body.contains("UID:\(uid)"), "\(seen.body)")

        let again = try radicale.events(["--refresh"])
        #expect(again.run.status == 0 && again.run.stderr.isEmpty, "\(again.run.stderr)")
        let after = CalDAVTests.pairs(again.events)
        #expect(after.contains("alice/team cal%: Kickoff") && after.contains("alice/team cal%: Lunch"), "\(after)")
        #expect(after.filter { $0 == "alice/team cal%: Lunch" }.count == 1, "\(after)")
    }

    /// `calendar = NAME` (or a path) downloads that calendar of the account alone: the other's
    /// collection is never asked for (Radicale's request log, which names each request's path).
    /// Naming another calendar makes the copy stale, and the next run downloads that one.
    @Test func calendarDownloadsTheNamedCalendarAlone() throws {
        try #require(CalDAVTests.skip == nil, Comment(rawValue: CalDAVTests.skip ?? ""))
        let radicale = try CalDAVTests.Server()
        defer { radicale.server.stop() }
        func configure(_ calendar: String) throws {
            try radicale.home.write("""
            [events family]
            url = \(radicale.server.url("/"))
            username = alice
            password-command = echo apass
            calendar = \(calendar)
            """, to: "config.ini")
        }
        func asked(since start: Int, for path: String) -> [String] {
            radicale.requests(since: start).lines.filter { $0.split(separator: " ").dropFirst().first == Substring(path) }
        }

        try configure("Home")
        let start = radicale.server.requests.count
        let home = try radicale.events()
        #expect(home.run.status == 0 && home.run.stderr.isEmpty, "\(home.run.stderr)")
        #expect(CalDAVTests.pairs(home.events) == ["family: Dentist"])
        #expect(!asked(since: start, for: "/alice/home/").isEmpty, "\(radicale.requests(since: start).lines)")
        #expect(asked(since: start, for: "/alice/work/").isEmpty, "\(radicale.requests(since: start).lines)")
        let caldav = radicale.home.cache.appendingPathComponent("family.caldav")
        #expect((try FileManager.default.contentsOfDirectory(atPath: caldav.path)) == ["home"])

        // Another calendar, by its path: the copy of Home no longer answers for it.
        try configure("/alice/work/")
        let switched = radicale.server.requests.count
        let work = try radicale.events()
        #expect(work.run.status == 0 && work.run.stderr.isEmpty, "\(work.run.stderr)")
        #expect(CalDAVTests.pairs(work.events) == ["family: Standup", "family: Review"])
        #expect(!asked(since: switched, for: "/alice/work/").isEmpty, "\(radicale.requests(since: switched).lines)")
        #expect(asked(since: switched, for: "/alice/home/").isEmpty, "\(radicale.requests(since: switched).lines)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: caldav.path)) == ["work"])

        // A refresh asks for that calendar alone too.
        let refresh = radicale.server.requests.count
        #expect(CalDAVTests.pairs(try radicale.events(["--refresh"]).events) == ["family: Standup", "family: Review"])
        #expect(asked(since: refresh, for: "/alice/home/").isEmpty, "\(radicale.requests(since: refresh).lines)")
    }
}
