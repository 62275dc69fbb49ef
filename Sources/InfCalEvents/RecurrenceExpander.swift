import InfCalModel

/// What a BYxxx part does at each FREQ (RFC 5545 §3.3.10, the table after BYSETPOS; libical's
/// `expand_map`): it expands the period into several instances, limits the instances, or is not
/// allowed (read leniently as a limit, as python-dateutil does).
enum PartAction { case expand, limit, notAllowed }

enum RulePart: Int, CaseIterable { case byMonth, byWeekNo, byYearDay, byMonthDay, byDay, byHour, byMinute, bySecond }

/// Rows: parts; columns: SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY.
let expandMap: [RulePart: [PartAction]] = [
    .byMonth: [.limit, .limit, .limit, .limit, .limit, .limit, .expand],
    .byWeekNo: [.notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .expand],
    .byYearDay: [.limit, .limit, .limit, .notAllowed, .notAllowed, .notAllowed, .expand],
    .byMonthDay: [.limit, .limit, .limit, .limit, .notAllowed, .expand, .expand],
    .byDay: [.limit, .limit, .limit, .limit, .expand, .expand, .expand],
    .byHour: [.limit, .limit, .limit, .expand, .expand, .expand, .expand],
    .byMinute: [.limit, .limit, .expand, .expand, .expand, .expand, .expand],
    .bySecond: [.limit, .expand, .expand, .expand, .expand, .expand, .expand],
]

func action(_ part: RulePart, at frequency: RecurrenceRule.Frequency) -> PartAction {
    expandMap[part]?[frequency.rawValue] ?? .limit
}

/// Expands one recurrence rule from its DTSTART, for any range of wall-clock time, lazily.
///
/// The rule's periods (years, months, weeks or days; days for the sub-daily frequencies, each
/// holding its hours, minutes or seconds) are numbered from the one holding DTSTART, and any of
/// them is computed directly, as python-dateutil's `rrule` does: a range costs what its own
/// periods cost, however far it lies from DTSTART. A rule with COUNT must count what comes
/// before; it is walked once, and the count before every 256th period is kept, so that a later
/// range starts counting from the nearest checkpoint. DTSTART is always the first instance, and
/// counts toward COUNT, whether or not the rule produces it (RFC 5545 §3.8.5.3: it "always
/// counts as the first occurrence"; libical and python-dateutil leave it out).
public final class RecurrenceExpander {
    public let rule: RecurrenceRule
    /// DTSTART in wall-clock civil seconds.
    public let start: Int
    let startDay: Int
    let isDate: Bool
    let scale: RecurrenceScale
    /// UNTIL in the same reckoning as `start`, inclusive.
    let until: Int?

    // The rule with DTSTART's defaults filled in (see `init`).
    private let months: [RecurrenceRule.MonthNumber]
    private let monthDays: [Int]
    private let yearDays: [Int]
    private let weekNumbers: [Int]
    /// Plain weekdays (and, below MONTHLY, ordinal ones read as plain), 0 Monday.
    private var plainWeekdays = [Bool](repeating: false, count: 7)
    private let hasPlainWeekdays: Bool
    private let ordinals: [RecurrenceRule.WeekdayNumber]
    private let hours: [Int]
    private let minutes: [Int]
    private let seconds: [Int]
    /// Seconds of the day of each instance within a day, sorted (DAILY and coarser).
    private let timeOfDay: [Int]
    private let needsMonth: Bool
    private let startMonth: ScaleMonth?
    private let startYear: Int
    private let startWeek: Int
    /// A YEARLY rule with BYWEEKNO counts in week-numbering years (by WKST), not calendar years.
    private let countsWeekYears: Bool
    private let startWeekYear: Int
    let includesStart: Bool
    /// Whether DTSTART was added to the first period, the rule not producing it.
    private var startIsExtra = false

    /// Periods from DTSTART's to the first one a later walk need not look past: no instance
    /// can come then (COUNT reached) ...
    private var countWalk = CountWalk()
    /// The last two batches computed: a month's range can reach into the year before.
    private var cachedBatch: (index: Int, instances: [Int], dropped: Int)?
    private var olderBatch: (index: Int, instances: [Int], dropped: Int)?
    /// The days (civil day numbers) on which more than `InputLimits.instancesPerDay`
    /// instances fell, with the last one kept and how many were left out after it: a rule
    /// denser than that (every second) shows its first ones and says how many more.
    public private(set) var cuts: [Int: (lastKept: Int, dropped: Int)] = [:]

