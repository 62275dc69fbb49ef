import Foundation

/// The months of a calendar: by the calendar's own rules where infcal has them (`MonthRules`:
/// the Gregorian calendar with its reform, the Hebrew calendar, and the Chinese, Dangi and
/// astronomical Islamic calendars as ICU computes them), else over a Foundation `Calendar`,
/// computed in UTC at noon.
///
/// Foundation clamps instead of failing: before 1 January 4713 BC (and past a far upper limit)
/// it hands back dates whose components are pinned or garbled, and far from the present its
/// answers can break a calendar's rules. Every month this type takes from Foundation has been
/// checked: its first day's components are day 1 at noon and map back to exactly that day, each
/// step moves strictly one way, and the month keeps the calendar's invariants
/// (`MonthInvariants`). The month before a month is the one whose step forward is that month,
/// so both directions give the same months. Where a check fails the answer is nil, so every
/// walk ends, in both directions, with no month twice. Every calendar starts with the month
/// that holds 1 January 4713 BC.
public struct MonthCalendar: Sendable {
    /// The Foundation calendar that computes the months, in UTC (made on first use: the months
    /// computed by the calendar's own rules never need it).
    public var calendar: Calendar { foundation.calendar }
    private let foundation: DeferredCalendar
    /// The calendar the months belong to, which names them. It differs from
    /// `calendar.identifier` only where this platform's Foundation cannot compute it and an
    /// equivalent calendar computes the same months (see `arithmetic(for:)`).
    public let identifier: Calendar.Identifier

    /// The first day past the last month Foundation computes soundly, where that limit is not
    /// found by the checks alone (see `upperLimit(for:)`); nil elsewhere.
    public let upperLimit: Int?

    /// The reform the Gregorian calendar (and ISO 8601's) follows; other calendars ignore it.
    public let reform: Reform

