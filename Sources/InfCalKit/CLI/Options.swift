/// Every option infcal takes. The parser, `--help` and the did-you-mean suggestions all read
/// this one table, so they cannot drift apart.
public enum OptionKey: String, CaseIterable, Sendable {
    case from, since, until, forward, backward, year, columns, calendar, locale, monday, sunday, firstWeekday
    case weekNumbers, dayOfYear, color, today, help, version, paged, reform
}

/// How an option takes its value.
public enum OptionValue: Sendable {
    /// No value: `--monday`.
    case none
    /// A value that must follow: `--from 2024-01` or `--from=2024-01`.
    case required(placeholder: String)
    /// A value that may follow, taken from the next word only when `accepts` says it is one:
    /// `--forward`, `--forward 6`, `--forward=6`.
    case optional(placeholder: String, accepts: @Sendable (String) -> Bool)
}

/// One option's definition.
public struct OptionSpec: Sendable {
    public let key: OptionKey
    public let long: String
    public let short: Character?
    public let value: OptionValue
    /// The help text; the parser quotes `expected` in its errors.
    public let summary: String
    public let expected: String

    /// The option as a user writes it: `--from`.
    public var flag: String { "--" + long }
}

extension OptionSpec {
    static let dateExpected = "YYYY-MM, YYYY-MM-DD, YYYY, today or +N/-N"

    /// Whether `word` is a count (an optional sign, then digits), so that `--forward -3` is read
    /// as a bad count rather than as an unknown option.
    static func isCount(_ word: String) -> Bool {
        let digits = word.first == "+" || word.first == "-" ? word.dropFirst() : Substring(word)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// All options, in the order `--help` lists them.
    public static let all: [OptionSpec] = [
        OptionSpec(key: .from, long: "from", short: nil, value: .required(placeholder: "DATE"),
                   summary: "start at the month holding DATE (default: today)", expected: dateExpected),
        OptionSpec(key: .forward, long: "forward", short: nil, value: .optional(placeholder: "N", accepts: isCount),
                   summary: "print N months from --from onwards (no N: until a bound)",
                   expected: "a count from 1 to \(Int.max)"),
        OptionSpec(key: .backward, long: "backward", short: nil, value: .optional(placeholder: "N", accepts: isCount),
                   summary: "print N months from --from backwards, newest first",
                   expected: "a count from 1 to \(Int.max)"),
        OptionSpec(key: .paged, long: "paged", short: nil, value: .none,
                   summary: "page through months at the terminal (press ? there for the keys)",
                   expected: ""),
        OptionSpec(key: .year, long: "year", short: "y", value: .optional(placeholder: "YYYY", accepts: isCount),
                   summary: "the months of the calendar's year YYYY (default: the year of --from), three a row",
                   expected: "a year of the calendar, from 1, inside the calendar's range"),
        OptionSpec(key: .since, long: "since", short: nil, value: .required(placeholder: "DATE"),
                   summary: "show no month that ends before DATE", expected: dateExpected),
        OptionSpec(key: .until, long: "until", short: nil, value: .required(placeholder: "DATE"),
                   summary: "show no month that starts after DATE", expected: dateExpected),
        OptionSpec(key: .columns, long: "columns", short: "c", value: .required(placeholder: "N|auto"),
                   summary: "months side by side (default: auto at a terminal, or 1)",
                   expected: "a number from 1 to 1000, or auto"),
        OptionSpec(key: .calendar, long: "calendar", short: nil, value: .required(placeholder: "ID"),
                   summary: "the calendar: gregorian (default), hebrew, chinese, ...; list shows them all",
                   expected: "a calendar identifier (infcal --calendar list shows them)"),
        OptionSpec(key: .reform, long: "reform", short: nil, value: .required(placeholder: "WHEN"),
                   summary: "Julian to Gregorian: 1582 (default), 1752, gregorian or julian",
                   expected: "1582, 1752, gregorian or julian"),
        OptionSpec(key: .locale, long: "locale", short: nil, value: .required(placeholder: "ID"),
                   summary: "names and first weekday of a locale (default: from LC_ALL, LC_TIME or LANG)",
                   expected: "a locale such as en_US, de_DE or ja_JP, or C"),
        OptionSpec(key: .monday, long: "monday", short: "m", value: .none,
                   summary: "weeks start on Monday", expected: ""),
        OptionSpec(key: .sunday, long: "sunday", short: "s", value: .none,
                   summary: "weeks start on Sunday", expected: ""),
        OptionSpec(key: .firstWeekday, long: "first-weekday", short: nil, value: .required(placeholder: "DAY"),
                   summary: "weeks start on DAY (default: the locale's)",
                   expected: "a weekday: sunday, monday, ... saturday (or sun, mon, ...)"),
        OptionSpec(key: .weekNumbers, long: "week-numbers", short: "w",
                   value: .optional(placeholder: "RULE", accepts: { ["iso", "locale"].contains($0) }),
                   summary: "show week numbers: iso (default) or locale", expected: "iso or locale"),
        OptionSpec(key: .dayOfYear, long: "day-of-year", short: "j", value: .none,
                   summary: "number days by the day of the year", expected: ""),
        OptionSpec(key: .color, long: "color", short: nil,
                   value: .optional(placeholder: "WHEN", accepts: { ["auto", "always", "never"].contains($0) }),
                   summary: "highlight today: auto, always or never (no WHEN: always)",
                   expected: "auto, always or never"),
        OptionSpec(key: .today, long: "today", short: nil, value: .required(placeholder: "YYYY-MM-DD"),
                   summary: "the day that counts as today (default: the local date)", expected: "YYYY-MM-DD"),
        OptionSpec(key: .help, long: "help", short: "h", value: .none, summary: "print this help and exit", expected: ""),
        OptionSpec(key: .version, long: "version", short: "V", value: .none, summary: "print the version and exit", expected: ""),
    ]

    /// The definition of `key`.
    public static func spec(_ key: OptionKey) -> OptionSpec {
        // Every key has exactly one entry; a test checks it.
        all.first { $0.key == key } ?? all[0]
    }
}
