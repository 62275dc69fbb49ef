import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Locales: how a name is read (POSIX and glibc forms, modifiers, the environment's order),
/// and what a locale chooses (names, first weekday, week numbers, scripts).
@Suite struct LocaleTests {
    @Test(arguments: [
        ("de_DE.UTF-8", "de_DE"), ("de_DE.UTF-8@euro", "de_DE"), ("ja-JP", "ja_JP"),
        ("fr_FR", "fr_FR"), ("en_US@calendar=hebrew", "en_US@calendar=hebrew"),
        // Modifiers that choose a script or variant, as glibc names them (see /usr/share/i18n/SUPPORTED).
        ("sr_RS@latin", "sr_Latn_RS"), ("uz_UZ@cyrillic", "uz_Cyrl_UZ"), ("sr_RS", "sr_RS"), ("ca_ES.UTF-8@valencia", "ca_ES_VALENCIA"),
        ("sr-Latn-RS", "sr_Latn_RS"), ("sr_Cyrl_RS@latin", "sr_Cyrl_RS"),
        // Case does not matter, as in POSIX's names.
        ("en_us.utf8", "en_US"), ("DE_de", "de_DE"), ("zh_hant_tw", "zh_Hant_TW"), ("es_419", "es_419"),
    ])
    func namesAreNormalized(raw: String, normalized: String) {
        #expect(LocaleName.parse(raw) == .identifier(normalized))
    }

    @Test func cAndPosixAreTheDefault() {
        for name in ["C", "POSIX", "C.UTF-8", "C.utf8", "c", "posix", "Posix.UTF-8", "c.utf8@euro"] {
            #expect(LocaleName.parse(name) == .posix, "\(name)")
        }
    }

    /// Names ICU crashed on (a 12-letter language, a 200-letter region, emoji) and others with
    /// empty or oversized parts never reach it.
    @Test(arguments: ["", "abcdefghijkl", "😀😀😀", "en_" + String(repeating: "A", count: 200), "de_DE@" + String(repeating: "x", count: 17),
                      "_", "en__US", "en_US.", "en_US@", "@", ".UTF-8", "e", "en_US@a=", "en_US@=b", "en_US@a=b;", "de@x@y",
                      "en US", "en_US\n", "café", "en_USA_B"])
    func malformedNamesAreRefused(name: String) {
        #expect(LocaleName.parse(name) == nil)
        #expect(LocaleSetting.known(name) == nil)
    }

    @Test func environmentPrecedence() {
        #expect(LocaleSetting.fromEnvironment(["LC_ALL": "de_DE.UTF-8", "LC_TIME": "fr_FR", "LANG": "ja_JP"])?.identifier.hasPrefix("de") == true)
        #expect(LocaleSetting.fromEnvironment(["LC_ALL": "", "LC_TIME": "fr_FR.UTF-8", "LANG": "ja_JP"])?.identifier.hasPrefix("fr") == true)
        #expect(LocaleSetting.fromEnvironment(["LANG": "ja_JP.UTF-8"])?.identifier.hasPrefix("ja") == true)
        #expect(LocaleSetting.fromEnvironment(["LC_ALL": "C", "LANG": "ja_JP.UTF-8"]) == nil)
        #expect(LocaleSetting.fromEnvironment(["LANG": "xx_YY.UTF-8"]) == nil)
        #expect(LocaleSetting.fromEnvironment([:]) == nil)
    }

    @Test func theEnvironmentChoosesNamesAndFirstWeekday() throws {
        let german = try Fixture.output(["--from", "2024-02", "--forward", "1"], environment: Fixture.environment(variables: ["LANG": "de_DE.UTF-8"]))
        #expect(german.hasPrefix("    Februar 2024\nMo Di Mi Do Fr Sa So\n          1  2  3  4\n"))
        let posix = try Fixture.output(["--from", "2024-02", "--forward", "1"], environment: Fixture.environment(variables: ["LC_ALL": "C", "LANG": "de_DE.UTF-8"]))
        #expect(posix.hasPrefix("   February 2024\nSu Mo"))
        // --locale beats the environment, and --sunday beats the locale.
        let french = try Fixture.output(["--locale", "fr_FR", "--sunday", "--from", "2024-02", "--forward", "1"],
                                        environment: Fixture.environment(variables: ["LANG": "de_DE.UTF-8"]))
        #expect(french.hasPrefix("    février 2024\ndi lu ma me je ve sa\n"))
    }

    @Test func unknownLocaleIsAUsageError() {
        #expect(throws: UsageError.invalidValue(option: "--locale", value: "xx_YY", expected: "a locale such as en_US, de_DE or ja_JP, or C")) {
            try Fixture.resolve(["--locale", "xx_YY"])
        }
    }

    /// In every locale Foundation lists, the weekday header is seven distinct, non-empty labels
    /// without digits, each a prefix of one of the locale's names cut between characters (never
    /// after a virama), right-aligned in day cells of one width: two where two-cell labels can
    /// be told apart, else the narrowest that works. The oracle is Foundation's own names.
    @Test func everyLocalesWeekdayHeaderIsDistinct() {
        for identifier in Locale.availableIdentifiers {
            let locale = Locale(identifier: identifier)
            let names = CalendarNames(locale: locale, calendar: Fixture.gregorian)
            let labels = names.weekdayLabels
            #expect(labels.count == 7 && Set(labels).count == 7, "\(identifier) \(labels)")
            let formatter = DateFormatter()
            formatter.locale = locale
            let sources = [formatter.shortStandaloneWeekdaySymbols, formatter.shortWeekdaySymbols,
                           formatter.veryShortStandaloneWeekdaySymbols, formatter.standaloneWeekdaySymbols]
            for (weekday, label) in labels.enumerated() {
                #expect(!label.isEmpty && DisplayWidth.of(label) <= names.labelWidth, "\(identifier) '\(label)'")
                #expect(label.contains { $0.isLetter } && !label.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal || $0.properties.generalCategory == .otherPunctuation }, "\(identifier) '\(label)'")
                // A prefix in whole characters of that weekday's name in one of the lists (where
                // a joiner it ended in was dropped, in whole characters with it).
                #expect(sources.contains { $0.count == 7 && ($0[weekday].hasPrefix(label) || $0[weekday].hasPrefix(label + "\u{200C}")) },
                        "\(identifier) '\(label)'")
                let last = label.unicodeScalars.last?.properties.canonicalCombiningClass
                #expect(last != .virama || sources.contains { $0.count == 7 && $0[weekday] == label }, "\(identifier) '\(label)' ends in a virama")
            }
            let renderer = MonthRenderer(names: names, calendar: Fixture.gregorian, firstWeekday: 1)
            let header = renderer.formatRow([renderer.grid(for: Fixture.month(2024, 2)!)])[1]
            #expect(DisplayWidth.of(header) == 7 * names.labelWidth + 6 || names.labelWidth < renderer.cellWidth, "\(identifier) '\(header)'")
        }
        // The locales the reports named need wider cells.
        for identifier in ["pt_BR", "pt_PT", "id_ID", "sw_KE", "hu_HU", "lv_LV", "hy_AM", "ur_PK", "my_MM", "az_AZ", "ml_IN"] {
            #expect(CalendarNames(locale: Locale(identifier: identifier), calendar: Fixture.gregorian).labelWidth > 2, "\(identifier)")
        }
    }

    /// The labels of the reported locales, at the width each needs (ICU's names, cut by hand).
    @Test(arguments: [
        ("pt_BR", ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"]), ("id_ID", ["Min", "Sen", "Sel", "Rab", "Kam", "Jum", "Sab"]),
        ("hu_HU", ["V", "H", "K", "Sze", "Cs", "P", "Szo"]), ("lv_LV", ["Svē", "Pir", "Otr", "Tre", "Cet", "Pie", "Ses"]),
        ("az_AZ", ["B.", "B.E", "Ç.A", "Ç.", "C.A", "C.", "Ş."]), ("zh_CN", ["日", "一", "二", "三", "四", "五", "六"]),
        ("en_US", ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]), ("km_KH", ["អា", "ច", "អ", "ពុធ", "ព្រ", "សុ", "សៅ"]),
    ])
    func reportedLocalesGetDistinctLabels(identifier: String, expected: [String]) {
        #expect(CalendarNames(locale: Locale(identifier: identifier), calendar: Fixture.gregorian).weekdayLabels == expected)
    }

    /// Every line of every month takes the same cells in its column, whatever the script:
    /// side by side, each month's lines start at the same display column.
    @Test(arguments: ["ja_JP", "zh_CN", "ko_KR", "en_US", "fa_IR", "ar_EG", "he_IL", "th_TH", "hi_IN", "pt_BR", "sw_KE", "my_MM"])
    func monthsLineUpSideBySide(locale: String) throws {
        let configuration = try Fixture.resolve(["--locale", locale, "--from", "2024-01", "--forward", "3", "--columns", "3"])
        var renderer = configuration.makeRenderer()
        renderer.highlightedDay = nil
        let grids = Array(configuration.months()).map(renderer.grid(for:))
        let widths = grids.map { max(renderer.monthWidth, DisplayWidth.of(renderer.titleText($0.month))) }
        for line in 0..<(2 + (grids.map(\.weekCount).max() ?? 0)) {
            for (position, grid) in grids.enumerated() {
                let bytes = ByteBuffer()
                let used = renderer.appendLine(line, of: grid, title: renderer.titleText(grid.month), width: widths[position], to: bytes)
                #expect(used == DisplayWidth.of(String(decoding: bytes.bytes, as: UTF8.self)))
                #expect(used <= widths[position])
                if line == 1 || (line >= 2 && line - 2 < grid.weekCount) { #expect(used == renderer.monthWidth) }
            }
        }
    }

    @Test(arguments: Array(1...7))
    func everyFirstWeekday(weekday: Int) throws {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for spelling in [names[weekday - 1], String(names[weekday - 1].prefix(3)).uppercased()] {
            let configuration = try Fixture.resolve(["--first-weekday", spelling])
            #expect(configuration.firstWeekday == weekday)
        }
    }

    @Test func firstWeekdayConflictsAndErrors() {
        #expect(throws: UsageError.conflict("--monday", "--first-weekday")) { try Fixture.resolve(["--monday", "--first-weekday", "sun"]) }
        #expect(throws: UsageError.invalidValue(option: "--first-weekday", value: "someday",
                                                expected: "a weekday: sunday, monday, ... saturday (or sun, mon, ...)")) {
            try Fixture.resolve(["--first-weekday", "someday"])
        }
    }
}

