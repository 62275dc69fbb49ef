import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// One grammar of a length of time for `--for` and the config file's `refresh` and `timeout`:
/// a bare number is seconds, numbers with units add up, RFC 5545 DURATIONs (§3.3.6) read as
/// the RFC counts them (P1W is 604800 s, PT1H30M 5400 s).
@Suite struct DurationTextTests {
    static let valid: [(String, Int)] = [
        ("90", 90), ("0", 0), ("0s", 0), ("90s", 90), ("30m", 1800), ("1h30m", 5400), ("2d", 172_800), ("1w", 604_800),
        ("1W2D", 777_600), ("30m1h", 5400), ("PT1H", 3600), ("pt1h30m", 5400), ("P1D", 86_400), ("P1W", 604_800),
        ("999999999", 999_999_999),
    ]
    static let invalid = ["", "soon", "1x", "h", "1h30", "-5", "+5", "1.5h", "1 h", "1000000000", "1000000000s", "P", "PT", "１h"]

    @Test func durations() {
        for (text, seconds) in Self.valid { #expect(DurationText.seconds(text) == seconds, "\(text)") }
        for text in Self.invalid { #expect(DurationText.seconds(text) == nil, "\(text)") }
    }

    /// The command line and the config file read the same words the same way.
    @Test func oneGrammarForBoth() throws {
        for (text, seconds) in Self.valid where seconds > 0 && seconds <= 366 * 86_400 {
            let config = try ConfigParser.parse(Array("[events a]\npath = /a\nrefresh = \(text)\n".utf8), file: "c", home: nil, directory: "/")
            #expect(config.calendars.first?.refresh == .after(seconds: seconds), "\(text)")
            guard case .add(let request) = try WriteCommandTests.command("add", ["10:00", "x", "--for", text]).change else {
                Issue.record("no add"); continue
            }
            #expect(request.duration == seconds, "\(text)")
        }
        #expect(throws: UsageError.self) { try WriteCommandTests.command("add", ["10:00", "x", "--for", "0"]) }
    }

    /// `refresh = 0` (and `0s`) fetches on every run; a timeout of 0 is refused.
    @Test func refreshZeroFetchesEveryRun() throws {
        for zero in ["0", "0s", "0m"] {
            let config = try ConfigParser.parse(Array("[events a]\nurl = https://example.org/a.ics\nrefresh = \(zero)\n".utf8), file: "c",
                                                 home: nil, directory: "/")
            #expect(config.calendars.first?.refresh == .after(seconds: 0))
        }
        #expect(throws: ConfigError.self) {
            try ConfigParser.parse(Array("[events a]\nurl = https://example.org/a.ics\ntimeout = 0\n".utf8), file: "c", home: nil, directory: "/")
        }
    }

    /// Counts say where they start, not a 19-digit end.
    @Test func countMessages() {
        for (arguments, message) in [
            (["--forward", "abc"], "invalid value 'abc' for --forward: expected a count: a whole number from 1 up"),
            (["--backward", "0"], "invalid value '0' for --backward: expected a count: a whole number from 1 up"),
            (["-n", "99999999999999999999"], "invalid value '99999999999999999999' for -n: expected a count: a whole number from 1 up"),
            (["-A", "x"], "invalid value 'x' for -A: expected a count: a whole number from 0 up"),
            (["-B", "-1"], "invalid value '-1' for -B: expected a count: a whole number from 0 up"),
        ] {
            do {
                _ = try Fixture.resolve(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