    /// The months by the calendar's own rules, where infcal computes them without Foundation:
    /// the Gregorian (and ISO 8601) calendar and the Hebrew calendar; and the Chinese, Dangi and
    /// astronomical Islamic months as ICU computes them (`ChineseMonths`, `IslamicMonths`), the
    /// same months without ICU's caches, which never shrink.
    public let rules: (any MonthRules)?

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
        foundation = DeferredCalendar { Self.arithmetic(for: identifier) }
        self.identifier = identifier
        self.reform = reform
        switch identifier {
        case .gregorian, .iso8601: rules = SolarMonths(reform: reform)
        case .hebrew: rules = HebrewMonths()
        // Foundation's own months, with `limited` false, for the tests that check where they fail.
        case .chinese where limited: rules = ChineseMonths(zone: .china)
        case .dangi where limited: rules = ChineseMonths(zone: .korea)
        case .islamic where limited: rules = IslamicMonths()
        default: rules = nil
        }
        upperLimit = limited || rules != nil ? Self.upperLimit(for: identifier) : nil
        // The Foundation path alone probes; the rules never ask Foundation for a month.
        probeDistance = rules != nil ? 31 : foundation.calendar.maximumRange(of: .day).map { $0.upperBound - 1 } ?? 31
        lengths = MonthLengths()
    }

    /// The calendar that computes the months of `identifier`.
    ///
    /// Foundation on Linux computes "ethiopic-amete-alem" as if it were the Gregorian calendar,
    /// though its formatter names the months right. The Amete Alem calendar has the Ethiopic
    /// calendar's months and counts years from the creation (5500 more than the Ethiopic
    /// era of mercy), so where Foundation gets it wrong the Ethiopic calendar steps the months
    /// and the Amete Alem one names them.
    static func arithmetic(for identifier: Calendar.Identifier) -> Calendar.Identifier {
        guard identifier == .ethiopicAmeteAlem else { return identifier }
        var own = Calendar(identifier: identifier)
        own.timeZone = .gmt
        // 2024-02-15 is 7 Yekatit 7516 (month 6) in the Amete Alem calendar.
        let parts = own.dateComponents([.year, .month], from: DayNumber.date(8_445))
        return parts.year == 7_516 && parts.month == 6 ? identifier : .ethiopicAmeteMihret
    }

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

    /// The length in days of the calendar's longest month, as Foundation states it (30 or 31).
    ///
    /// The day this many days after a month's first day always lies in the month after it: this
    /// month is no longer than that, and it and the next month are longer together, in every
    /// calendar Foundation has (the shortest pair is a Coptic or Ethiopic 13th month of 5 or 6
    /// days next to a month of 30; October 1582, 21 days, lies between months of 30). A test
    /// checks this, and that the steps agree with Foundation's `date(byAdding: .month)`, in every
    /// calendar over wide ranges.
    let probeDistance: Int

    /// The longest each month has been so far: where the next month most likely starts.
    let lengths: MonthLengths

    static let nameComponents: Set<Calendar.Component> = [.era, .year, .month, .day, .hour, .isLeapMonth]

    /// The name of the month that starts at `date`, or nil unless `date` is noon of a first day
    /// whose components map back to it (the test that catches Foundation's clamping).
    func checkedStart(_ date: Date) -> MonthName? {
        let found = calendar.dateComponents(Self.nameComponents, from: date)
        guard let name = Self.startName(found), calendar.date(from: found) == date else { return nil }
        return name
    }

    /// The name `parts` give a month, or nil unless they are day 1 at noon with an era, a year
    /// and a month.
    private static func startName(_ parts: DateComponents) -> MonthName? {
        guard parts.day == 1, parts.hour == 12, let era = parts.era, let year = parts.year, let month = parts.month
        else { return nil }
        return MonthName(era: era, year: year, month: month, isLeapMonth: parts.isLeapMonth ?? false)
    }

    /// The first day and name of the month that holds `day`, checked as `checkedStart` does.
    private func start(ofMonthHolding day: Int) -> (day: Int, name: MonthName)? {
        var parts = calendar.dateComponents(Self.nameComponents, from: DayNumber.date(day))
        parts.day = 1
        parts.hour = 12
        guard let date = calendar.date(from: parts) else { return nil }
        // The check of `checkedStart(date)`, one call shorter: when the components of `date` are
        // `parts` again, mapping them back would give `date` once more (`parts` holds the same
        // six components and no others, so comparing those six is comparing all).
        let found = calendar.dateComponents(Self.nameComponents, from: date)
        guard let name = Self.startName(found) else { return nil }
        let same = found.era == parts.era && found.year == parts.year && found.month == parts.month
            && found.isLeapMonth == parts.isLeapMonth
        guard same || calendar.date(from: found) == date else { return nil }
        return (DayNumber.day(of: date), name)
    }

    /// The month after (`months` 1) or before (`months` -1) the one named `name` that starts on
    /// `firstDay`: its first day and name, or nil at the calendar's limit.
    ///
    /// Going forward, the step first tries the day as many days after `firstDay` as the longest
    /// month of that name has had (`guessedStep`), which usually is the next month's first day:
    /// one components call and one `date(from:)` with the checks. Otherwise, and going back, it
    /// takes the month that holds a probe day: the day before `firstDay` going back, and
    /// `probeDistance` days after it going forward: two components calls and one `date(from:)`
    /// with the checks (whose own `date(from:)` is saved), which is cheaper in every calendar than
    /// stepping with `date(byAdding: .month)` and checking (the benchmark's stream rows). Whenever a check fails on
    /// the short ways, the step is taken again as Foundation adds a month, so at the limits the
    /// answer is what that gives.
    private func step(from firstDay: Int, name: MonthName, by months: Int) -> (day: Int, name: MonthName)? {
        if months > 0, let guess = lengths.longest(of: name), guess <= probeDistance,
           let found = guessedStep(from: firstDay, name: name, guess: guess) {
            return found
        }
        let probe = months > 0 ? firstDay + probeDistance : firstDay - 1
        if let found = start(ofMonthHolding: probe), found.name != name,
           months > 0 ? found.day > firstDay && found.day <= probe : found.day < firstDay {
            lengths.record(months > 0 ? found.day - firstDay : firstDay - found.day, for: months > 0 ? name : found.name)
            return found
        }
        return addingStep(from: firstDay, name: name, by: months)
    }

    /// The month after the one named `name` that starts on `firstDay`, found from the day `guess`
    /// days after `firstDay` (at most `probeDistance`, so it lies in this month or the next).
    /// - returns: nil when that day lies in this month (the guess was short) or a check fails.
    private func guessedStep(from firstDay: Int, name: MonthName, guess: Int) -> (day: Int, name: MonthName)? {
        let day = firstDay + guess
        let date = DayNumber.date(day)
        let parts = calendar.dateComponents(Self.nameComponents, from: date)
        guard let dayOfMonth = parts.day, parts.hour == 12, let era = parts.era, let year = parts.year,
              let month = parts.month
        else { return nil }
        let found = MonthName(era: era, year: year, month: month, isLeapMonth: parts.isLeapMonth ?? false)
        guard found != name else { return nil }
        if dayOfMonth == 1 {
            // The guess was right: `date` starts the next month if its components map back to it.
            guard calendar.date(from: parts) == date else { return nil }
            return (day, found)
        }
        // The guess was long: the next month started `dayOfMonth - 1` days before (days are
        // numbered on from 1; where they are not, as in October 1582, the check fails).
        let start = day - (dayOfMonth - 1)
        guard start > firstDay, checkedStart(DayNumber.date(start)) == found else { return nil }
        return (start, found)
    }

    /// The same step as `step`, as Foundation adds `months` months.
    func addingStep(from firstDay: Int, name: MonthName, by months: Int) -> (day: Int, name: MonthName)? {
        let start = DayNumber.date(firstDay)
        guard let date = calendar.date(byAdding: .month, value: months, to: start),
              months > 0 ? date > start : date < start,
              let stepped = checkedStart(date), stepped != name
        else { return nil }
        return (DayNumber.day(of: date), stepped)
    }

    // MARK: Months

    /// The month that holds `day`.
    /// - returns: nil before 1 January 4713 BC, and where that month, or its end, lies where
    ///   Foundation's arithmetic is not sound.
    public func month(containing day: Int) -> Month? {
        guard day >= Self.lowerLimitDay, day < upperLimit ?? .max else { return nil }
        if let rules { return rules.wholeMonth(holding: day) }
        if let month = directMonth(containing: day) { return month }
        // Near a new moon seconds before midnight, Foundation's date-to-fields and fields-to-date
        // answers disagree by a day: the month the stream shows is found by stepping forward
        // from an earlier month, as the stream does.
        for distance in [35, 70, 130] {
            guard var month = anchorMonth(near: day - distance) else { continue }
            while month.endDay <= day {
                guard let next = self.month(after: month) else { return nil }
                month = next
            }
            if month.contains(day: day) { return month }
        }
        return nil
    }

    /// The month after `month`.
    /// - returns: nil at the calendar's upper limit.
    public func month(after month: Month) -> Month? {
        let firstDay = month.endDay
        guard firstDay < upperLimit ?? .max else { return nil }
        if let rules { return rules.wholeMonth(holding: firstDay) }
        guard let next = step(from: firstDay, name: month.nextName, by: 1), next.day <= upperLimit ?? .max else { return nil }
        return checked(Month(firstDay: firstDay, dayCount: next.day - firstDay, name: month.nextName, nextName: next.name))
    }

    /// The month before `month`: the month whose step forward is `month`, so that a stream
    /// backward shows exactly the months of a stream forward.
    /// - returns: nil at the calendar's lower limit, the month that holds 1 January 4713 BC.
    public func month(before month: Month) -> Month? {
        guard month.firstDay > Self.lowerLimitDay else { return nil }
        if let rules { return rules.wholeMonth(holding: month.firstDay - 1) }
        if let previous = step(from: month.firstDay, name: month.name, by: -1),
           let candidate = checked(Month(firstDay: previous.day, dayCount: month.firstDay - previous.day,
                                         name: previous.name, nextName: month.name)),
           self.month(after: candidate) == month {
            return candidate
        }
        // The short way back gave a month whose step forward is not `month` (Foundation's
        // components of a day can be a month out far from the present): step forward from an
        // earlier month instead, as the stream forward does.
        for distance in [70, 130] {
            guard var earlier = anchorMonth(near: month.firstDay - distance) else { continue }
            while earlier.endDay < month.firstDay {
                guard let next = self.month(after: earlier) else { return nil }
                earlier = next
            }
            if earlier.endDay == month.firstDay, self.month(after: earlier) == month { return earlier }
        }
        return nil
    }

    /// The month holding `day` as Foundation's components find it, checked; for a day in the
    /// calendar's first month, that month.
    private func anchorMonth(near day: Int) -> Month? {
        if day < Self.firstMonthReach, let first = firstMonth(), day < first.endDay { return first }
        return day >= Self.lowerLimitDay ? directMonth(containing: day) : nil
    }

    /// The month holding `day`, from its components: its first day's components map back to
    /// it and its step forward passes `day`.
    private func directMonth(containing day: Int) -> Month? {
        guard let (firstDay, name) = start(ofMonthHolding: day), firstDay <= day,
              let next = step(from: firstDay, name: name, by: 1), next.day > day, next.day <= upperLimit ?? .max
        else {
            // Foundation clamps days before 1 January 4713 BC, so the first month's start fails the checks.
            if day < Self.firstMonthReach, let first = firstMonth(), first.contains(day: day) { return first }
            return nil
        }
        return checked(Month(firstDay: firstDay, dayCount: next.day - firstDay, name: name, nextName: next.name))
    }

    /// A day past the end of every calendar's first month (no month is longer than 31 days).
    private static let firstMonthReach = lowerLimitDay + 32

    /// The month that holds 1 January 4713 BC. Its first day may lie before that day, where
    /// Foundation clamps: it is that day less its day of the month, less one.
    private func firstMonth() -> Month? {
        let parts = calendar.dateComponents(Self.nameComponents, from: DayNumber.date(Self.lowerLimitDay))
        guard let dayOfMonth = parts.day, let era = parts.era, let year = parts.year, let number = parts.month else { return nil }
        let name = MonthName(era: era, year: year, month: number, isLeapMonth: parts.isLeapMonth ?? false)
        let firstDay = Self.lowerLimitDay - (dayOfMonth - 1)
        guard let next = step(from: firstDay, name: name, by: 1), next.day > Self.lowerLimitDay else { return nil }
        return checked(Month(firstDay: firstDay, dayCount: next.day - firstDay, name: name, nextName: next.name))
    }

    /// `month`, or nil when it breaks the calendar's invariants (`MonthInvariants`).
    private func checked(_ month: Month) -> Month? {
        MonthInvariants.admits(month, in: identifier) ? month : nil
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

    /// The day-of-month numbers of `month`'s days, in order.
    ///
    /// Nearly always 1 through the month's length. Foundation's only break in the numbering is
    /// the Julian to Gregorian change, which leaves October 1582 with days 1-4 and 15-31, 21 days
    /// in all; so only a month shorter than 28 days is looked at more closely (the short 13th
    /// months of the Coptic and Ethiopic calendars are the others, and they number from 1).
    public func dayLabels(of month: Month) -> DayLabels {
        if let rules { return rules.dayLabels(of: month) }
        guard month.dayCount < 28 else { return .consecutive }
        let lastLabel = calendar.component(.day, from: DayNumber.date(month.lastDay))
        guard lastLabel != month.dayCount else { return .consecutive }
        return .listed((month.firstDay...month.lastDay).map { calendar.component(.day, from: DayNumber.date($0)) })
    }

    /// The day of its year that `day` is, counting the days that exist from 1.
    /// - returns: nil where Foundation cannot say.
    public func dayOfYear(_ day: Int) -> Int? {
        if let rules { return day - rules.yearStart(holding: day) + 1 }
        return calendar.ordinality(of: .day, in: .year, for: DayNumber.date(day))
    }

    /// The week of the year that holds `day`, for weeks starting on `firstWeekday` (1 is Sunday)
    /// whose first week has at least `minimumDays` days in the new year.
    /// - returns: nil where Foundation cannot say.
    public func weekOfYear(_ day: Int, firstWeekday: Int, minimumDays: Int) -> Int? {
        if let rules {
            return WeekOfYear(firstWeekday: firstWeekday, minimumDays: minimumDays).week(of: day, yearStart: rules.yearStart(holding:))
        }
        var weeks = calendar
        weeks.firstWeekday = firstWeekday
        weeks.minimumDaysInFirstWeek = minimumDays
        return weeks.dateComponents([.weekOfYear], from: DayNumber.date(day)).weekOfYear
    }
}

