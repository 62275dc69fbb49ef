import InfCalModel

// The instances of an event still under way at a moment: the first few, and how many there
// are, without making the others (an event lasting years that repeats every second has a
// hundred million under way on any day of them).

/// The first instances of an event under way at a moment, and how many more there are.
struct UnderWay {
    /// In order of start (the event's reckoning, as `Event.instances(in:)` gives them).
    var instances: [(start: Int, duration: Int)] = []
    /// How many more are under way after those; nil when there are more than can be counted
    /// without walking the rule for longer than a query may take.
    var more: Int? = 0
}

extension Event {
    /// The most candidates `underWay` takes from each rule before it gives up looking for the
    /// first ones past EXDATEs and EXRULEs.
    static let underWayCandidates = 65_536
    /// The most instances of each rule `underWay` walks to count those of an event it cannot
    /// count otherwise (several RRULEs, an EXRULE).
    static let underWayWalked = 16_384

    /// The instances under way: those starting before `high` and after the moment `low` gives
    /// for their duration (the event's reckoning; an instance of duration `d` starting at `s` is
    /// under way when `low(d) < s < high`), the first `limit` of them in order of start, and
    /// how many more there are. The same instances as `instances(in:)` gives for the range
    /// from `low(d) + 1` to `high`, but every one of them: the day limit leaves none out.
    /// Without `counting`, `more` is nil when there are more and 0 when not.
    func underWay(before high: Int, after low: (Int) -> Int, limit: Int, counting: Bool = true) -> UnderWay {
        if rulesLeftOut || limit < 0 { return UnderWay() }
        let shift = segment.shift
        func unshifted(_ value: Int) -> Int {
            let (result, overflow) = value.subtractingReportingOverflow(shift)
            return overflow ? (shift > 0 ? Int.min : Int.max) : result
        }
        /// The starts (series' reckoning) under way for instances lasting `duration`.
        func starts(lasting duration: Int) -> Range<Int> {
            var lower = unshifted(low(duration))
            lower = lower == Int.max ? Int.max : lower + 1
            var upper = unshifted(high)
            if let from = segment.from { lower = max(lower, from) }
            if let to = segment.to { upper = min(upper, to) }
            return lower < upper ? lower..<upper : lower..<lower
        }
        let ruled = starts(lasting: duration)
        let seriesStart = segment.seriesStart
        // RDATEs that no rule makes, under way with their own durations (one a rule makes is
        // that rule's instance, and lasts as they do).
        var extras: [(start: Int, duration: Int)] = []
        var seen = Set<Int>()
        for extra in extraStarts where extra.start != seriesStart && seen.insert(extra.start).inserted {
            let lasting = extra.duration ?? duration
            guard starts(lasting: lasting).contains(extra.start), !isRuleInstance(extra.start) else { continue }
            extras.append((extra.start, lasting))
        }
        extras.sort { $0.start < $1.start }
        func isExcluded(_ start: Int) -> Bool {
            excluded.contains(start) || excludedDays.contains(CivilTime.day(ofSeconds: start))
                || exclusionRules.contains { $0.count(in: start..<(start + 1)) == 1 }
        }
        /// The instances under way, each rule's first `taken` merged with DTSTART and the
        /// RDATEs, EXDATEs and EXRULEs applied: those up to where every rule's are known, and
        /// whether that is all of them.
        func first(_ taken: Int) -> (found: [Int], complete: Bool) {
            var merged: [Int] = ruled.contains(seriesStart) ? [seriesStart] : []
            var complete = true
            var cutoff = Int.max
            for expander in expanders {
                var own: [Int] = []
                let end = expander.forEachInstance(in: ruled) { value in
                    own.append(value)
                    return own.count < taken
                }
                if end != .exhausted {
                    // Past the last one taken, this rule's instances are not known.
                    complete = false
                    cutoff = min(cutoff, own.last ?? Int.min)
                }
                merged += own
            }
            merged += extras.map(\.start)
            merged.sort()
            var found: [Int] = []
            for value in merged where value <= cutoff && found.last != value && !isExcluded(value) { found.append(value) }
            return (found, complete)
        }
        // The first ones: more are taken while exclusions leave too few and a rule has more.
        var taken = limit + 1
        var (found, complete) = first(taken)
        while !complete, found.count <= limit, taken < Self.underWayCandidates {
            taken = min(Self.underWayCandidates, taken * 8)
            (found, complete) = first(taken)
        }
        var result = UnderWay()
        var place = 0
        for start in found.prefix(limit) {
            while place < extras.count, extras[place].start < start { place += 1 }
            let lasting = place < extras.count && extras[place].start == start ? extras[place].duration : duration
            result.instances.append((start + shift, lasting))
        }
        if complete {
            result.more = found.count - result.instances.count
        } else if !counting {
            result.more = nil
        } else if let total = countUnderWay(ruled: ruled, extras: extras.map(\.start)) {
            result.more = max(0, total - result.instances.count)
        } else {
            // Several rules, or an EXRULE: counted by walking them, when that is short.
            let walked = first(Self.underWayWalked)
            result.more = walked.complete ? walked.found.count - result.instances.count : nil
        }
        return result
    }

    /// Whether a rule of the event makes an instance starting at `start` (series' reckoning).
    private func isRuleInstance(_ start: Int) -> Bool {
        expanders.contains { $0.count(in: start..<(start + 1)) == 1 }
    }

    /// How many instances are under way, counted (not walked): the rule's instances starting
    /// in `ruled` with DTSTART, the RDATEs `extras`, less the EXDATEs among them. Nil for an
    /// event of several rules or with an EXRULE, or a rule that cannot be counted.
    private func countUnderWay(ruled: Range<Int>, extras: [Int]) -> Int? {
        guard expanders.count <= 1, exclusionRules.isEmpty else { return nil }
        let rule = expanders.first
        let seriesStart = segment.seriesStart
        func ruleCount(_ range: Range<Int>) -> Int? {
            guard !range.isEmpty, let rule else { return 0 }
            return rule.count(in: range)
        }
        // DTSTART where the rule does not make it; the RDATEs `extras` it does not make either.
        let startExtra = ruled.contains(seriesStart) && !isRuleInstance(seriesStart)
        guard var total = ruleCount(ruled) else { return nil }
        total += (startExtra ? 1 : 0) + extras.count
        for day in excludedDays {
            let (low, overflow) = day.multipliedReportingOverflow(by: CivilTime.secondsPerDay)
            guard !overflow, low < Int.max - CivilTime.secondsPerDay else { continue }
            let lower = max(low, ruled.lowerBound), upper = min(low + CivilTime.secondsPerDay, ruled.upperBound)
            if lower < upper {
                guard let onDay = ruleCount(lower..<upper) else { return nil }
                total -= onDay
            }
            if startExtra, CivilTime.day(ofSeconds: seriesStart) == day { total -= 1 }
            total -= extras.filter { CivilTime.day(ofSeconds: $0) == day }.count
        }
        for start in excluded where !excludedDays.contains(CivilTime.day(ofSeconds: start)) {
            if extras.contains(start) || (start == seriesStart && startExtra) || (ruled.contains(start) && isRuleInstance(start)) {
                total -= 1
            }
        }
        return max(0, total)
    }
}
