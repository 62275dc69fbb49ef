import Foundation

/// What the world around the process says, gathered by the terminal layer so that resolving the
/// configuration stays a pure function that tests can feed.
public struct RunEnvironment: Sendable {
    /// The environment variables infcal reads (`RunEnvironment.variableNames`), where set.
    public var variables: [String: String]
    /// The names of the variables infcal reads: the locale's, TERM, NO_COLOR and COLUMNS.
    public static let variableNames = LocaleSetting.variables + ["TERM", "NO_COLOR", "COLUMNS"]
    /// Whether standard output is a terminal.
    public var stdoutIsTerminal: Bool
    /// The terminal's width in columns, when standard output is one.
    public var terminalWidth: Int?
    /// Today's date where the user is (Gregorian year, month, day in the local zone); the
    /// `--today` option overrides it.
    public var localToday: (year: Int, month: Int, day: Int)
    /// Whether a terminal to read keys from (/dev/tty) can be opened, as the pager needs.
    public var keyboardIsAvailable: Bool

    public init(variables: [String: String], stdoutIsTerminal: Bool, terminalWidth: Int?,
                localToday: (year: Int, month: Int, day: Int), keyboardIsAvailable: Bool = false) {
        self.variables = variables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.terminalWidth = terminalWidth
        self.localToday = localToday
        self.keyboardIsAvailable = keyboardIsAvailable
    }
}

/// Everything a run needs, resolved from the options and the environment.
public struct Configuration {
    /// What the run does.
    public enum Mode: Equatable, Sendable {
        /// Print months from the start onwards; `count` nil means until a bound.
        case forward(count: Int?)
        /// Print months from the start backwards, newest first.
        case backward(count: Int?)
        /// Print the start month alone (at a terminal, with no direction given, when the pager
        /// cannot run there).
        case single
        /// Print the months of the calendar year that holds the start month, under a heading.
        case year
        /// Print the calendars this platform computes, each with the name of today's month.
        case listCalendars
        /// The interactive pager (`--paged`, or a terminal with no direction given).
        case paged
        case help
        case version
    }

    public var mode: Mode
    public var calendar: MonthCalendar
    /// The locale names come from; nil is the POSIX locale.
    public var locale: Locale?
    /// The first day of the week, 1 (Sunday) to 7 (Saturday).
    public var firstWeekday: Int
    /// How days are numbered.
    public var numbering: DayNumbering = .dayOfMonth
    /// The week-number column, if any.
    public var weekNumbers: WeekNumbering?
    /// The month the run starts at.
    public var start: Month
    public var bounds: MonthBounds
    /// Today's day number.
    public var today: Int
    /// Months side by side.
    public var columns: Int
    /// Whether today is highlighted.
    public var color: Bool

    /// The month index the run walks.
    public var index: MonthIndex { MonthIndex(calendar: calendar, start: start, bounds: bounds) }

    /// The names for this run's calendar and locale.
    public func makeNames() -> CalendarNames {
        CalendarNames(locale: locale, calendar: calendar)
    }

    /// The renderer for this run.
    public func makeRenderer() -> MonthRenderer {
        var renderer = MonthRenderer(names: makeNames(), calendar: calendar, firstWeekday: firstWeekday,
                                     numbering: numbering, weekNumbers: weekNumbers, highlightedDay: color ? today : nil)
        if mode == .year { renderer.titleStyle = .monthOnly }
        return renderer
    }

    /// The printer for this run.
    public func makePrinter() -> MonthPrinter {
        let renderer = makeRenderer()
        return MonthPrinter(renderer: renderer, columns: columns,
                            heading: mode == .year ? renderer.names.yearTitle(of: start) : nil)
    }

