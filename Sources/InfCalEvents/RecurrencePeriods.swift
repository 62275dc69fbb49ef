import InfCalModel

// Periods: which periods (batches) a range of time touches, and one period's instances: its
// candidate days times the times of day, BYSETPOS, DTSTART and UNTIL, the day limit.

extension RecurrenceExpander {
    // MARK: Ranges

    /// The instances whose start lies in `range` (wall-clock civil seconds), in order.
    public func instances(in range: Range<Int>) -> [Int] {
        guard !range.isEmpty, let (first, last) = batches(overlapping: range) else { return [] }
        var result: [Int] = []
        if rule.count != nil, let end = knownLastBatch {
            // Where COUNT ends is known (the cache's walk found it): the same instances as
            // counting from DTSTART gives, without the count.
            var batch = first
            while batch <= min(last, end.batch) {
                let found = instances(ofBatch: batch)
                let counts = batch == end.batch ? max(0, min(end.taken, found.count)) : found.count
                for place in 0..<counts where range.contains(found[place]) { result.append(found[place]) }
                if batch == end.batch { trimCuts(of: found, to: max(0, end.taken - found.count)) }
                batch += 1
            }
            return result
        }
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
                // What the day limit left out counts toward COUNT all the same; those past
                // COUNT are none, and the day says so.
                let left = dropped(inBatch: batch)
                if left > 0, counted + left > count { trimCuts(of: instances(ofBatch: batch), to: max(0, count - counted)) }
                counted += left
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

    // MARK: One batch

    /// The instances of batch `index`, all of them (from DTSTART on, to UNTIL), in order.
    func instances(ofBatch index: Int) -> [Int] {
        if let cached = cachedBatch, cached.index == index { return cached.instances }
        if let older = olderBatch, older.index == index { return older.instances }
        droppedInBatch = 0
        cutDaysInBatch.removeAll(keepingCapacity: true)
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

    /// How many instances of batch `index` the day limit left out.
    func dropped(inBatch index: Int) -> Int {
        _ = instances(ofBatch: index)
        if let cached = cachedBatch, cached.index == index { return cached.dropped }
        return olderBatch?.index == index ? (olderBatch?.dropped ?? 0) : 0
    }

    /// Records that `dropped` instances of civil day `day` were left out after `lastKept`
    /// (more of the same day in the batch being computed add to those: DTSTART put before a
    /// day already cut pushes one more out).
    func recordCut(day: Int, lastKept: Int, dropped: Int) {
        guard dropped > 0 else { return }
        if cuts.count >= 4096, cuts[day] == nil { cuts.removeAll(keepingCapacity: true) }
        let before = cutDaysInBatch.contains(day) ? cuts[day]?.dropped ?? 0 : 0
        cuts[day] = (lastKept, before + dropped)
        cutDaysInBatch.append(day)
        droppedInBatch += dropped
    }

    /// Makes the cuts of the days of `kept` (a batch's instances) say no more than `remaining`
    /// left out in all, the first days' first: COUNT ends among those left out.
    func trimCuts(of kept: [Int], to remaining: Int) {
        var left = remaining
        var previous = Int.min
        for instance in kept {
            let day = CivilTime.day(ofSeconds: instance)
            guard day != previous else { continue }
            previous = day
            guard let cut = cuts[day] else { continue }
            let keep = min(cut.dropped, left)
            left -= keep
            cuts[day] = keep > 0 ? (cut.lastKept, keep) : nil
        }
    }

    /// The first `InputLimits.instancesPerDay` instances of each day of `sorted`.
    func keepingFirstOfEachDay(_ sorted: [Int]) -> [Int] {
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
    func withPositions(_ days: [Int]) -> [Int] {
        let times = timeOfDay
        guard !rule.bySetPos.isEmpty else {
            // At most the day limit of times a day: a rule of every second of every day of a year
            // is not made whole only to be cut. DTSTART's day and UNTIL's are cut after those
            // before DTSTART and after UNTIL are left out.
            let limit = InputLimits.instancesPerDay
            let through = until ?? Int.max
            var result: [Int] = []
            result.reserveCapacity(days.count * min(times.count, limit))
            for day in days {
                let base = day * CivilTime.secondsPerDay
                if let first = times.first, let last = times.last, base + first >= start, base + last <= through {
                    for time in times.prefix(limit) { result.append(base + time) }
                    if times.count > limit, let last = result.last {
                        recordCut(day: day, lastKept: last, dropped: times.count - limit)
                    }
                    continue
                }
                var (kept, over) = (0, 0)
                for time in times where base + time >= start && base + time <= through {
                    if kept < limit { result.append(base + time); kept += 1 } else { over += 1 }
                }
                if over > 0, let last = result.last { recordCut(day: day, lastKept: last, dropped: over) }
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
}
