import InfCalModel

// COUNT: the walk from DTSTART that counts instances, once, keeping the count before every
// `checkpointStride`th period, so that a range far from DTSTART counts on from the nearest.

extension RecurrenceExpander {
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

    /// How many instances come before batch `batch`, walking (once) as far as needed; nil when
    /// COUNT is reached before it or the rule never produces.
    func countBefore(batch: Int) -> Int? {
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

    /// Where a COUNT rule ends: the period holding its last instance, how many of that period's
    /// instances count, and the latest an instance can start.
    public struct CountEnd: Equatable, Sendable {
        /// The last period with instances and how many of its first instances count (what the
        /// day limit left out comes after those kept that period, as `instances(in:)` counts);
        /// nil when the walk from DTSTART gives up before (`countBefore`: a rule that yields
        /// nothing for 400 years), so that only the latest is known.
        public let last: (batch: Int, taken: Int)?
        /// The start of the last instance; when the day limit left instances out of its
        /// period, the end of the day of the last one kept, which is never before the last
        /// counted. What the cache's index records as the latest an event can occur.
        public let latest: Int

        public static func == (a: CountEnd, b: CountEnd) -> Bool {
            a.latest == b.latest && a.last?.batch == b.last?.batch && a.last?.taken == b.last?.taken
        }
    }

    /// How far `countEnd` walks a COUNT rule from DTSTART, in periods.
    static let countEndWalk = 10_000

    /// Where the COUNT rule ends (`CountEnd`), walking at most `countEndWalk` periods, once;
    /// nil without COUNT, or when the walk does not reach the count. The walk also stops after
    /// `Self.walkLimit.instances / 20` instances, so that a dense rule cannot make it run for
    /// minutes (`FREQ=MINUTELY;COUNT=2000000000;BYSECOND=0,...,9`).
    public var countEnd: CountEnd? {
        if let known = knownCountEnd { return known }
        let found = walkToCountEnd()
        knownCountEnd = .some(found)
        return found
    }

    /// Tells the expander where its COUNT rule ends (what `countEnd` found when the cache was
    /// built), so that `instances(in:)` neither counts from DTSTART nor walks to find it.
    func setCountEnd(_ end: CountEnd?) {
        knownCountEnd = .some(end)
    }

    /// The end where `instances(in:)` may stop counting, when it is known already.
    var knownLastBatch: (batch: Int, taken: Int)? {
        if case let .some(.some(end)) = knownCountEnd { return end.last }
        return nil
    }

    private func walkToCountEnd() -> CountEnd? {
        guard let count = rule.count, count > 0 else { return nil }
        // Counted as `countBefore` counts: what the day limit left out counts too, and a rule
        // yielding nothing but DTSTART for a thousand periods and 400 years yields nothing.
        var counted = 0
        var unbound = false
        for batch in 0..<Self.countEndWalk {
            let before = counted
            let kept = instances(ofBatch: batch)
            let dropped = dropped(inBatch: batch)
            var latest: Int?
            if dropped == 0 {
                for instance in kept {
                    counted += 1
                    if counted >= count { latest = instance; break }
                }
            } else {
                counted += kept.count + dropped
                if counted >= count, let last = kept.last {
                    latest = (CivilTime.day(ofSeconds: last) + 1) * CivilTime.secondsPerDay - 1
                }
            }
            if let latest { return CountEnd(last: unbound ? nil : (batch, count - before), latest: latest) }
            // Counted out with nothing kept to end on: `countBefore` ended here; the walk looks on for a latest only.
            if counted >= count { unbound = true }
            if counted > Self.walkLimit.instances / 20 { return nil }
            if counted == (startIsExtra ? 1 : 0), batch + 1 >= 1000, batchStartDay(batch + 1) - startDay > 146_097 {
                unbound = true
            }
        }
        return nil
    }

    /// The first day of batch `index` (for the barren check only).
    func batchStartDay(_ index: Int) -> Int {
        switch rule.frequency {
        case .yearly: return startDay + index * rule.interval * 365
        case .monthly: return startDay + index * rule.interval * 28
        case .weekly: return startWeek + index * rule.interval * 7
        case .daily: return startDay + index * rule.interval
        default: return startDay + index
        }
    }
}
