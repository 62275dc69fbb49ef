import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

// The resolver's dates: today, the bounds, the date typed, where the run starts.
extension ConfigurationResolver {
    /// Today: `--today`, else the date in `zone` (a named zone's where the clock is known,
    /// else the local date).
    func today(in zone: ZoneChoice = .local) throws(UsageError) -> Int {
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
        var local = environment.localToday
        if let now = environment.now, zone != .local {
            let offset = zone.display(local: .utc).offset(now)
            let date = CivilTime.date(ofDay: CivilTime.floorDiv(now + offset, CivilTime.secondsPerDay))
            local = (date.year, date.month, date.day)
        }
        guard let today = Today.dayNumber(of: local) else {
            // The clock is beyond the calendar: only --today can help.
            throw .invalidValue(option: "the local date", value: "\(local.year)-\(local.month)-\(local.day)",
                                expected: "a date inside the calendar (set one with --today)")
        }
        return today
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

    /// The date the positional words name, if any. A YEAR past `MonthCalendar.largestYear`
    /// (which no calendar reaches) is refused with the range a smaller one is checked against:
    /// the calendar's years where a lone YEAR is a year view, else the dates the Gregorian
    /// calendar reads.
    func positionalDate(locale: Locale?, calendar: MonthCalendar, today: Int) throws(UsageError) -> PositionalDate? {
        guard !raw.positionals.isEmpty else { return nil }
        do {
            return try PositionalDate.parse(raw.positionals, locale: locale)
        } catch .invalidValue(option: "YEAR", let value, let expected)
                    where OptionSpec.isNumber(value) && Int(value).map({ $0 > MonthCalendar.largestYear }) ?? true {
            // The mode as an ordinary lone year would make it.
            let lone = PositionalDate(year: 1, month: nil, day: nil)
            if raw.positionals.count == 1, (try? mode(range: try? monthRange(), date: lone)) == .year {
                let range = calendar.month(containing: today).flatMap { Self.years(of: calendar, near: $0) }
                throw .invalidValue(option: "YEAR", value: value, expected: range ?? expected)
            }
            throw .invalidValue(option: "YEAR", value: value, expected: Self.expectation(for: .outOfRange, reform: gregorian.reform))
        }
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
        // Weeks start at today, or at the bound nearest to it.
        case .weeks: return min(max(today, bounds.since ?? today), bounds.until ?? Int.max)
        default: return today
        }
    }

    /// The month the run starts at, inside the calendar and the bounds; for the year view the
    /// first month of the year shown, for a run of months the first of the run (`before`
    /// months before the date's).
    func start(mode: Configuration.Mode, before: Int, from: ClosedRange<Int>?, date: PositionalDate?, today: Int,
               bounds: MonthBounds, in calendar: MonthCalendar) throws(UsageError) -> Month {
        let fromOption = raw.last(.from)
        // What the user typed for the start, for messages: --from, the date, or nothing.
        let typed: (option: String, value: String)? = fromOption.map { ($0.spelling, $0.value ?? "") }
            ?? date.map { _ in ("the date", raw.positionals.joined(separator: " ")) }
        let day: Int
        if let from {
            day = from.lowerBound
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
                // The calendar's own last year, where one is found: the range the user can type.
                let expected = Self.years(of: calendar, near: start)
                throw .invalidValue(option: typedYear.option, value: typedYear.value, expected: expected ?? OptionSpec.spec(.year).expected)
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

    /// The years `calendar` has near `month`, as a message names them; nil when it finds
    /// not even year 1.
    static func years(of calendar: MonthCalendar, near month: Month) -> String? {
        calendar.lastYear(near: month).map { "a year of the calendar, from 1 to \($0)" }
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
}
