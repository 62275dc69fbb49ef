import Foundation

/// The Hebrew calendar by its own rules: the molad of Tishri and the four postponements
/// (dehiyyot), as in Reingold and Dershowitz, *Calendrical Calculations* (`hebrew-new-year`,
/// `hebrew-calendar-elapsed-days`, `hebrew-year-length-correction`), with floor division, so
/// that it holds before 1 AM too.
///
/// ICU (under Foundation) checks one postponement against a day it has already moved, which
/// puts 110 new years of AM 1-10000 a day late (Rosh Hashanah 5807 on Tuesday 2046-10-02,
/// not Monday 2046-10-01), truncates a negative division before 1 AM, and breaks its month
/// steps far from the present; so infcal computes these months itself and only their names
/// come from Foundation, numbered as Foundation numbers them: 1 Tishri, 2 Heshvan, 3 Kislev,
/// 4 Tevet, 5 Shevat, 6 Adar I (leap years only), 7 Adar (Adar II in a leap year), 8 Nisan,
/// ... 13 Elul, all in era 0.
public struct HebrewMonths: ArithmeticMonths {
    /// R.D. (Reingold and Dershowitz's fixed day 1 is 1 January 1, Gregorian) of 1 Tishri 1 AM.
    private static let epoch = -1_373_427
    /// R.D. of day number 0 (2001-01-01).
    private static let rdOfDayZero = 730_486

    /// RFC 7529's number of Foundation's Hebrew month `number` (Tishri is 1; in a leap year 6 is
    /// Adar I and 7 Adar II): Adar I is 5L, and the months after it count one less.
    public static func rfc7529Label(ofMonth number: Int) -> (number: Int, isLeap: Bool) {
        number == 6 ? (5, true) : (number > 6 ? number - 1 : number, false)
    }

    /// Whether `year` has thirteen months.
    public static func isLeap(_ year: Int) -> Bool {
        CivilTime.floorMod(7 * year + 1, 19) < 7
    }

    /// Days from the epoch to the molad-based new year of `year`, with the first postponement
    /// (never on Sunday, Wednesday or Friday).
    private static func elapsedDays(_ year: Int) -> Int {
        let monthsElapsed = CivilTime.floorDiv(235 * year - 234, 19)
        let partsElapsed = 12_084 + 13_753 * monthsElapsed
        let days = 29 * monthsElapsed + CivilTime.floorDiv(partsElapsed, 25_920)
        return CivilTime.floorMod(3 * (days + 1), 7) < 3 ? days + 1 : days
    }

    /// The day number of 1 Tishri of `year`, with all four postponements.
    static func newYear(_ year: Int) -> Int {
        let (previous, this, next) = (elapsedDays(year - 1), elapsedDays(year), elapsedDays(year + 1))
        let correction = next - this == 356 ? 2 : this - previous == 382 ? 1 : 0
        return epoch + this + correction - rdOfDayZero
    }

    /// The Hebrew year that holds `day`.
    static func year(holding day: Int) -> Int {
        // The mean year is 35975351/98496 days; the estimate is at most one off.
        var year = CivilTime.floorDiv((day - newYear(1)) * 98_496, 35_975_351) + 1
        while newYear(year + 1) <= day { year += 1 }
        while newYear(year) > day { year -= 1 }
        return year
    }

    /// The lengths of the months of `year`, by Foundation's month number (index 0 is month 1);
    /// 0 for Adar I in a common year.
    static func monthLengths(year: Int, days: Int) -> [Int] {
        let leap = isLeap(year)
        // 355 or 385 days: Heshvan has 30; 353 or 383: Kislev has 29.
        let heshvan = days % 10 == 5 ? 30 : 29
        let kislev = days % 10 == 3 ? 29 : 30
        return [30, heshvan, kislev, 29, 30, leap ? 30 : 0, 29, 30, 29, 30, 29, 30, 29]
    }

    public func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int) {
        let year = Self.year(holding: day)
        let start = Self.newYear(year)
        let end = Self.newYear(year + 1)
        var first = start
        for (index, length) in Self.monthLengths(year: year, days: end - start).enumerated() where length > 0 {
            if day < first + length {
                return (first, MonthName(era: 0, year: year, month: index + 1), first + length)
            }
            first += length
        }
        // Unreachable: the months fill the year.
        return (first, MonthName(era: 0, year: year + 1, month: 1), end)
    }

    public func yearStart(holding day: Int) -> Int {
        Self.newYear(Self.year(holding: day))
    }
}