    /// Occurrences the COUNT walk has checkpoints for.
    struct CountWalk {
        var nextBatch = 0
        var countBefore = 0
        var checkpoints: [Int] = []
        var lastBatch: Int?
        var barren = false
    }

    static let checkpointStride = 256
    /// How far a COUNT rule is walked at most: periods, and instances counted. A rule that
    /// needs more (`FREQ=SECONDLY;COUNT=2000000000` asked about a far year) ends there, so
    /// that no file can make a query run for minutes.
    static let walkLimit = (batches: 4_000_000, instances: 20_000_000)

    /// A rule whose DTSTART is `start` (wall-clock civil seconds; `isDate` for a DATE).
    /// - parameter until: UNTIL converted to `start`'s reckoning.
    /// - parameter includesStart: whether DTSTART is the first instance even where the rule does
    ///   not produce it (false for an EXRULE, which removes only what it produces).
    public init(rule: RecurrenceRule, start: Int, isDate: Bool, until: Int?, scale: RecurrenceScale = GregorianScale.shared,
                includesStart: Bool = true) {
        self.rule = rule
        self.includesStart = includesStart
        self.start = start
        self.isDate = isDate
        self.scale = scale
        self.until = until
        let startDay = CivilTime.day(ofSeconds: start)
        self.startDay = startDay
        let startMonth = scale.month(containing: startDay)
        self.startMonth = startMonth
        startYear = startMonth?.year ?? 0
        startWeek = startDay - CivilTime.floorMod(CivilTime.weekday(ofDay: startDay) - rule.weekStart, 7)
        let frequency = rule.frequency

        // Defaults from DTSTART: with no day part at all, the day (and at YEARLY the month) of
        // DTSTART; at WEEKLY its weekday.
        var months = rule.byMonth
        var monthDays = rule.byMonthDay
        var byDay = rule.byDay
        // A YEARLY rule's missing parts come from DTSTART too (RFC 5545 §3.3.10; libical,
        // CalendarServer and ical4j): BYMONTHDAY alone falls in DTSTART's month (a birthday
        // exported as FREQ=YEARLY;BYMONTHDAY=4), BYWEEKNO alone on DTSTART's weekday.
        if frequency == .yearly, months.isEmpty, !monthDays.isEmpty, rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty,
           let startMonth {
            months = [RecurrenceRule.MonthNumber(month: startMonth.number, isLeap: startMonth.isLeap)]
        }
        if frequency == .yearly, !rule.byWeekNo.isEmpty, byDay.isEmpty, monthDays.isEmpty, rule.byYearDay.isEmpty {
            byDay = [RecurrenceRule.WeekdayNumber(weekday: CivilTime.weekday(ofDay: startDay), ordinal: 0)]
        }
        countsWeekYears = frequency == .yearly && !rule.byWeekNo.isEmpty
        startWeekYear = Self.weekYear(of: startDay, weekStart: rule.weekStart).year
        if rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
            let dayOfMonth = startMonth.map { startDay - $0.firstDay + 1 } ?? 1
            switch frequency {
            case .yearly:
                if months.isEmpty, let startMonth {
                    months = [RecurrenceRule.MonthNumber(month: startMonth.number, isLeap: startMonth.isLeap)]
                }
                monthDays = [dayOfMonth]
            case .monthly: monthDays = [dayOfMonth]
            case .weekly: byDay = [RecurrenceRule.WeekdayNumber(weekday: CivilTime.weekday(ofDay: startDay), ordinal: 0)]
            default: break
            }
        }
        self.months = months
        self.monthDays = monthDays
        yearDays = rule.byYearDay
        weekNumbers = rule.byWeekNo
        var ordinals: [RecurrenceRule.WeekdayNumber] = []
        var plain = [Bool](repeating: false, count: 7)
        for entry in byDay {
            // Within a numbered week an ordinal weekday is the plain one (RFC 5545 forbids the
            // mix; libical reads it so).
            if entry.ordinal != 0, frequency >= .monthly, rule.byWeekNo.isEmpty { ordinals.append(entry) } else { plain[entry.weekday] = true }
        }
        plainWeekdays = plain
        hasPlainWeekdays = plain.contains(true)
        self.ordinals = ordinals
        needsMonth = !months.isEmpty || !monthDays.isEmpty || !rule.byYearDay.isEmpty

