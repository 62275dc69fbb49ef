import InfCalModel

/// A lunar or lunisolar scale (Hebrew, Chinese, Dangi, astronomical Islamic) counted in infcal's
/// own months (`MonthCalendar` with its `MonthRules`): exact where Foundation's are not (ICU
/// postpones some Hebrew new years a day late: 1 Tishri 5807 is 2046-10-01, not 10-02), and
/// flat in memory where ICU's Chinese and Islamic caches grow without bound.
///
/// Every month of these calendars begins within a few days of a mean new moon, so the number of
/// months between two month starts is their distance in days over the mean lunation, rounded.
final class MonthCalendarScale: RecurrenceScale {
    let calendar: MonthCalendar
    private let isHebrew: Bool
    private let isCyclic: Bool
    /// The mean length of a year, in days, to guess where a year begins.
    private let meanYear: Double
    /// A month to guess from: its year and first civil day.
    private var anchor: (year: Int, firstDay: Int)
    private var years: [Int: [ScaleMonth]] = [:]

    /// The mean synodic month, in days.
    static let lunation = 29.530_589

    init?(_ calendar: MonthCalendar) {
        guard calendar.rules != nil else { return nil }
        self.calendar = calendar
        isHebrew = calendar.identifier == .hebrew
        isCyclic = calendar.identifier == .chinese || calendar.identifier == .dangi
        meanYear = calendar.identifier == .islamic ? 12 * Self.lunation : (isHebrew ? 365.2468 : 365.2422)
        anchor = (0, 0)
        guard let first = month(containing: 0) else { return nil }
        anchor = (first.year, first.firstDay)
    }

    /// `month` as RFC 7529 numbers it: in a Hebrew leap year Adar I is 5L and Adar II is 6;
    /// Chinese and Dangi years counted on from the first cycle.
    private func scaleMonth(_ month: Month) -> ScaleMonth {
        let name = month.name
        let year = isCyclic ? CivilTime.cycleYear(era: name.era, year: name.year) : name.year
        let label = isHebrew ? HebrewMonths.rfc7529Label(ofMonth: name.month) : (name.month, name.isLeapMonth)
        return ScaleMonth(year: year, number: label.0, isLeap: label.1,
                          firstDay: month.firstDay + CivilTime.dayNumberOffset, length: month.dayCount)
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
        Int((Double(b.firstDay - a.firstDay) / Self.lunation).rounded())
    }
}
