import Foundation

/// The months of a calendar: by the calendar's own rules where infcal has them
/// (`ArithmeticMonths`: the Gregorian calendar with its reform, the Hebrew calendar, and the
/// Chinese, Dangi and astronomical Islamic calendars as ICU computes them), else Foundation's,
/// checked (`FoundationMonths`); within the calendar's limits, which this type keeps. Every
/// calendar starts with the month that holds 1 January 4713 BC.
public struct MonthCalendar: Sendable {
    /// The Foundation calendar that computes the months, in UTC (made on first use: the months
    /// computed by the calendar's own rules never need it).
    public var calendar: Calendar { foundation.calendar }
    private let foundation: DeferredCalendar
    /// The calendar the months belong to, which names them. It differs from
    /// `calendar.identifier` only where this platform's Foundation cannot compute it and an
    /// equivalent calendar computes the same months (see `FoundationMonths.arithmetic(for:)`).
    public let identifier: Calendar.Identifier

    /// The first day past the last month Foundation computes soundly, where that limit is not
    /// found by the checks alone (see `upperLimit(for:)`); nil elsewhere.
    public let upperLimit: Int?

    /// The reform the Gregorian calendar (and ISO 8601's) follows; other calendars ignore it.
    public let reform: Reform

    /// The months: by the calendar's own rules where infcal computes them without Foundation
    /// (the Chinese, Dangi and astronomical Islamic months as ICU computes them, the same months
    /// without ICU's caches, which never shrink), else Foundation's.
    let months: any MonthRules

    /// The day number of 1 January 4713 BC (Julian), the first day of every calendar: Foundation
    /// clamps dates before it. Every calendar's first month is the month that holds it.
    public static let lowerLimitDay = -2_451_911

    /// A month calendar for `identifier`, its zone fixed to UTC, its Gregorian months following
    /// `reform`; `limited` false lifts `upperLimit` and takes the Chinese, Dangi and Islamic
    /// months from Foundation (for the tests that check where Foundation's months end, and
    /// that infcal's are Foundation's).
    public init(_ identifier: Calendar.Identifier, reform: Reform = .papal) {
        self.init(identifier, limited: true, reform: reform)
    }

    init(_ identifier: Calendar.Identifier, limited: Bool, reform: Reform = .papal) {
        let foundation = DeferredCalendar { FoundationMonths.arithmetic(for: identifier) }
        self.foundation = foundation
        self.identifier = identifier
        self.reform = reform
        // No optional existential on the way: its metadata, made at run time on first use, cost
        // every start-up more than the rest of this initializer.
        let own: Bool
        switch identifier {
        case .gregorian, .iso8601, .hebrew: own = true
        // Foundation's own months, with `limited` false, for the tests that check where they fail.
        case .chinese, .dangi, .islamic: own = limited
        default: own = false
        }
        let upperLimit = limited || own ? Self.upperLimit(for: identifier) : nil
        self.upperLimit = upperLimit
        switch identifier {
        case .gregorian, .iso8601: months = SolarMonths(reform: reform)
        case .hebrew: months = HebrewMonths()
        case .chinese where own: months = ChineseMonths(zone: .china)
        case .dangi where own: months = ChineseMonths(zone: .korea)
        case .islamic where own: months = IslamicMonths()
        default: months = FoundationMonths(foundation, identifier: identifier, upperLimit: upperLimit)
        }
    }

    /// The calendar's own rules, where infcal computes its months without Foundation; else nil
    /// (for the tests that compare them with Foundation's).
    var rules: (any ArithmeticMonths)? { months as? any ArithmeticMonths }

    /// Where the Chinese and Dangi calendars end.
    ///
    /// Foundation's arithmetic for them fails, walking forward from the present, at the end of
    /// the eleventh month of Chinese year 53 of cycle 1139 (2 December 65696) and of Dangi
    /// year 1 of cycle 1173 (28 November 67684): the step to the next month fails its checks.
    /// Past that point it recovers for stretches (months from 65697-03 step on to 67290), so
    /// the checks alone would let a stream started there run on; these limits end every stream
    /// at the first failure instead. A test checks that the step fails exactly there.
    static func upperLimit(for identifier: Calendar.Identifier) -> Int? {
        switch identifier {
        case .chinese: return 23_264_457
        case .dangi: return 23_990_555
        // The calendars infcal computes itself end where Foundation's Gregorian calendar ends:
        // January 506713 is its last month (a test checks it). A month holding a day before
        // this one is shown whole.
        case .gregorian, .iso8601, .hebrew: return Self.arithmeticUpperLimit
        // The astronomical Islamic calendar, computed as ICU computes it, ends where Foundation's
        // months end: with Rabi' II 521623, the last month whose start maps back (a test checks it).
        case .islamic: return 184_342_301
        default: return nil
        }
    }

