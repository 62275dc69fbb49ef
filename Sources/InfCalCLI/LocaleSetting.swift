import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The locale names and the first weekday come from.
///
/// Foundation on Linux ignores LC_ALL, LC_TIME and LANG (`Locale.current` is always en_001),
/// so they are read here, as setlocale(3) reads them for LC_TIME: the first of LC_ALL,
/// LC_TIME and LANG that is set and not empty wins.
public enum LocaleSetting {
    /// The variables that name the time locale, strongest first.
    public static let variables = ["LC_ALL", "LC_TIME", "LANG"]

    /// The variables ICU itself reads for its default locale; a malformed one crashes it, so
    /// the terminal layer replaces those (and `variables`) with C before ICU starts.
    public static let icuVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The locale the environment names; nil for POSIX, for a malformed name, or when the name
    /// is not one Foundation knows (setlocale falls back to C the same way).
    public static func fromEnvironment(_ environment: [String: String]) -> Locale? {
        fromEnvironment { environment[$0] }
    }

    /// The same, with the variables' values from `lookup`.
    public static func fromEnvironment(lookup: (String) -> String?) -> Locale? {
        guard let value = variables.lazy.compactMap(lookup).first(where: { !$0.isEmpty }),
              case .identifier(let name)? = LocaleName.parse(value) else { return nil }
        return known(name)
    }

    /// The locale called `name`, if Foundation has data for its language.
    public static func known(_ name: String) -> Locale? {
        // Only names of the checked grammar reach ICU.
        guard LocaleName.isWellFormed(name) else { return nil }
        let locale = Locale(identifier: name)
        guard let language = locale.language.languageCode?.identifier, !language.isEmpty else { return nil }
        let available = Set(Locale.availableIdentifiers)
        let base = String(name.prefix { $0 != "@" })
        return available.contains(base) || available.contains(language) ? withNames(locale) : nil
    }

    /// `locale`, or where ICU has no names for it (it lists `ba_RU` and `co_FR`, but would title
    /// their months "M01" to "M12", its root locale's placeholders), English with the locale's
    /// region, so that the region's conventions (the first weekday) stay. ICU already takes
    /// what a locale lacks from its parent, so a parent never has names its child lacks.
    static func withNames(_ locale: Locale) -> Locale {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = Calendar(identifier: .gregorian)
        let names: [String] = formatter.standaloneMonthSymbols
        guard names.count < 12 || hasPlaceholderNames(names) else { return locale }
        var components = Locale.Components(locale: locale)
        components.languageComponents = Locale.Language.Components(languageCode: .english, script: nil, region: locale.region)
        return Locale(components: components)
    }

    /// Whether `names` are ICU's placeholders for months it has no names for: "M01", "M02", ...
    static func hasPlaceholderNames(_ names: [String]) -> Bool {
        names.contains { name in
            let scalars = Array(name.unicodeScalars)
            return scalars.count == 3 && scalars[0] == "M" && scalars.dropFirst().allSatisfy { $0.properties.numericType == .decimal }
        }
    }

    /// The weekday `locale` starts its weeks on in `calendar`, 1 (Sunday) to 7 (Saturday);
    /// Sunday for POSIX. The ISO 8601 calendar starts them on Monday in every locale.
    public static func firstWeekday(of locale: Locale?, calendar: MonthCalendar) -> Int {
        if calendar.identifier == .iso8601 { return 2 }
        guard let locale else { return 1 }
        return weekdayNumber(locale.firstDayOfWeek)
    }

    /// The fewest days of the new year `locale`'s first week of the year holds; 1 for POSIX (US),
    /// 4 in the ISO 8601 calendar in every locale.
    public static func minimumDaysInFirstWeek(of locale: Locale?, calendar: MonthCalendar) -> Int {
        if calendar.identifier == .iso8601 { return 4 }
        guard let locale else { return 1 }
        var calendar = calendar.calendar
        calendar.locale = locale
        return calendar.minimumDaysInFirstWeek
    }

    /// The variables that name the character set, strongest first, as setlocale(3) reads them
    /// for LC_CTYPE.
    public static let characterSetVariables = ["LC_ALL", "LC_CTYPE", "LANG"]

    /// Whether the environment's character set is UTF-8: the codeset of the first of LC_ALL,
    /// LC_CTYPE and LANG that is set and not empty (`en_US.UTF-8`, `C.utf8`). False for C,
    /// POSIX, another codeset or none set, where only ASCII is sure to show.
    public static func usesUTF8(_ environment: [String: String]) -> Bool {
        usesUTF8 { environment[$0] }
    }

    /// The same, with the variables looked up one by one (no dictionary built at start-up).
    public static func usesUTF8(_ variable: (String) -> String?) -> Bool {
        var found: String?
        for name in characterSetVariables {
            if let value = variable(name), !value.isEmpty { found = value; break }
        }
        guard let value = found,
              let dot = value.firstIndex(of: ".") else { return false }
        let codeset = value[value.index(after: dot)...].prefix { $0 != "@" }
        return codeset.lowercased().filter { $0 != "-" } == "utf8"
    }

    /// The weekdays `locale` counts as its weekend, 1 (Sunday) to 7 (Saturday), from
    /// Foundation's weekend data (CLDR): Saturday and Sunday in the US and Germany, Friday in
    /// Iran. Saturday and Sunday for POSIX (US conventions).
    public static func weekendDays(of locale: Locale?) -> Set<Int> {
        guard let locale else { return [1, 7] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = .gmt
        // Noon on seven days in a row, from Sunday 2001-01-07.
        let days = (0..<7).map { DayNumber.date(6 + $0) }.filter { calendar.isDateInWeekend($0) }
        return Set(days.map { DayNumber.weekday(DayNumber.day(of: $0)) })
    }

    static func weekdayNumber(_ weekday: Locale.Weekday) -> Int {
        switch weekday {
        case .sunday: return 1
        case .monday: return 2
        case .tuesday: return 3
        case .wednesday: return 4
        case .thursday: return 5
        case .friday: return 6
        case .saturday: return 7
        @unknown default: return 1
        }
    }

    /// The weekday named `text` in English, whole or abbreviated to three letters, any case:
    /// 1 for "sunday" or "Sun", 7 for "saturday".
    public static func weekday(named text: String) -> Int? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        let lowered = text.lowercased()
        return names.firstIndex { $0 == lowered || (lowered.count == 3 && $0.hasPrefix(lowered)) }.map { $0 + 1 }
    }
}
