import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

// The resolver's look of the months: locale, first weekday, week numbers, columns, colour.
extension ConfigurationResolver {
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

    func columns(mode: Configuration.Mode, metrics: GridMetrics) throws(UsageError) -> Configuration.Columns {
        let option = raw.last(.columns)
        if option == nil, Self.printsLikeCal(mode) {
            // As cal: three a row, fewer where the terminal is narrower; ncal's vertical year
            // view puts four a row (three with day-of-year numbers).
            let limit = raw.has(.vertical) && !raw.has(.dayOfYear) && mode == .year ? 4 : Configuration.automaticColumnLimit
            guard environment.stdoutIsTerminal else { return .fixed(limit) }
            return .fitted(count: metrics.columns(fitting: environment.width(fallback: Configuration.defaultWidth), limit: limit))
        }
        guard let value = option?.value ?? (environment.stdoutIsTerminal ? "auto" : nil) else { return .fixed(1) }
        if value == "auto" {
            return .fitted(count: metrics.columns(fitting: environment.width(fallback: Configuration.defaultWidth),
                                                  limit: Configuration.automaticColumnLimit))
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