    /// The months the run prints, lazily.
    public func months() -> AnySequence<Month> {
        switch mode {
        case .forward(let count):
            return count.map { AnySequence(index.forward.prefix($0)) } ?? AnySequence(index.forward)
        case .backward(let count):
            return count.map { AnySequence(index.backward.prefix($0)) } ?? AnySequence(index.backward)
        case .single, .paged:
            return AnySequence([start])
        case .year:
            // The start is the year's first month (see `resolveYear`); the year ends where
            // the calendar's year number changes.
            let year = (start.name.era, start.name.year)
            return AnySequence(MonthIndex(calendar: calendar, start: start).forward.prefix { ($0.name.era, $0.name.year) == year }
                .lazy.filter(bounds.admits))
        case .listCalendars, .help, .version:
            return AnySequence([])
        }
    }

    /// The lines `--calendar list` prints: each usable calendar's name and today's month in it.
    public func calendarList() -> [String] {
        let names = CalendarChoice.usableNames
        let width = (names.map(\.count).max() ?? 0) + 2
        return names.compactMap { name in
            guard let identifier = CalendarChoice.identifier(named: name) else { return nil }
            let calendar = MonthCalendar(identifier)
            let title = calendar.month(containing: today).map { CalendarNames(locale: locale, calendar: calendar).title(of: $0) } ?? ""
            return name.padding(toLength: width, withPad: " ", startingAt: 0) + title
        }
    }
}

extension Configuration {
    /// Most months `--columns` takes.
    public static let maximumColumns = 1000
    /// Most months `--columns auto` puts side by side, as cal does.
    public static let automaticColumnLimit = 3
    /// The width `--columns auto` assumes when standard output is not a terminal and COLUMNS is unset.
    public static let defaultWidth = 80

