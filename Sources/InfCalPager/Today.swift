import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

/// Today as the pager follows it.
public enum Today {
    /// The day number of the local date `local` (Gregorian year, month, day).
    /// - returns: nil when that day lies beyond the calendar.
    public static func dayNumber(of local: (year: Int, month: Int, day: Int)) -> Int? {
        try? DateArgument.dayNumber(year: local.year, month: local.month, day: local.day, in: gregorian)
    }

    private static let gregorian = MonthCalendar(.gregorian)
}
