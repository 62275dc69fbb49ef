import Foundation

/// What the world around the process says, gathered by the terminal layer so that resolving the
/// configuration stays a pure function that tests can feed.
public struct RunEnvironment: Sendable {
    /// The environment variables.
    public var variables: [String: String]
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
    public enum Mode: Equatable {
        /// Print months from the start onwards; `count` nil means until a bound.
        case forward(count: Int?)
        /// Print months from the start backwards, newest first.
        case backward(count: Int?)
        /// Print the start month alone (at a terminal, with no direction given, when the pager
        /// cannot run there).
        case single
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

    /// The renderer for this run.
    public func makeRenderer() -> MonthRenderer {
        MonthRenderer(names: CalendarNames(locale: locale, calendar: calendar), firstWeekday: firstWeekday,
                      highlightedDay: color ? today : nil)
    }

    /// The printer for this run.
    public func makePrinter() -> MonthPrinter {
        MonthPrinter(renderer: makeRenderer(), calendar: calendar, firstWeekday: firstWeekday, columns: columns)
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
        case .help, .version:
            return AnySequence([])
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
        let gregorian = MonthCalendar(.gregorian)
        let calendar = gregorian

        // Today: --today, else the local date.
        let today: Int
        if let option = raw.last(.today), let value = option.value {
            guard case let .day(year, month, day)? = DateArgument.parse(value) else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.today).expected)
            }
            today = try dayNumber(year: year, month: month, day: day, option: option, in: gregorian)
        } else {
            let local = environment.localToday
            today = try dayNumber(year: local.year, month: local.month, day: local.day,
                                  option: .init(key: .today, spelling: "the local date", value: "\(local)"), in: gregorian)
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
        guard let start = calendar.month(containing: fromDay) else {
            throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                expected: "a date inside the calendar's range")
        }
        guard bounds.admits(start) else {
            let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
            throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                expected: "a month inside " + limits.joined(separator: " and "))
        }

        let mode = try resolveMode(raw, environment: environment)
        return Configuration(
            mode: mode,
            calendar: calendar,
            locale: nil,
            firstWeekday: try resolveFirstWeekday(raw),
            start: start,
            bounds: bounds,
            today: today,
            columns: try resolveColumns(raw, environment: environment),
            color: try resolveColor(raw, environment: environment)
        )
    }

    // MARK: Pieces

    private static func resolveMode(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Mode {
        if raw.has(.help) { return .help }
        if raw.has(.version) { return .version }
        let forward = raw.last(.forward)
        let backward = raw.last(.backward)
        if let forward, let backward { throw .conflict(forward.spelling, backward.spelling) }
        if let paged = raw.last(.paged) {
            if let direction = forward ?? backward { throw .conflict(paged.spelling, direction.spelling) }
            if let reason = pagerUnavailability(environment) { throw .unavailable(option: paged.spelling, reason: reason) }
            return .paged
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

    private static func resolveFirstWeekday(_ raw: RawOptions) throws(UsageError) -> Int {
        let monday = raw.last(.monday)
        let sunday = raw.last(.sunday)
        if let monday, let sunday { throw .conflict(monday.spelling, sunday.spelling) }
        return monday != nil ? 2 : 1
    }

    private static func resolveColumns(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Int {
        let option = raw.last(.columns)
        guard let value = option?.value ?? (environment.stdoutIsTerminal ? "auto" : nil) else { return 1 }
        if value == "auto" {
            let width = environment.terminalWidth
                ?? environment.variables["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
                ?? defaultWidth
            return min(automaticColumnLimit, max(1, (width + MonthRenderer.gutter) / (20 + MonthRenderer.gutter)))
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
            throw .invalidValue(option: option.spelling, value: value, expected: expectation(for: error))
        }
    }

    private static func dayNumber(year: Int, month: Int, day: Int, option: RawOptions.Occurrence,
                                  in gregorian: MonthCalendar) throws(UsageError) -> Int {
        do {
            return try DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
        } catch {
            throw .invalidValue(option: option.spelling, value: option.value ?? "", expected: expectation(for: error))
        }
    }

    private static func expectation(for failure: DateArgument.Failure) -> String {
        switch failure {
        case .noSuchDay: return "a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"
        case .outOfRange: return "a date from -4712-01-01 (4713 BC) to about year 500000"
        }
    }
}
