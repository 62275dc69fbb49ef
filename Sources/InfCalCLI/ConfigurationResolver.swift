import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

extension Configuration {
    /// Resolves `raw` against `environment`.
    /// - throws: `UsageError` for a bad value or a conflict; nothing has been printed then.
    static func resolve(_ raw: RawOptions, environment: RunEnvironment) throws(UsageError) -> Configuration {
        // Dates typed are read with the reform of --reform.
        let gregorian = MonthCalendar(.gregorian, reform: try ConfigurationResolver.reform(raw))
        return try ConfigurationResolver(raw: raw, environment: environment, gregorian: gregorian).resolve()
    }

    /// Resolves `raw` against `environment` into the configuration and its event settings, in
    /// one pass of one resolver; `calendars` are the config file's.
    /// - throws: `UsageError` for a bad value or a conflict; nothing has been printed then.
    static func resolveRun(_ raw: RawOptions, environment: RunEnvironment, calendars: [CalendarSource] = []) throws(UsageError) -> Run {
        let gregorian = MonthCalendar(.gregorian, reform: try ConfigurationResolver.reform(raw))
        let resolver = ConfigurationResolver(raw: raw, environment: environment, gregorian: gregorian)
        let configuration = try resolver.resolve()
        return Run(configuration: configuration, events: try resolver.events(for: configuration, calendars: calendars))
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
        let zone = try zone()
        let today = try today(in: zone)
        let date = try positionalDate(locale: locale, calendar: calendar, today: today)
        let bounds = try bounds(today: today)
        let range = try monthRange()
        let mode = try mode(range: range, date: date)
        let from = try raw.last(.from).map { option throws(UsageError) in try period(of: option, today: today) }
        let start = try start(mode: mode, before: range?.before ?? 0, from: from, date: date, today: today, bounds: bounds, in: calendar)
        let numbering: DayNumbering = raw.has(.dayOfYear) ? .dayOfYear : .dayOfMonth
        let weekNumbers = try weekNumbers(locale: locale, calendar: calendar)
        let metrics = GridMetrics(numbering: numbering, weekNumbers: weekNumbers,
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
            columnLayout: try columns(mode: mode, metrics: metrics),
            color: try color(),
            layout: raw.has(.vertical) ? .vertical : .horizontal,
            json: raw.has(.json)
        )
        configuration.fromPeriod = from
        configuration.zone = zone
        configuration.zones = try zones(mode: mode)
        configuration.weekHours = try weekHours(mode: mode)
        configuration.weeks = try shownWeeks(today: today, date: date, bounds: bounds, firstWeekday: configuration.firstWeekday)
        configuration.trueColor = environment.showsTrueColor
        configuration.also = try also()
        configuration.page = try Configuration.resolvePage(raw, environment: environment, mode: mode, locale: locale, metrics: metrics)
        if let view = try initialView(mode: mode) { configuration.page.initialView = view }
        if mode == .weeks {
            configuration.weekWidth = try Configuration.resolveWeekWidth(raw, environment: environment,
                                                                         smallest: configuration.makeWeekRenderer().width(days: 7))
        }
        return configuration
    }

    // MARK: What is shown

    func mode(range: (count: Int, before: Int)?, date: PositionalDate?) throws(UsageError) -> Configuration.Mode {
        try OptionConflict.check(raw)
        if raw.last(.calendar)?.value?.lowercased() == "list" { return .listCalendars }
        if raw.has(.week) { return .weeks }
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
}
