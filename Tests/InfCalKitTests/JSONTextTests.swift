import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The JSON string escaper and the ISO 8601 dates of `--json`.
@Suite struct JSONTextTests {
    @Test func escapes() {
        #expect(JSONText.string("plain") == "\"plain\"")
        #expect(JSONText.string("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(JSONText.string("\n\r\t\u{8}\u{C}") == "\"\\n\\r\\t\\b\\f\"")
        #expect(JSONText.string("\u{0}\u{1}\u{1F}") == "\"\\u0000\\u0001\\u001f\"")
        // Not escaped: the slash, non-ASCII, characters outside the BMP (as UTF-8).
        #expect(JSONText.string("/é😀\u{200E}\u{202F}") == "\"/é😀\u{200E}\u{202F}\"")
    }

    /// DEL, C1 controls and the bidi embeddings, overrides and isolates would drive or reorder
    /// a terminal that shows the line: escaped, as Python's `json.dumps(s)` (ensure_ascii)
    /// writes each of them, e.g. `json.dumps("\x9b")` is `"\u009b"`.
    @Test(arguments: [("\u{7F}", "\\u007f"), ("\u{80}", "\\u0080"), ("\u{9B}", "\\u009b"), ("\u{9F}", "\\u009f"),
                      ("\u{202A}", "\\u202a"), ("\u{202E}", "\\u202e"), ("\u{2066}", "\\u2066"), ("\u{2069}", "\\u2069")])
    func terminalControlsAreEscaped(raw: String, escaped: String) {
        #expect(JSONText.string("a" + raw + "b") == "\"a" + escaped + "b\"")
    }

    /// Every scalar from U+0000 to U+00FF and a few beyond, through Foundation's parser.
    @Test func everyLowScalarRoundTrips() throws {
        var scalars = (0...0xFF).compactMap(Unicode.Scalar.init)
        scalars += ["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{10FFFF}", "\u{1F600}"]
        let text = String(String.UnicodeScalarView(scalars))
        let parsed = try JSONSerialization.jsonObject(with: Data(("[" + JSONText.string(text) + "]").utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test func isoYears() {
        #expect(ISODate.year(2024) == "2024")
        #expect(ISODate.year(7) == "0007")
        #expect(ISODate.year(0) == "0000")
        #expect(ISODate.year(-1) == "-0001")
        #expect(ISODate.year(-4712) == "-4712")
        #expect(ISODate.year(9999) == "9999")
        #expect(ISODate.year(10000) == "+10000")
    }

    /// Expected values from Python: datetime(2024,3,31,1,30,tzinfo=timezone.utc).astimezone(
    /// ZoneInfo('Europe/Berlin')).isoformat() and datetime.fromtimestamp(-1, timezone.utc).
    @Test func dateTimes() {
        let day = CivilTime.day(year: 2024, month: 3, day: 31)
        let wall = day * 86_400 + 3 * 3600 + 30 * 60
        #expect(JSONText.isoDateTime(wall, offset: 7200) == "2024-03-31T03:30:00+02:00")
        #expect(JSONText.isoDateTime(wall, offset: -12_600) == "2024-03-31T03:30:00-03:30")
        #expect(JSONText.isoDateTime(wall, offset: nil) == "2024-03-31T03:30:00")
        #expect(JSONText.isoDateTime(-1, offset: 0) == "1969-12-31T23:59:59+00:00")
        // Local mean time (Amsterdam's +00:19:32 in 1900) has no ISO 8601 offset: UTC instead.
        #expect(JSONText.isoDateTime(wall, offset: 1172) == "2024-03-31T03:10:28Z")
    }

    /// `--json` prints: at a terminal without a direction the start month alone (not the
    /// pager), into a pipe the endless stream; it is never the pager.
    @Test func jsonModes() throws {
        let terminal = Fixture.environment(terminal: true)
        #expect(try Fixture.resolve(["--json"], environment: terminal).mode == .single)
        #expect(try Fixture.resolve(["--json"]).mode == .forward(count: nil))
        #expect(try Fixture.resolve(["--json", "--backward", "3"], environment: terminal).mode == .backward(count: 3))
        #expect(try Fixture.resolve(["--json"]).json)
        #expect(try !Fixture.resolve([]).json)
    }
}
