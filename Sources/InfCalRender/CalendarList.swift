import Foundation
import InfCalModel

/// What `--calendar list` prints: each calendar this platform computes, by the name
/// `--calendar` takes, beside today's month in it.
public enum CalendarList {
    /// A line a calendar: its name, padded to one column, and the title of the month holding
    /// `today` (a day number) in it, in `locale` (nil: the POSIX locale).
    public static func lines(today: Int, locale: Locale?) -> [String] {
        let names = CalendarChoice.usableNames
        let width = (names.map(\.count).max() ?? 0) + 2
        return names.compactMap { name in
            guard let identifier = CalendarChoice.identifier(named: name) else { return nil }
            let calendar = MonthCalendar(identifier)
            let title = calendar.month(containing: today).map { CalendarNames(locale: locale, calendar: calendar).title(of: $0) } ?? ""
            return name.padding(toLength: width, withPad: " ", startingAt: 0) + title
        }
    }
}
