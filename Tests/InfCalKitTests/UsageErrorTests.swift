import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Values echoed in errors are inert: one line, no control sequences, a sane length.
@Suite struct UsageErrorEchoTests {
    @Test(arguments: [
        ("plain", "plain"), ("a\nb", "a\\nb"), ("tab\there", "tab\\there"), ("\r", "\\r"), ("\u{1B}[2J", "\\x1b[2J"),
        ("\u{07}\u{7F}", "\\x07\\x7f"), ("\u{9B}1m", "\\u{9b}1m"), ("abc\u{202E}def", "abc\\u{202e}def"), ("\u{2028}", "\\u{2028}"),
        ("日本語", "日本語"), ("é", "é"), ("\r\n", "\\r\\n"), ("\u{E000}", "\\u{e000}"),
    ])
    func controlCharactersAreEscaped(raw: String, echoed: String) {
        #expect(InertText.echo(raw) == echoed)
    }

    @Test func longValuesAreCutOutsideEscapesAndClusters() {
        #expect(InertText.echo(String(repeating: "x", count: 80)) == String(repeating: "x", count: 80))
        #expect(InertText.echo(String(repeating: "x", count: 81)) == String(repeating: "x", count: 79) + "…")
        // An escape is kept whole or left out.
        #expect(InertText.echo(String(repeating: "x", count: 77) + "\u{1B}yz") == String(repeating: "x", count: 77) + "…")
        // A cluster (a flag: two scalars) is kept whole.
        let flags = String(repeating: "🇩🇪", count: 100)
        #expect(InertText.echo(flags) == String(repeating: "🇩🇪", count: 79) + "…")
    }

    @Test func everyCaseIsOneLine() {
        let nasty = "a\nb\u{1B}c" + String(repeating: "z", count: 500)
        let errors: [UsageError] = [
            .unknownOption(nasty, suggestion: "--from"), .missingValue(option: nasty, expected: nasty),
            .invalidValue(option: nasty, value: nasty, expected: nasty), .unexpectedValue(option: nasty, value: nasty),
            .conflict(nasty, nasty), .unexpectedArgument(nasty), .unavailable(option: nasty, reason: nasty),
        ]
        for error in errors {
            let line = error.description
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line)")
            #expect(line.count < 1_000)
        }
    }
}
