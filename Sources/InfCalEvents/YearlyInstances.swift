import InfCalModel

/// The instances of an event that repeats on fixed days of the Gregorian year (a birthday, an
/// anniversary: FREQ=YEARLY with at most BYMONTH, BYMONTHDAY and the time parts), computed
/// straight from the year: the days are the chosen months' chosen days, the same every year
/// but for the months' lengths, so a range costs what its instances cost, with no period,
/// candidate list or cache of the general expander.
///
/// Only an event that nothing else shapes qualifies: one RRULE without COUNT or RSCALE, no
/// EXRULE, RDATE, EXDATE or override, and fewer times a day than the day limit (so nothing is
/// cut). Its instances are then what `Event.instances(in:)` gives: DTSTART, which is always the
/// first instance, then every time of every chosen day of every INTERVALth year after it, up
/// to UNTIL.
struct YearlyInstances {
    /// DTSTART, wall-clock civil seconds.
    private let start: Int
    private let startYear: Int
    private let interval: Int
    /// UNTIL in the same reckoning, inclusive.
    private let until: Int?
    /// The chosen months (1-12), in order, each once.
    private let months: [Int]
    /// BYMONTHDAY's values (with DTSTART's day where the rule has none): from the end when negative.
    private let monthDays: [Int]
    /// Seconds of the day of each instance, in order.
    private let times: [Int]

    /// The closed form of `event`'s instances, or nil when its rule or its other parts need the
    /// general expander.
    init?(_ event: Event) {
        guard event.expanders.count == 1, let expander = event.expanders.first, event.exclusionRules.isEmpty,
              event.extraStarts.isEmpty, event.excluded.isEmpty, event.excludedDays.isEmpty,
              event.segment.shift == 0, event.segment.from == nil, event.segment.to == nil,
              event.segment.seriesStart == expander.start else { return nil }
        let rule = expander.rule
        guard rule.frequency == .yearly, rule.scale == nil, rule.count == nil, rule.interval >= 1, rule.bySetPos.isEmpty,
              expander.includesStart, expander.scale is GregorianScale, !expander.countsWeekYears,
              expander.yearDays.isEmpty, expander.weekNumbers.isEmpty, expander.ordinals.isEmpty, !expander.hasPlainWeekdays,
              !expander.months.isEmpty, !expander.monthDays.isEmpty,
              !expander.timeOfDay.isEmpty, expander.timeOfDay.count < InputLimits.instancesPerDay else { return nil }
        var months: [Int] = []
        for wanted in expander.months where !wanted.isLeap && (1...12).contains(wanted.month) && !months.contains(wanted.month) {
            months.append(wanted.month)
        }
        months.sort()
        self.months = months
        monthDays = expander.monthDays
        times = expander.timeOfDay
        start = expander.start
        startYear = expander.startYear
        interval = rule.interval
        until = expander.until
    }

    /// Far beyond any calendar's last month, and far enough from `Int.max` that a year's
    /// seconds near it do not overflow.
    private static let latest = Int.max / 2

    /// Calls `body` with each instance starting in `range` (wall-clock civil seconds), in order.
    func forEach(in range: Range<Int>, _ body: (Int) -> Void) {
        guard !range.isEmpty else { return }
        if range.contains(start) { body(start) }
        // Instances after DTSTART, up to UNTIL, within the range.
        guard start < Self.latest else { return }
        let low = max(range.lowerBound, start + 1)
        var high = min(range.upperBound - 1, Self.latest)
        if let until { high = min(high, until) }
        guard low <= high else { return }
        let firstYear = CivilTime.date(ofDay: CivilTime.day(ofSeconds: low)).year
        let lastYear = CivilTime.date(ofDay: CivilTime.day(ofSeconds: high)).year
        // The first year of the rule's step at or after `firstYear`.
        var year = firstYear + CivilTime.floorMod(startYear - firstYear, interval)
        func emit(_ day: Int) {
            for time in times {
                let instance = day * CivilTime.secondsPerDay + time
                if instance >= low, instance <= high { body(instance) }
            }
        }
        while year <= lastYear {
            for month in months {
                let first = CivilTime.day(year: year, month: month, day: 1)
                let length = CivilTime.monthLength(year: year, month: month)
                // A day the month lacks is left out, as without RSCALE.
                if monthDays.count == 1 {
                    let value = monthDays[0]
                    let offset = value > 0 ? value - 1 : length + value
                    if offset >= 0, offset < length { emit(first + offset) }
                    continue
                }
                // Several days: in order and each once (BYMONTHDAY=1,-31 in January name one day).
                var offsets: [Int] = []
                for value in monthDays {
                    let offset = value > 0 ? value - 1 : length + value
                    if offset >= 0, offset < length, !offsets.contains(offset) { offsets.append(offset) }
                }
                offsets.sort()
                for offset in offsets { emit(first + offset) }
            }
            year += interval
        }
    }
}
