import Foundation

/// What every month of a calendar satisfies, checked where Foundation's months are made: its
/// length lies within the calendar's shortest and longest month, and the month after it is named
/// next in the calendar's order (no repeat, no gap). Together with the steps, which make each
/// month start the day after its predecessor ends, both ways, a month that breaks neither is
/// one the calendar has; where Foundation breaks one, the stream ends there.
enum MonthInvariants {
    /// The day Foundation's Gregorian reckoning starts (1582-10-15), inside the one month of
    /// the Gregorian-based calendars that is shorter than 28 days.
    private static let reformDay = SolarMonths.gregorianDay(year: 1582, month: 10, day: 15)

    /// The shortest and longest `month` may be in `identifier`.
    static func lengths(of month: Month, in identifier: Calendar.Identifier) -> ClosedRange<Int> {
        switch identifier {
        case .chinese, .dangi, .hebrew, .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura: return 29...30
        case .persian: return 29...31
        case .indian: return 30...31
        case .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem: return month.name.month == 13 ? 5...6 : 30...30
        default:
            // Months of the Gregorian calendar under other names (Buddhist, Japanese, ROC):
            // October 1582 has 21 days.
            return month.firstDay < reformDay && month.endDay > reformDay ? 21...21 : 28...31
        }
    }

    /// Whether `next` is the month that follows the one named `name` in `identifier`'s order.
    static func follows(_ next: MonthName, _ name: MonthName, in identifier: Calendar.Identifier) -> Bool {
        let sameYear = next.era == name.era && next.year == name.year
        if identifier == .chinese || identifier == .dangi {
            // A leap month repeats the number of the month before it; years run 1-60 in a cycle.
            if next.isLeapMonth { return sameYear && !name.isLeapMonth && next.month == name.month }
            if next.month == name.month + 1 { return sameYear }
            let nextYear = next.era == name.era ? next.year == name.year + 1 : next.era == name.era + 1 && next.year == 1 && name.year == 60
            return next.month == 1 && name.month == 12 && nextYear
        }
        guard !next.isLeapMonth, !name.isLeapMonth else { return false }
        if identifier == .hebrew, name.month == 5 {
            // Shevat is followed by Adar I (6) in a leap year, by Adar (7) in a common one.
            return sameYear && next.month == (HebrewMonths.isLeap(name.year) ? 6 : 7)
        }
        // An era may change within a year (Japanese eras); years run down in the eras before an
        // epoch (years BC, before the R.O.C.).
        if next.month == name.month + 1 { return sameYear || next.era != name.era }
        return next.month == 1 && name.month >= 12
            && (next.era != name.era || (next.year - name.year).magnitude == 1)
    }

    /// Whether `month` keeps the invariants of `identifier`.
    static func admits(_ month: Month, in identifier: Calendar.Identifier) -> Bool {
        lengths(of: month, in: identifier).contains(month.dayCount) && follows(month.nextName, month.name, in: identifier)
    }
}
