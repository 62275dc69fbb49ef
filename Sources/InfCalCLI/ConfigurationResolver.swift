import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

extension Configuration {
    /// Resolves `raw` against `environment`.
    /// - throws: `UsageError` for a bad value or a conflict; nothing has been printed then.
    public static func resolve(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Configuration {
        // Dates typed are read with the reform of --reform.
        let gregorian = MonthCalendar(.gregorian, reform: try ConfigurationResolver.reform(raw))
        return try ConfigurationResolver(raw: raw, environment: environment, gregorian: gregorian).resolve()
    }
}

extension Configuration {
    /// `--help`, `--version` or `--completions SHELL`, which need nothing else resolved (the
    /// program answers them before it looks at anything else); nil for every other run.
    /// - throws: `UsageError` for a shell infcal writes no script for.
    public static func specialMode(of raw: RawOptions) throws(UsageError) -> Mode? {
        if raw.has(.help) { return .help }
        if raw.has(.version) { return .version }
        guard let option = raw.last(.completions) else { return nil }
        let shell = option.value ?? ""
        guard OptionSpec.shells.contains(shell) else {
            throw .invalidValue(option: option.spelling, value: shell, expected: OptionSpec.spec(.completions).expected)
        }
        return .completions(shell: shell)
    }
}

/// Turns the options as typed into settings, one small step a setting: a pure function of the
/// options and the environment.
struct ConfigurationResolver {
    let raw: RawOptions
    let environment: RunEnvironment
    /// The calendar dates on the command line are read in: Gregorian, with the reform of
    /// `--reform` (default 1582, Foundation's).
    let gregorian: MonthCalendar

