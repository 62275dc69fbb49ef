import InfCalModel

// Every instance, not only those the day limit keeps: the first ones from any moment, and how
// many start in a range, found without walking the rule from DTSTART where its periods allow.
// Any period is computed directly (as python-dateutil's `rrule` does); a count over many
// periods takes whole repetitions of the 400-year cycle at once (`CycleCounts`), so that an
// event lasting two thousand years, repeating every second, costs what a month costs.

extension RecurrenceExpander {
    // MARK: Walking every instance

    /// How a walk of `forEachInstance(in:_:)` ended.
    enum WalkEnd: Equatable {
        /// Every instance in the range was visited.
        case exhausted
        /// The visitor asked to stop.
        case stopped
        /// The walk visited `uncutWalkLimit` periods without reaching the range's end: what is
        /// left is not known (a rule with an instance once in centuries, asked about millennia).
        case gaveUp
    }

    /// The most periods one `forEachInstance(in:_:)` visits. Periods with no instance are
    /// passed over through the cycle's counts (`CycleCounts`) where the rule has them.
    static let uncutWalkLimit = 1_000_000
    /// Periods counted one by one before a count or a walk turns to the cycle's counts.
    static let directPeriods = 4_096

    /// Calls `body` with each instance starting in `range` (wall-clock civil seconds), in
    /// order, every one of them (the day limit leaves none out, as it does in
    /// `instances(in:)`), until `body` returns false. COUNT, UNTIL and DTSTART as
    /// `instances(in:)` has them.
    @discardableResult
    func forEachInstance(in range: Range<Int>, _ body: (Int) -> Bool) -> WalkEnd {
        guard !range.isEmpty, let (first, last) = batches(overlapping: range) else { return .exhausted }
        // COUNT: where it ends, known (the cache's walk) or counted on from the periods before.
        var counted = 0
        var countLimit = Int.max
        let known = rule.count != nil ? knownLastBatch : nil
        if let count = rule.count, known == nil {
            guard let before = countBefore(batch: first) else { return .exhausted }
            (counted, countLimit) = (before, count)
        }
        let counting = rule.count != nil
        var batch = first
        var visited = 0
        while batch <= last {
            if let known, batch > known.batch { return .exhausted }
            if counted >= countLimit { return .exhausted }
            visited += 1
            if visited > Self.uncutWalkLimit { return .gaveUp }
            if visited > Self.directPeriods, batch > 0, let cycle = cycleCounts(), cycle.count(ofBatch: batch) == 0 {
                batch += 1
                continue
            }
            let taken = known.map { $0.batch == batch ? $0.taken : Int.max } ?? Int.max
            var ordinal = 0
            var outcome = WalkEnd.exhausted
            var beyond = false
            // A COUNT rule's period is walked from its start, so that every instance counts.
            _ = forEachUncut(ofBatch: batch, from: counting ? Int.min : range.lowerBound) { value in
                guard ordinal < taken, counted < countLimit else { return false }
                ordinal += 1
                counted += 1
                if value < range.lowerBound { return true }
                if value >= range.upperBound { beyond = true; return false }
                if !body(value) { outcome = .stopped; return false }
                return true
            }
            if outcome == .stopped { return .stopped }
            if beyond { return .exhausted }
            batch += 1
        }
        return .exhausted
    }

    /// Calls `body` with each instance of batch `index` from `low` on, in order, all of them
    /// (DTSTART first in batch 0, UNTIL applied), until it returns false. Returns false when
    /// `body` did.
    func forEachUncut(ofBatch index: Int, from low: Int, _ body: (Int) -> Bool) -> Bool {
        let through = until ?? Int.max
        if index == 0, includesStart {
            // DTSTART is the first instance, whether or not the rule makes it.
            guard start <= through else { return true }
            if start >= low, !body(start) { return false }
            return raw(ofBatch: 0, from: max(low, start + 1), through: through, body)
        }
        return raw(ofBatch: index, from: max(low, start), through: through, body)
    }

    /// Calls `body` with the rule's own instances of batch `index` from `from` through
    /// `through`, in order, until it returns false; returns false when it did.
    func raw(ofBatch index: Int, from: Int, through: Int, _ body: (Int) -> Bool) -> Bool {
        guard from <= through else { return true }
        if rule.frequency < .daily {
            let day = startDay + index
            guard passes(day) else { return true }
            return times(ofDay: day, from: from, through: through, body)
        }
        let days = days(ofBatch: index)
        guard rule.bySetPos.isEmpty else {
            for value in withPositions(days) where value >= from {
                if value > through { return true }
                if !body(value) { return false }
            }
            return true
        }
        let times = timeOfDay
        let firstDay = CivilTime.day(ofSeconds: from)
        for day in days where day >= firstDay {
            let base = day * CivilTime.secondsPerDay
            for time in times {
                let value = base + time
                if value < from { continue }
                if value > through { return true }
                if !body(value) { return false }
            }
        }
        return true
    }

