/// A day counted from 1970-01-01 (day 0), as RFC 5545's times are: `CivilTime`'s epoch, typed
/// apart from the grids' day numbers (`DayNumber`, from 2001-01-01), so that a day of one count
/// cannot be taken for a day of the other. The writes name their days this way.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days from 1970-01-01.
    public let number: Int

    public init(_ number: Int) {
        self.number = number
    }

    /// The civil day of the grids' day number `dayNumber`.
    public init(dayNumber: Int) {
        number = CivilTime.day(ofGrid: dayNumber)
    }

    /// The civil day of proleptic Gregorian `year`-`month`-`day`.
    public init(year: Int, month: Int, day: Int) {
        number = CivilTime.day(year: year, month: month, day: day)
    }

    /// The grids' day number of this day.
    public var dayNumber: Int { CivilTime.dayNumber(ofCivilDay: number) }

    /// Its proleptic Gregorian year, month and day.
    public var date: (year: Int, month: Int, day: Int) { CivilTime.date(ofDay: number) }

    /// Civil seconds of its midnight.
    public var seconds: Int { number * CivilTime.secondsPerDay }

    /// The day `days` later (earlier when negative).
    public static func + (day: CivilDay, days: Int) -> CivilDay { CivilDay(day.number + days) }

    /// Days from `b` to `a`.
    public static func - (a: CivilDay, b: CivilDay) -> Int { a.number - b.number }

    public static func < (a: CivilDay, b: CivilDay) -> Bool { a.number < b.number }

    /// `YYYY-MM-DD`, as `ISODate` writes it.
    public var description: String { ISODate.text(date) }
}

/// The one writer of ISO 8601 calendar dates (`YYYY-MM-DD`, astronomical years) for the agenda,
/// the day view, JSON Lines, the messages and the pager's commands: years 0000 to 9999 in four
/// digits, others in the expanded form with a sign and at least four digits (-0043, +10000),
/// which is also what `--from` reads.
public enum ISODate {
    /// The ISO 8601 year: 2024, 0007, -0001, +10000.
    public static func year(_ year: Int) -> String {
        let digits = String(year.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if year < 0 { return "-" + padded }
        return year > 9999 ? "+" + padded : padded
    }

    /// `YYYY-MM-DD` of a proleptic Gregorian year, month and day.
    public static func text(_ date: (year: Int, month: Int, day: Int)) -> String {
        year(date.year) + "-" + (date.month < 10 ? "0" : "") + String(date.month) + "-" + (date.day < 10 ? "0" : "") + String(date.day)
    }

    /// `YYYY-MM-DD` of a civil day (days from 1970-01-01).
    public static func text(civilDay: Int) -> String {
        text(CivilTime.date(ofDay: civilDay))
    }

    /// `YYYY-MM-DD` of a grid day number (days from 2001-01-01).
    public static func text(dayNumber: Int) -> String {
        text(civilDay: CivilTime.day(ofGrid: dayNumber))
    }
}
