import Foundation
import Glibc
import Testing

/// What servers people run ask of a client, played by a proxy of the tests' own
/// (Tests/Servers/dav_proxy.py, on 127.0.0.1 and two free ports) in front of Xandikos: a
/// bearer token (Google's CalDAV) from `token-command`, run once more on a 401; Digest with
/// SHA-256 and a nonce that goes stale; a calendar home on another host of the domain
/// (iCloud); hrefs spelt escaped or not (mailbox.org, Open-Xchange). The proxy checks each
/// `Authorization` with Python's hashlib and logs it, so a test sees what went where.
@Suite(.serialized) struct AuthProxyTests {
    static let skip = XandikosTests.skip

    /// Xandikos behind the proxy; the config names the proxy's first port at `host`.
    final class Setup {
        let xandikos: XandikosTests.Server
        let proxy: TestServer
        var directory: URL { proxy.directory }

        init() throws {
            xandikos = try XandikosTests.Server()
            let directory = xandikos.home.root.appendingPathComponent("proxy")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try xandikos.server.url("").write(to: directory.appendingPathComponent("upstream"), atomically: true, encoding: .utf8)
            proxy = try TestServer("dav_proxy.py", directory: directory)
        }

        /// Sets one of the proxy's files (`auth`, `home`, `hrefs`).
        func set(_ name: String, _ value: String) throws {
            try value.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        /// The proxy's address on its first (`second`: its second) port, by `host`.
        func url(_ path: String, host: String = "127.0.0.1", second: Bool = false) -> String {
            "http://\(host):\(proxy.ports[second ? 1 : 0])\(path)"
        }

        func stop() {
            proxy.stop()
            xandikos.server.stop()
        }

        /// The proxy's log since `start`: each line's fields, "PORT METHOD PATH STATUS AUTH...".
        func requests(since start: Int = 0) -> [[String]] {
            proxy.requests.dropFirst(start).map { $0.split(separator: " ").map(String.init) }
        }

        /// A script printing the next line of `tokens` each time it runs (counting its runs in `count`).
        func tokenCommand(_ tokens: [String]) throws -> String {
            let root = xandikos.home.root.path
            try (tokens.joined(separator: "\n") + "\n").write(toFile: root + "/tokens", atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: root + "/count")
            let script = root + "/token.sh"
            try """
            n=$(cat '\(root)/count' 2>/dev/null || echo 0)
            n=$((n + 1))
            echo $n > '\(root)/count'
            sed -n "${n}p" '\(root)/tokens'

            """.write(toFile: script, atomically: true, encoding: .utf8)
            // Run by sh, which only reads it: a script executed itself fails with ETXTBSY while
            // a process another test forks at that moment still holds the descriptor it was
            // written through.
            return "/bin/sh " + script
        }

        /// How many times the token command ran.
        var tokenRuns: Int {
            (try? String(contentsOfFile: xandikos.home.root.path + "/count", encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        }
    }

    @Test func aBearerTokenFromACommandIsTakenAgainOnceWhenRefused() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        try setup.set("auth", "bearer good-7f3a9c")
        // The first token printed has expired: the server refuses it, the command runs again.
        let script = try setup.tokenCommand(["expired-1a2b", "good-7f3a9c", "good-7f3a9c", "good-7f3a9c"])
        try setup.xandikos.configure(url: setup.url("/"), extra: "token-command = \(script)\n")
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(pairs == ["x: Standup", "x: Review"])
        #expect(setup.tokenRuns == 2)
        let requests = setup.requests()
        #expect(requests.first == [String(setup.proxy.port), "PROPFIND", "/", "401", "bearer", "expired-1a2b"], "\(requests)")
        #expect(requests.dropFirst().allSatisfy { $0.suffix(3) == ["207", "bearer", "good-7f3a9c"] || $0[3] == "207" }, "\(requests)")
        #expect(requests.dropFirst().allSatisfy { $0.last == "good-7f3a9c" }, "\(requests)")
        // A write carries the token too.
        let added = try setup.xandikos.write(["add", "--to", "x", "2024-02-21", "Lunch"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(setup.requests().last?.prefix(5) == [String(setup.proxy.port), "PUT", "/user/calendars/calendar/\(CalDAVTests.uid(added)).ics",
                                                     "201", "bearer"], "\(setup.requests())")
        // The token is never written down, nor printed.
        for case let file as String in FileManager.default.enumerator(atPath: setup.xandikos.home.cache.path)?.allObjects ?? [] {
            let text = (try? String(contentsOf: setup.xandikos.home.cache.appendingPathComponent(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("7f3a9c"), "\(file)")
        }
        #expect(!run.stdout.contains("7f3a9c") && !added.stdout.contains("7f3a9c") && !added.stderr.contains("7f3a9c"))
    }

    @Test func aRefusedTokenIsTriedTwiceThenSaidOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        try setup.set("auth", "bearer good-7f3a9c")
        let script = try setup.tokenCommand(["bad-1", "bad-2", "bad-3"])
        try setup.xandikos.configure(url: setup.url("/"), extra: "token-command = \(script)\nauth = bearer\n")
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.stderr == "infcal: x: fetch failed (HTTP 401); no copy to show yet\n", "\(run.stderr)")
        #expect(pairs.isEmpty)
        #expect(setup.tokenRuns == 2)
        #expect(setup.requests().map { $0.dropFirst(3) } == [["401", "bearer", "bad-1"], ["401", "bearer", "bad-2"]], "\(setup.requests())")
    }

    /// Digest offering MD5 and SHA-256 in two WWW-Authenticate fields: SHA-256 is taken. The
    /// proxy's nonces serve two requests each; the third gets 401 with stale=true and a new
    /// nonce, which the client takes once, its count starting again at 1.
    @Test func aSHA256DigestNonceThatGoesStaleIsChallengedAgainOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        try setup.set("auth", "digest alice apass 2")
        try setup.xandikos.configure(url: setup.url("/"), extra: "username = alice\npassword-command = echo apass\n")
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(pairs == ["x: Standup", "x: Review"])
        let requests = setup.requests()
        // The first request went without credentials; every later one with SHA-256.
        #expect(requests.first?[3] == "401" && requests.first?[4] == "-", "\(requests)")
        let answered = requests.dropFirst()
        #expect(answered.allSatisfy { $0[4] == "digest" && $0[5] == "SHA-256" }, "\(requests)")
        // Each nonce (by its number) went with counts 1, 2 and, refused as stale, 3; the
        // refused request went again at once with the next nonce's count 1.
        var stale = 0
        for (index, line) in answered.enumerated() where line[3] == "401" {
            stale += 1
            #expect(line[7] == "00000003", "\(requests)")
            let next = Array(answered)[index + 1]
            #expect(next[1...2] == line[1...2] && next[3].hasPrefix("2") && next[7] == "00000001" && Int(next[6]) ?? 0 > Int(line[6]) ?? 0,
                    "\(requests)")
        }
        #expect(stale >= 1 && answered.filter { $0[3].hasPrefix("2") }.count == answered.count - stale, "\(requests)")
    }

    /// The calendar home on another host of the configured host's domain, as iCloud answers
    /// p42-caldav.icloud.com to caldav.icloud.com: two names under test.localhost, which
    /// libcurl resolves to loopback, for the proxy's two ports. The home is followed with the
    /// credentials, and a write goes there too; a home on another domain (127.0.0.1) gets
    /// none, and the fetch says why.
    @Test func aCalendarHomeOnAnotherHostOfTheDomainIsFollowed() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        try setup.set("auth", "basic alice apass")
        try setup.set("home", setup.url("/user/calendars/", host: "p42-caldav.test.localhost", second: true))
        try setup.xandikos.configure(url: setup.url("/", host: "caldav.test.localhost"),
                                     extra: "username = alice\npassword-command = echo apass\n")
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(pairs == ["x: Standup", "x: Review"])
        let second = String(setup.proxy.ports[1])
        let there = setup.requests().filter { $0[0] == second }
        #expect(there.count >= 2 && there.allSatisfy { $0[3].hasPrefix("2") && $0[4] == "basic" }, "\(setup.requests())")
        #expect(there.last?[1...2] == ["REPORT", "/user/calendars/calendar/"], "\(setup.requests())")
        let added = try setup.xandikos.write(["add", "--to", "x", "2024-02-21", "Lunch"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(setup.requests().last?.prefix(5) == [second, "PUT", "/user/calendars/calendar/\(CalDAVTests.uid(added)).ics", "201", "basic"],
                "\(setup.requests())")

        // A home outside the domain: followed without credentials, refused, said.
        try setup.set("home", setup.url("/user/calendars/", second: true))
        let start = setup.proxy.requests.count
        let foreign = try setup.xandikos.events(["--refresh"])
        #expect(foreign.run.stderr.hasPrefix("infcal: x: fetch failed (HTTP 401 from 127.0.0.1, outside the configured host's domain, "
                                             + "where no credentials are sent); showing the copy of "), "\(foreign.run.stderr)")
        let elsewhere = setup.requests(since: start).filter { $0[0] == second }
        #expect(!elsewhere.isEmpty && elsewhere.allSatisfy { $0[4] == "-" }, "\(setup.requests(since: start))")
    }

