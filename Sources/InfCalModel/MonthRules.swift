import Foundation

/// The months of one calendar, as `MonthCalendar` serves them: by the calendar's own rules where
/// infcal has them (`ArithmeticMonths`), else Foundation's, checked (`FoundationMonths`).
/// `MonthCalendar` keeps the calendar's limits (1 January 4713 BC, `upperLimit`) before it asks.
public protocol MonthRules: Sendable {
    /// The month that holds `day`, or nil where the months are not sound.
    func month(containing day: Int) -> Month?
    /// The month after `month`, or nil where the months are not sound.
    func month(after month: Month) -> Month?
    /// The month before `month`, or nil where the months are not sound.
    func month(before month: Month) -> Month?
    /// The day-of-month numbers of `month`'s days, in order.
    func dayLabels(of month: Month) -> DayLabels
    /// The day of its year that `day` is, counting the days that exist from 1, or nil.
    func dayOfYear(_ day: Int) -> Int?
    /// The week of the year that holds `day`, for weeks starting on `firstWeekday` (1 is Sunday)
    /// whose first week has at least `minimumDays` days in the new year, or nil.
    func weekOfYear(_ day: Int, firstWeekday: Int, minimumDays: Int) -> Int?
}

/// A calendar whose months infcal computes by the calendar's own rules, from day numbers alone,
/// instead of asking Foundation: the Gregorian and Julian calendars (with a chosen reform), the
/// Hebrew calendar, and the Chinese, Dangi and astronomical Islamic calendars (as ICU computes
/// them). Every day has a month, so the answers are never nil. Names follow Foundation's
/// (`MonthName`), so titles stay the same.
public protocol ArithmeticMonths: MonthRules {
    /// The first day and name of the month holding `day`, and the first day of the month after it.
    func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int)
    /// The first day of the calendar year that holds `day`.
    func yearStart(holding day: Int) -> Int
}

extension ArithmeticMonths {
    /// The month holding `day`, with the name of the month after it.
    func wholeMonth(holding day: Int) -> Month {
        let found = month(holding: day)
        let next = month(holding: found.endDay)
        return Month(firstDay: found.firstDay, dayCount: found.endDay - found.firstDay, name: found.name, nextName: next.name)
    }

    public func month(containing day: Int) -> Month? { wholeMonth(holding: day) }
    public func month(after month: Month) -> Month? { wholeMonth(holding: month.endDay) }
    public func month(before month: Month) -> Month? { wholeMonth(holding: month.firstDay - 1) }
    public func dayLabels(of month: Month) -> DayLabels { .consecutive }
    public func dayOfYear(_ day: Int) -> Int? { day - yearStart(holding: day) + 1 }

    public func weekOfYear(_ day: Int, firstWeekday: Int, minimumDays: Int) -> Int? {
        WeekOfYear(firstWeekday: firstWeekday, minimumDays: minimumDays).week(of: day, yearStart: yearStart(holding:))
    }
}

/// How the days of a month are numbered.
public enum DayLabels: Hashable, Sendable {
    /// 1, 2, 3, ... up to the month's length.
    case consecutive
    /// The numbers of the days that exist, in order (October 1582: 1-4, then 15-31).
    case listed([Int])
    /// Consecutive numbers from a first one: days of the year.
    case counting(from: Int)

    /// The label of the month's `index`th day (from 0).
    @inline(__always)
    public func label(at index: Int) -> Int {
        switch self {
        case .consecutive: return index + 1
        case .listed(let labels): return labels[index]
        case .counting(let first): return first + index
        }
    }
}
