import Foundation
import Testing

/// Collections a user may only read, and collections that hold no events, as Radicale (PyPI
/// `radicale`, Tests/Servers/radicale_server.py) serves them: a calendar of another user under
/// Radicale's owner_write rights has a `current-user-privilege-set` of `read` alone, as
/// Nextcloud's "Contact birthdays"; a task list (`supported-calendar-component-set` of VTODO)
/// holds no events, as Fastmail's.
@Suite(.serialized) struct ServerQuirksTests {
    static let skip = CalDAVTests.skip

    /// A calendar the user may only read is shown, and every write to it is refused with 77
    /// before any request: the server's log holds nothing after the fetch.
    @Test func aCollectionTheUserMayOnlyReadIsShownAndNeverWrittenTo() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try CalDAVTests.Server(rights: "owner_write")
        defer { radicale.server.stop() }
        try radicale.home.write("""
        [events shared]
        url = \(radicale.server.url("/bob/club/"))
        username = alice
        password-command = echo apass

        [events mine]
        url = \(radicale.server.url("/alice/work/"))
        username = alice
        password-command = echo apass
        """, to: "config.ini")
        let (run, events) = try radicale.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(CalDAVTests.pairs(events) == ["mine: Standup", "mine: Review", "shared: Match"])
        let collection = try String(contentsOf: radicale.home.cache.appendingPathComponent("shared.caldav/calendar/collection"),
                                    encoding: .utf8)
        #expect(collection.contains("\nreadonly yes\n"), "\(collection)")
        let start = radicale.server.requests.count
        let refused = "infcal: shared is read-only on the server (no write privilege for the user); nothing was written\n"
        for arguments in [["add", "--to", "shared", "2024-02-21", "Lunch"], ["edit", "match@example.org", "--summary", "Mine"],
                          ["delete", "match@example.org"], ["edit", "match@example.org", "--to", "shared", "--summary", "Mine"]] {
            let write = try radicale.write(arguments)
            #expect(write.status == 77, "\(arguments): \(write.stderr)")
            #expect(write.stderr == refused, "\(arguments): \(write.stderr)")
        }
        #expect(radicale.server.requests.count == start, "\(radicale.requests(since: start).lines)")
        #expect(try radicale.get("bob", "/bob/club/match.ics").body.contains("SUMMARY:Match"))
        // Alice's own calendar, under the same rights, takes her writes.
        let mine = try radicale.write(["add", "--to", "mine", "2024-02-21", "Lunch"])
        #expect(mine.status == 0, "\(mine.stderr)")
    }

    /// A task list is left out by discovery, and said once: not again while it stays the same.
    @Test func aCollectionOfTasksIsSkippedAndSaidOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let radicale = try CalDAVTests.Server()
        defer { radicale.server.stop() }
        func makeTasks(_ path: String, _ name: String) throws {
            let body = """
            <?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\
            <D:set><D:prop><D:displayname>\(name)</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/>\
            </C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>
            """
            try radicale.curl("alice", ["-X", "MKCALENDAR", "-H", "Content-Type: application/xml", "--data-binary", body,
                                        radicale.server.url("/alice/\(path)/")])
            let todo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VTODO\r\nUID:\(path)-1@example.org\r\n"
                + "DTSTAMP:20240101T000000Z\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            try radicale.curl("alice", ["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", todo,
                                        radicale.server.url("/alice/\(path)/milk.ics")])
        }
        try makeTasks("tasks", "Tasks")
        let first = try radicale.events(["--only", "alice"])
        #expect(first.run.status == 0)
        #expect(first.run.stderr == "infcal: alice: not shown, as it holds no events (tasks or notes only): Tasks\n", "\(first.run.stderr)")
        #expect(CalDAVTests.pairs(first.events) == ["alice/Work: Standup", "alice/Work: Review", "alice/Home: Dentist"])
        let caldav = radicale.home.cache.appendingPathComponent("alice.caldav")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caldav.path).sorted() == ["home", "work"])
        // Said once: neither the next run nor the next refresh says it again.
        #expect(try radicale.events(["--only", "alice"]).run.stderr.isEmpty)
        #expect(try radicale.events(["--only", "alice", "--refresh"]).run.stderr.isEmpty)
        // A second task list changes what is skipped: said again, with both.
        try makeTasks("chores", "Chores")
        let again = try radicale.events(["--only", "alice", "--refresh"])
        #expect(again.run.stderr == "infcal: alice: not shown, as they hold no events (tasks or notes only): Chores, Tasks\n",
                "\(again.run.stderr)")
    }
}
