import InfCalModel

// The HOURLY, MINUTELY and SECONDLY rules: the instances of one day.

extension RecurrenceExpander {
    // MARK: Sub-daily

    /// The instances of the HOURLY, MINUTELY or SECONDLY rule on `day`.
    func subDaily(day: Int) -> [Int] {
        guard passes(day) else { return [] }
        let interval = rule.interval
        let dayStart = day * CivilTime.secondsPerDay
        var result: [Int] = []
        // One hour's or one minute's candidates, in one buffer kept for the day.
        var candidates: [Int] = []
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
                    candidates.removeAll(keepingCapacity: true)
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
                    candidates.removeAll(keepingCapacity: true)
                    for s in seconds { candidates.append(dayStart + minute * 60 + s) }
                    pick(candidates)
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
