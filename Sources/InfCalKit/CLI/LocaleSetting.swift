import Foundation

/// The locale names and the first weekday come from.
///
/// Foundation on Linux ignores LC_ALL, LC_TIME and LANG (`Locale.current` is always en_001),
/// so they are read here, as setlocale(3) reads them for LC_TIME: the first of LC_ALL,
/// LC_TIME and LANG that is set and not empty wins.
public enum LocaleSetting {
    /// The variables that name the time locale, strongest first.
    public static let variables = ["LC_ALL", "LC_TIME", "LANG"]

    /// A locale name as the environment or `--locale` gives it, made Foundation's: the codeset
    /// (`.UTF-8`) and a glibc modifier (`@euro`) dropped, dashes made underscores.
    /// - returns: nil for C and POSIX (English with US conventions, infcal's default).
    public static func normalized(_ name: String) -> String? {
        var base = Substring(name)
        if let at = base.firstIndex(of: "@") {
            // ICU keywords (@calendar=..., @numbers=...) are kept for --locale; glibc modifiers
            // have no "=" and are dropped.
            let modifier = base[base.index(after: at)...]
            base = modifier.contains("=") ? base : base[..<at]
        }
        if let dot = base.firstIndex(of: "."), !base[dot...].contains("@") { base = base[..<dot] }
        // Not replacingOccurrences: its NSString bridge costs more at start-up than the run.
        let result = String(base.map { $0 == "-" ? "_" : $0 })
        return result.isEmpty || result == "C" || result == "POSIX" ? nil : result
    }

    /// The locale the environment names, with the variable it came from; nil for POSIX, or when
    /// the name is not one Foundation knows (setlocale falls back to C the same way).
    public static func fromEnvironment(_ environment: [String: String]) -> Locale? {
        fromEnvironment { environment[$0] }
    }

    /// The same, with the variables' values from `lookup`.
    public static func fromEnvironment(lookup: (String) -> String?) -> Locale? {
        for variable in variables {
            guard let value = lookup(variable), !value.isEmpty else { continue }
            return normalized(value).flatMap(known)
        }
        return nil
    }

    /// The locale called `name`, if Foundation has data for its language.
    public static func known(_ name: String) -> Locale? {
        let locale = Locale(identifier: name)
        guard let language = locale.language.languageCode?.identifier, !language.isEmpty else { return nil }
        let available = Set(Locale.availableIdentifiers)
        let base = String(name.prefix { $0 != "@" })
        return available.contains(base) || available.contains(language) ? locale : nil
    }

    /// The weekday `locale` starts its weeks on, 1 (Sunday) to 7 (Saturday); Sunday for POSIX.
    public static func firstWeekday(of locale: Locale?) -> Int {
        guard let locale else { return 1 }
        return weekdayNumber(locale.firstDayOfWeek)
    }

    /// The fewest days of the new year `locale`'s first week of the year holds; 1 for POSIX (US).
    public static func minimumDaysInFirstWeek(of locale: Locale?, calendar: MonthCalendar) -> Int {
        guard let locale else { return 1 }
        var calendar = calendar.calendar
        calendar.locale = locale
        return calendar.minimumDaysInFirstWeek
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