    /// Calls `body` with the candidates of a sub-daily rule on civil day `day` (its day parts
    /// not asked) from `from` through `through`, in order, as `subDaily(day:)` makes them but
    /// none left out; returns false when `body` did.
    func times(ofDay day: Int, from: Int, through: Int, _ body: (Int) -> Bool) -> Bool {
        let interval = rule.interval
        let dayStart = day * CivilTime.secondsPerDay
        // The first second of the day that can matter.
        let offset = from <= dayStart ? 0 : from - dayStart
        guard offset < CivilTime.secondsPerDay, from <= through else { return true }
        var candidates: [Int] = []
        var stopped = false
        /// Calls `body` with one hour's or minute's candidates, BYSETPOS picking among them;
        /// false when it stopped.
        func give(_ candidates: [Int]) -> Bool {
            if rule.bySetPos.isEmpty {
                for value in candidates where value >= from {
                    if value > through { return false }
                    if !body(value) { stopped = true; return false }
                }
                return true
            }
            var picked: [Int] = []
            for position in rule.bySetPos {
                let index = position > 0 ? position - 1 : candidates.count + position
                if index >= 0, index < candidates.count, !picked.contains(candidates[index]) { picked.append(candidates[index]) }
            }
            for value in picked.sorted() where value >= from {
                if value > through { return false }
                if !body(value) { stopped = true; return false }
            }
            return true
        }
        switch rule.frequency {
        case .hourly:
            var hour = CivilTime.floorMod(CivilTime.floorDiv(start, 3600) - day * 24, interval)
            // Hours wholly before `from` are stepped over.
            let firstHour = offset / 3600
            if hour < firstHour { hour += (firstHour - hour + interval - 1) / interval * interval }
            while hour < 24 {
                if hours.isEmpty || hours.contains(hour) {
                    candidates.removeAll(keepingCapacity: true)
                    for m in minutes { for s in seconds { candidates.append(dayStart + hour * 3600 + m * 60 + s) } }
                    if !give(candidates) { return !stopped }
                }
                hour += interval
            }
        case .minutely:
            var minute = CivilTime.floorMod(CivilTime.floorDiv(start, 60) - day * 1440, interval)
            let firstMinute = offset / 60
            if minute < firstMinute { minute += (firstMinute - minute + interval - 1) / interval * interval }
            while minute < 1440 {
                if (hours.isEmpty || hours.contains(minute / 60)) && (minutes.isEmpty || minutes.contains(minute % 60)) {
                    candidates.removeAll(keepingCapacity: true)
                    for s in seconds { candidates.append(dayStart + minute * 60 + s) }
                    if !give(candidates) { return !stopped }
                }
                minute += interval
            }
        default:
            // Each second is a set of its own: BYSETPOS keeps it with 1 or -1, else nothing.
            guard rule.bySetPos.isEmpty || rule.bySetPos.contains(1) || rule.bySetPos.contains(-1) else { return true }
            var second = CivilTime.floorMod(start - dayStart, interval)
            let first = max(offset, start - dayStart)
            if !hours.isEmpty, !minutes.isEmpty, !seconds.isEmpty {
                // The times the parts allow, in order, each kept when it is in step with
                // INTERVAL: at most their product, not a walk through the day's seconds.
                for h in hours { for m in minutes { for s in seconds {
                    let time = h * 3600 + m * 60 + s
                    guard time >= first, (time - second) % interval == 0 else { continue }
                    let value = dayStart + time
                    if value > through { return true }
                    if !body(value) { return false }
                } } }
                return true
            }
            if second < first { second += (first - second + interval - 1) / interval * interval }
            let limits = !hours.isEmpty || !minutes.isEmpty || !seconds.isEmpty
            while second < CivilTime.secondsPerDay {
                if !limits || ((hours.isEmpty || hours.contains(second / 3600)) && (minutes.isEmpty || minutes.contains(second / 60 % 60))
                    && (seconds.isEmpty || seconds.contains(second % 60))) {
                    let value = dayStart + second
                    if value > through { return true }
                    if !body(value) { return false }
                }
                second += interval
            }
        }
        return true
    }

    // MARK: Counting

    /// Whether the rule is a plain run of steps from DTSTART (a sub-daily rule without any BY
    /// part): its instances are DTSTART plus every multiple of its step, counted by division.
    var plainStep: Int? {
        guard rule.frequency < .daily, rule.bySetPos.isEmpty, rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySecond.isEmpty,
              rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.byMonth.isEmpty
        else { return nil }
        let unit = rule.frequency == .hourly ? 3_600 : rule.frequency == .minutely ? 60 : 1
        let (step, overflow) = rule.interval.multipliedReportingOverflow(by: unit)
        return overflow ? nil : step
    }

