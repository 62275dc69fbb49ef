import Foundation

/// Today's day number from the local date, as the run starts with it and the pager follows it
/// past midnight: one rule for both.
public enum Today {
    /// The day number of the local date `local` (Gregorian year, month, day): the real date,
    /// whatever `--reform` says.
    /// - returns: nil when that day lies beyond the calendar.
    public static func dayNumber(of local: (year: Int, month: Int, day: Int)) -> Int? {
        try? gregorian.checkedDayNumber(year: local.year, month: local.month, day: local.day)
    }

    private static let gregorian = MonthCalendar(.gregorian)
}