/// How the days of a month are numbered.
public enum DayLabels: Hashable, Sendable {
    /// 1, 2, 3, ... up to the month's length.
    case consecutive
    /// The numbers of the days that exist, in order (October 1582: 1-4, then 15-31).
    case listed([Int])
    /// Consecutive numbers from a first one: days of the year.
    case counting(from: Int)

    /// The label of the month's `index`th day (from 0).
    @inline(__always)
    public func label(at index: Int) -> Int {
        switch self {
        case .consecutive: return index + 1
        case .listed(let labels): return labels[index]
        case .counting(let first): return first + index
        }
    }
}

/// A Foundation calendar in UTC, made on first use and then kept. Making one costs a third of
/// infcal's start-up, and the Gregorian months (computed by their own rules) never need one.
final class DeferredCalendar: @unchecked Sendable {
    private let identifier: () -> Calendar.Identifier
    private let lock = NSLock()
    private var made: Calendar?

    /// A calendar of the identifier `identifier` gives, when first asked for.
    init(_ identifier: @escaping () -> Calendar.Identifier) {
        self.identifier = identifier
    }

    /// The calendar (made now, the first time).
    var calendar: Calendar {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        var calendar = Calendar(identifier: identifier())
        calendar.timeZone = .gmt
        made = calendar
        return calendar
    }
}
