import InfCalModel

/// Proleptic Gregorian arithmetic for iCalendar times, as RFC 5545 reckons them.
///
/// A civil day is counted from 1970-01-01 (day 0); a civil time is seconds from that day's
/// midnight, in whatever reckoning the value was written (floating, a zone's wall clock, UTC).
/// Plain integer arithmetic, so any year costs the same; `DayNumber` (the grids' count from
/// 2001-01-01) is a fixed offset away.
public enum CivilTime {
    public static let secondsPerDay = 86_400
    /// Civil day of 2001-01-01, day 0 of `DayNumber`.
    public static let dayNumberOffset = 11_323

    /// The civil day of `year`-`month`-`day` (any integers; month 1...12).
    @inline(__always)
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
    @inline(__always)
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

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func monthLength(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The weekday of a civil day, 0 Monday ... 6 Sunday (1970-01-01 was a Thursday).
    @inline(__always)
    public static func weekday(ofDay civil: Int) -> Int {
        floorMod(civil + 3, 7)
    }

    @inline(__always)
    public static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inline(__always)
    public static func floorMod(_ a: Int, _ b: Int) -> Int {
        let r = a % b
        return r < 0 ? r + b : r
    }

    /// The civil day holding `seconds`.
    @inline(__always)
    public static func day(ofSeconds seconds: Int) -> Int { floorDiv(seconds, secondsPerDay) }

    /// The grids' `DayNumber` of a civil day.
    @inline(__always)
    public static func dayNumber(ofCivilDay civil: Int) -> Int { civil - dayNumberOffset }

    /// UTC civil seconds of the wall-clock time `local` in a zone whose offset at a UTC instant
    /// is `offset`. A time skipped by a change of offset is read with the offset before it
    /// (RFC 5545 §3.3.5); a repeated one is its first occurrence.
    static func utc(ofLocal local: Int, offset: (Int) -> Int) -> Int {
        // The offsets a day either side: a wall-clock time is read with one of them (no zone
        // changes its offset twice in a day).
        let before = offset(local - secondsPerDay)
        let after = offset(local + secondsPerDay)
        let early = local - before
        let earlyHolds = offset(early) == before
        if before == after, earlyHolds { return early }
        let late = local - after
        let lateHolds = offset(late) == after
        switch (earlyHolds, lateHolds) {
        case (true, true): return min(early, late) // a fold: the first of the two
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early // a gap: the offset in force before it
        }
    }
}
