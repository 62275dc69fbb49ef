import Foundation

/// A date as the command line gives it. Dates are ISO-style and read in the Gregorian calendar
/// as Foundation has it (Julian before 1582-10-15, as the calendar shows them); years are
/// astronomical, so year 0 is 1 BC and -0043 is 44 BC.
public enum DateArgument: Equatable, Sendable {
    /// `YYYY`: the whole year.
    case year(Int)
    /// `YYYY-MM`: the whole month.
    case month(year: Int, month: Int)
    /// `YYYY-MM-DD`: one day.
    case day(year: Int, month: Int, day: Int)
    /// `today`.
    case today
    /// `+N` or `-N` with at most three digits: the month N months after (or before) today's
    /// month. With four digits or more a signed number is a year (`-0043`, `+10000`).
    case relative(months: Int)

    /// The most digits of a relative `+N`/`-N`; a signed number with more is a year.
    public static let relativeDigits = 3

    /// Reads `text`, or nil if it is none of the forms.
    public static func parse(_ text: String) -> DateArgument? {
        if text == "today" { return .today }
        if let sign = text.first, sign == "+" || sign == "-", text.count > 1, text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), text.count - 1 <= relativeDigits {
            guard let months = Int(text) else { return nil }
            return .relative(months: months)
        }
        var body = Substring(text)
        let negative = body.first == "-"
        if negative || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts[0].count >= 4, parts.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        // A year too long for Int is still a year, one far outside every calendar's range.
        let magnitude = Int(parts[0]) ?? Int.max
        let year = negative ? -magnitude : magnitude
        let numbers = parts.dropFirst().compactMap { Int($0) }
        switch numbers.count {
        case 0: return .year(year)
        case 1: return (1...12).contains(numbers[0]) ? .month(year: year, month: numbers[0]) : nil
        default:
            guard (1...12).contains(numbers[0]), (1...31).contains(numbers[1]) else { return nil }
            return .day(year: year, month: numbers[0], day: numbers[1])
        }
    }

    /// Why a well-formed date cannot be used.
    public typealias Failure = MonthCalendar.DateFailure

    /// The first and last day (day numbers) of the period the argument names; `today` is
    /// today's day number and `gregorian` the calendar the date is read in.
    public func period(today: Int, in gregorian: MonthCalendar) throws(Failure) -> ClosedRange<Int> {
        switch self {
        case .today:
            return today...today
        case let .day(year, month, day):
            let number = try Self.dayNumber(year: year, month: month, day: day, in: gregorian)
            return number...number
        case let .month(year, month):
            return try Self.monthPeriod(year: year, month: month, in: gregorian)
        case let .year(year):
            let first = try Self.monthPeriod(year: year, month: 1, in: gregorian)
            let last = try Self.monthPeriod(year: year, month: 12, in: gregorian)
            return first.lowerBound...last.upperBound
        case let .relative(months):
            guard let todayMonth = gregorian.month(containing: today) else { throw .outOfRange }
            let year = CivilTime.astronomicalYear(era: todayMonth.name.era, year: todayMonth.name.year)
            let (shifted, overflow) = (year * 12 + todayMonth.name.month - 1).addingReportingOverflow(months)
            guard !overflow else { throw .outOfRange }
            // Floor division: month 0 of year 0 less one is December of -1.
            return try Self.monthPeriod(year: CivilTime.floorDiv(shifted, 12), month: CivilTime.floorMod(shifted, 12) + 1, in: gregorian)
        }
    }

    /// The day number of astronomical `year`, `month`, `day`, checked to exist, read in the
    /// Gregorian calendar with `gregorian`'s reform (plain arithmetic, no Foundation call).
    public static func dayNumber(year: Int, month: Int, day: Int, in gregorian: MonthCalendar) throws(Failure) -> Int {
        try gregorian.checkedDayNumber(year: year, month: month, day: day)
    }

    /// The first and last day of a Gregorian month.
    public static func monthPeriod(year: Int, month: Int, in gregorian: MonthCalendar) throws(Failure) -> ClosedRange<Int> {
        let first = try dayNumber(year: year, month: month, day: 1, in: gregorian)
        guard let whole = gregorian.month(containing: first) else { throw .outOfRange }
        return whole.firstDay...whole.lastDay
    }
}
