import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// A locale Foundation lists but has no names for is read as one without data: English names
/// with the locale's region, never ICU's placeholders "M01" ... "M12" (its root locale's, which
/// `ba_RU` and `co_FR` fall back to). The oracle is CLDR as ICU ships it: the placeholders are
/// what `DateFormatter.standaloneMonthSymbols` gives for a locale without month data.
@Suite struct LocaleDataTests {
    @Test func placeholderLocalesTakeEnglishNames() throws {
        for name in ["ba_RU", "co_FR"] {
            let locale = try #require(LocaleSetting.known(name))
            let names = CalendarNames(locale: locale, calendar: MonthCalendar(.gregorian))
            let march = try #require(Fixture.month(2024, 3))
            #expect(names.title(of: march) == "March 2024", "\(name)")
            // The region's conventions stay: Russia and France start weeks on Monday.
            #expect(LocaleSetting.firstWeekday(of: locale, calendar: MonthCalendar(.gregorian)) == 2, "\(name)")
        }
        // The same through the environment.
        #expect(try Fixture.output(["--from", "2024-03", "--forward", "1"],
                                   environment: Fixture.environment(variables: ["LANG": "ba_RU.UTF-8"])).hasPrefix("     March 2024\nMo Tu"))
    }

    /// No locale Foundation lists titles a month with a placeholder, in the Gregorian calendar
    /// or in the Hebrew and Islamic ones, whose names come from the same data.
    @Test func noLocaleTitlesMonthsWithPlaceholders() throws {
        let march = try #require(Fixture.month(2024, 3))
        var found: [String] = []
        for identifier in Locale.availableIdentifiers {
            guard let locale = LocaleSetting.known(identifier) else { continue }
            let title = CalendarNames(locale: locale, calendar: MonthCalendar(.gregorian)).title(of: march)
            if title.unicodeScalars.contains("M"), title.range(of: "M0") != nil || title.range(of: "M1") != nil { found.append("\(identifier): \(title)") }
        }
        #expect(found.isEmpty, "\(found.prefix(10))")
    }

    /// A well-formed name Foundation does not list: `--locale xx_YY` is a usage error (exit 64
    /// end to end), the same name in the environment counts as C, as setlocale(3) falls back.
    @Test func unlistedLocale() {
        #expect(throws: UsageError.self) { try Fixture.resolve(["--locale", "xx_YY"]) }
        #expect(LocaleSetting.fromEnvironment(["LANG": "xx_YY.UTF-8"]) == nil)
    }
}
