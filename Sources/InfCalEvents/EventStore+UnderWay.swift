import InfCalModel

// What is under way on a day: the instances that began on earlier days and have not ended.
// The day limit holds for them as for those that begin that day: of one event, a day lists
// the first `InputLimits.instancesPerDay` and says how many more. An event that lasts long or
// repeats densely is asked for them day by day (`Event.underWay`), so that a month costs what
// its days show, not what its rule made since DTSTART.

extension EventStore {
    // MARK: What is under way

    /// The longest an event's instances may last and have what is under way of them found
    /// among the window's instances: the window then reaches back that far for every event.
    static let longestKept = InstanceWindow.shortest

    /// Whether what is under way of `event` on a day is asked of it (`Event.underWay`) rather
    /// than found among the window's instances. Such an event has rules (a cache's table holds
    /// every instance of one without them, and RDATEs are few) and lasts, and either lasts
    /// longer than `longestKept`, or a rule of it can make more instances on one day than the
    /// day limit keeps (the window holds only those kept), or more than four times the day
    /// limit can be under way at once.
    static func lastsLong(_ event: Event) -> Bool {
        let reach = max(event.duration, event.extraStarts.map { $0.duration ?? 0 }.max() ?? 0)
        guard !event.rulesLeftOut, !event.expanders.isEmpty, reach > 0 else { return false }
        if reach > longestKept { return true }
        let days = (event.duration + CivilTime.secondsPerDay - 1) / CivilTime.secondsPerDay + 1
        var bound = 0
        for expander in event.expanders {
            let most = expander.mostPerDay
            if most > InputLimits.instancesPerDay { return true }
            bound += most * days
        }
        return bound > 4 * InputLimits.instancesPerDay
    }

    /// Keeps, of each event with more than the day limit under way on day `day` (grid day
    /// number) in `list` (in order of start), the first ones, the last of them saying how many
    /// more (`Occurrence.more`).
    func limitUnderWay(_ list: inout [Occurrence], on day: Int) {
        let limit = InputLimits.instancesPerDay
        guard list.count > limit, list.lazy.filter({ $0.startDay < day }).count > limit else { return }
        var underWay: [Int: Int] = [:]
        for occurrence in list where occurrence.startDay < day { underWay[occurrence.event ?? -1, default: 0] += 1 }
        guard underWay.values.contains(where: { $0 > limit }) else { return }
        var kept: [Int: Int] = [:]
        var result: [Occurrence] = []
        result.reserveCapacity(list.count)
        for var occurrence in list {
            let event = occurrence.event ?? -1
            guard occurrence.startDay < day, let total = underWay[event], total > limit else {
                result.append(occurrence)
                continue
            }
            let place = kept[event, default: 0] + 1
            kept[event] = place
            if place > limit { continue }
            if place == limit { occurrence.more = total - limit }
            result.append(occurrence)
        }
        list = result
    }

    /// What is under way on day `day` (grid day number) of the events of `lasting` in shown
    /// calendars, in order of start, then summary.
    func underWay(on day: Int) -> [Occurrence] {
        var found: [Occurrence] = []
        for index in lasting {
            if !isShown(index) { continue }
            found += underWay(of: index, on: day)
        }
        if lasting.count > 1 { found.sortStably { ($0.start, $0.summary) < ($1.start, $1.summary) } }
        return found
    }

    /// `first` and `second` (each in order of start, then summary) in one list in that order.
    func merged(_ first: [Occurrence], _ second: [Occurrence]) -> [Occurrence] {
        // Mostly what is under way, then what begins that day: in order as they come.
        if let last = first.last, let next = second.first, last.start < next.start { return first + second }
        var all = second + first
        all.sortStably { ($0.start, $0.summary) < ($1.start, $1.summary) }
        return all
    }

    /// What is under way of event `index` on day `day` (grid day number): its instances that
    /// began before the day and end after its start, the first `InputLimits.instancesPerDay`,
    /// the last saying how many more (`Occurrence.uncounted` when that is not known).
    func underWay(of index: Int, on day: Int) -> [Occurrence] {
        if let known = underWayMemo[index]?[day] { return known }
        let result = underWay(of: index, on: day, limit: InputLimits.instancesPerDay, counting: true)
        if underWayMemoCount >= 4_096 {
            underWayMemo.removeAll(keepingCapacity: true)
            underWayMemoCount = 0
        }
        underWayMemo[index, default: [:]][day] = result
        underWayMemoCount += 1
        return result
    }

    /// The days of `days` (grid day numbers) that some occurrence of a shown calendar touches:
    /// the days `occurrencesByDay(days)` has lists for, found without counting what is under
    /// way (what marks the days of a grid).
    public func daysTouched(_ days: Range<Int>) -> Set<Int> {
        var result = Set<Int>()
        for occurrence in collect(days, touching: true) {
            if let span = listedDays(of: occurrence, in: days) { result.formUnion(span) }
        }
        for index in lasting {
            if !isShown(index) { continue }
            for day in days where !result.contains(day) {
                let known = underWayMemo[index]?[day]
                if let known, known.isEmpty { continue }
                if known != nil || !underWay(of: index, on: day, limit: 1, counting: false).isEmpty { result.insert(day) }
            }
        }
        return result
    }

    /// The first `limit` of event `index` under way on day `day`, the last saying how many more
    /// (counted only with `counting`).
    private func underWay(of index: Int, on day: Int, limit: Int, counting: Bool) -> [Occurrence] {
        let event = events[index]
        let dayStart = (day + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
        let high: Int
        let low: (Int) -> Int
        switch event.start.form {
        case .date, .floating:
            // Shown as written.
            high = dayStart
            low = { dayStart - $0 }
        case .utc, .zoned:
            // The day's start in UTC, then in the event's own wall clock: an instance is under
            // way when it starts before that and ends after it.
            let utc = dayStart - display.offset(dayStart - display.offset(dayStart))
            let local = { (moment: Int) in moment + (event.zone?.offset(atUTC: moment) ?? 0) }
            high = local(utc)
            // Days of the calendar (`Event.nominalDays`) may last longer than 24 hours: a
            // day more is asked, and what does not reach the day is left out below.
            let reach = event.nominalDays > 0 ? CivilTime.secondsPerDay : 0
            low = { local(utc - $0 - reach) }
        }
        let asked = event.underWay(before: high, after: low, limit: limit, counting: counting)
        var result: [Occurrence] = []
        for instance in asked.instances {
            let (start, end, startOffset, endOffset) = shown(event, start: instance.start, duration: instance.duration)
            guard start < dayStart, end > dayStart else { continue }
            var occurrence = occurrence(of: index, start: start, end: end)
            describe(&occurrence, of: index)
            (occurrence.startOffset, occurrence.endOffset) = (startOffset, endOffset)
            result.append(occurrence)
        }
        if let last = result.indices.last, asked.more != 0 { result[last].more = asked.more ?? Occurrence.uncounted }
        return result
    }
}
