import Foundation
import InfCalModel

/// Every non-Gregorian scale (RFC 7529 RSCALE), counted in a `MonthCalendar`'s months: infcal's
/// own where it has them (Hebrew, Chinese, Dangi, astronomical Islamic), exact where
/// Foundation's are not (ICU postpones some Hebrew new years a day late: 1 Tishri 5807 is
/// 2046-10-01, not 10-02) and flat in memory where ICU's Chinese and Islamic caches grow
/// without bound; Foundation's, checked, for the others. Months are numbered as RFC 7529
/// numbers them (the Hebrew leap month Adar I is `5L`, Adar and Adar II are 6), Chinese and
/// Dangi years counted on from the first cycle.
///
/// Months are counted one of two ways. Every month of the lunar and lunisolar calendars begins
/// within a few days of a mean new moon, so the number of months between two month starts is
/// their distance in days over the mean lunation, rounded; the solar ones have the same number
/// of months every year (12, or 13 in the Coptic and Ethiopic calendars), so a month's place is
/// its year times that number plus its own.
final class MonthCalendarScale: RecurrenceScale {
    let calendar: MonthCalendar
    private let isHebrew: Bool
    private let isCyclic: Bool
    /// The months of every year, in the solar calendars; nil in the lunar ones.
    private let monthsPerYear: Int?
    /// For the Japanese calendar, whose years count again from 1 at each era (Heisei 31 is
    /// followed by Reiwa 1 in mid-year): the Gregorian calendar, whose year of a day is ICU's
    /// extended year of the Japanese one, so that years count on across eras.
    private let gregorian: Calendar?
    /// The mean length of a year, in days, to guess where a year begins.
    private let meanYear: Double
    /// A month to guess from: its year and first civil day.
    private var anchor: (year: Int, firstDay: Int)
    private var years: [Int: [ScaleMonth]] = [:]

    /// The mean synodic month, in days.
    static let lunation = 29.530_589

    /// The civil day the guesses start from, 2024-01-01: where year numbers count within an
    /// era (Japanese, R.O.C.), a year is one of the present era, as Foundation reads a year
    /// without an era.
    private static let anchorDay = 19_723

    init(_ calendar: MonthCalendar) {
        self.calendar = calendar
        let identifier = calendar.identifier
        isHebrew = identifier == .hebrew
        isCyclic = identifier == .chinese || identifier == .dangi
        switch identifier {
        case .hebrew, .chinese, .dangi, .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura: monthsPerYear = nil
        case .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem: monthsPerYear = 13
        default: monthsPerYear = 12
        }
        switch identifier {
        case .hebrew: meanYear = 365.2468
        case .chinese, .dangi: meanYear = 365.2422
        case .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura: meanYear = 12 * Self.lunation
        default: meanYear = 365.2425
        }
        if identifier == .japanese {
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = .gmt
            self.gregorian = gregorian
        } else {
            gregorian = nil
        }
        anchor = (0, Self.anchorDay)
        if let first = month(containing: Self.anchorDay) { anchor = (first.year, first.firstDay) }
    }

    /// `month` as RFC 7529 numbers it, its year counted on across eras (ICU's extended year):
    /// a yearly or monthly rule steps from the last year of an era into the next era.
    private func scaleMonth(_ month: Month) -> ScaleMonth {
        let name = month.name
        let year: Int
        if isCyclic {
            year = CivilTime.cycleYear(era: name.era, year: name.year)
        } else if let gregorian {
            let noon = Date(timeIntervalSince1970: TimeInterval((month.firstDay + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay + 43_200))
            let parts = gregorian.dateComponents([.era, .year], from: noon)
            year = parts.year.map { CivilTime.astronomicalYear(era: parts.era ?? 1, year: $0) } ?? name.year
        } else {
            year = Self.extendedYear(calendar.identifier, era: name.era, year: name.year)
        }
        let label = isHebrew ? HebrewMonths.rfc7529Label(ofMonth: name.month) : (name.month, name.isLeapMonth)
        return ScaleMonth(year: year, number: label.0, isLeap: label.1,
                          firstDay: month.firstDay + CivilTime.dayNumberOffset, length: month.dayCount)
    }

    /// The year `year` of era `era` counted on across the eras, as ICU's extended year counts
    /// it: the R.O.C. and Coptic calendars count the years before their epoch backwards (era 0,
    /// year 1 is the year before era 1's year 1), the Ethiopic one counts them in the era of
    /// the world (Amete Alem 5500 is the year before year 1 of the incarnation era).
    static func extendedYear(_ identifier: Calendar.Identifier, era: Int, year: Int) -> Int {
        guard era == 0 else { return year }
        switch identifier {
        case .republicOfChina, .coptic: return CivilTime.astronomicalYear(era: era, year: year)
        case .ethiopicAmeteMihret: return year - 5500
        default: return year
        }
    }

    func month(containing civil: Int) -> ScaleMonth? {
        guard (-2_000_000...60_000_000).contains(civil) else { return nil }
        return calendar.month(containing: CivilTime.dayNumber(ofCivilDay: civil)).map(scaleMonth)
    }

    private func next(_ month: ScaleMonth) -> ScaleMonth? { self.month(containing: month.endDay) }
    private func previous(_ month: ScaleMonth) -> ScaleMonth? { self.month(containing: month.firstDay - 1) }

    func months(ofYear year: Int) -> [ScaleMonth] {
        if let known = years[year] { return known }
        // A guess near the year's start, then month by month to its first month.
        let guess = Double(anchor.firstDay) + Double(year - anchor.year) * meanYear
        guard guess.magnitude < 1e9, var month = self.month(containing: Int(guess.rounded())) else { return [] }
        var steps = 0
        while month.year > year || (month.year == year && previous(month)?.year == year), steps < 40 {
            guard let earlier = previous(month) else { return [] }
            month = earlier
            steps += 1
        }
        while month.year < year, steps < 80 {
            guard let later = next(month) else { return [] }
            month = later
            steps += 1
        }
        var result: [ScaleMonth] = []
        while month.year == year, result.count < 14 {
            result.append(month)
            guard let later = next(month) else { break }
            month = later
        }
        if years.count > 4096 { years.removeAll() }
        years[year] = result
        return result
    }

    func month(_ month: ScaleMonth, offsetBy count: Int) -> ScaleMonth? {
        if count == 0 { return month }
        if let monthsPerYear {
            let index = month.year * monthsPerYear + month.number - 1 + count
            let number = CivilTime.floorMod(index, monthsPerYear) + 1
            return months(ofYear: CivilTime.floorDiv(index, monthsPerYear)).first { $0.number == number }
        }
        // The month holding the middle of the guessed one, then a step or two to the exact one.
        let guess = Double(month.firstDay) + (Double(count) + 0.5) * Self.lunation
        guard guess.magnitude < 1e9, var found = self.month(containing: Int(guess.rounded())) else { return nil }
        for _ in 0..<4 {
            guard let distance = distance(from: month, to: found) else { return nil }
            if distance == count { return found }
            guard let stepped = distance < count ? next(found) : previous(found) else { return nil }
            found = stepped
        }
        return nil
    }

    func distance(from a: ScaleMonth, to b: ScaleMonth) -> Int? {
        if let monthsPerYear { return (b.year - a.year) * monthsPerYear + b.number - a.number }
        return Int((Double(b.firstDay - a.firstDay) / Self.lunation).rounded())
    }
}