/// `--calendar iso8601` is ISO 8601 in every locale, and locale names are read as POSIX and
/// glibc write them.
@Suite struct LocaleNameResolutionTests {
    /// ISO weeks of January 2021, from Python's `date.isocalendar()`: the 1st to 3rd are in week
    /// 53 of 2020, the 4th starts week 1.
    @Test(arguments: ["C", "en_US", "ar_EG", "fa_IR", "de_DE", "he_IL"])
    func iso8601IsMondayFirstWithIsoWeeksInEveryLocale(locale: String) throws {
        let configuration = try Fixture.resolve(["--calendar", "iso8601", "--locale", locale, "-w", "locale", "--from", "2021-01", "--forward", "1"])
        #expect(configuration.firstWeekday == 2)
        #expect(configuration.weekNumbers == .locale(minimumDays: 4))
        let lines = configuration.makeRenderer().formatRow([configuration.makeRenderer().grid(for: try #require(Fixture.month(2021, 1)))])
        #expect(lines.dropFirst(2).map { $0.prefix(2).trimmingCharacters(in: .whitespaces) } == ["53", "1", "2", "3", "4"])
        #expect(lines[2].hasSuffix(" 1  2  3"))
        // --sunday still beats the calendar's Monday.
        #expect(try Fixture.resolve(["--calendar", "iso8601", "--locale", locale, "--sunday"]).firstWeekday == 1)
    }

    @Test func modifiersChooseTheScript() throws {
        func title(_ locale: String) throws -> String {
            let configuration = try Fixture.resolve(["--locale", locale, "--from", "2024-01"])
            return configuration.makeNames().title(of: try #require(Fixture.month(2024, 1)))
        }
        func script(_ text: String) -> Set<String> {
            Set(text.unicodeScalars.filter(\.properties.isAlphabetic).map { $0.value < 0x250 ? "Latin" : (0x400..<0x530).contains($0.value) ? "Cyrillic" : "other" })
        }
        // CLDR's default script for Serbian is Cyrillic, for Uzbek Latin.
        #expect(script(try title("sr_RS")) == ["Cyrillic"])
        #expect(script(try title("sr_RS@latin")) == ["Latin"])
        #expect(script(try title("sr_RS.UTF-8@latin")) == ["Latin"])
        #expect(script(try title("uz_UZ")) == ["Latin"])
        #expect(script(try title("uz_UZ@cyrillic")) == ["Cyrillic"])
    }

    @Test func namesAreCaseInsensitiveAsInPosix() throws {
        for name in ["c", "posix", "C.utf8", "Posix"] {
            #expect(try Fixture.resolve(["--locale", name]).locale == nil, "\(name)")
            #expect(try Fixture.resolve([], environment: Fixture.environment(variables: ["LANG": name])).locale == nil, "\(name)")
        }
        let german = try Fixture.resolve(["--locale", "DE_de.utf8"])
        #expect(german.locale?.identifier == "de_DE" && german.firstWeekday == 2)
        #expect(try Fixture.resolve([], environment: Fixture.environment(variables: ["LC_TIME": "de_de.UTF-8"])).locale?.identifier == "de_DE")
    }
}