    /// An event whose href holds a space and an at sign, spelt raw by the server one day and
    /// with every byte escaped the next: one event, one file, edited in place.
    @Test func hrefsEscapedOrNotAreOneEvent() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        try setup.xandikos.put("lunch", day: 19, "Team lunch", name: "team%20lunch%40home.ics")
        try setup.set("hrefs", "raw")
        try setup.xandikos.configure(url: setup.url("/"))
        let first = try setup.xandikos.events()
        #expect(first.run.stderr.isEmpty, "\(first.run.stderr)")
        #expect(first.pairs == ["x: Standup", "x: Review", "x: Team lunch"])
        try setup.set("hrefs", "escaped")
        try setup.xandikos.put("lunch", day: 19, "Team lunch moved", name: "team%20lunch%40home.ics")
        let second = try setup.xandikos.events(["--refresh"])
        #expect(second.pairs == ["x: Standup", "x: Review", "x: Team lunch moved"], "\(second.run.stderr)")
        let directory = setup.xandikos.home.cache.appendingPathComponent("x.caldav/calendar")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ics") }.sorted()
                == ["review.ics", "standup.ics", "team%20lunch%40home.ics"])
        let edited = try setup.xandikos.write(["edit", "lunch@example.org", "--summary", "Team lunch by Alice"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try setup.xandikos.get("team%20lunch%40home.ics").body.contains("SUMMARY:Team lunch by Alice"))
        let resources = try setup.xandikos.resources()
        #expect(resources.count == 3, "\(resources)")
        try setup.set("hrefs", "raw")
        #expect(try setup.xandikos.events(["--refresh"]).pairs == ["x: Standup", "x: Review", "x: Team lunch by Alice"])
    }
}