        // Times: an expanding part absent takes DTSTART's value; a limiting one absent limits nothing.
        let secondOfDay = start - startDay * CivilTime.secondsPerDay
        let values = { (given: [Int], part: RulePart, own: Int) -> [Int] in
            if !given.isEmpty { return Array(Set(given)).sorted() }
            return action(part, at: frequency) == .expand ? [own] : []
        }
        hours = isDate ? [0] : values(rule.byHour, .byHour, secondOfDay / 3600)
        minutes = isDate ? [0] : values(rule.byMinute, .byMinute, secondOfDay / 60 % 60)
        seconds = isDate ? [0] : values(rule.bySecond.map { min($0, 59) }, .bySecond, secondOfDay % 60)
        var times: [Int] = []
        if frequency >= .daily {
            for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
        }
        timeOfDay = times
    }

    // MARK: Ranges

    /// The instances whose start lies in `range` (wall-clock civil seconds), in order.
    public func instances(in range: Range<Int>) -> [Int] {
        guard !range.isEmpty, let (first, last) = batches(overlapping: range) else { return [] }
        var result: [Int] = []
        if let count = rule.count {
            guard let before = countBefore(batch: first) else { return [] }
            var counted = before
            var batch = first
            while batch <= last, counted < count {
                for instance in instances(ofBatch: batch) {
                    guard counted < count else { break }
                    counted += 1
                    if range.contains(instance) { result.append(instance) }
                }
                // What the day limit left out counts toward COUNT all the same.
                counted += dropped(inBatch: batch)
                batch += 1
            }
            return result
        }
        var batch = first
        while batch <= last {
            for instance in instances(ofBatch: batch) where range.contains(instance) { result.append(instance) }
            batch += 1
        }
        return result
    }

    /// The first and last batch numbers (periods from DTSTART's, in steps of INTERVAL; days for
    /// the sub-daily frequencies) that may hold instances in `range`; nil when none can.
    func batches(overlapping range: Range<Int>) -> (Int, Int)? {
        var low = max(range.lowerBound, start)
        var high = range.upperBound - 1
        if let until { high = min(high, until) }
        guard low <= high else { return nil }
        low = CivilTime.day(ofSeconds: low)
        high = CivilTime.day(ofSeconds: high)
        let interval = rule.interval
        func aligned(_ a: Int, _ b: Int) -> (Int, Int)? {
            let first = max(0, -CivilTime.floorDiv(-a, interval))
            let last = CivilTime.floorDiv(b, interval)
            return first <= last ? (first, last) : nil
        }
        // RFC 7529 SKIP can move a day into the next or previous period (BYMONTHDAY=31 in April
        // to 1 May, BYYEARDAY=-366 to 31 December of the year before).
        let reach = rule.skip == .omit || rule.scale == nil ? 0 : 1
        switch rule.frequency {
        case .yearly:
            if countsWeekYears {
                let a = Self.weekYear(of: low, weekStart: rule.weekStart).year
                let b = Self.weekYear(of: high, weekStart: rule.weekStart).year
                return aligned(a - startWeekYear, b - startWeekYear)
            }
            guard let a = scale.year(containing: low), let b = scale.year(containing: high) else { return nil }
            return aligned(a - startYear - reach, b - startYear + reach)
        case .monthly:
            guard let origin = startMonth, let ma = scale.month(containing: low), let mb = scale.month(containing: high),
                  let a = scale.distance(from: origin, to: ma), let b = scale.distance(from: origin, to: mb) else { return nil }
            return aligned(a - reach, b + reach)
        case .weekly:
            return aligned(CivilTime.floorDiv(low - startWeek, 7), CivilTime.floorDiv(high - startWeek, 7))
        case .daily:
            return aligned(low - startDay, high - startDay)
        case .hourly, .minutely, .secondly:
            return (max(0, low - startDay), high - startDay)
        }
    }

    /// How many instances come before batch `batch`, walking (once) as far as needed; nil when
    /// COUNT is reached before it or the rule never produces.
    private func countBefore(batch: Int) -> Int? {
        guard let count = rule.count else { return 0 }
        if countWalk.barren { return nil }
        if let last = countWalk.lastBatch, batch > last { return nil }
        let stride = Self.checkpointStride
        // Walk on to `batch`, keeping checkpoints.
        while countWalk.nextBatch < batch, countWalk.lastBatch == nil, !countWalk.barren {
            if countWalk.nextBatch % stride == 0 { countWalk.checkpoints.append(countWalk.countBefore) }
            let found = instances(ofBatch: countWalk.nextBatch).count + dropped(inBatch: countWalk.nextBatch)
            if countWalk.countBefore + found >= count { countWalk.lastBatch = countWalk.nextBatch }
            countWalk.countBefore += found
            countWalk.nextBatch += 1
            if countWalk.nextBatch >= Self.walkLimit.batches || countWalk.countBefore >= Self.walkLimit.instances {
                countWalk.lastBatch = countWalk.nextBatch - 1
            }
            if countWalk.countBefore == (startIsExtra ? 1 : 0), countWalk.nextBatch >= 1000, batchStartDay(countWalk.nextBatch) - startDay > 146_097 {
                // Nothing in 400 Gregorian years (a whole cycle of weekdays and leap years) and
                // a thousand periods: the rule never produces (BYMONTH=2;BYMONTHDAY=30).
                countWalk.barren = true
            }
        }
        if countWalk.barren { return nil }
        if let last = countWalk.lastBatch, batch > last { return nil }
        if batch == countWalk.nextBatch { return countWalk.countBefore }
        // Count on from the checkpoint at or before `batch`.
        let checkpoint = batch / stride
        guard checkpoint < countWalk.checkpoints.count else { return countWalk.countBefore }
        var counted = countWalk.checkpoints[checkpoint]
        var index = checkpoint * stride
        while index < batch {
            counted += instances(ofBatch: index).count + dropped(inBatch: index)
            index += 1
        }
        return counted < count ? counted : nil
    }

    /// The start of the last instance of a COUNT rule, walking at most `limit` periods: what
    /// the cache's index records as the latest an event can occur. Nil without COUNT, or when
    /// the walk does not reach the count.
    /// The instances the day limit left out count too; then the answer is the end of the day
    /// of the last one kept, which is never before the last counted. The walk also stops
    /// after `Self.walkLimit.instances / 20` instances, so that a dense rule cannot make it
    /// run for minutes (`FREQ=MINUTELY;COUNT=2000000000;BYSECOND=0,...,9`).
    func lastCountedInstance(walkingAtMost limit: Int) -> Int? {
        guard let count = rule.count, count > 0 else { return nil }
        var counted = 0
        for batch in 0..<limit {
            let kept = instances(ofBatch: batch)
            let dropped = dropped(inBatch: batch)
            if dropped == 0 {
                for instance in kept {
                    counted += 1
                    if counted >= count { return instance }
                }
            } else {
                counted += kept.count + dropped
                if counted >= count, let last = kept.last {
                    return (CivilTime.day(ofSeconds: last) + 1) * CivilTime.secondsPerDay - 1
                }
            }
            if counted > Self.walkLimit.instances / 20 { return nil }
        }
        return nil
    }

    /// The first day of batch `index` (for the barren check only).
    private func batchStartDay(_ index: Int) -> Int {
        switch rule.frequency {
        case .yearly: return startDay + index * rule.interval * 365
        case .monthly: return startDay + index * rule.interval * 28
        case .weekly: return startWeek + index * rule.interval * 7
        case .daily: return startDay + index * rule.interval
        default: return startDay + index
        }
    }

    // MARK: One batch

    /// The instances of batch `index`, all of them (from DTSTART on, to UNTIL), in order.
    func instances(ofBatch index: Int) -> [Int] {
        if let cached = cachedBatch, cached.index == index { return cached.instances }
        if let older = olderBatch, older.index == index { return older.instances }
        droppedInBatch = 0
        var found: [Int]
        if rule.frequency >= .daily {
            found = withPositions(days(ofBatch: index))
        } else {
            found = subDaily(day: startDay + index)
        }
        if let first = found.first, let last = found.last, first < start || (until.map { last > $0 } ?? false) {
            found.removeAll { value in value < start || (until.map { value > $0 } ?? false) }
        }
        if index == 0, includesStart, found.first != start, until.map({ start <= $0 }) ?? true {
            // DTSTART out of step with its rule is still the first instance.
            found.insert(start, at: 0)
            startIsExtra = true
        }
        if found.count > InputLimits.instancesPerDay { found = keepingFirstOfEachDay(found) }
        olderBatch = cachedBatch
        cachedBatch = (index, found, droppedInBatch)
        return found
    }

    /// Instances left out of the batch being computed (the day limit).
    private var droppedInBatch = 0

    /// How many instances of batch `index` the day limit left out.
    func dropped(inBatch index: Int) -> Int {
        _ = instances(ofBatch: index)
        if let cached = cachedBatch, cached.index == index { return cached.dropped }
        return olderBatch?.index == index ? (olderBatch?.dropped ?? 0) : 0
    }

    /// Records that `dropped` instances of civil day `day` were left out after `lastKept`.
    private func recordCut(day: Int, lastKept: Int, dropped: Int) {
        guard dropped > 0 else { return }
        if cuts.count >= 4096, cuts[day] == nil { cuts.removeAll(keepingCapacity: true) }
        cuts[day] = (lastKept, dropped)
        droppedInBatch += dropped
    }

    /// The first `InputLimits.instancesPerDay` instances of each day of `sorted`.
    private func keepingFirstOfEachDay(_ sorted: [Int]) -> [Int] {
        let limit = InputLimits.instancesPerDay
        var kept: [Int] = []
        var day = Int.min
        var onDay = 0
        for instance in sorted {
            let instanceDay = CivilTime.day(ofSeconds: instance)
            if instanceDay != day {
                if onDay > limit, let last = kept.last { recordCut(day: day, lastKept: last, dropped: onDay - limit) }
                (day, onDay) = (instanceDay, 0)
            }
            onDay += 1
            if onDay <= limit { kept.append(instance) }
        }
        if onDay > limit, let last = kept.last { recordCut(day: day, lastKept: last, dropped: onDay - limit) }
        return kept
    }

    /// Days × times of one period, then BYSETPOS.
    private func withPositions(_ days: [Int]) -> [Int] {
        let times = timeOfDay
        guard !rule.bySetPos.isEmpty else {
            // At most the day limit of times a day: a rule of every second of every day of a year
            // is not made whole only to be cut.
            let limit = InputLimits.instancesPerDay
            var result: [Int] = []
            result.reserveCapacity(days.count * min(times.count, limit))
            for day in days {
                for time in times.prefix(limit) { result.append(day * CivilTime.secondsPerDay + time) }
                if times.count > limit, let last = result.last {
                    recordCut(day: day, lastKept: last, dropped: times.count - limit)
                }
            }
            return result
        }
        let total = days.count * times.count
        var picked: [Int] = []
        for position in rule.bySetPos {
            let index = position > 0 ? position - 1 : total + position
            guard index >= 0, index < total else { continue }
            let value = days[index / times.count] * CivilTime.secondsPerDay + times[index % times.count]
            if !picked.contains(value) { picked.append(value) }
        }
        return picked.sorted()
    }

    /// The candidate days of period `index` (DAILY and coarser), in order.
    private func days(ofBatch index: Int) -> [Int] {
        let step = index * rule.interval
        switch rule.frequency {
        case .yearly:
            if countsWeekYears { return daysOfWeekYear(startWeekYear + step) }
            return daysOfYear(startYear + step)
        case .monthly:
            guard let origin = startMonth, let month = scale.month(origin, offsetBy: step) else { return [] }
            if !months.isEmpty, !months.contains(where: { $0.month == month.number && $0.isLeap == month.isLeap }) { return [] }
            let span = (month.firstDay, month.endDay - 1)
            if !yearDays.isEmpty || !weekNumbers.isEmpty {
                let ordinalDays = ordinalDays(in: span)
                return (month.firstDay..<month.endDay).filter { passes($0, month: month, ordinalDays: ordinalDays) }
            }
            return days(of: month, ordinalSpan: span)
        case .weekly:
            let first = startWeek + step * 7
            return (first..<first + 7).filter { passes($0) }
        default:
            let day = startDay + step
            return passes(day) ? [day] : []
        }
    }

    /// The days of the weeks BYWEEKNO numbers in week-numbering year `year`, each week whole
    /// (across the calendar year's edge), that pass the other day parts. Week 53 only where the
    /// year has one; negative numbers count from the year's last week.
    private func daysOfWeekYear(_ year: Int) -> [Int] {
        let begin = Self.firstWeekStart(year, weekStart: rule.weekStart)
        let weeks = (Self.firstWeekStart(year + 1, weekStart: rule.weekStart) - begin) / 7
        var chosen = Set<Int>()
        for number in weekNumbers {
            let week = number > 0 ? number : weeks + number + 1
            if week >= 1, week <= weeks { chosen.insert(week) }
        }
        var result: [Int] = []
        for week in chosen.sorted() {
            let first = begin + (week - 1) * 7
            for day in first..<first + 7 where passes(day, weekChecked: true) { result.append(day) }
        }
        return result
    }

    private func daysOfYear(_ year: Int) -> [Int] {
        let yearSpan: (Int, Int)
        var chosen: [ScaleMonth]
        if !months.isEmpty, let gregorian = scale as? GregorianScale {
            // The wanted months alone, not the whole year's (a yearly rule's hot path): the
            // months the general path below finds among the twelve.
            func number(_ wanted: (month: Int, isLeap: Bool)) -> Int? {
                var number = wanted.month
                if wanted.isLeap {
                    guard rule.skip != .omit else { return nil }
                    if rule.skip != .backward { number += 1 }
                }
                return (1...12).contains(number) ? number : nil
            }
            if months.count == 1, yearDays.isEmpty, weekNumbers.isEmpty {
                // One month, days chosen within it: its days are the year's, in order.
                guard let number = number((months[0].month, months[0].isLeap)) else { return [] }
                let month = gregorian.month(year: year, number: number)
                return days(of: month, ordinalSpan: (month.firstDay, month.endDay - 1))
            }
            yearSpan = (gregorian.month(year: year, number: 1).firstDay, gregorian.month(year: year, number: 12).endDay - 1)
            chosen = []
            chosen.reserveCapacity(months.count)
            for wanted in months {
                if let number = number((wanted.month, wanted.isLeap)) { chosen.append(gregorian.month(year: year, number: number)) }
            }
            if chosen.count > 1 { chosen.sort { $0.firstDay < $1.firstDay } }
            return days(ofYear: yearSpan, chosen: chosen)
        }
        let all = scale.months(ofYear: year)
        guard let first = all.first, let last = all.last else { return [] }
        yearSpan = (first.firstDay, last.endDay - 1)
        if months.isEmpty {
            chosen = all
        } else {
            chosen = []
            for wanted in months {
                if let month = all.first(where: { $0.number == wanted.month && $0.isLeap == wanted.isLeap }) {
                    chosen.append(month)
                } else if wanted.isLeap, rule.skip != .omit {
                    // RFC 7529: a leap month this year lacks is the month of that number
                    // (BACKWARD) or the one after it (FORWARD).
                    let number = rule.skip == .backward ? wanted.month : wanted.month + 1
                    if let month = all.first(where: { $0.number == number && !$0.isLeap }) { chosen.append(month) }
                }
            }
            chosen.sort { $0.firstDay < $1.firstDay }
        }
        return days(ofYear: yearSpan, chosen: chosen)
    }

    /// The days of the months `chosen` (in order) of the year spanning `yearSpan` that pass the
    /// day parts.
    private func days(ofYear yearSpan: (Int, Int), chosen: [ScaleMonth]) -> [Int] {
        let yearWide = !yearDays.isEmpty || !weekNumbers.isEmpty
        let span = months.isEmpty ? yearSpan : nil
        var result: [Int] = []
        var previous: ScaleMonth?
        for month in chosen where month != previous {
            previous = month
            if yearWide {
                let ordinalDays = ordinalDays(in: span ?? (month.firstDay, month.endDay - 1))
                for day in month.firstDay..<month.endDay where passes(day, month: month, year: yearSpan, ordinalDays: ordinalDays) {
                    result.append(day)
                }
            } else {
                result += days(of: month, ordinalSpan: span ?? (month.firstDay, month.endDay - 1))
            }
        }
        if !yearDays.isEmpty, rule.scale != nil, rule.skip != .omit {
            // RFC 7529 SKIP for a day the year lacks (BYYEARDAY=366 or -366 in a common year):
            // FORWARD to 1 January (of the next year for 366), BACKWARD to 31 December (of the
            // year before for -366).
            let length = yearSpan.1 - yearSpan.0 + 1
            let forward = rule.skip == .forward
            for value in yearDays where abs(value) > length {
                let day = value > 0 ? (forward ? yearSpan.1 + 1 : yearSpan.1) : (forward ? yearSpan.0 : yearSpan.0 - 1)
                if passes(day, weekChecked: true, yearDayChecked: true) { result.append(day) }
            }
            result.sort()
        }
        if result.count > 1, !zip(result, result.dropFirst()).allSatisfy({ $0 < $1 }) {
            result = Array(Set(result)).sorted()
        }
        return result
    }

    /// The days of `month` that BYMONTHDAY and BYDAY (ordinals counted in `ordinalSpan`) choose.
    private func days(of month: ScaleMonth, ordinalSpan: (Int, Int)) -> [Int] {
        let ordinalDays = ordinals.isEmpty ? [] : ordinalDays(in: ordinalSpan)
        let hasByDay = hasPlainWeekdays || !ordinals.isEmpty
        func weekdayOK(_ day: Int) -> Bool {
            !hasByDay || plainWeekdays[CivilTime.weekday(ofDay: day)] || ordinalDays.contains(day)
        }
        var result: [Int] = []
        if !monthDays.isEmpty {
            for value in monthDays {
                var offset = value > 0 ? value - 1 : month.length + value
                if offset < 0 || offset >= month.length {
                    // RFC 7529 SKIP, for every invalid day: a day beyond the month's end is its
                    // last (BACKWARD) or the next month's first (FORWARD); one before its start
                    // (BYMONTHDAY=-31 in February) the previous month's last or its own first.
                    // Without RSCALE it is left out.
                    guard rule.scale != nil, rule.skip != .omit else { continue }
                    let backward = rule.skip == .backward
                    offset = offset < 0 ? (backward ? -1 : 0) : (backward ? month.length - 1 : month.length)
                }
                let day = month.firstDay + offset
                if weekdayOK(day), !result.contains(day) { result.append(day) }
            }
            result.sort()
            return result
        }
        if !hasByDay { return Array(month.firstDay..<month.endDay) }
        if ordinals.isEmpty {
            // Each chosen weekday's first day in the month, then every seventh.
            for day in month.firstDay..<min(month.firstDay + 7, month.endDay) where plainWeekdays[CivilTime.weekday(ofDay: day)] {
                result.append(contentsOf: Swift.stride(from: day, to: month.endDay, by: 7))
            }
            result.sort()
            return result
        }
        return (month.firstDay..<month.endDay).filter(weekdayOK)
    }

    /// The days BYDAY's ordinals name in the span `first...last` (`2MO`, `-1FR`).
    private func ordinalDays(in span: (Int, Int)) -> [Int] {
        var result: [Int] = []
        for entry in ordinals {
            let day: Int
            if entry.ordinal > 0 {
                day = span.0 + CivilTime.floorMod(entry.weekday - CivilTime.weekday(ofDay: span.0), 7) + 7 * (entry.ordinal - 1)
            } else {
                day = span.1 - CivilTime.floorMod(CivilTime.weekday(ofDay: span.1) - entry.weekday, 7) - 7 * (-entry.ordinal - 1)
            }
            if day >= span.0, day <= span.1 { result.append(day) }
        }
        return result
    }

    /// Whether `day` passes every day part, as limits.
    private func passes(_ day: Int, month given: ScaleMonth? = nil, year: (Int, Int)? = nil, ordinalDays: [Int] = [],
                        weekChecked: Bool = false, yearDayChecked: Bool = false) -> Bool {
        if hasPlainWeekdays || !ordinals.isEmpty {
            if !plainWeekdays[CivilTime.weekday(ofDay: day)], !ordinalDays.contains(day) { return false }
        }
        if needsMonth {
            guard let month = given ?? scale.month(containing: day) else { return false }
            if !months.isEmpty, !months.contains(where: { $0.month == month.number && $0.isLeap == month.isLeap }) { return false }
            if !monthDays.isEmpty {
                let offset = day - month.firstDay
                if !monthDays.contains(where: { $0 > 0 ? $0 - 1 == offset : month.length + $0 == offset }) { return false }
            }
            if !yearDays.isEmpty, !yearDayChecked {
                let span = year ?? yearSpan(of: month)
                let length = span.1 - span.0 + 1
                let offset = day - span.0
                if !yearDays.contains(where: { $0 > 0 ? $0 - 1 == offset : length + $0 == offset }) { return false }
            }
        }
        if !weekNumbers.isEmpty, !weekChecked {
            let (number, weeks) = week(of: day)
            if !weekNumbers.contains(number), !weekNumbers.contains(number - weeks - 1) { return false }
        }
        return true
    }

    private func yearSpan(of month: ScaleMonth) -> (Int, Int) {
        let all = scale.months(ofYear: month.year)
        return (all.first?.firstDay ?? month.firstDay, (all.last?.endDay ?? month.endDay) - 1)
    }

    /// The week number of `day` and the number of weeks of its week-numbering year (week 1 holds
    /// at least four days of its year; weeks start on WKST).
    private func week(of day: Int) -> (Int, Int) {
        let year = Self.weekYear(of: day, weekStart: rule.weekStart)
        return ((day - year.begin) / 7 + 1, year.weeks)
    }

    /// The first day of week 1 of `year` (the week, starting on `weekStart`, holding 4 January).
    static func firstWeekStart(_ year: Int, weekStart: Int) -> Int {
        let fourth = CivilTime.day(year: year, month: 1, day: 4)
        return fourth - CivilTime.floorMod(CivilTime.weekday(ofDay: fourth) - weekStart, 7)
    }

    /// The week-numbering year holding `day`: its number, its first day and its number of weeks.
    static func weekYear(of day: Int, weekStart: Int) -> (year: Int, begin: Int, weeks: Int) {
        var year = CivilTime.date(ofDay: day).year
        var begin = firstWeekStart(year, weekStart: weekStart)
        if day < begin {
            year -= 1
            begin = firstWeekStart(year, weekStart: weekStart)
        } else if day >= firstWeekStart(year + 1, weekStart: weekStart) {
            year += 1
            begin = firstWeekStart(year, weekStart: weekStart)
        }
        return (year, begin, (firstWeekStart(year + 1, weekStart: weekStart) - begin) / 7)
    }

    // MARK: Sub-daily

    /// The instances of the HOURLY, MINUTELY or SECONDLY rule on `day`.
    private func subDaily(day: Int) -> [Int] {
        guard passes(day) else { return [] }
        let interval = rule.interval
        let dayStart = day * CivilTime.secondsPerDay
        var result: [Int] = []
        func pick(_ candidates: [Int]) {
            guard !rule.bySetPos.isEmpty else { result += candidates; return }
            var picked: [Int] = []
            for position in rule.bySetPos {
                let index = position > 0 ? position - 1 : candidates.count + position
                if index >= 0, index < candidates.count, !picked.contains(candidates[index]) { picked.append(candidates[index]) }
            }
            result += picked.sorted()
        }
        switch rule.frequency {
        case .hourly:
            let origin = start / 3600
            var hour = CivilTime.floorMod(origin - day * 24, interval)
            while hour < 24 {
                if hours.isEmpty || hours.contains(hour) {
                    var candidates: [Int] = []
                    for m in minutes { for s in seconds { candidates.append(dayStart + hour * 3600 + m * 60 + s) } }
                    pick(candidates)
                }
                hour += interval
            }
        case .minutely:
            let origin = start / 60
            var minute = CivilTime.floorMod(origin - day * 1440, interval)
            while minute < 1440 {
                if (hours.isEmpty || hours.contains(minute / 60)) && (minutes.isEmpty || minutes.contains(minute % 60)) {
                    pick(seconds.map { dayStart + minute * 60 + $0 })
                }
                minute += interval
            }
        default:
            var second = CivilTime.floorMod(start - dayStart, interval)
            if dayStart + second < start { second += (start - dayStart - second + interval - 1) / interval * interval }
            let positionsKeep = rule.bySetPos.isEmpty || rule.bySetPos.contains(1) || rule.bySetPos.contains(-1)
            guard positionsKeep else { return [] }
            // Counted past the day limit, not kept: a day of every second is 86,400 of them.
            let limit = InputLimits.instancesPerDay
            var over = 0
            if hours.isEmpty, minutes.isEmpty, seconds.isEmpty {
                // Every INTERVAL-th second of the day: counted, not walked.
                let total = second < CivilTime.secondsPerDay ? (CivilTime.secondsPerDay - 1 - second) / interval + 1 : 0
                for step in 0..<min(total, limit) { result.append(dayStart + second + step * interval) }
                if total > limit, let last = result.last { recordCut(day: day, lastKept: last, dropped: total - limit) }
                return result
            }
            if !hours.isEmpty, !minutes.isEmpty, !seconds.isEmpty {
                // The times the parts allow, in order, each kept when it is in step with INTERVAL:
                // at most their product, not a walk through the day's 86,400 seconds.
                let origin = second
                for h in hours { for m in minutes { for s in seconds {
                    let time = h * 3600 + m * 60 + s
                    guard time >= origin, (time - origin) % interval == 0 else { continue }
                    if result.count < limit { result.append(dayStart + time) } else { over += 1 }
                } } }
                if over > 0, let last = result.last { recordCut(day: day, lastKept: last, dropped: over) }
                return result
            }
            while second < CivilTime.secondsPerDay {
                if (hours.isEmpty || hours.contains(second / 3600)) && (minutes.isEmpty || minutes.contains(second / 60 % 60))
                    && (seconds.isEmpty || seconds.contains(second % 60)) {
                    if result.count < limit { result.append(dayStart + second) } else { over += 1 }
                }
                second += interval
            }
            if over > 0, let last = result.last { recordCut(day: day, lastKept: last, dropped: over) }
        }
        return result
    }
}