    /// The reform of `--reform` (default: 1582, Foundation's).
    static func reform(_ raw: RawOptions) throws(UsageError) -> Reform {
        guard let option = raw.last(.reform), let value = option.value else { return .papal }
        guard let reform = Reform(named: value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.reform).expected)
        }
        return reform
    }

    func resolve() throws(UsageError) -> Configuration {
        let calendar = try calendar()
        let locale = try locale()
        let today = try today()
        let date = try positionalDate(locale: locale)
        let bounds = try bounds(today: today)
        let range = try monthRange()
        let mode = try mode(range: range, date: date)
        let start = try start(mode: mode, before: range?.before ?? 0, date: date, today: today, bounds: bounds, in: calendar)
        let numbering: DayNumbering = raw.has(.dayOfYear) ? .dayOfYear : .dayOfMonth
        let weekNumbers = try weekNumbers(locale: locale, calendar: calendar)
        let monthWidth = MonthRenderer.monthWidth(numbering: numbering, weekNumbers: weekNumbers,
                                                  labelWidth: CalendarNames.labelWidth(locale: locale, calendar: calendar))
        var configuration = Configuration(
            mode: mode,
            calendar: calendar,
            locale: locale,
            firstWeekday: try firstWeekday(locale: locale, calendar: calendar),
            numbering: numbering,
            weekNumbers: weekNumbers,
            start: start,
            bounds: bounds,
            today: today,
            todayFollowsClock: !raw.has(.today),
            markedDay: try date.flatMap { date throws(UsageError) in date.day == nil ? nil : try day(of: date, today: today) },
            columnLayout: try columns(mode: mode, monthWidth: monthWidth),
            color: try color(),
            layout: raw.has(.vertical) ? .vertical : .horizontal,
            json: raw.has(.json)
        )
        configuration.trueColor = environment.showsTrueColor
        configuration.also = try also()
        configuration.page = try Configuration.resolvePage(raw, environment: environment, mode: mode, locale: locale,
                                                           numbering: numbering, weekNumbers: weekNumbers)
        return configuration
    }

    // MARK: What is shown

    func mode(range: (count: Int, before: Int)?, date: PositionalDate?) throws(UsageError) -> Configuration.Mode {
        if let special = try Configuration.specialMode(of: raw) { return special }
        try OptionConflict.check(raw)
        if raw.last(.calendar)?.value?.lowercased() == "list" { return .listCalendars }
        if let paged = raw.last(.paged) {
            if let reason = environment.pagerUnavailability { throw .unavailable(option: paged.spelling, reason: reason) }
            return .paged
        }
        if raw.has(.year) { return .year }
        if let range { return .months(count: range.count) }
        if let option = raw.last(.forward) ?? raw.last(.backward) {
            let count = try option.value.map { value throws(UsageError) in try self.count(value, of: option) }
            return option.key == .forward ? .forward(count: count) : .backward(count: count)
        }
        // A date as cal takes it prints, even at a terminal: a year's months, or one month.
        if let date { return date.month == nil ? .year : .months(count: 1) }
        // No direction: a pipe or file gets an endless stream, a terminal the pager (or one
        // month, where the pager cannot run, for --wall, or when JSON is asked for).
        guard environment.stdoutIsTerminal else { return .forward(count: nil) }
        // --wall and --json print, even at a terminal.
        if raw.has(.wall) || raw.has(.json) { return .single }
        return environment.pagerUnavailability == nil ? .paged : .single
    }

    /// The run of months `-1`, `-3`, `-n`, `-Y`, `-S`, `-A` and `-B` choose, as util-linux cal
    /// and ncal read them: how many, and how many of them come before the date's month; nil
    /// when none of them is given.
    func monthRange() throws(UsageError) -> (count: Int, before: Int)? {
        let keys: [OptionKey] = [.one, .three, .months, .twelve, .span, .after, .before]
        guard keys.contains(where: raw.has) else { return nil }
        var count = raw.has(.three) ? 3 : raw.has(.twelve) ? 12 : 1
        if let option = raw.last(.months) { count = try self.count(option.value ?? "", of: option) }
        // Centred: cal -3 and cal -S put count / 2 months before the date's.
        var before = raw.has(.three) || raw.has(.span) ? count / 2 : 0
        func plus(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }
        if let option = raw.last(.before) {
            let added = try offset(option)
            (before, count) = (plus(before, added), plus(count, added))
        }
        if let option = raw.last(.after) { count = plus(count, try offset(option)) }
        return (count, before)
    }

    /// A number of months to add, from 0.
    func offset(_ option: RawOptions.Occurrence) throws(UsageError) -> Int {
        let value = option.value ?? ""
        guard OptionSpec.isNumber(value), let number = Int(value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(option.key).expected)
        }
        return number
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
            return MonthCalendar(.gregorian, reform: gregorian.reform)
        }
        return try namedCalendar(option, value: value, orList: true)
    }

    /// `--also`'s calendar, read as `--calendar` reads its own (without `list`), or nil.
    func also() throws(UsageError) -> MonthCalendar? {
        guard let option = raw.last(.also), let value = option.value else { return nil }
        return try namedCalendar(option, value: value, orList: false)
    }

    /// The calendar `value` names, with the reform of `--reform`.
    /// - throws: `UsageError` naming the usable calendars (and `list`, where `orList` says so),
    ///   the nearest first where the value looks like a misspelling of one.
    func namedCalendar(_ option: RawOptions.Occurrence, value: String, orList: Bool) throws(UsageError) -> MonthCalendar {
        guard let identifier = CalendarChoice.identifier(named: value), CalendarChoice.isUsable(identifier) else {
            let known = CalendarChoice.identifier(named: value) != nil
            let names = CalendarChoice.usableNames
            let guess = known ? nil : ArgumentParser.closest(to: value.lowercased(), among: names)
            throw .invalidValue(option: option.spelling, value: value,
                                expected: (known ? "a calendar this platform's Foundation computes: " : "one of ")
                                    + names.joined(separator: ", ") + (orList ? ", or list" : "")
                                    + (guess.map { " (did you mean '\($0)'?)" } ?? ""))
        }
        return MonthCalendar(identifier, reform: gregorian.reform)
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
                throw .invalidValue(option: option.spelling, value: value, expected: Self.expectation(for: error, reform: gregorian.reform))
            }
        }
        let local = environment.localToday
        do {
            // The local date is the real (Gregorian) one, whatever the reform.
            return try DateArgument.dayNumber(year: local.year, month: local.month, day: local.day, in: MonthCalendar(.gregorian))
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

    /// The date the positional words name, if any.
    func positionalDate(locale: Locale?) throws(UsageError) -> PositionalDate? {
        raw.positionals.isEmpty ? nil : try PositionalDate.parse(raw.positionals, locale: locale)
    }

    /// The day number of the positional date's day (its first day when it names a month or a
    /// year; a lone month name is in today's year).
    func day(of date: PositionalDate, today: Int) throws(UsageError) -> Int {
        let now = gregorianYearAndMonth(of: today)
        let (year, month) = (date.year ?? now.year, date.month ?? now.month)
        do {
            return try DateArgument.dayNumber(year: year, month: month, day: date.day ?? 1, in: gregorian)
        } catch .noSuchDay {
            // Past the month's last day ("30 2 2024"), or a day the reform skipped.
            if let first = try? DateArgument.dayNumber(year: year, month: month, day: 1, in: gregorian),
               let whole = gregorian.month(containing: first), let day = date.day {
                let last = gregorian.dayLabels(of: whole).label(at: whole.dayCount - 1)
                if day > last {
                    throw .invalidValue(option: "DAY", value: String(day),
                                        expected: "a day of \(PositionalDate.englishMonths[month - 1]) \(year), 1 to \(last)")
                }
            }
            throw .invalidValue(option: "DAY", value: String(date.day ?? 1), expected: Self.expectation(for: .noSuchDay, reform: gregorian.reform))
        } catch {
            throw .invalidValue(option: "YEAR", value: String(year), expected: Self.expectation(for: error, reform: gregorian.reform))
        }
    }

    /// The Gregorian (astronomical) year and month that hold `day`.
    func gregorianYearAndMonth(of day: Int) -> (year: Int, month: Int) {
        guard let month = gregorian.month(containing: day) else { return (1, 1) }
        return (CivilTime.astronomicalYear(era: month.name.era, year: month.name.year), month.name.month)
    }

    /// Where the months start without --from or a date: a forward stream at --since, a
    /// backward one at --until, the pager (or its one month) at today or the bound nearest to
    /// it, anything else (a run around today, today's year) today.
    func defaultStart(mode: Configuration.Mode, today: Int, bounds: MonthBounds) -> Int {
        switch mode {
        case .forward: return bounds.since ?? today
        case .backward: return bounds.until ?? today
        case .paged, .single: return min(max(today, bounds.since ?? today), bounds.until ?? today)
        default: return today
        }
    }

    /// The month the run starts at, inside the calendar and the bounds; for the year view the
    /// first month of the year shown, for a run of months the first of the run (`before`
    /// months before the date's).
    func start(mode: Configuration.Mode, before: Int, date: PositionalDate?, today: Int, bounds: MonthBounds,
               in calendar: MonthCalendar) throws(UsageError) -> Month {
        let fromOption = raw.last(.from)
        // What the user typed for the start, for messages: --from, the date, or nothing.
        let typed: (option: String, value: String)? = fromOption.map { ($0.spelling, $0.value ?? "") }
            ?? date.map { _ in ("the date", raw.positionals.joined(separator: " ")) }
        let day: Int
        if let fromOption {
            day = try period(of: fromOption, today: today).lowerBound
        } else if let date, date.month != nil {
            day = try self.day(of: date, today: today)
        } else if let year = date?.year, mode != .year {
            // cal -n 3 2024: the months from this month of that year.
            day = try self.day(of: PositionalDate(year: year, month: gregorianYearAndMonth(of: today).month), today: today)
        } else {
            day = defaultStart(mode: mode, today: today, bounds: bounds)
        }
        guard let start = calendar.month(containing: day) else {
            throw .invalidValue(option: typed?.option ?? "--from", value: typed?.value ?? "today",
                                expected: "a date inside the \(CalendarChoice.name(of: calendar.identifier)) calendar's range")
        }
        if mode == .year { return try firstMonthOfYear(around: start, date: date, bounds: bounds, in: calendar) }
        guard bounds.admits(start) else { throw outsideBounds(typed: typed, start: start, bounds: bounds, today: today) }
        guard case .months = mode else { return start }
        return calendar.month(before, before: start)
    }

    /// The error for a start month outside the bounds: it names what the user typed (--from or
    /// the date), else the bound that leaves out today.
    func outsideBounds(typed: (option: String, value: String)?, start: Month, bounds: MonthBounds, today: Int) -> UsageError {
        let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
        if let typed {
            return .invalidValue(option: typed.option, value: typed.value, expected: "a month inside " + limits.joined(separator: " and "))
        }
        let now = gregorianYearAndMonth(of: today)
        let todayText = String(format: "%04d-%02d", now.year, now.month)
        if let since = bounds.since, start.lastDay < since, let option = raw.last(.since) {
            return .invalidValue(option: option.spelling, value: option.value ?? "",
                                 expected: "a date not after today's month, \(todayText), where the months start without --from")
        }
        let option = raw.last(.until)
        return .invalidValue(option: option?.spelling ?? "--until", value: option?.value ?? "",
                             expected: "a date not before today's month, \(todayText), where the months start without --from")
    }

    /// The first month of the calendar year to show: the year YYYY of `--year YYYY` or of a
    /// lone positional YEAR, else the year that holds `start`. Some of its months must lie
    /// inside the bounds.
    func firstMonthOfYear(around start: Month, date: PositionalDate?, bounds: MonthBounds,
                          in calendar: MonthCalendar) throws(UsageError) -> Month {
        let yearOption = raw.last(.year)
        // The year as typed: --year's value, or a lone positional year.
        let typedYear: (option: String, value: String)? = yearOption?.value.map { (yearOption?.spelling ?? "--year", $0) }
            ?? (date?.month == nil ? date?.year.map { ("YEAR", String($0)) } : nil)
        var first = calendar.firstMonth(ofYearHolding: start)
        if let typedYear {
            guard let year = Int(typedYear.value), let found = calendar.firstMonth(ofYear: year, near: start) else {
                throw .invalidValue(option: typedYear.option, value: typedYear.value, expected: OptionSpec.spec(.year).expected)
            }
            first = found
        }
        if !calendar.months(ofYearStartingAt: first).contains(where: bounds.admits) {
            let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
            let from = raw.last(.from)?.value ?? (raw.positionals.isEmpty ? "today" : raw.positionals.joined(separator: " "))
            throw .invalidValue(option: typedYear?.option ?? yearOption?.spelling ?? "--year",
                                value: typedYear?.value ?? "(the year of \(from))",
                                expected: "a year with a month inside " + limits.joined(separator: " and "))
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
            throw .invalidValue(option: option.spelling, value: value, expected: Self.expectation(for: error, reform: gregorian.reform))
        }
    }

    static func expectation(for failure: DateArgument.Failure, reform: Reform) -> String {
        switch (failure, reform) {
        case (.noSuchDay, .papal): return "a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"
        case (.noSuchDay, .british): return "a day that exists (Julian before 1752-09-03, Gregorian from 1752-09-14)"
        case (.noSuchDay, .gregorian): return "a day that exists (Gregorian throughout, with --reform gregorian)"
        case (.noSuchDay, .julian): return "a day that exists (Julian throughout, with --reform julian)"
        case (.outOfRange, _): return "a date from -4712-01-01 (4713 BC) to about year 500000"
        }
    }

    // MARK: How it looks

    func locale() throws(UsageError) -> Locale? {
        guard let option = raw.last(.locale), let value = option.value else {
            return LocaleSetting.fromEnvironment(lookup: environment.variable)
        }
        switch LocaleName.parse(value) {
        case .posix?:
            return nil
        case .identifier(let name)?:
            if let locale = LocaleSetting.known(name) { return locale }
            fallthrough
        case nil:
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.locale).expected)
        }
    }

    func firstWeekday(locale: Locale?, calendar: MonthCalendar) throws(UsageError) -> Int {
        guard let choice = raw.last(.monday) ?? raw.last(.sunday) ?? raw.last(.firstWeekday) else {
            return LocaleSetting.firstWeekday(of: locale, calendar: calendar)
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
        if option == nil, Self.printsLikeCal(mode) {
            // As cal: three a row, fewer where the terminal is narrower; ncal's vertical year
            // view puts four a row (three with day-of-year numbers).
            let limit = raw.has(.vertical) && !raw.has(.dayOfYear) && mode == .year ? 4 : Configuration.automaticColumnLimit
            guard environment.stdoutIsTerminal else { return .fixed(limit) }
            return .fitted(count: Configuration.automaticColumns(width: environment.width(fallback: Configuration.defaultWidth),
                                                                 monthWidth: monthWidth, limit: limit))
        }
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

    /// Whether `mode` lays months out as cal does: the year view and runs of months.
    static func printsLikeCal(_ mode: Configuration.Mode) -> Bool {
        switch mode {
        case .year, .months: return true
        default: return false
        }
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
