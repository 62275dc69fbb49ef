import Foundation

/// When the calendar changes from Julian to Gregorian reckoning (`--reform`).
public enum Reform: String, CaseIterable, Sendable {
    /// Thursday 4 October 1582 (Julian) is followed by Friday 15 October 1582 (Gregorian), as
    /// Foundation and most of Catholic Europe have it. The default.
    case papal = "1582"
    /// Wednesday 2 September 1752 is followed by Thursday 14 September 1752, as in Great Britain
    /// and its colonies, and as `ncal -C` and util-linux `cal` print.
    case british = "1752"
    /// Gregorian reckoning throughout (proleptic), as ISO 8601 and Python's `calendar` have it.
    case gregorian
    /// Julian reckoning throughout: the reform never comes.
    case julian

    /// The reform named `text` (1582, 1752, gregorian, julian; case-insensitive), or nil.
    public init?(named text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The day number of the first Gregorian day (nil-like extremes for the proleptic ones).
    var firstGregorianDay: Int {
        switch self {
        case .papal: return SolarMonths.gregorianDay(year: 1582, month: 10, day: 15)
        case .british: return SolarMonths.gregorianDay(year: 1752, month: 9, day: 14)
        case .gregorian: return .min
        case .julian: return .max
        }
    }
}

/// The Gregorian calendar with a Julian past (or either alone), as plain arithmetic on day
/// numbers: no Foundation call. Years are astronomical in the arithmetic (0 is 1 BC) and named
/// as Foundation names them: era 1 (AD) year Y, era 0 (BC) year 1 - Y.
///
/// The Gregorian days are the kernel's (`CivilTime`); the Julian ones the same arithmetic over
/// years that start on 1 March, for the 4-year Julian cycle.
struct SolarMonths: ArithmeticMonths {
    /// The first day of Gregorian reckoning; days before it are Julian.
    let firstGregorianDay: Int

    init(reform: Reform) {
        firstGregorianDay = reform.firstGregorianDay
    }

    // MARK: Day numbers

    /// The day number of a proleptic Gregorian date (astronomical year).
    static func gregorianDay(year: Int, month: Int, day: Int) -> Int {
        CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: year, month: month, day: day))
    }

    /// The proleptic Gregorian date of a day number.
    static func gregorianDate(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        CivilTime.date(ofDay: CivilTime.day(ofGrid: dayNumber))
    }

    /// Days between the Julian and the Gregorian counts: Julian 1582-10-05 is Gregorian 1582-10-15.
    private static let julianOffset = gregorianDay(year: 1582, month: 10, day: 15) - julianCount(year: 1582, month: 10, day: 5)

    /// Days of a Julian date from an arbitrary epoch (4-year cycles of 1461 days, from March).
    private static func julianCount(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = CivilTime.floorDiv(y, 4)
        let yearOfEra = y - era * 4
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 1_461 + yearOfEra * 365 + dayOfYear
    }

    /// The day number of a proleptic Julian date (astronomical year).
    static func julianDay(year: Int, month: Int, day: Int) -> Int {
        julianCount(year: year, month: month, day: day) + julianOffset
    }

    /// The proleptic Julian date of a day number.
    static func julianDate(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber - julianOffset
        let era = CivilTime.floorDiv(z, 1_461)
        let dayOfEra = z - era * 1_461
        // The leap day closes each cycle's fourth year (counted from March).
        let yearOfEra = min(dayOfEra / 365, 3)
        return marchBased(year: yearOfEra + era * 4, dayOfYear: dayOfEra - yearOfEra * 365)
    }

    /// The date of day `dayOfYear` (from 0) of the year that starts on 1 March of `year`.
    private static func marchBased(year: Int, dayOfYear: Int) -> (year: Int, month: Int, day: Int) {
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? year + 1 : year, month, day)
    }

    // MARK: The calendar with its reform

    /// The date `dayNumber` has in this calendar (astronomical year).
    func date(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        dayNumber >= firstGregorianDay ? Self.gregorianDate(dayNumber) : Self.julianDate(dayNumber)
    }

    /// The day number of `year`-`month`-`day` (astronomical year), or nil when the reform skipped it.
    func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        let julian = Self.julianDay(year: year, month: month, day: day)
        if julian < firstGregorianDay { return julian }
        let gregorian = Self.gregorianDay(year: year, month: month, day: day)
        return gregorian >= firstGregorianDay ? gregorian : nil
    }

    /// The first day of `month` of `year` (its day 1, or the first of its days that exists).
    func firstDay(year: Int, month: Int) -> Int {
        let julian = Self.julianDay(year: year, month: month, day: 1)
        return julian < firstGregorianDay ? julian : max(Self.gregorianDay(year: year, month: month, day: 1), firstGregorianDay)
    }

    /// How Foundation names the month `month` of astronomical `year`.
    static func name(year: Int, month: Int) -> MonthName {
        let named = CivilTime.eraAndYear(astronomical: year)
        return MonthName(era: named.era, year: named.year, month: month)
    }

    func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int) {
        let date = date(day)
        let (nextYear, nextMonth) = date.month == 12 ? (date.year + 1, 1) : (date.year, date.month + 1)
        return (firstDay(year: date.year, month: date.month), Self.name(year: date.year, month: date.month),
                firstDay(year: nextYear, month: nextMonth))
    }

    /// The month after `month`: it starts on `month.endDay` and is named `month.nextName`, both
    /// known already, so only its end and the name after it are computed (what
    /// `wholeMonth(holding: month.endDay)` gives, with half the arithmetic: a stream steps
    /// month after month).
    func month(after month: Month) -> Month? {
        let name = month.nextName
        let year = CivilTime.astronomicalYear(era: name.era, year: name.year)
        let (afterYear, afterMonth) = name.month == 12 ? (year + 1, 1) : (year, name.month + 1)
        let endDay = firstDay(year: afterYear, month: afterMonth)
        return Month(firstDay: month.endDay, dayCount: endDay - month.endDay, name: name,
                     nextName: Self.name(year: afterYear, month: afterMonth))
    }

    func dayLabels(of month: Month) -> DayLabels {
        guard month.firstDay < firstGregorianDay, month.endDay > firstGregorianDay else { return .consecutive }
        return .listed((month.firstDay..<month.endDay).map { date($0).day })
    }

    func yearStart(holding day: Int) -> Int {
        firstDay(year: date(day).year, month: 1)
    }
}
