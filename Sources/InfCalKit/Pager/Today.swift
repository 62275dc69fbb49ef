/// Today as the pager follows it.
public enum Today {
    /// The day number of the Gregorian date `year`-`month`-`day` (as the local clock gives it).
    /// - returns: nil when the date does not exist or lies beyond the calendar.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        try? DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
    }

    private static let gregorian = MonthCalendar(.gregorian)
}