    /// How many instances start in `range`, every one counted (as `forEachInstance(in:_:)`
    /// visits them); nil when that is not known without a walk longer than a query may take:
    /// a rule of another scale over thousands of periods, a sub-daily rule with BY parts whose
    /// step does not divide a day, over more than a few weeks.
    func count(in range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return 0 }
        if let count = rule.count {
            if let known = knownLastBatch {
                // The last instance that counts, found in its period.
                var ordinal = 0
                var last: Int?
                _ = forEachUncut(ofBatch: known.batch, from: Int.min) { value in
                    guard ordinal < known.taken else { return false }
                    ordinal += 1
                    last = value
                    return true
                }
                guard let last else { return 0 }
                return countUncapped(in: range.lowerBound..<min(range.upperBound, last + 1))
            }
            guard let high = countedBefore(range.upperBound, count: count),
                  let low = countedBefore(range.lowerBound, count: count) else { return nil }
            return high - low
        }
        return countUncapped(in: range)
    }

    /// How many of the first COUNT instances start before `moment`; nil when not known.
    private func countedBefore(_ moment: Int, count: Int) -> Int? {
        guard moment > start else { return 0 }
        guard let batch = batchIndex(of: moment - 1) else { return nil }
        guard batch >= 0 else { return 0 }
        guard let before = countBefore(batch: batch) else {
            // COUNT reached before the period, or the walk stopped where the instances end.
            return min(count, countWalk.countBefore)
        }
        var within = 0
        _ = forEachUncut(ofBatch: batch, from: Int.min) { value in
            guard value < moment else { return false }
            within += 1
            return true
        }
        return min(count, before + within)
    }

    /// The number of the batch (period from DTSTART's, in steps of INTERVAL; a day for the
    /// sub-daily frequencies) holding `moment`, or the last before it when it falls between
    /// two; nil beyond the scale's range.
    func batchIndex(of moment: Int) -> Int? {
        let day = CivilTime.day(ofSeconds: moment)
        let interval = rule.interval
        switch rule.frequency {
        case .yearly where countsWeekYears:
            return CivilTime.floorDiv(Self.weekYear(of: day, weekStart: rule.weekStart).year - startWeekYear, interval)
        case .yearly:
            guard let year = scale.year(containing: day) else { return nil }
            return CivilTime.floorDiv(year - startYear, interval)
        case .monthly:
            guard let origin = startMonth, let month = scale.month(containing: day),
                  let distance = scale.distance(from: origin, to: month) else { return nil }
            return CivilTime.floorDiv(distance, interval)
        case .weekly:
            return CivilTime.floorDiv(CivilTime.floorDiv(day - startWeek, 7), interval)
        case .daily:
            return CivilTime.floorDiv(day - startDay, interval)
        case .hourly, .minutely, .secondly:
            return day - startDay
        }
    }

    /// How many instances start in `range`, COUNT aside.
    private func countUncapped(in range: Range<Int>) -> Int? {
        var low = max(range.lowerBound, start)
        var high = range.upperBound
        if let until {
            let (end, overflow) = until.addingReportingOverflow(1)
            if !overflow { high = min(high, end) }
        }
        guard low < high else { return 0 }
        if let step = plainStep {
            // DTSTART and every step after it.
            let first = (low - start + step - 1) / step
            let end = (high - start + step - 1) / step
            return max(0, end - first)
        }
        guard let (first, last) = batches(overlapping: low..<high) else { return 0 }
        low = max(low, start)
        func partial(_ batch: Int) -> Int {
            var found = 0
            _ = forEachUncut(ofBatch: batch, from: low) { value in
                guard value < high else { return false }
                found += 1
                return true
            }
            return found
        }
        if first == last { return partial(first) }
        // RFC 7529 SKIP moves days across periods' edges: those periods are walked whole.
        let wholePeriods = rule.skip == .omit || rule.scale == nil
        guard wholePeriods else {
            guard last - first <= Self.directPeriods else { return nil }
            return (first...last).reduce(0) { $0 + partial($1) }
        }
        let middle = (first + 1)..<last
        var total = partial(first) + partial(last)
        if middle.isEmpty { return total }
        if middle.count <= (rule.frequency < .daily && dayCount == nil ? 32 : Self.directPeriods) {
            for batch in middle { total += fullCount(ofBatch: batch) }
            return total
        }
        guard let cycle = cycleCounts() else { return nil }
        return total + cycle.sum(middle)
    }

    /// The instances of a whole batch after the first (neither DTSTART nor UNTIL cuts it), all
    /// counted.
    func fullCount(ofBatch index: Int) -> Int {
        if rule.frequency < .daily {
            let day = startDay + index
            guard passes(day) else { return 0 }
            if let perDay = dayCount { return perDay }
            var found = 0
            _ = times(ofDay: day, from: Int.min, through: Int.max) { _ in found += 1; return true }
            return found
        }
        if rule.frequency == .daily, rule.bySetPos.isEmpty {
            return passes(startDay + index * rule.interval) ? timeOfDay.count : 0
        }
        let days = days(ofBatch: index)
        return rule.bySetPos.isEmpty ? days.count * timeOfDay.count : withPositions(days).count
    }

    /// The candidates of every day of a sub-daily rule whose step divides a day (every day
    /// then has the same times); nil for any other.
    var dayCount: Int? {
        if let known = knownDayCount { return known }
        var found: Int?
        let unit = rule.frequency == .hourly ? 3_600 : rule.frequency == .minutely ? 60 : 1
        let (step, overflow) = rule.interval.multipliedReportingOverflow(by: unit)
        if rule.frequency < .daily, !overflow, step > 0, CivilTime.secondsPerDay % step == 0 {
            // A day after DTSTART's, its day parts not asked.
            var counted = 0
            _ = times(ofDay: startDay + 1, from: Int.min, through: Int.max) { _ in counted += 1; return true }
            found = counted
        }
        knownDayCount = .some(found)
        return found
    }

    // MARK: The cycle

    /// How many instances each batch of one whole repetition of a Gregorian rule's pattern
    /// holds, summed: batch `b` and batch `b + period` (both after DTSTART's) hold as many.
    struct CycleCounts {
        /// Batches in one repetition.
        let period: Int
        /// `prefix[r]`: the instances of batches 1 ... r.
        let prefix: [Int]

        /// The instances of batch `batch` (1 or later).
        func count(ofBatch batch: Int) -> Int {
            let place = (batch - 1) % period
            return prefix[place + 1] - prefix[place]
        }

        /// The instances of batches 1 ... `batches`.
        func through(_ batches: Int) -> Int {
            guard batches > 0 else { return 0 }
            return batches / period * prefix[period] + prefix[batches % period]
        }

        /// The instances of the batches `range` (all 1 or later).
        func sum(_ range: Range<Int>) -> Int {
            through(range.upperBound - 1) - through(range.lowerBound - 1)
        }
    }

    /// The counts of one repetition of the rule's pattern, made once (at most 146,097 periods
    /// looked at); nil for a rule of another scale, a SKIP, or a sub-daily rule whose step does
    /// not divide a day.
    func cycleCounts() -> CycleCounts? {
        if let known = knownCycle { return known }
        var found: CycleCounts?
        if scale is GregorianScale, rule.skip == .omit || rule.scale == nil {
            let period: Int?
            if rule.frequency < .daily {
                period = dayCount == nil ? nil : 146_097
            } else {
                period = gregorianCycle
            }
            if let period {
                var prefix = [Int](repeating: 0, count: period + 1)
                for place in 0..<period { prefix[place + 1] = prefix[place] + fullCount(ofBatch: place + 1) }
                found = CycleCounts(period: period, prefix: prefix)
            }
        }
        knownCycle = .some(found)
        return found
    }
}

