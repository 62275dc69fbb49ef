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
