/// The one civil-date kernel: proleptic Gregorian days and back, floor division, weekdays, the
/// two day epochs, astronomical years from eras and the 60-year cycles' years. Every layer
/// counts with these, so a day is reckoned the same way in the grids, the recurrence engine,
/// the cache and the names.
///
/// A civil day is counted from 1970-01-01 (day 0), as RFC 5545's times are; a civil time is
/// seconds from that day's midnight, in whatever reckoning the value was written (floating, a
/// zone's wall clock, UTC). The grids' `DayNumber` counts from 2001-01-01, a fixed offset away.
/// Plain integer arithmetic (Howard Hinnant's `days_from_civil` and `civil_from_days`, over
/// years that start on 1 March), so any year costs the same; inlinable, as every hot loop of
/// the layers above calls it.
public enum CivilTime {
    public static let secondsPerDay = 86_400
    /// Civil day of 2001-01-01, day 0 of `DayNumber`.
    public static let dayNumberOffset = 11_323

    /// The civil day of `year`-`month`-`day` (any integers; month 1...12).
    @inlinable @inline(__always)
    public static func day(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shifted = (month + 9) % 12
        let dayOfYear = (153 * shifted + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a civil day.
    @inlinable @inline(__always)
    public static func date(ofDay civil: Int) -> (year: Int, month: Int, day: Int) {
        let z = civil + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inlinable
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    @inlinable
    public static func monthLength(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The weekday of a civil day, 0 Monday ... 6 Sunday (1970-01-01 was a Thursday).
    @inlinable @inline(__always)
    public static func weekday(ofDay civil: Int) -> Int {
        floorMod(civil + 3, 7)
    }

    @inlinable @inline(__always)
    public static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable @inline(__always)
    public static func floorMod(_ a: Int, _ b: Int) -> Int {
        let r = a % b
        return r < 0 ? r + b : r
    }

    /// The civil day holding `seconds`.
    @inlinable @inline(__always)
    public static func day(ofSeconds seconds: Int) -> Int { floorDiv(seconds, secondsPerDay) }

    /// The grids' `DayNumber` of a civil day.
    @inlinable @inline(__always)
    public static func dayNumber(ofCivilDay civil: Int) -> Int { civil - dayNumberOffset }

    /// The civil day of a grid `DayNumber`.
    @inlinable @inline(__always)
    public static func day(ofGrid day: Int) -> Int { day + dayNumberOffset }

    /// The weekday of a grid `DayNumber` numbered as Foundation does: 1 is Sunday, 7 is Saturday.
    @inlinable @inline(__always)
    public static func foundationWeekday(ofGrid day: Int) -> Int {
        // 0 is Monday in the civil count, Foundation's 2.
        (weekday(ofDay: day + dayNumberOffset) + 1) % 7 + 1
    }

    // MARK: Eras and cycles

    /// The astronomical year (0 is 1 BC, -1 is 2 BC) of `year` of `era` as Foundation names
    /// Gregorian and Julian years: era 1 (AD) year Y, era 0 (BC) year 1 - Y.
    @inlinable
    public static func astronomicalYear(era: Int, year: Int) -> Int {
        era == 0 ? 1 - year : year
    }

    /// Foundation's era and year of astronomical `year` (the inverse of `astronomicalYear`).
    @inlinable
    public static func eraAndYear(astronomical year: Int) -> (era: Int, year: Int) {
        year >= 1 ? (1, year) : (0, 1 - year)
    }

    /// Years of the Chinese and Dangi 60-year cycles counted on from the first cycle's first year
    /// (cycle 1, year 1 is 2637 BC), as RFC 7529 numbers them: cycle 78, year 41 is 4661.
    @inlinable
    public static func cycleYear(era: Int, year: Int) -> Int {
        (era &- 1) &* 60 &+ year
    }

    /// The cycle and the year within it of a counted-on cycle year (the inverse of `cycleYear`).
    @inlinable
    public static func cycleEraAndYear(_ year: Int) -> (era: Int, year: Int) {
        (floorDiv(year - 1, 60) + 1, floorMod(year - 1, 60) + 1)
    }

    /// Counted-on cycle years less this are Gregorian (astronomical) years: the first cycle's first
    /// year is 2637 BC, astronomical -2636.
    public static let cycleYearOffset = 2_637
}
