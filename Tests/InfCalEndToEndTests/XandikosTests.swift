import Foundation
import InfCalProcess
import Testing

/// CalDAV against a real Xandikos server (PyPI `xandikos`, run by Tests/Servers/xandikos_server.py
/// on 127.0.0.1 and a free port), beside Radicale (CalDAVTests): discovery from `/`, the first
/// download by REPORT, refreshes by sync-collection, writes by PUT and DELETE guarded by
/// ETags, and 412 when another client changed the event meanwhile. Its calendar is filled and
/// changed by curl, as another client would.
@Suite(.serialized) struct XandikosTests {
    static let skip: String? = {
        if let missing = TestServer.missing(["xandikos"]) { return missing + " (pip install xandikos)" }
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") ? nil : "curl is not installed"
    }()

    /// A Xandikos server with the calendar /user/calendars/calendar/ holding Standup (15
    /// February 2024) and Review (16 February), and a home whose config names the server's root.
    final class Server {
        let home: TemporaryHome
        let server: TestServer
        static let calendar = "/user/calendars/calendar/"

        init(serverDirectory: URL? = nil) throws {
            home = try TemporaryHome()
            server = try TestServer("xandikos_server.py", directory: serverDirectory ?? home.serverDirectory)
            try put("standup", day: 15, "Standup")
            try put("review", day: 16, "Review")
        }

        /// Writes the config: one calendar `x` at `url` (the server's root unless given).
        func configure(url: String? = nil, extra: String = "") throws {
            try home.write("[events x]\nurl = \(url ?? server.url("/"))\n\(extra)", to: "config.ini")
        }

        /// Runs curl with `arguments` against the server itself (no proxy); the status and body.
        @discardableResult
        func curl(_ arguments: [String]) throws -> (status: String, body: String) {
            let run = try BinaryRunner.runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-w", "\n%{http_code}"] + arguments,
                                                  environment: [:], deadline: 30)
            var lines = run.stdout.components(separatedBy: "\n")
            let status = lines.popLast() ?? ""
            return (status, lines.joined(separator: "\n"))
        }

        static func event(_ uid: String, day: Int, _ title: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)@example.org\r\n"
                + "DTSTAMP:20240101T000000Z\r\nDTSTART:202402\(day)T100000Z\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }

        /// Puts (another client's way) the event `uid` at `name` (escaped as it goes), or `uid.ics`.
        func put(_ uid: String, day: Int, _ title: String, name: String? = nil) throws {
            let reply = try curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", Self.event(uid, day: day, title),
                                  server.url(Self.calendar + (name ?? uid + ".ics"))])
            #expect(reply.status.hasPrefix("2"), "PUT \(uid): \(reply)")
        }

        func get(_ name: String) throws -> (status: String, body: String) {
            try curl([server.url(Self.calendar + name)])
        }

        /// The occurrences of February 2024: the run and each one's `calendar: summary`.
        func events(_ arguments: [String] = []) throws -> (run: BinaryRunner.Result, pairs: [String]) {
            let run = try home.run(["--agenda", "--json", "--from", "2024-02", "--forward", "1"] + arguments)
            let events = run.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return (run, CalDAVTests.pairs(events))
        }

        /// Runs `infcal add`, `edit` or `delete` with this home's config file.
        func write(_ arguments: [String]) throws -> BinaryRunner.Result {
            try BinaryRunner.runProgram(BinaryRunner.executable, arguments,
                                        environment: home.environment.merging(["INFCAL_CONFIG": home.config.path, "TZ": "UTC"]) { $1 },
                                        deadline: 60)
        }

        /// The requests logged since `start`, and the events their answers carried.
        func requests(since start: Int) -> (lines: [String], events: Int) {
            let lines = Array(server.requests.dropFirst(start))
            return (lines, lines.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +))
        }

        /// Every event resource of the calendar, by a PROPFIND of another client.
        func resources() throws -> [String] {
            let listing = try curl(["-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data",
                                    "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:getetag/></D:prop></D:propfind>",
                                    server.url(Self.calendar)]).body
            return listing.components(separatedBy: "href>").compactMap { piece in
                piece.hasSuffix("</ns0:") && piece.contains(".ics") ? String(piece.dropLast("</ns0:".count)) : nil
            }
        }
    }

    @Test func discoveryFromTheRootThenAReportThenSyncCollection() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let xandikos = try Server()
        defer { xandikos.server.stop() }
        try xandikos.configure()
        let start = xandikos.server.requests.count
        let first = try xandikos.events()
        #expect(first.run.status == 0 && first.run.stderr.isEmpty, "\(first.run.stderr)")
        #expect(first.pairs == ["x: Standup", "x: Review"])
        // Discovery from the root: its principal, the principal's calendar home, the home's
        // calendars; then one calendar-query REPORT carrying both events.
        let initial = xandikos.requests(since: start).lines
        #expect(initial.contains("PROPFIND /user/ 207 0") && initial.contains("PROPFIND /user/calendars/ 207 0"), "\(initial)")
        #expect(initial.last == "REPORT /user/calendars/calendar/ 207 2", "\(initial)")
        // Another client changes one event and deletes the other.
        try xandikos.put("review", day: 16, "Review moved")
        #expect(try xandikos.curl(["-X", "DELETE", xandikos.server.url(Server.calendar + "standup.ics")]).status == "204")
        let before = xandikos.server.requests.count
        let refreshed = try xandikos.events(["--refresh"])
        #expect(refreshed.pairs == ["x: Review moved"], "\(refreshed.run.stderr)")
        // sync-collection named the two changes; the one still there came alone.
        let delta = xandikos.requests(since: before)
        #expect(delta.lines.contains { $0.hasPrefix("REPORT /user/calendars/calendar/ 207") }, "\(delta.lines)")
        #expect(delta.events == 1, "\(delta.lines)")
        // Nothing changed since: the sync-token matches, and no event comes down.
        let again = xandikos.server.requests.count
        #expect(try xandikos.events(["--refresh"]).pairs == ["x: Review moved"])
        #expect(xandikos.requests(since: again).events == 0)
    }

    @Test func putAndDeleteGoWithETagsAndAConcurrentChangeIs412() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let xandikos = try Server()
        defer { xandikos.server.stop() }
        try xandikos.configure()
        _ = try xandikos.events()
        let added = try xandikos.write(["add", "--to", "x", "2024-02-21", "10:00-11:00", "Lunch"])
        #expect(added.status == 0, "\(added.stderr)")
        let uid = CalDAVTests.uid(added)
        #expect(xandikos.server.requests.contains("PUT \(Server.calendar)\(uid).ics 201 0"), "\(xandikos.server.requests)")
        #expect(try xandikos.get("\(uid).ics").body.contains("SUMMARY:Lunch"))
        // The copy took the server's ETag: an edit goes with If-Match and is taken.
        let edited = try xandikos.write(["edit", uid, "--summary", "Lunch moved"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try xandikos.get("\(uid).ics").body.contains("SUMMARY:Lunch moved"))
        #expect(try xandikos.events().pairs.contains("x: Lunch moved"))

        // Another client changes Review after infcal's copy was made: If-Match fails (412),
        // nothing is written, and the copy now shows the server's version.
        try xandikos.put("review", day: 16, "Review by Bob")
        let conflict = try xandikos.write(["edit", "review@example.org", "--summary", "Review by Alice"])
        #expect(conflict.status == 1)
        #expect(conflict.stderr == "infcal: x: the event review@example.org changed on the server; nothing was written "
                + "(the copy now shows the server's version)\n", "\(conflict.stderr)")
        #expect(xandikos.server.requests.contains("PUT \(Server.calendar)review.ics 412 0"), "\(xandikos.server.requests)")
        #expect(try xandikos.get("review.ics").body.contains("SUMMARY:Review by Bob"))
        #expect(try xandikos.events().pairs.contains("x: Review by Bob"))
        // Now that the copy holds the server's version, the edit goes through.
        #expect(try xandikos.write(["edit", "review@example.org", "--summary", "Review by Alice"]).status == 0)
        #expect(try xandikos.get("review.ics").body.contains("SUMMARY:Review by Alice"))

        // A delete is guarded the same way, then goes through.
        try xandikos.put("standup", day: 15, "Standup moved")
        let refused = try xandikos.write(["delete", "standup@example.org"])
        #expect(refused.status == 1 && refused.stderr.contains("changed on the server; nothing was written"), "\(refused.stderr)")
        #expect(try xandikos.get("standup.ics").status == "200")
        #expect(try xandikos.write(["delete", "standup@example.org"]).status == 0)
        #expect(try xandikos.get("standup.ics").status == "404")
        #expect(try xandikos.write(["delete", uid]).status == 0)
        #expect(try xandikos.events().pairs == ["x: Review by Alice"])
    }
}