    /// The day after the last day of January 506713 (Gregorian).
    static let arithmeticUpperLimit = SolarMonths.gregorianDay(year: 506_713, month: 2, day: 1)

    // MARK: Months

    /// The month that holds `day`.
    /// - returns: nil before 1 January 4713 BC, and where that month, or its end, lies where
    ///   Foundation's arithmetic is not sound.
    public func month(containing day: Int) -> Month? {
        guard day >= Self.lowerLimitDay, day < upperLimit ?? .max else { return nil }
        return months.month(containing: day)
    }

    /// The month after `month`.
    /// - returns: nil at the calendar's upper limit.
    public func month(after month: Month) -> Month? {
        guard month.endDay < upperLimit ?? .max else { return nil }
        return months.month(after: month)
    }

    /// The month before `month`: the month whose step forward is `month`, so that a stream
    /// backward shows exactly the months of a stream forward.
    /// - returns: nil at the calendar's lower limit, the month that holds 1 January 4713 BC.
    public func month(before month: Month) -> Month? {
        guard month.firstDay > Self.lowerLimitDay else { return nil }
        return months.month(before: month)
    }

    // MARK: Days

    /// The day number of astronomical `year`-`month`-`day` in the Gregorian calendar with this
    /// calendar's reform (Julian before it).
    /// - returns: nil when the date does not exist (2023-02-29, or a day the reform skipped).
    public func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        let solar = SolarMonths(reform: reform)
        guard let number = solar.dayNumber(year: year, month: month, day: day), solar.date(number) == (year, month, day) else { return nil }
        return number
    }

    /// Why a Gregorian date cannot be a day of the calendars.
    public enum DateFailure: Error, Equatable, Sendable {
        /// The day does not exist, as 2023-02-29 or 1582-10-10 (skipped by the reform).
        case noSuchDay
        /// The date is beyond what the calendars compute.
        case outOfRange
    }

    /// The day number of astronomical `year`-`month`-`day` read as `dayNumber(year:month:day:)`
    /// reads it, checked to exist and to lie inside the range every calendar computes.
    public func checkedDayNumber(year: Int, month: Int, day: Int) throws(DateFailure) -> Int {
        // Far beyond the calendars' range either way (4713 BC to AD 506713), and small enough
        // that no arithmetic below can overflow.
        guard year.magnitude <= 1_000_000 else { throw .outOfRange }
        guard let number = dayNumber(year: year, month: month, day: day) else { throw .noSuchDay }
        guard number >= Self.lowerLimitDay, number < Self.arithmeticUpperLimit else { throw .outOfRange }
        return number
    }

    /// The day-of-month numbers of `month`'s days, in order: nearly always 1 through the
    /// month's length (October 1582 has 1-4, then 15-31).
    public func dayLabels(of month: Month) -> DayLabels { months.dayLabels(of: month) }

    /// The day of its year that `day` is, counting the days that exist from 1.
    /// - returns: nil where Foundation cannot say.
    public func dayOfYear(_ day: Int) -> Int? { months.dayOfYear(day) }

    /// The week of the year that holds `day`, for weeks starting on `firstWeekday` (1 is Sunday)
    /// whose first week has at least `minimumDays` days in the new year.
    /// - returns: nil where Foundation cannot say.
    public func weekOfYear(_ day: Int, firstWeekday: Int, minimumDays: Int) -> Int? {
        months.weekOfYear(day, firstWeekday: firstWeekday, minimumDays: minimumDays)
    }

    // MARK: Foundation's steps, for the tests

    /// The distance from a month's first day to a probe day in the next month that Foundation's
    /// steps use (31 where the calendar's own rules step).
    var probeDistance: Int { (months as? FoundationMonths)?.probeDistance ?? 31 }

    /// The step from the month named `name` that starts on `firstDay`, `months` months on, as
    /// Foundation adds months, checked: its first day and name, or nil.
    func addingStep(from firstDay: Int, name: MonthName, by months: Int) -> (day: Int, name: MonthName)? {
        FoundationMonths.addingStep(from: firstDay, name: name, by: months, in: calendar)
    }
}