extension RecurrenceExpander {
    // MARK: Density

    /// The most instances the rule can give on one civil day, DTSTART's day included (an
    /// upper bound, from the rule's parts alone): what decides whether the day limit can cut
    /// it.
    var mostPerDay: Int {
        func steps(_ units: Int) -> Int { (units + rule.interval - 1) / rule.interval }
        var most: Int
        switch rule.frequency {
        case .hourly:
            most = min(steps(24), hours.isEmpty ? 24 : hours.count) * minutes.count * seconds.count
        case .minutely:
            let allowed = (hours.isEmpty ? 24 : hours.count) * (minutes.isEmpty ? 60 : minutes.count)
            most = min(steps(1_440), allowed) * seconds.count
        case .secondly:
            let allowed = (hours.isEmpty ? 24 : hours.count) * (minutes.isEmpty ? 60 : minutes.count) * (seconds.isEmpty ? 60 : seconds.count)
            most = min(steps(CivilTime.secondsPerDay), allowed)
        default:
            most = timeOfDay.count
        }
        if !rule.bySetPos.isEmpty, rule.frequency < .daily {
            // BYSETPOS picks among each hour's or minute's candidates.
            let sets = rule.frequency == .hourly ? min(steps(24), hours.isEmpty ? 24 : hours.count)
                : rule.frequency == .minutely ? min(steps(1_440), (hours.isEmpty ? 24 : hours.count) * (minutes.isEmpty ? 60 : minutes.count))
                : most
            most = min(most, sets * rule.bySetPos.count)
        }
        // DTSTART, where the rule does not make it.
        return most + 1
    }
}