    /// Resolves `raw` against `environment`.
    /// - throws: `UsageError` for a bad value or a conflict; nothing has been printed then.
    public static func resolve(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Configuration {
        let reform = try resolveReform(raw)
        // Dates typed are read with the reform; the local date is the real (Gregorian) one.
        let gregorian = MonthCalendar(.gregorian, reform: reform)
        let calendar = try resolveCalendar(raw, reform: reform)
        let locale = try resolveLocale(raw, environment: environment)

        // Today: --today, else the local date.
        let today: Int
        if let option = raw.last(.today), let value = option.value {
            guard case let .day(year, month, day)? = DateArgument.parse(value) else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.today).expected)
            }
            today = try dayNumber(year: year, month: month, day: day, option: option, in: gregorian)
        } else {
            let local = environment.localToday
            do {
                today = try DateArgument.dayNumber(year: local.year, month: local.month, day: local.day, in: MonthCalendar(.gregorian))
            } catch {
                // The clock is beyond the calendar: only --today can help.
                throw .invalidValue(option: "the local date", value: "\(local.year)-\(local.month)-\(local.day)",
                                    expected: "a date inside the calendar (set one with --today)")
            }
        }

        // Bounds, then the start, which must lie inside them.
        var since: Int?
        var until: Int?
        if let option = raw.last(.since) { since = try period(of: option, today: today, in: gregorian).lowerBound }
        if let option = raw.last(.until) { until = try period(of: option, today: today, in: gregorian).upperBound }
        if let since, let until, since > until, let first = raw.last(.since), let second = raw.last(.until) {
            throw .invalidValue(option: second.spelling, value: second.value ?? "",
                                expected: "a date not before \(first.spelling) \(first.value ?? "")")
        }
        let bounds = MonthBounds(since: since, until: until)
        let fromOption = raw.last(.from)
        var fromDay = today
        if let fromOption { fromDay = try period(of: fromOption, today: today, in: gregorian).lowerBound }
        guard var start = calendar.month(containing: fromDay) else {
            throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                expected: "a date inside the \(CalendarChoice.name(of: calendar.identifier)) calendar's range")
        }
        let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
        let mode = try resolveMode(raw, environment: environment)
        if mode == .year {
            start = try resolveYear(raw, around: start, in: calendar)
            // The year's months outside the bounds are left out; some must be left.
            let year = (start.name.era, start.name.year)
            let months = MonthIndex(calendar: calendar, start: start).forward.prefix { ($0.name.era, $0.name.year) == year }
            if !months.contains(where: bounds.admits), let option = raw.last(.year) {
                throw .invalidValue(option: option.spelling, value: option.value ?? "(the year of \(fromOption?.value ?? "today"))",
                                    expected: "a year with a month inside " + limits.joined(separator: " and "))
            }
        } else if !bounds.admits(start) {
            throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                expected: "a month inside " + limits.joined(separator: " and "))
        }
        let numbering: DayNumbering = raw.has(.dayOfYear) ? .dayOfYear : .dayOfMonth
        var weekNumbers: WeekNumbering?
        if let option = raw.last(.weekNumbers) {
            switch option.value ?? "iso" {
            case "iso": weekNumbers = .iso
            case "locale": weekNumbers = .locale(minimumDays: LocaleSetting.minimumDaysInFirstWeek(of: locale, calendar: calendar))
            case let value:
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.weekNumbers).expected)
            }
        }
        let monthWidth = MonthRenderer.monthWidth(numbering: numbering, weekNumbers: weekNumbers)
        return Configuration(
            mode: mode,
            calendar: calendar,
            locale: locale,
            firstWeekday: try resolveFirstWeekday(raw, locale: locale),
            numbering: numbering,
            weekNumbers: weekNumbers,
            start: start,
            bounds: bounds,
            today: today,
            columns: try resolveColumns(raw, environment: environment, mode: mode, monthWidth: monthWidth),
            color: try resolveColor(raw, environment: environment)
        )
    }

    // MARK: Pieces

    private static func resolveMode(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Mode {
        if raw.has(.help) { return .help }
        if raw.has(.version) { return .version }
        let forward = raw.last(.forward)
        let backward = raw.last(.backward)
        if let list = raw.last(.calendar), list.value?.lowercased() == "list" {
            if let other = forward ?? backward ?? raw.last(.year) ?? raw.last(.paged) {
                throw .conflict(list.spelling + " list", other.spelling)
            }
            return .listCalendars
        }
        if let forward, let backward { throw .conflict(forward.spelling, backward.spelling) }
        if let paged = raw.last(.paged) {
            if let other = forward ?? backward ?? raw.last(.year) { throw .conflict(paged.spelling, other.spelling) }
            if let reason = pagerUnavailability(environment) { throw .unavailable(option: paged.spelling, reason: reason) }
            return .paged
        }
        if let year = raw.last(.year) {
            if let direction = forward ?? backward { throw .conflict(year.spelling, direction.spelling) }
            if year.value != nil, let from = raw.last(.from) { throw .conflict(year.spelling + " " + (year.value ?? ""), from.spelling) }
            return .year
        }
        if let option = forward ?? backward {
            var count: Int?
            if let value = option.value {
                guard let number = Int(value), number >= 1 else {
                    throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(option.key).expected)
                }
                count = number
            }
            return option.key == .forward ? .forward(count: count) : .backward(count: count)
        }
        // No direction: a pipe or file gets an endless stream, a terminal the pager (or one
        // month, where the pager cannot run).
        guard environment.stdoutIsTerminal else { return .forward(count: nil) }
        return pagerUnavailability(environment) == nil ? .paged : .single
    }

    /// Why the pager cannot run in `environment`, or nil when it can: it needs standard output
    /// to be a terminal that moves its cursor (TERM set and not dumb) and a terminal for keys.
    static func pagerUnavailability(_ environment: RunEnvironment) -> String? {
        let term = environment.variables["TERM"] ?? ""
        if !environment.stdoutIsTerminal { return "standard output is not a terminal" }
        if term.isEmpty || term == "dumb" { return "TERM is \(term.isEmpty ? "unset" : "dumb"), so the terminal cannot move its cursor" }
        if !environment.keyboardIsAvailable { return "no terminal to read keys from (/dev/tty cannot be opened)" }
        return nil
    }

    private static func resolveFirstWeekday(_ raw: RawOptions, locale: Locale?) throws(UsageError) -> Int {
        let choices = [raw.last(.monday), raw.last(.sunday), raw.last(.firstWeekday)].compactMap { $0 }
        if choices.count > 1 { throw .conflict(choices[0].spelling, choices[1].spelling) }
        guard let choice = choices.first else { return LocaleSetting.firstWeekday(of: locale) }
        switch choice.key {
        case .monday: return 2
        case .sunday: return 1
        default:
            let value = choice.value ?? ""
            guard let weekday = LocaleSetting.weekday(named: value) else {
                throw .invalidValue(option: choice.spelling, value: value, expected: OptionSpec.spec(.firstWeekday).expected)
            }
            return weekday
        }
    }

    private static func resolveCalendar(_ raw: RawOptions, reform: Reform) throws(UsageError) -> MonthCalendar {
        guard let option = raw.last(.calendar), let value = option.value, value.lowercased() != "list" else {
            return MonthCalendar(.gregorian, reform: reform)
        }
        guard let identifier = CalendarChoice.identifier(named: value), CalendarChoice.isUsable(identifier) else {
            let known = CalendarChoice.identifier(named: value) != nil
            throw .invalidValue(option: option.spelling, value: value,
                                expected: (known ? "a calendar this platform's Foundation computes: " : "one of ")
                                    + CalendarChoice.usableNames.joined(separator: ", ") + ", or list")
        }
        return MonthCalendar(identifier, reform: reform)
    }

    /// The reform of `--reform` (default: 1582, Foundation's).
    private static func resolveReform(_ raw: RawOptions) throws(UsageError) -> Reform {
        guard let option = raw.last(.reform), let value = option.value else { return .papal }
        guard let reform = Reform(named: value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.reform).expected)
        }
        return reform
    }

    private static func resolveLocale(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Locale? {
        guard let option = raw.last(.locale), let value = option.value else {
            return LocaleSetting.fromEnvironment(environment.variables)
        }
        guard let name = LocaleSetting.normalized(value) else {
            // C, POSIX (with a codeset or not) name the default; "." or "@" name nothing.
            let base = value.prefix { $0 != "." && $0 != "@" }
            if base == "C" || base == "POSIX" { return nil }
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.locale).expected)
        }
        guard let locale = LocaleSetting.known(name) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.locale).expected)
        }
        return locale
    }

    /// The first month of the calendar year to show: the year YYYY of `--year YYYY`, else the
    /// year that holds `start`.
    private static func resolveYear(_ raw: RawOptions, around start: Month, in calendar: MonthCalendar) throws(UsageError) -> Month {
        var inYear = start
        if let option = raw.last(.year), let value = option.value {
            let invalid = UsageError.invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.year).expected)
            guard let year = Int(value), year >= 1, year <= 1_000_000 else { throw invalid }
            let identifier = calendar.identifier
            let day: Int?
            if identifier == .chinese || identifier == .dangi {
                // Their years count in 60-year cycles: YYYY is the Gregorian year the year begins in.
                day = try? DateArgument.dayNumber(year: year, month: 7, day: 1, in: MonthCalendar(.gregorian, reform: calendar.reform))
            } else {
                var (era, inEra) = (start.name.era, year)
                if identifier != calendar.calendar.identifier {
                    // Amete Alem years, stepped by the Ethiopic calendar: its era 1 starts in 5501.
                    (era, inEra) = year > 5_500 ? (1, year - 5_500) : (0, year)
                }
                let parts = DateComponents(era: era, year: inEra, month: 1, day: 1, hour: 12)
                // Gregorian years by arithmetic, with the reform (YYYY is from 1: era 1).
                day = identifier == .gregorian || identifier == .iso8601 ? calendar.dayNumber(year: year, month: 1, day: 1)
                    : calendar.calendar.date(from: parts).map(DayNumber.day(of:))
            }
            guard let day, var month = calendar.month(containing: day) else { throw invalid }
            if identifier != .chinese, identifier != .dangi, identifier == calendar.calendar.identifier {
                // 1 January of an era's year may fall in the era before (Reiwa 1 began on
                // 1 May 2019): the year's first month is the first named so.
                var steps = 0
                while (month.name.era, month.name.year) != (start.name.era, year) {
                    guard steps < 14, let next = calendar.month(after: month) else { throw invalid }
                    month = next
                    steps += 1
                }
            }
            inYear = month
        }
        // Back to the first month with the same year number.
        var first = inYear
        while let previous = calendar.month(before: first), previous.name.era == first.name.era, previous.name.year == first.name.year {
            first = previous
        }
        return first
    }

    /// Months of `monthWidth` cells that fit side by side in `width` cells, `gutter` apart: at
    /// least one, at most `automaticColumnLimit`.
    public static func automaticColumns(width: Int, monthWidth: Int) -> Int {
        // A width beyond any terminal (COLUMNS=9223372036854775807) must not overflow.
        let usable = min(max(0, width), 100_000)
        return min(automaticColumnLimit, max(1, (usable + MonthRenderer.gutter) / (monthWidth + MonthRenderer.gutter)))
    }

    private static func resolveColumns(_ raw: RawOptions, environment: RunEnvironment, mode: Mode, monthWidth: Int) throws(UsageError) -> Int {
        let option = raw.last(.columns)
        if option == nil, mode == .year { return 3 }
        guard let value = option?.value ?? (environment.stdoutIsTerminal ? "auto" : nil) else { return 1 }
        if value == "auto" {
            let width = environment.terminalWidth
                ?? environment.variables["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
                ?? defaultWidth
            return automaticColumns(width: width, monthWidth: monthWidth)
        }
        guard let count = Int(value), (1...maximumColumns).contains(count) else {
            throw .invalidValue(option: option?.spelling ?? "--columns", value: value, expected: OptionSpec.spec(.columns).expected)
        }
        return count
    }

    private static func resolveColor(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Bool {
        let option = raw.last(.color)
        switch option.map({ $0.value ?? "always" }) ?? "auto" {
        case "always": return true
        case "never": return false
        case "auto":
            let term = environment.variables["TERM"] ?? ""
            let noColor = environment.variables["NO_COLOR"] ?? ""
            return environment.stdoutIsTerminal && !term.isEmpty && term != "dumb" && noColor.isEmpty
        case let value:
            throw .invalidValue(option: option?.spelling ?? "--color", value: value, expected: OptionSpec.spec(.color).expected)
        }
    }

    /// The days `option`'s date value names.
    private static func period(of option: RawOptions.Occurrence, today: Int, in gregorian: MonthCalendar) throws(UsageError) -> ClosedRange<Int> {
        let value = option.value ?? ""
        guard let date = DateArgument.parse(value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(option.key).expected)
        }
        do {
            return try date.period(today: today, in: gregorian)
        } catch {
            throw .invalidValue(option: option.spelling, value: value, expected: expectation(for: error, reform: gregorian.reform))
        }
    }

    private static func dayNumber(year: Int, month: Int, day: Int, option: RawOptions.Occurrence,
                                  in gregorian: MonthCalendar) throws(UsageError) -> Int {
        do {
            return try DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
        } catch {
            throw .invalidValue(option: option.spelling, value: option.value ?? "", expected: expectation(for: error, reform: gregorian.reform))
        }
    }

    private static func expectation(for failure: DateArgument.Failure, reform: Reform) -> String {
        switch (failure, reform) {
        case (.noSuchDay, .papal): return "a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"
        case (.noSuchDay, .british): return "a day that exists (Julian before 1752-09-03, Gregorian from 1752-09-14)"
        case (.noSuchDay, .gregorian): return "a day that exists (Gregorian throughout, with --reform gregorian)"
        case (.noSuchDay, .julian): return "a day that exists (Julian throughout, with --reform julian)"
        case (.outOfRange, _): return "a date from -4712-01-01 (4713 BC) to about year 500000"
        }
    }
}
