import Foundation

// MARK: Day numbers

/// Whole days are counted from 2001-01-01 (Foundation's reference date, a Monday): day 0 is that
/// day, day -1 the one before. A day number is zone-free; Foundation sees a day as its noon in UTC,
/// so that no time zone, daylight-saving change or skipped local day can move it.
public enum DayNumber {
    static let secondsPerDay = 86_400.0

    /// Noon UTC of `day`, the instant that stands for that day in every Foundation call.
    public static func date(_ day: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(day) * secondsPerDay + secondsPerDay / 2)
    }

    /// The day that holds `date` in UTC.
    public static func day(of date: Date) -> Int {
        Int((date.timeIntervalSinceReferenceDate / secondsPerDay).rounded(.down))
    }

    /// The Gregorian year, month and day that `instant` falls on in `zone`: where the user is,
    /// which decides which day is today (and nothing else).
    public static func localDate(of instant: Date, in zone: TimeZone) -> (year: Int, month: Int, day: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.era, .year, .month, .day], from: instant)
        let year = parts.year ?? 1
        return (CivilTime.astronomicalYear(era: parts.era ?? 1, year: year), parts.month ?? 1, parts.day ?? 1)
    }

    /// The weekday of `day` numbered as Foundation does: 1 is Sunday, 7 is Saturday.
    /// Plain arithmetic: the weekday cycle does not depend on the calendar.
    public static func weekday(_ day: Int) -> Int {
        CivilTime.foundationWeekday(ofGrid: day)
    }
}

// MARK: Month

/// A month's place in its calendar: era, year, month number and whether it is a leap month.
public struct MonthName: Hashable, Sendable {
    public let era: Int
    public let year: Int
    public let month: Int
    public let isLeapMonth: Bool

    public init(era: Int, year: Int, month: Int, isLeapMonth: Bool = false) {
        self.era = era
        self.year = year
        self.month = month
        self.isLeapMonth = isLeapMonth
    }
}

/// One month of a calendar, identified by its first day.
///
/// It carries what the step that found it already had to compute, so that laying it out needs
/// no further calendar call: its name, its length (the distance to the next month's first day)
/// and the name of the month after it.
public struct Month: Hashable, Sendable, CustomStringConvertible {
    /// The day number of the month's first day.
    public let firstDay: Int
    /// Days from the first day of this month to the first day of the next.
    public let dayCount: Int
    /// Where the month stands in its calendar.
    public let name: MonthName
    /// Where the following month stands; known because the step checked that month's start.
    let nextName: MonthName

    init(firstDay: Int, dayCount: Int, name: MonthName, nextName: MonthName) {
        self.firstDay = firstDay
        self.dayCount = dayCount
        self.name = name
        self.nextName = nextName
    }

    /// Noon UTC of the month's first day: the Date that indexes the month.
    public var start: Date { DayNumber.date(firstDay) }

    /// The day number of the month's last day.
    public var lastDay: Int { firstDay + dayCount - 1 }

    /// The day number of the next month's first day.
    public var endDay: Int { firstDay + dayCount }

    /// Whether `day` falls in this month.
    public func contains(day: Int) -> Bool { day >= firstDay && day < endDay }

    public var description: String {
        "\(name.era):\(name.year)-\(name.month)\(name.isLeapMonth ? "L" : "") (day \(firstDay), \(dayCount) days)"
    }
}
