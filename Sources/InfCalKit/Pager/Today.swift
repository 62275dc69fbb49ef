import Foundation

/// Today as the pager follows it.
public enum Today {
    /// The day number of the day `instant` falls on in `zone` (the local clock's day).
    /// - returns: nil when that day lies beyond the calendar.
    public static func dayNumber(at instant: Date, in zone: TimeZone) -> Int? {
        let local = DayNumber.localDate(of: instant, in: zone)
        return try? DateArgument.dayNumber(year: local.year, month: local.month, day: local.day, in: gregorian)
    }

    private static let gregorian = MonthCalendar(.gregorian)
}
