import Foundation

extension Configuration {
    /// Resolves `raw` against `environment`.
    /// - throws: `UsageError` for a bad value or a conflict; nothing has been printed then.
    public static func resolve(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Configuration {
        try ConfigurationResolver(raw: raw, environment: environment).resolve()
    }
}

/// Turns the options as typed into settings, one small step a setting: a pure function of the
/// options and the environment.
struct ConfigurationResolver {
    let raw: RawOptions
    let environment: RunEnvironment
    /// The calendar dates on the command line are read in.
    let gregorian = MonthCalendar(.gregorian)

    func resolve() throws(UsageError) -> Configuration {
        let calendar = try calendar()
        let locale = try locale()
        let today = try today()
        let bounds = try bounds(today: today)
        let mode = try mode()
        let start = try start(mode: mode, today: today, bounds: bounds, in: calendar)
        let numbering: DayNumbering = raw.has(.dayOfYear) ? .dayOfYear : .dayOfMonth
        let weekNumbers = try weekNumbers(locale: locale, calendar: calendar)
        let monthWidth = MonthRenderer.monthWidth(numbering: numbering, weekNumbers: weekNumbers)
        return Configuration(
            mode: mode,
            calendar: calendar,
            locale: locale,
            firstWeekday: try firstWeekday(locale: locale),
            numbering: numbering,
            weekNumbers: weekNumbers,
            start: start,
            bounds: bounds,
            today: today,
            todayFollowsClock: !raw.has(.today),
            columnLayout: try columns(mode: mode, monthWidth: monthWidth),
            color: try color()
        )
    }

    // MARK: What is shown

    func mode() throws(UsageError) -> Configuration.Mode {
        if raw.has(.help) { return .help }
        if raw.has(.version) { return .version }
        try OptionConflict.check(raw)
        if raw.last(.calendar)?.value?.lowercased() == "list" { return .listCalendars }
        if let paged = raw.last(.paged) {
            if let reason = environment.pagerUnavailability { throw .unavailable(option: paged.spelling, reason: reason) }
            return .paged
        }
        if raw.has(.year) { return .year }
        if let option = raw.last(.forward) ?? raw.last(.backward) {
            let count = try option.value.map { value throws(UsageError) in try self.count(value, of: option) }
            return option.key == .forward ? .forward(count: count) : .backward(count: count)
        }
        // No direction: a pipe or file gets an endless stream, a terminal the pager (or one
        // month, where the pager cannot run).
        guard environment.stdoutIsTerminal else { return .forward(count: nil) }
        return environment.pagerUnavailability == nil ? .paged : .single
    }

