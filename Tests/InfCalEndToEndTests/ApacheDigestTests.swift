import Foundation
import Testing

/// HTTP Digest (RFC 7616) against Debian's Apache httpd (mod_auth_digest, MD5, qop=auth) in
/// front of Xandikos (mod_proxy_http), both started by the test on 127.0.0.1 and free ports:
/// the server's challenge chooses Digest, one nonce serves a run with its count rising, the
/// copy remembers the scheme and not the password, a write goes the same way, a wrong
/// password is one refusal, and `auth = basic` is kept to. Skipped, saying so, without apache2
/// or xandikos.
@Suite(.serialized) struct ApacheDigestTests {
    static let skip: String? = ApacheServer.missing ?? XandikosTests.skip

    /// Xandikos behind Apache, alice's password `apass`; the config names Apache's root.
    final class Setup {
        let xandikos: XandikosTests.Server
        let apache: ApacheServer

        init(password: String = "apass", extra: String = "") throws {
            xandikos = try XandikosTests.Server()
            apache = try ApacheServer(directory: xandikos.home.root.appendingPathComponent("apache"),
                                      upstream: xandikos.server.url(""), users: ["alice": "apass"])
            try configure(password: password, extra: extra)
        }

        func configure(password: String = "apass", extra: String = "") throws {
            try xandikos.configure(url: apache.url("/"), extra: "username = alice\npassword-command = echo \(password)\n\(extra)")
        }

        func stop() {
            apache.stop()
            xandikos.server.stop()
        }

        /// Apache's log lines since `start`: (method and path, status, the Authorization
        /// field's nonce and nc, or nil without one).
        func requests(since start: Int) -> [(request: String, status: String, nonce: String?, count: String?)] {
            apache.requests.dropFirst(start).map { line in
                let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
                let auth = parts.count > 3 ? parts[3] : "-"
                return (parts.prefix(2).joined(separator: " "), parts.count > 2 ? parts[2] : "",
                        Self.field("nonce", in: auth), Self.field("nc", in: auth))
            }
        }

        /// The value of `name` in a Digest Authorization field as Apache logs it (quotes escaped).
        static func field(_ name: String, in auth: String) -> String? {
            guard auth.hasPrefix("Digest "), let range = auth.range(of: " " + name + "=") else { return nil }
            let rest = auth[range.upperBound...].replacingOccurrences(of: "\\\"", with: "\"")
            let value = rest.hasPrefix("\"") ? rest.dropFirst().prefix { $0 != "\"" } : rest.prefix { $0 != "," }
            return String(value)
        }
    }

    @Test func aDigestServerIsReadWithOneNonceWhoseCountRises() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(pairs == ["x: Standup", "x: Review"])
        let requests = setup.requests(since: 0)
        // The first request goes without credentials: Apache's challenge says Digest.
        #expect(requests.first?.status == "401" && requests.first?.nonce == nil, "\(requests)")
        // Then every request answers the one nonce, its count 1, 2, 3, ... in hex.
        let answered = requests.dropFirst()
        #expect(answered.count >= 4 && answered.allSatisfy { $0.status.hasPrefix("2") }, "\(requests)")
        #expect(Set(answered.compactMap(\.nonce)).count == 1, "\(requests)")
        #expect(answered.map(\.count) == (0..<answered.count).map { String(format: "%08x", $0 + 1) }, "\(requests)")
        #expect(answered.last?.request == "REPORT /user/calendars/calendar/", "\(requests)")
        // The copy remembers the scheme, never the password.
        let meta = try String(contentsOf: setup.xandikos.home.cache.appendingPathComponent("x.meta"), encoding: .utf8)
        #expect(meta.contains("\nauth digest\n"), "\(meta)")
        for case let file as String in FileManager.default.enumerator(atPath: setup.xandikos.home.cache.path)?.allObjects ?? [] {
            let text = (try? String(contentsOf: setup.xandikos.home.cache.appendingPathComponent(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("apass"), "\(file)")
        }
    }

    @Test func aWriteGoesThroughDigestToo() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        _ = try setup.xandikos.events()
        let start = setup.apache.requests.count
        let added = try setup.xandikos.write(["add", "--to", "x", "2024-02-21", "Lunch"])
        #expect(added.status == 0, "\(added.stderr)")
        let uid = CalDAVTests.uid(added)
        #expect(try setup.xandikos.get("\(uid).ics").body.contains("SUMMARY:Lunch"))
        let requests = setup.requests(since: start)
        #expect(requests.map(\.status) == ["401", "201"], "\(requests)")
        #expect(requests.last?.request == "PUT /user/calendars/calendar/\(uid).ics" && requests.last?.count == "00000001", "\(requests)")
        let deleted = try setup.xandikos.write(["delete", uid])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try setup.xandikos.get("\(uid).ics").status == "404")
    }

    /// A wrong password: one request without credentials, one with Digest, refused; the fetch
    /// fails in one line and keeps the copy.
    @Test func aWrongPasswordIsRefusedOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup()
        defer { setup.stop() }
        let good = try setup.xandikos.events()
        try setup.configure(password: "wrong")
        let start = setup.apache.requests.count
        let (run, pairs) = try setup.xandikos.events(["--refresh"])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("infcal: x: fetch failed (HTTP 401); showing the copy of "), "\(run.stderr)")
        #expect(pairs == good.pairs)
        let requests = setup.requests(since: start)
        #expect(requests.map(\.status) == ["401", "401"] && requests.last?.nonce != nil, "\(requests)")
    }

    /// `auth = basic` forces Basic: Apache's Digest challenge is not taken up, and the fetch
    /// fails rather than switch.
    @Test func authBasicIsKeptTo() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup(extra: "auth = basic\n")
        defer { setup.stop() }
        let (run, pairs) = try setup.xandikos.events()
        #expect(run.stderr == "infcal: x: fetch failed (HTTP 401); no copy to show yet\n", "\(run.stderr)")
        #expect(pairs.isEmpty)
        #expect(setup.apache.requests.count == 1 && setup.apache.requests.first?.contains(" 401 Basic ") == true, "\(setup.apache.requests)")
        try setup.configure(extra: "auth = digest\n")
        #expect(try setup.xandikos.events().pairs == ["x: Standup", "x: Review"])
    }
}
