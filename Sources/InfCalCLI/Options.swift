import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// Every option infcal takes. The parser, `--help` and the did-you-mean suggestions all read
/// this one table, so they cannot drift apart.
public enum OptionKey: String, CaseIterable, Sendable {
    case from, since, until, forward, backward, year, columns, calendar, also, locale, monday, sunday, firstWeekday
    case weekNumbers, dayOfYear, color, today, help, version, paged, vertical
    case one, three, months, after, before, span, twelve, completions
    case events, agenda, strict, json, noCache, refresh, offline
    case wall, width, mouse, reform, uid, days
    case config, noConfig, only, hide, search
    case week, view, hours, zone, zones
    /// The options of `add`, `edit` and `delete` (`OptionSpec.commandOptions`).
    case retitle, lasting, every, count, ending, location, details, occurrence, to
    /// The options of `check` (`OptionSpec.checkOptions`).
    case checkJSON
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

    /// Whether the config file's `[options]` takes it as a key: every option but those that
    /// answer and exit or choose the config file itself.
    public var isConfigKey: Bool { ![.help, .version, .completions, .config, .noConfig].contains(key) }
}

extension OptionSpec {
    static let dateExpected = "YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)"

    /// What a count of months takes.
    static let countExpected = "a count: a whole number from 1 up"
    /// What `-A` and `-B` take: the same, from 0.
    static let offsetExpected = "a count: a whole number from 0 up"
    /// The largest `--count` of `add` and `edit`: what the RRULE's COUNT is kept to.
    public static let largestEventCount = Int(Int32.max)

    /// Whether `word` is a count (an optional sign, then digits), so that `--forward -3` is read
    /// as a bad count rather than as an unknown option.
    static func isCount(_ word: String) -> Bool {
        let digits = word.first == "+" || word.first == "-" ? word.dropFirst() : Substring(word)
        return isNumber(digits)
    }

    /// Whether `word` is digits only (a positional DAY, MONTH or YEAR, or a count).
    static func isNumber<Text: StringProtocol>(_ word: Text) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// What `--week` takes: a day, as `--from` takes one.
    static let weekDateExpected = "YYYY-MM-DD, YYYY-MM (its first day), today or +N/-N (weeks, up to 3 digits)"