    /// A count of months, from 1.
    func count(_ value: String, of option: RawOptions.Occurrence) throws(UsageError) -> Int {
        guard let number = Int(value), number >= 1 else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(option.key).expected)
        }
        return number
    }

    func calendar() throws(UsageError) -> MonthCalendar {
        guard let option = raw.last(.calendar), let value = option.value, value.lowercased() != "list" else {
            return MonthCalendar(.gregorian)
        }
        guard let identifier = CalendarChoice.identifier(named: value), CalendarChoice.isUsable(identifier) else {
            let known = CalendarChoice.identifier(named: value) != nil
            throw .invalidValue(option: option.spelling, value: value,
                                expected: (known ? "a calendar this platform's Foundation computes: " : "one of ")
                                    + CalendarChoice.usableNames.joined(separator: ", ") + ", or list")
        }
        return MonthCalendar(identifier)
    }

    // MARK: Dates

    /// Today: `--today`, else the local date.
    func today() throws(UsageError) -> Int {
        if let option = raw.last(.today), let value = option.value {
            guard case let .day(year, month, day)? = DateArgument.parse(value) else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.today).expected)
            }
            do {
                return try DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
            } catch {
                throw .invalidValue(option: option.spelling, value: value, expected: Self.expectation(for: error))
            }
        }
        let local = environment.localToday
        do {
            return try DateArgument.dayNumber(year: local.year, month: local.month, day: local.day, in: gregorian)
        } catch {
            // The clock is beyond the calendar: only --today can help.
            throw .invalidValue(option: "the local date", value: "\(local.year)-\(local.month)-\(local.day)",
                                expected: "a date inside the calendar (set one with --today)")
        }
    }

    /// `--since` and `--until`, the first not after the second.
    func bounds(today: Int) throws(UsageError) -> MonthBounds {
        var bounds = MonthBounds()
        if let option = raw.last(.since) { bounds.since = try period(of: option, today: today).lowerBound }
        if let option = raw.last(.until) { bounds.until = try period(of: option, today: today).upperBound }
        if let since = bounds.since, let until = bounds.until, since > until,
           let first = raw.last(.since), let second = raw.last(.until) {
            throw .invalidValue(option: second.spelling, value: second.value ?? "",
                                expected: "a date not before \(first.spelling) \(first.value ?? "")")
        }
        return bounds
    }

    /// The month the run starts at, inside the calendar and the bounds; for the year view the
    /// first month of the year shown.
    func start(mode: Configuration.Mode, today: Int, bounds: MonthBounds, in calendar: MonthCalendar) throws(UsageError) -> Month {
        let fromOption = raw.last(.from)
        let fromDay = try fromOption.map { option throws(UsageError) in try period(of: option, today: today).lowerBound } ?? today
        guard let start = calendar.month(containing: fromDay) else {
            throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                expected: "a date inside the \(CalendarChoice.name(of: calendar.identifier)) calendar's range")
        }
        let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
        guard mode == .year else {
            guard bounds.admits(start) else {
                throw .invalidValue(option: fromOption?.spelling ?? "--from", value: fromOption?.value ?? "today",
                                    expected: "a month inside " + limits.joined(separator: " and "))
            }
            return start
        }
        let first = try firstMonthOfYear(around: start, in: calendar)
        // The year's months outside the bounds are left out; some must be left.
        if !calendar.months(ofYearStartingAt: first).contains(where: bounds.admits), let option = raw.last(.year) {
            throw .invalidValue(option: option.spelling, value: option.value ?? "(the year of \(fromOption?.value ?? "today"))",
                                expected: "a year with a month inside " + limits.joined(separator: " and "))
        }
        return first
    }

    /// The first month of the calendar year to show: the year YYYY of `--year YYYY`, else the
    /// year that holds `start`.
    func firstMonthOfYear(around start: Month, in calendar: MonthCalendar) throws(UsageError) -> Month {
        guard let option = raw.last(.year), let value = option.value else { return calendar.firstMonth(ofYearHolding: start) }
        guard let year = Int(value), let first = calendar.firstMonth(ofYear: year, near: start) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.year).expected)
        }
        return first
    }

    /// The days `option`'s date value names.
    func period(of option: RawOptions.Occurrence, today: Int) throws(UsageError) -> ClosedRange<Int> {
        let value = option.value ?? ""
        guard let date = DateArgument.parse(value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(option.key).expected)
        }
        do {
            return try date.period(today: today, in: gregorian)
        } catch {
            throw .invalidValue(option: option.spelling, value: value, expected: Self.expectation(for: error))
        }
    }

    static func expectation(for failure: DateArgument.Failure) -> String {
        switch failure {
        case .noSuchDay: return "a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"
        case .outOfRange: return "a date from -4712-01-01 (4713 BC) to about year 500000"
        }
    }

    // MARK: How it looks

    func locale() throws(UsageError) -> Locale? {
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

    func firstWeekday(locale: Locale?) throws(UsageError) -> Int {
        guard let choice = raw.last(.monday) ?? raw.last(.sunday) ?? raw.last(.firstWeekday) else {
            return LocaleSetting.firstWeekday(of: locale)
        }
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

    func weekNumbers(locale: Locale?, calendar: MonthCalendar) throws(UsageError) -> WeekNumbering? {
        guard let option = raw.last(.weekNumbers) else { return nil }
        switch option.value ?? "iso" {
        case "iso": return .iso
        case "locale": return .locale(minimumDays: LocaleSetting.minimumDaysInFirstWeek(of: locale, calendar: calendar))
        case let value:
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.weekNumbers).expected)
        }
    }

    func columns(mode: Configuration.Mode, monthWidth: Int) throws(UsageError) -> Configuration.Columns {
        let option = raw.last(.columns)
        if option == nil, mode == .year { return .fixed(3) }
        guard let value = option?.value ?? (environment.stdoutIsTerminal ? "auto" : nil) else { return .fixed(1) }
        if value == "auto" {
            return .fitted(count: Configuration.automaticColumns(width: environment.width(fallback: Configuration.defaultWidth),
                                                                 monthWidth: monthWidth))
        }
        guard let count = Int(value), (1...Configuration.maximumColumns).contains(count) else {
            throw .invalidValue(option: option?.spelling ?? "--columns", value: value, expected: OptionSpec.spec(.columns).expected)
        }
        return .fixed(count)
    }

    func color() throws(UsageError) -> Bool {
        let option = raw.last(.color)
        switch option.map({ $0.value ?? "always" }) ?? "auto" {
        case "always": return true
        case "never": return false
        case "auto": return environment.showsColor
        case let value:
            throw .invalidValue(option: option?.spelling ?? "--color", value: value, expected: OptionSpec.spec(.color).expected)
        }
    }
}
