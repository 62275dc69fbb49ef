import Foundation
import InfCalModel

// MARK: Searching

extension EventStore {
    /// The store of the events `matcher` matches, with the same calendars, hidden ones, own
    /// addresses and display zone: what `--search` shows in every view, and where the pager's `/` looks.
    public func restricted(to matcher: EventMatcher) -> EventStore {
        let kept = events.indices.filter { matcher.matches(events[$0]) }
        let store = EventStore(events: kept.map { events[$0] }, display: display,
                               sources: kept.compactMap { $0 < sources.count ? sources[$0] : nil },
                               calendars: calendars,
                               calendarOfEvent: kept.compactMap { $0 < calendarOfEvent.count ? calendarOfEvent[$0] : nil })
        store.hidden = hidden
        store.ownAddresses = ownAddresses
        store.hidesDeclined = hidesDeclined
        return store
    }

    /// The reach of each recurring event, worked out once; a rule that can yield nothing
    /// after DTSTART (30 February) ends there, so that a walk forward ends too.
    private func reaches() -> [(earliest: Int, latest: Int)] {
        if let known = recurringReach { return known }
        let found = recurring.map { EventCacheFormat.reach(of: events[$0], walking: true) }
        recurringReach = found
        return found
    }

    /// Whether the event at `index` is in a hidden calendar.
    private func isHidden(_ index: Int) -> Bool {
        index < calendarOfEvent.count && hidden.contains(calendarOfEvent[index])
    }

    /// A day (grid day number) on or after `day` before which no occurrence starts from `day`
    /// on: where a walk forward may skip to. Nil when no occurrence can start on `day` or
    /// later. Read from what the store keeps (the singles' starts, each rule's first and last
    /// start), not by expanding rules, so it costs the same however far it skips.
    public func earliestStartDay(from day: Int) -> Int? {
        let margin = 2 * CivilTime.secondsPerDay
        let low = (day + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay - margin
        var best = Int.max
        var lower = firstSingle(from: low)
        while lower < singles.count, isHidden(singles[lower].event) { lower += 1 }
        if lower < singles.count { best = singles[lower].start }
        for (place, reach) in reaches().enumerated() where !isHidden(recurring[place]) {
            if reach.latest < low { continue }
            best = min(best, max(low, reach.earliest))
            if best == low { break }
        }
        guard best != Int.max else { return nil }
        let found = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: best - margin))
        return max(day, found)
    }

    /// A day (grid day number) before `day` after which no occurrence starts before `day`:
    /// where a walk backward may skip to. Nil when no occurrence can start before `day`.
    public func latestStartDay(before day: Int) -> Int? {
        let margin = 2 * CivilTime.secondsPerDay
        let high = (day + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay + margin
        var best = Int.min
        var lower = firstSingle(from: high)
        while lower > 0, isHidden(singles[lower - 1].event) { lower -= 1 }
        if lower > 0 { best = singles[lower - 1].start }
        for (place, reach) in reaches().enumerated() where !isHidden(recurring[place]) {
            if reach.earliest >= high { continue }
            best = max(best, min(high - 1, reach.latest))
            if best == high - 1 { break }
        }
        guard best != Int.min else { return nil }
        let found = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: best + margin))
        return min(day - 1, found)
    }

    /// Days asked of the events at once while looking for the next day with an occurrence.
    static let searchChunk = 4096

    /// The first day of `days` on which a shown occurrence starts, or nil when none does.
    public func firstDayWithOccurrence(in days: Range<Int>) -> Int? {
        var from = days.lowerBound
        while from < days.upperBound {
            guard let next = earliestStartDay(from: from), next < days.upperBound else { return nil }
            let end = next + min(Self.searchChunk, days.upperBound - next)
            if let first = occurrences(startingOn: next..<end).first { return first.startDay }
            from = end
        }
        return nil
    }

    /// The last day of `days` on which a shown occurrence starts, or nil when none does.
    public func lastDayWithOccurrence(in days: Range<Int>) -> Int? {
        var to = days.upperBound
        while to > days.lowerBound {
            guard let previous = latestStartDay(before: to), previous >= days.lowerBound else { return nil }
            let start = previous + 1 - min(Self.searchChunk, previous + 1 - days.lowerBound)
            if let last = occurrences(startingOn: start..<(previous + 1)).last { return last.startDay }
            to = start
        }
        return nil
    }
}