    /// Whether `word` is a value of `--week` rather than the next argument: a date as `--from`
    /// takes one, or `today`, or a signed count of weeks.
    static func isWeekDate(_ word: String) -> Bool {
        word == "today" || ((word.first == "+" || word.first == "-") && isNumber(word.dropFirst()))
            || (word.first?.isNumber == true && word.contains("-") && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") })
    }

    /// The shells `--completions` writes a script for.
    public static let shells = ["bash", "zsh", "fish"]

    /// All options, in the order `--help` lists them.
    public static let all: [OptionSpec] = [
        OptionSpec(key: .from, long: "from", short: nil, value: .required(placeholder: "DATE"),
                   summary: "start at the month holding DATE (default: today)", expected: dateExpected),
        OptionSpec(key: .forward, long: "forward", short: nil, value: .optional(placeholder: "N", accepts: isCount),
                   summary: "print N months from --from onwards (no N: until a bound)",
                   expected: countExpected),
        OptionSpec(key: .backward, long: "backward", short: nil, value: .optional(placeholder: "N", accepts: isCount),
                   summary: "print N months from --from backwards, newest first",
                   expected: countExpected),
        OptionSpec(key: .one, long: "one", short: "1", value: .none,
                   summary: "print one month, as cal -1", expected: ""),
        OptionSpec(key: .three, long: "three", short: "3", value: .none,
                   summary: "print the months before, of and after the date, as cal -3", expected: ""),
        OptionSpec(key: .months, long: "months", short: "n", value: .required(placeholder: "N"),
                   summary: "print N months from the date, as cal -n", expected: countExpected),
        OptionSpec(key: .after, long: "after", short: "A", value: .required(placeholder: "N"),
                   summary: "add N months after, as ncal -A", expected: offsetExpected),
        OptionSpec(key: .before, long: "before", short: "B", value: .required(placeholder: "N"),
                   summary: "add N months before, as ncal -B", expected: offsetExpected),
        OptionSpec(key: .span, long: "span", short: "S", value: .none,
                   summary: "centre the months on the date, as cal -S", expected: ""),
        OptionSpec(key: .twelve, long: "twelve", short: "Y", value: .none,
                   summary: "print twelve months from the date, as cal -Y", expected: ""),
        OptionSpec(key: .week, long: "week", short: nil, value: .optional(placeholder: "DATE", accepts: isWeekDate),
                   summary: "print the week holding DATE (default: today's) by the hour; --forward/--backward N: N weeks",
                   expected: weekDateExpected),
        OptionSpec(key: .hours, long: "hours", short: nil, value: .required(placeholder: "H-H"),
                   summary: "the hours the week shows, such as 8-20 (default: the week's events', at least 8)",
                   expected: "whole hours START-END from 0 to 24, START before END, such as 8-20"),
        OptionSpec(key: .paged, long: "paged", short: nil, value: .none,
                   summary: "page through months at the terminal (press ? there for the keys)",
                   expected: ""),
        OptionSpec(key: .view, long: "view", short: nil, value: .required(placeholder: "NAME"),
                   summary: "the view the pager opens with: month, strip, year or week",
                   expected: "a view of the pager: " + PagerState.View.allCases.map(\.name).joined(separator: ", ")),
        OptionSpec(key: .mouse, long: "mouse", short: nil, value: .none,
                   summary: "in the pager, the mouse wheel pages (the terminal's selection then needs Shift)",
                   expected: ""),
        OptionSpec(key: .wall, long: "wall", short: nil, value: .none,
                   summary: "print each month as a page of boxes, as the pager's month page",
                   expected: ""),
        OptionSpec(key: .width, long: "width", short: nil, value: .required(placeholder: "N"),
                   summary: "the width of --wall pages and --week grids (default: COLUMNS, else the terminal's, else 80)",
                   expected: "a width in columns from the page's smallest (22 days, 25 with -w, 29 with -j; a week's 71) to 10000"),
        OptionSpec(key: .year, long: "year", short: "y", value: .optional(placeholder: "YYYY", accepts: { isNumber($0) }),
                   summary: "the months of the calendar's year YYYY (default: the date's), three a row, fewer where the terminal is narrower",
                   expected: "a year of the calendar, from 1, inside the calendar's range"),
        OptionSpec(key: .since, long: "since", short: nil, value: .required(placeholder: "DATE"),
                   summary: "show no month that ends before DATE", expected: dateExpected),
        OptionSpec(key: .until, long: "until", short: nil, value: .required(placeholder: "DATE"),
                   summary: "show no month that starts after DATE", expected: dateExpected),
        OptionSpec(key: .columns, long: "columns", short: "c", value: .required(placeholder: "N|auto"),
                   summary: "months side by side (default: auto at a terminal, else 1, or 3 for -y, -3, -n, ...)",
                   expected: "a number from 1 to 1000, or auto"),
        OptionSpec(key: .calendar, long: "calendar", short: nil, value: .required(placeholder: "ID"),
                   summary: "the calendar: gregorian (default), hebrew, chinese, ...; list shows them all",
                   expected: "a calendar identifier (infcal --calendar list shows them)"),
        OptionSpec(key: .also, long: "also", short: nil, value: .required(placeholder: "ID"),
                   summary: "show each day in a second calendar as well (an ID of --calendar)",
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
        OptionSpec(key: .vertical, long: "vertical", short: "v", value: .none,
                   summary: "ncal's layout: weekdays down the side, weeks across", expected: ""),
        OptionSpec(key: .color, long: "color", short: nil,
                   value: .optional(placeholder: "WHEN", accepts: { ["auto", "always", "never"].contains($0) }),
                   summary: "highlight today: auto, always or never (no WHEN: always)",
                   expected: "auto, always or never"),
        OptionSpec(key: .today, long: "today", short: nil, value: .required(placeholder: "YYYY-MM-DD"),
                   summary: "the day that counts as today (default: the local date)", expected: "YYYY-MM-DD"),
        OptionSpec(key: .zone, long: "zone", short: nil, value: .required(placeholder: "ZONE"),
                   summary: "show every time in ZONE, an IANA name such as Europe/Berlin, or local (default: TZ's)",
                   expected: ZoneChoice.expected),
        OptionSpec(key: .zones, long: "zones", short: nil, value: .required(placeholder: "ZONES"),
                   summary: "the zones the pager's z shows times in besides --zone's (comma-separated)",
                   expected: "IANA zone names, comma-separated, such as Europe/Berlin, America/New_York"),
        OptionSpec(key: .completions, long: "completions", short: nil, value: .required(placeholder: "SHELL"),
                   summary: "print a completion script for bash, zsh or fish and exit", expected: "bash, zsh or fish"),
        OptionSpec(key: .events, long: "events", short: nil, value: .required(placeholder: "PATH"),
                   summary: "read events from an .ics file, a directory of them, or - (stdin); repeatable",
                   expected: "a file, a directory or -"),
        OptionSpec(key: .agenda, long: "agenda", short: nil, value: .none,
                   summary: "list the events, one line each (at a terminal: 12 months unless bounded)",
                   expected: ""),
        OptionSpec(key: .days, long: "days", short: nil, value: .none,
                   summary: "with --agenda, list under day headings, an event of several days under each of its days",
                   expected: ""),
        OptionSpec(key: .uid, long: "uid", short: nil, value: .none,
                   summary: "with --agenda, end each line with a tab and the event's UID, escaped inert (for edit and delete)",
                   expected: ""),
        OptionSpec(key: .strict, long: "strict", short: nil, value: .none,
                   summary: "an event that cannot be read is an error (exit 65), not a warning",
                   expected: ""),
        OptionSpec(key: .noCache, long: "no-cache", short: nil, value: .none,
                   summary: "read the event files afresh, neither using nor writing the parsed-event cache",
                   expected: ""),
        OptionSpec(key: .refresh, long: "refresh", short: nil, value: .none,
                   summary: "fetch every subscription and CalDAV calendar now, however fresh its copy",
                   expected: ""),
        OptionSpec(key: .offline, long: "offline", short: nil, value: .none,
                   summary: "fetch nothing: show the cached copies of subscriptions and CalDAV calendars",
                   expected: ""),
        OptionSpec(key: .json, long: "json", short: nil, value: .none,
                   summary: "print each month (with --agenda each event) as a JSON object, one a line",
                   expected: ""),
        OptionSpec(key: .search, long: "search", short: nil, value: .required(placeholder: "TEXT"),
                   summary: "show only the events whose summary, location or description holds TEXT (any case and accents)",
                   expected: "a text to look for"),
        OptionSpec(key: .only, long: "only", short: nil, value: .required(placeholder: "NAMES"),
                   summary: "show only the configured calendars NAMES (comma-separated)",
                   expected: "names of configured calendars, comma-separated"),
        OptionSpec(key: .hide, long: "hide", short: nil, value: .required(placeholder: "NAMES"),
                   summary: "hide the configured calendars NAMES (comma-separated)",
                   expected: "names of configured calendars, comma-separated"),
        OptionSpec(key: .config, long: "config", short: nil, value: .required(placeholder: "PATH"),
                   summary: "read the config file PATH (default: INFCAL_CONFIG, else ~/.config/infcal/config)",
                   expected: "a config file"),
        OptionSpec(key: .noConfig, long: "no-config", short: nil, value: .none,
                   summary: "read no config file", expected: ""),
        OptionSpec(key: .help, long: "help", short: "h", value: .none, summary: "print this help and exit", expected: ""),
        OptionSpec(key: .version, long: "version", short: "V", value: .none, summary: "print the version and exit", expected: ""),
    ]

    /// The definition of `key`.
    public static func spec(_ key: OptionKey) -> OptionSpec {
        // Every key has exactly one entry; a test checks it.
        all.first { $0.key == key } ?? commandOptions.first { $0.key == key } ?? checkOptions.first { $0.key == key } ?? all[0]
    }
}
