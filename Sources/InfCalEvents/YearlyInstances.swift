import InfCalModel

/// The instances of an event that repeats on one day of the Gregorian year (a birthday, an
/// anniversary: FREQ=YEARLY, at most one BYMONTH, one BYMONTHDAY and one time of day), computed
/// straight from the year, so a range costs what its instances cost, with no period, candidate
/// list or cache of the general expander. Plain values only: the window copies them freely.
///
/// Only an event that nothing else shapes qualifies: one RRULE without COUNT or RSCALE, no
/// EXRULE, RDATE, EXDATE or override. Its instances are then what `Event.instances(in:)`
/// gives: DTSTART, which is always the first instance, then that day and time of every
/// INTERVALth year after it that has the day (a 29 February only in leap years, as without
/// RSCALE), up to UNTIL.
struct YearlyInstances {
    /// DTSTART, wall-clock civil seconds.
    private let start: Int
    private let startYear: Int
    private let interval: Int
    /// UNTIL in the same reckoning, inclusive (`latest` without one).
    private let until: Int
    /// The month (1-12), its day (from the end when negative) and the second of the day.
    private let month: Int
    private let monthDay: Int
    private let time: Int
    /// Days from 1 January to the first of `month` in a common year, and the month's length then.
    private let monthOffset: Int
    private let commonLength: Int
    /// The event's place in the store's events, and its duration.
    let event: Int
    /// Its place among the store's recurring events.
    var place = 0
    let duration: Int
    /// Whether its times are dates or floating (shown as written).
    let local: Bool
    /// The years of the second after DTSTART and of UNTIL.
    private let afterStartYear: Int
    private let untilYear: Int

    /// The closed form of `event` (at `index` in the store's events), or nil when its rule or
    /// its other parts need the general expander.
    init?(_ event: Event, index: Int) {
        guard event.expanders.count == 1, let expander = event.expanders.first, event.exclusionRules.isEmpty,
              event.extraStarts.isEmpty, event.excluded.isEmpty, event.excludedDays.isEmpty,
              event.segment.shift == 0, event.segment.from == nil, event.segment.to == nil,
              event.segment.seriesStart == expander.start, expander.start < Self.latest else { return nil }
        let rule = expander.rule
        guard rule.frequency == .yearly, rule.scale == nil, rule.count == nil, rule.interval >= 1, rule.bySetPos.isEmpty,
              expander.includesStart, expander.scale is GregorianScale, !expander.countsWeekYears,
              expander.yearDays.isEmpty, expander.weekNumbers.isEmpty, expander.ordinals.isEmpty, !expander.hasPlainWeekdays,
              expander.months.count == 1, let wanted = expander.months.first, !wanted.isLeap, (1...12).contains(wanted.month),
              expander.monthDays.count == 1, let monthDay = expander.monthDays.first,
              expander.timeOfDay.count == 1, let time = expander.timeOfDay.first else { return nil }
        month = wanted.month
        monthOffset = CivilTime.day(year: 2001, month: wanted.month, day: 1) - CivilTime.day(year: 2001, month: 1, day: 1)
        commonLength = CivilTime.monthLength(year: 2001, month: wanted.month)
        self.monthDay = monthDay
        self.time = time
        start = expander.start
        startYear = expander.startYear
        interval = rule.interval
        until = min(expander.until ?? Self.latest, Self.latest)
        afterStartYear = Self.year(of: start + 1)
        untilYear = Self.year(of: until)
        local = event.start.form == .date || event.start.form == .floating
        self.event = index
        duration = event.duration
    }

    /// Far beyond any calendar's last month, and far enough from `Int.max` that a year's
    /// seconds near it do not overflow.
    private static let latest = Int.max / 2

    /// The part of `range` (wall-clock civil seconds) where instances after DTSTART may lie:
    /// after it, up to UNTIL; nil when none is left.
    func after(_ range: Range<Int>) -> ClosedRange<Int>? {
        let low = max(range.lowerBound, start + 1)
        let high = min(range.upperBound - 1, until)
        return low <= high ? low...high : nil
    }

    /// The years that may hold instances starting in `range`, or nil when none can:
    /// `rangeYears` are the years of its first and last second, found once for every form.
    func years(in range: Range<Int>, within rangeYears: ClosedRange<Int>) -> ClosedRange<Int>? {
        guard !range.isEmpty else { return nil }
        // The years of the span's ends, from the years of the ends it is the latest or the
        // earliest of (years grow with the seconds).
        let span = after(range)
        guard let first = range.contains(start) ? startYear : span.map({ _ in max(rangeYears.lowerBound, afterStartYear) }) else { return nil }
        let last = span == nil ? startYear : min(rangeYears.upperBound, untilYear)
        return first <= last ? first...last : nil
    }

    /// The form as a block of years is made from it (`YearlyStarts`): the rule's instance in a
    /// common and in a leap year as seconds from its 1 January (`Int.min` where such a year
    /// lacks the day), DTSTART (`Int.min` when `range` does not hold it) and its year,
    /// INTERVAL, and the instances after DTSTART that `range` holds (`first...last`, empty
    /// when first > last).
    func plan(in range: Range<Int>) -> (common: Int, leap: Int, start: Int, startYear: Int, interval: Int, first: Int, last: Int) {
        let span = after(range)
        let (common, leap) = (dayOfYear(isLeap: false), dayOfYear(isLeap: true))
        return (common < 0 ? Int.min : common * CivilTime.secondsPerDay + time, leap < 0 ? Int.min : leap * CivilTime.secondsPerDay + time,
                range.contains(start) ? start : Int.min, startYear, interval, span?.lowerBound ?? 1, span?.upperBound ?? 0)
    }

    static func year(of seconds: Int) -> Int {
        CivilTime.date(ofDay: CivilTime.day(ofSeconds: seconds)).year
    }

    /// Calls `body` with each instance of (Gregorian) year `year` starting in `range`, in order:
    /// `firstDay` is the civil day of the year's 1 January, `isLeap` whether it has a 29 February,
    /// and `span` what `after(range)` gives.
    @inline(__always)
    func forEach(inYear year: Int, firstDay: Int, isLeap: Bool, in range: Range<Int>, after span: ClosedRange<Int>?, _ body: (Int) -> Void) {
        if year == startYear, range.contains(start) { body(start) }
        guard year >= startYear, interval == 1 || (year - startYear) % interval == 0, let span else { return }
        let day = dayOfYear(isLeap: isLeap)
        guard day >= 0 else { return }
        let instance = (firstDay + day) * CivilTime.secondsPerDay + time
        if span.contains(instance) { body(instance) }
    }

    /// The rule's day in a year (days from 1 January) that is a leap year or not; -1 when
    /// such a year lacks it.
    @inline(__always)
    private func dayOfYear(isLeap: Bool) -> Int {
        let leapDay = isLeap && month > 1 ? 1 : 0
        let length = commonLength + (month == 2 ? leapDay : 0)
        let offset = monthDay > 0 ? monthDay - 1 : length + monthDay
        return offset >= 0 && offset < length ? monthOffset + (month > 2 ? leapDay : 0) + offset : -1
    }
}
