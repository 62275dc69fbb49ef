import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Outside text made inert: blanked in views, escaped at the prompt, measured by cluster.
@Suite struct InertTextTests {
    @Test(arguments: [
        ("plain", "plain"), ("a\u{1B}[2Jb", "a [2Jb"), ("c1\u{9B}x", "c1 x"), ("\u{202E}desrever\u{202C}", "desrever"),
        ("\u{2066}iso\u{2069}", "iso"), ("\u{202A}\u{202B}\u{202D}ltr", "ltr"), ("mark\u{200F}kept", "mark\u{200F}kept"),
        ("tab\tnew\nline", "tab new line"), ("日本語 é", "日本語 é"),
    ])
    func viewsShowNoControls(raw: String, shown: String) {
        #expect(InertText.forView(raw) == shown)
    }

    /// Python's wcwidth 0.7.0: `wcwidth.wcswidth(s)` for each (a ZWJ family, a flag, a skin
    /// tone, two flags, a letter with a combining accent, Hangul, CJK).
    @Test(arguments: [
        ("👨\u{200D}👩\u{200D}👧", 2), ("🇩🇪", 2), ("👍🏽", 2), ("🇩🇪🇫🇷", 4), ("a\u{301}", 1), ("한", 2), ("日本", 4),
        ("👨\u{200D}👩\u{200D}👧 family", 9),
    ])
    func emojiClustersAreOneWideCell(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
        #expect(DisplayWidth.of(DisplayWidth.prefix(of: text, fitting: width)) == width)
    }

    @Test func aClusterIsNeverCut() {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(DisplayWidth.prefix(of: family + "x", fitting: 1) == "")
        #expect(DisplayWidth.prefix(of: family + "x", fitting: 2) == family)
        #expect(DisplayWidth.truncated(family + family, to: 3) == family + "…")
    }

    /// The go-to prompt quotes what was typed (or pasted) back escaped.
    @Test func goToErrorsQuoteTheTypedTextInert() throws {
        var state = try PagerFixture.state()
        state.goTo("20\u{202E}24\u{1B}]0;x\u{07}")
        #expect(state.message?.text == "not a date: '20\\u{202e}24\\x1b]0;x\\x07' (YYYY-MM or YYYY-MM-DD)")
    }
}

/// A signed number of four digits or more is a year, as ISO 8601's expanded years are
/// written (`-0043` is 44 BC, `+10000`); a shorter one counts months from now. `--from
/// -0043` was read as 43 months ago.
@Suite struct SignedYearTests {
    @Test(arguments: [
        ("-0043", DateArgument.year(-43)), ("+10000", .year(10000)), ("-1000", .year(-1000)), ("+2024", .year(2024)),
        ("-0043-03", .month(year: -43, month: 3)), ("+10000-01-01", .day(year: 10000, month: 1, day: 1)),
        ("-3", .relative(months: -3)), ("+12", .relative(months: 12)), ("-999", .relative(months: -999)), ("+0", .relative(months: 0)),
    ])
    func signedNumbers(text: String, meaning: DateArgument) {
        #expect(DateArgument.parse(text) == meaning)
    }
}
