import Foundation
import InfCalCLI
import InfCalRemote
import Testing

/// Where credentials may go, what names a cache file an href gets, when a body is a whole
/// calendar, and how a command line of the config file is split into an argv.
@Suite struct CredentialRulesTests {
    /// Credentials go to the configured host, its domain (the host less its first label,
    /// when two labels or more are left that do not look like a country's public suffix),
    /// never to another address.
    @Test(arguments: [
        ("https://caldav.icloud.com/", "https://p42-caldav.icloud.com/123/calendars/", true),
        ("https://caldav.icloud.com/", "https://icloud.com.evil.example/", false),
        ("https://caldav.icloud.com/", "https://evilicloud.com/", false),
        ("https://example.com/dav/", "https://dav.example.com/", true),
        ("https://example.com/dav/", "https://example.org/", false),
        ("https://dav.example.co.uk/", "https://other.co.uk/", false),
        ("https://dav.example.co.uk/", "https://dav.example.co.uk:8443/", true),
        ("https://dav.example.co.uk/", "https://p1.dav.example.co.uk/", true),
        ("http://caldav.test.localhost:8080/", "http://p42-caldav.test.localhost:9090/", true),
        ("http://localhost:8080/", "http://127.0.0.1:8080/", false),
        ("http://127.0.0.1:8080/", "http://127.0.0.2:8080/", false),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:9090/x", true),
        ("https://[::1]/", "https://[::1]:8443/", true),
    ])
    func credentialsStayWithinTheConfiguredHostsDomain(configured: String, target: String, allowed: Bool) {
        #expect(RemoteURL.sameSite(configured, target) == allowed)
    }

    @Test func subscriptionsAreKnownByTheirURL() {
        #expect(RemoteURL.looksLikeSubscription("webcal://example.org/feed"))
        #expect(RemoteURL.looksLikeSubscription("https://example.org/holidays.ICS?key=1"))
        #expect(!RemoteURL.looksLikeSubscription("https://dav.example.org/calendars/me/"))
        #expect(RemoteURL.isLoopback("p42-caldav.test.localhost"))
        #expect(!RemoteURL.isLoopback("localhost.example.org"))
    }

    /// An href that cannot be a file name (too long, a NUL, a slash, dot-dot) is stored under
    /// one that can: escaped, or hashed when too long.
    @Test func hrefsThatCannotBeFileNamesAreStoredUnderOnesThatCan() {
        let long = String(repeating: "x", count: 300) + ".ics"
        let name = RemoteCache.fileName(long)
        #expect(name == "h-" + Hashes.hex(Hashes.sha256(long.utf8)) + ".ics")
        #expect(name.utf8.count <= RemoteCache.longestFileName)
        #expect(RemoteCache.fileName("..") == "%2E.")
        #expect(RemoteCache.fileName("a/b\u{0}c") == "a%2Fb%00c")
        // Escaping may lengthen a name three times: a short name of many escapes is hashed too.
        let escapes = String(repeating: "é", count: 40)
        #expect(RemoteCache.fileName(escapes).hasPrefix("h-"))
        #expect(RemoteCache.fileName(String(repeating: "é", count: 30)).hasPrefix("%C3%A9"))
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", true),
        ("BEGIN:VCALENDAR\nend:vcalendar", true),
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n\r\n  \n", true),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEV", false),
        ("BEGIN:VCALENDAR\r\nX-END:VCALENDAR\r\n", false),
        ("END:VCALENDAR", true),
        ("", false),
    ])
    func aBodyIsCompleteWhenItEndsTheCalendar(body: String, complete: Bool) {
        #expect(ICalendarSniff.isComplete(Array(body.utf8)) == complete)
    }
}

@Suite struct CommandWordsTests {
    /// A `password-command` or `token-command` value split as a shell splits words, without
    /// a shell (no expansion but a leading `~`), or nil when a quote is left open.
    @Test(arguments: [
        ("pass show dav", ["pass", "show", "dav"] as [String]?),
        ("  gcloud   auth\tprint-access-token ", ["gcloud", "auth", "print-access-token"]),
        ("secret-tool lookup service 'my dav'", ["secret-tool", "lookup", "service", "my dav"]),
        ("printf '%s\\n' \"a \\\"b\\\" \\\\ \\$HOME\"", ["printf", "%s\\n", "a \"b\" \\ $HOME"]),
        ("echo a\\ b c''d \"\"", ["echo", "a b", "cd", ""]),
        ("cat ~/.pw ~ x~ '~/q'", ["cat", "/home/me/.pw", "/home/me", "x~", "~/q"]),
        ("sh -c 'pass show dav | head -1'", ["sh", "-c", "pass show dav | head -1"]),
        ("echo $HOME; rm -rf /", ["echo", "$HOME;", "rm", "-rf", "/"]),
        ("echo 'open", nil),
        ("echo \"open", nil),
        ("echo trailing\\", nil),
        ("", []),
    ])
    func wordsAreSplitWithoutAShell(line: String, words: [String]?) {
        #expect(ConfigParser.words(line, home: "/home/me") == words)
    }

    @Test func aTildeNeedsAHome() {
        #expect(ConfigParser.words("cat ~/.pw", home: nil) == nil)
        #expect(ConfigParser.words("cat /pw", home: nil) == ["cat", "/pw"])
    }
}
