import Foundation

/// The months of a calendar as a Foundation `Calendar` computes them, in UTC at noon, checked.
///
/// Foundation clamps instead of failing: before 1 January 4713 BC (and past a far upper limit)
/// it hands back dates whose components are pinned or garbled, and far from the present its
/// answers can break a calendar's rules. Every month this type takes from Foundation has been
/// checked: its first day's components are day 1 at noon and map back to exactly that day, each
/// step moves strictly one way, and the month keeps the calendar's invariants
/// (`MonthInvariants`). The month before a month is the one whose step forward is that month,
/// so both directions give the same months. Where a check fails the answer is nil, so every
/// walk ends, in both directions, with no month twice.
struct FoundationMonths: MonthRules {
    private let foundation: DeferredCalendar
    /// The calendar the months belong to (see `MonthCalendar.identifier`).
    private let identifier: Calendar.Identifier
    /// The first day past the last month Foundation computes soundly, or nil (see
    /// `MonthCalendar.upperLimit(for:)`).
    private let upperLimit: Int?

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
    private let lengths = MonthLengths()

    /// The months `foundation` computes for the calendar `identifier`, ending before `upperLimit`.
    init(_ foundation: DeferredCalendar, identifier: Calendar.Identifier, upperLimit: Int?) {
        self.foundation = foundation
        self.identifier = identifier
        self.upperLimit = upperLimit
        probeDistance = foundation.calendar.maximumRange(of: .day).map { $0.upperBound - 1 } ?? 31
    }

    private var calendar: Calendar { foundation.calendar }

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

    // MARK: Checked starts and steps

    static let nameComponents: Set<Calendar.Component> = [.era, .year, .month, .day, .hour, .isLeapMonth]

    /// The name of the month that starts at `date` in `calendar`, or nil unless `date` is noon of
    /// a first day whose components map back to it (the test that catches Foundation's clamping).
    static func checkedStart(_ date: Date, in calendar: Calendar) -> MonthName? {
        let found = calendar.dateComponents(nameComponents, from: date)
        guard let name = startName(found), calendar.date(from: found) == date else { return nil }
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
        let calendar = calendar
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
        return Self.addingStep(from: firstDay, name: name, by: months, in: calendar)
    }

    /// The month after the one named `name` that starts on `firstDay`, found from the day `guess`
    /// days after `firstDay` (at most `probeDistance`, so it lies in this month or the next).
    /// - returns: nil when that day lies in this month (the guess was short) or a check fails.
    private func guessedStep(from firstDay: Int, name: MonthName, guess: Int) -> (day: Int, name: MonthName)? {
        let calendar = calendar
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
        guard start > firstDay, Self.checkedStart(DayNumber.date(start), in: calendar) == found else { return nil }
        return (start, found)
    }

    /// The same step as `step`, as `calendar` adds `months` months.
    static func addingStep(from firstDay: Int, name: MonthName, by months: Int, in calendar: Calendar) -> (day: Int, name: MonthName)? {
        let start = DayNumber.date(firstDay)
        guard let date = calendar.date(byAdding: .month, value: months, to: start),
              months > 0 ? date > start : date < start,
              let stepped = checkedStart(date, in: calendar), stepped != name
        else { return nil }
        return (DayNumber.day(of: date), stepped)
    }

    // MARK: Months

    func month(containing day: Int) -> Month? {
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

    func month(after month: Month) -> Month? {
        let firstDay = month.endDay
        guard firstDay < upperLimit ?? .max,
              let next = step(from: firstDay, name: month.nextName, by: 1), next.day <= upperLimit ?? .max else { return nil }
        return checked(Month(firstDay: firstDay, dayCount: next.day - firstDay, name: month.nextName, nextName: next.name))
    }

    /// The month whose step forward is `month`, so that a stream backward shows exactly the
    /// months of a stream forward.
    func month(before month: Month) -> Month? {
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
        return day >= MonthCalendar.lowerLimitDay ? directMonth(containing: day) : nil
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
    private static let firstMonthReach = MonthCalendar.lowerLimitDay + 32

    /// The month that holds 1 January 4713 BC. Its first day may lie before that day, where
    /// Foundation clamps: it is that day less its day of the month, less one.
    private func firstMonth() -> Month? {
        let lowerLimitDay = MonthCalendar.lowerLimitDay
        let parts = calendar.dateComponents(Self.nameComponents, from: DayNumber.date(lowerLimitDay))
        guard let dayOfMonth = parts.day, let era = parts.era, let year = parts.year, let number = parts.month else { return nil }
        let name = MonthName(era: era, year: year, month: number, isLeapMonth: parts.isLeapMonth ?? false)
        let firstDay = lowerLimitDay - (dayOfMonth - 1)
        guard let next = step(from: firstDay, name: name, by: 1), next.day > lowerLimitDay else { return nil }
        return checked(Month(firstDay: firstDay, dayCount: next.day - firstDay, name: name, nextName: next.name))
    }

    /// `month`, or nil when it breaks the calendar's invariants (`MonthInvariants`).
    private func checked(_ month: Month) -> Month? {
        MonthInvariants.admits(month, in: identifier) ? month : nil
    }

    // MARK: Days

    /// Nearly always 1 through the month's length. Foundation's only break in the numbering is
    /// the Julian to Gregorian change, which leaves October 1582 with days 1-4 and 15-31, 21 days
    /// in all; so only a month shorter than 28 days is looked at more closely (the short 13th
    /// months of the Coptic and Ethiopic calendars are the others, and they number from 1).
    func dayLabels(of month: Month) -> DayLabels {
        guard month.dayCount < 28 else { return .consecutive }
        let calendar = calendar
        let lastLabel = calendar.component(.day, from: DayNumber.date(month.lastDay))
        guard lastLabel != month.dayCount else { return .consecutive }
        return .listed((month.firstDay...month.lastDay).map { calendar.component(.day, from: DayNumber.date($0)) })
    }

    func dayOfYear(_ day: Int) -> Int? {
        calendar.ordinality(of: .day, in: .year, for: DayNumber.date(day))
    }

    func weekOfYear(_ day: Int, firstWeekday: Int, minimumDays: Int) -> Int? {
        var weeks = calendar
        weeks.firstWeekday = firstWeekday
        weeks.minimumDaysInFirstWeek = minimumDays
        return weeks.dateComponents([.weekOfYear], from: DayNumber.date(day)).weekOfYear
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
