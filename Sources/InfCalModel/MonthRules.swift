import Foundation

/// A calendar whose months infcal computes by the calendar's own rules, from day numbers alone,
/// instead of asking Foundation: the Gregorian and Julian calendars (with a chosen reform), the
/// Hebrew calendar, and the Chinese, Dangi and astronomical Islamic calendars (as ICU computes
/// them). Names follow Foundation's (`MonthName`), so titles stay the same.
public protocol MonthRules: Sendable {
    /// The first day and name of the month holding `day`, and the first day of the month after it.
    func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int)
    /// The day-of-month numbers of `month`'s days (differs from 1...n only across a reform).
    func dayLabels(of month: Month) -> DayLabels
    /// The first day of the calendar year that holds `day`.
    func yearStart(holding day: Int) -> Int
}

extension MonthRules {
    /// The month holding `day`, with the name of the month after it.
    func wholeMonth(holding day: Int) -> Month {
        let found = month(holding: day)
        let next = month(holding: found.endDay)
        return Month(firstDay: found.firstDay, dayCount: found.endDay - found.firstDay, name: found.name, nextName: next.name)
    }

    public func dayLabels(of month: Month) -> DayLabels { .consecutive }
}
