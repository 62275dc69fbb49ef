import Foundation
import Testing
@testable import InfCalRemote

/// What infcal and its network helper share: the line protocol, ~/.netrc, the cache's file
/// names, and the checks on URLs and bodies.
@Suite struct RemoteTests {
    @Test func aMessageSurvivesThePipeAndNoValueForgesAField() {
        var message = FetchMessage("fetch", [("name", "work"), ("url", "https://example.org/a b"), ("missing", nil)])
        message["password"] = "se cret\nurl http://evil.example/"
        var reader = FetchMessageReader()
        let bytes = Array(message.encoded().utf8)
        // Fed a byte at a time, as a pipe may deliver it.
        let decoded = bytes.flatMap { reader.feed([$0]) }
        #expect(decoded.count == 1)
        #expect(decoded.first?["url"] == "https://example.org/a b")
        #expect(decoded.first?["password"] == "se cret url http://evil.example/")
        #expect(decoded.first?["missing"] == nil)
        #expect(decoded.first?.verb == "fetch")
    }

    /// The format of ftp(1)'s and curl's ~/.netrc: the first machine entry that matches, else
    /// `default`; macdef bodies skipped. Cross-checked with Python's netrc module where present.
    @Test func netrcGivesTheHostsEntryElseTheDefault() throws {
        let text = """
        machine dav.example.org login ana password "s3cr et"
        macdef init
        machine evil.example.org login x password y

        default login anonymous password guest
        machine other.example.org
            login bo
            password pw
        """
        #expect(Netrc.credentials(in: text, host: "DAV.example.org")?.login == "ana")
        #expect(Netrc.credentials(in: text, host: "dav.example.org")?.password == "s3cr et")
        #expect(Netrc.credentials(in: text, host: "other.example.org")?.password == "pw")
        // The machine line inside the macro is not an entry: evil.example.org gets the default.
        #expect(Netrc.credentials(in: text, host: "evil.example.org")?.login == "anonymous")
        #expect(Netrc.credentials(in: "machine a login b password c", host: "z") == nil)
        guard let python = Self.pythonNetrc(text, hosts: ["dav.example.org", "other.example.org", "nowhere.example.org"]) else {
            print("python3 missing: netrc is checked against the fixed cases only")
            return
        }
        #expect(python == ["ana s3cr et", "bo pw", "anonymous guest"])
    }

    /// What Python's netrc module says for each host, as "login password"; nil without python3.
    static func pythonNetrc(_ text: String, hosts: [String]) -> [String]? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? text.write(to: file, atomically: true, encoding: .utf8)) != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
        import netrc, sys
        n = netrc.netrc(sys.argv[1])
        for host in sys.argv[2:]:
            a = n.authenticators(host)
            print("%s %s" % (a[0], a[2]) if a else "-")
        """, file.path] + hosts
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", true),
        ("\u{FEFF}\r\n\r\nbegin:vcalendar\n", true),
        ("<!DOCTYPE html><html>", false),
        ("BEGIN:VCARD\r\n", false),
        ("", false),
    ])
    func aBodyIsICalendarWhenItBeginsAsRFC5545Says(body: String, expected: Bool) {
        #expect(ICalendarSniff.isICalendar(Array(body.utf8)) == expected)
    }

    /// Loopback as RFC 6890 defines it (127.0.0.0/8, ::1), and localhost (RFC 6761).
    @Test(arguments: [
        ("https://dav.example.org/", true),
        ("webcal://example.org/h.ics", true),
        ("http://127.0.0.1:5232/", true),
        ("http://127.9.9.9/", true),
        ("http://[::1]:8080/", true),
        ("http://localhost/", true),
        ("http://localhost.example.org/", false),
        ("http://127.0.0.1.example.org/", false),
        ("http://user@dav.example.org/", false),
        ("http://192.168.1.2/", false),
        ("ftp://example.org/", false),
    ])
    func aPasswordGoesOverHTTPSOrToLoopback(url: String, allowed: Bool) {
        #expect(RemoteURL.allowsPassword(url) == allowed)
    }

    @Test func cacheFileNamesStayInTheDirectoryAndNeverCollide() {
        let names = ["work", "../work", "a/b", "a%2Fb", ".hidden", "Fêtes", ""]
        let files = names.map(RemoteCache.fileName)
        #expect(Set(files).count == names.count)
        #expect(files.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && !$0.isEmpty })
        #expect(RemoteCache.fileName("work") == "work")
        #expect(RemoteCache.directory(cacheHome: "/tmp/c/", home: "/home/a") == "/tmp/c/infcal")
        // A relative XDG_CACHE_HOME is ignored, as the XDG base directory specification says.
        #expect(RemoteCache.directory(cacheHome: "rel", home: "/home/a") == "/home/a/.cache/infcal")
        #expect(RemoteCache.directory(cacheHome: nil, home: nil) == nil)
    }
}
