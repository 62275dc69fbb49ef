import InfCalModel

// The HOURLY, MINUTELY and SECONDLY rules: the instances of one day.

extension RecurrenceExpander {
    // MARK: Sub-daily

    /// The instances of the HOURLY, MINUTELY or SECONDLY rule on `day` from DTSTART to UNTIL,
    /// the first `InputLimits.instancesPerDay` of them: those past it are counted (`recordCut`),
    /// not kept (a day of every second is 86,400 of them).
    func subDaily(day: Int) -> [Int] {
        guard passes(day) else { return [] }
        let dayStart = day * CivilTime.secondsPerDay
        let from = max(start, dayStart)
        let through = min(until ?? Int.max, dayStart + CivilTime.secondsPerDay - 1)
        guard from <= through else { return [] }
        let limit = InputLimits.instancesPerDay
        var result: [Int] = []
        if rule.frequency == .secondly, hours.isEmpty, minutes.isEmpty, seconds.isEmpty {
            // Every INTERVAL-th second from DTSTART: counted, not walked. Each second is a set of
            // its own: BYSETPOS keeps it with 1 or -1, else nothing.
            guard rule.bySetPos.isEmpty || rule.bySetPos.contains(1) || rule.bySetPos.contains(-1) else { return [] }
            let interval = rule.interval
            let first = start + (from - start + interval - 1) / interval * interval
            let total = first <= through ? (through - first) / interval + 1 : 0
            for step in 0..<min(total, limit) { result.append(first + step * interval) }
            if total > limit, let last = result.last { recordCut(day: day, lastKept: last, dropped: total - limit) }
            return result
        }
        if from == dayStart, through == dayStart + CivilTime.secondsPerDay - 1, let perDay = dayCount {
            // A whole day of a rule whose days all have the same times: the first ones found,
            // the rest counted.
            _ = times(ofDay: day, from: from, through: through) { value in
                result.append(value)
                return result.count < limit
            }
            if perDay > result.count, let last = result.last { recordCut(day: day, lastKept: last, dropped: perDay - result.count) }
            return result
        }
        var over = 0
        _ = times(ofDay: day, from: from, through: through) { value in
            if result.count < limit { result.append(value) } else { over += 1 }
            return true
        }
        if over > 0, let last = result.last { recordCut(day: day, lastKept: last, dropped: over) }
        return result
    }
}
