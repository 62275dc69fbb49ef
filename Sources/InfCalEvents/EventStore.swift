import Foundation
import InfCalModel

/// The zone the calendar is shown in: the offset from UTC at any instant. The terminal layer
/// passes one built on libc's `localtime_r` (which reads TZ as POSIX defines it); tests pass a
/// fixed one or a Foundation zone.
public struct DisplayZone: Sendable {
    /// The offset in seconds at an instant given as UTC civil seconds.
    public let offset: @Sendable (Int) -> Int

    public init(offset: @escaping @Sendable (Int) -> Int) {
        self.offset = offset
    }

    public static let utc = DisplayZone { _ in 0 }

    /// A Foundation zone.
    public init(_ zone: TimeZone) {
        self.init { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
    }
}

/// All events of a run, indexed so that views can ask what happens on a range of days.
///
/// Single events are kept sorted by their start where the calendar is shown; recurring ones are
/// asked for their instances in the range only, so a month costs the same in any year.
public final class EventStore {
    public let events: [Event]
    /// The file each event came from (parallel to `events`; may be shorter).
    public let sources: [String]
    /// The calendars the events belong to, as the views name and colour them.
    public let calendars: [EventCalendar]
    /// The index into `calendars` of each event (parallel to `events`; may be shorter).
    let calendarOfEvent: [Int]
    /// The calendars (indices into `calendars`) whose events are left out of every answer:
    /// `--hide`, `--only`, and the pager's list of calendars.
    @exclusivity(unchecked) public var hidden: Set<Int> = []
    /// The user's calendar addresses (`CalendarAddress.keys`): an occurrence of an event that
    /// one of them declined says so (`Occurrence.isDeclined`), for the views to dim.
    @exclusivity(unchecked) public var ownAddresses: Set<String> = []
    /// Whether the occurrences of events declined by one of `ownAddresses` are left out of
    /// every answer (`--hide-declined`).
    @exclusivity(unchecked) public var hidesDeclined = false
    /// The zone the store shows times in (its occurrences' wall clock and offsets).
    public let display: DisplayZone
    /// A non-recurring event: display start and end, the event, the display offsets. A
    /// struct, not a tuple: the first array of a tuple type costs a look-up of its metadata
    /// by name, on the way of every run with events to its first page.
    struct Single {
        let start: Int
        let end: Int
        let event: Int
        let startOffset: Int?
        let endOffset: Int?
    }
    /// Non-recurring events, in order of display start.
    @exclusivity(unchecked) private(set) var singles: [Single] = []
    @exclusivity(unchecked) private var longestSingle = 0
    @exclusivity(unchecked) private(set) var recurring: [Int] = []
    /// The display zone's offset on each day (civil day number) on which it holds all day.
    @exclusivity(unchecked) private var displayOffsets = IntWindow(limit: 200_000)
    /// The latest any occurrence can start and the earliest (event's reckoning, widened by
    /// the zones' reach): nil latest when a rule has no known end.
    private var latestStart: Int? = Int.min
    private var earliestStart = Int.max
    /// The instances of every recurring event in a window of their reckoning around the last
    /// range asked: a stream asks month after month, and each rule is expanded once per window
    /// rather than once per month.
    @exclusivity(unchecked) private var window = InstanceWindow()
    /// The longest duration of a recurring event (with its RDATE periods) whose instances
    /// under way the window holds: all but `lasting`.
    private var longestRecurring = 0
    /// The recurring events that last long or repeat densely (`lastsLong`): the window holds
    /// only their instances that start near the range asked, and what is under way of them on
    /// a day is asked of the event (`Event.underWay`), the first few and how many.
    @exclusivity(unchecked) private(set) var lasting: [Int] = []
    /// Whether each event is among `lasting`.
    @exclusivity(unchecked) private(set) var isLasting: [Bool] = []
    /// The recurring events that can make more instances on one day than the day limit keeps
    /// of one rule: several rules, or a rule and RDATEs, that together can.
    private var overfilling = Set<Int>()
    /// What is under way of an event of `lasting` on a day (grid day number), once asked.
    @exclusivity(unchecked) var underWayMemo: [Int: [Int: [Occurrence]]] = [:]
    @exclusivity(unchecked) var underWayMemoCount = 0
    /// The earliest start and the latest end of each of `recurring` (event's reckoning;
    /// `Int.max`: no end), with COUNT rules counted: worked out when a walk first asks where
    /// it may skip to.
    @exclusivity(unchecked) var recurringReach: [(earliest: Int, latest: Int)]?
    /// What `withStarts` found last (`foundCount` of them), its storage kept from call to call
    /// and owned by the store: an array's emptying and appending cost more than the finding.
    @exclusivity(unchecked) private var foundStarts = UnsafeMutablePointer<(start: Int, end: Int, event: Int)>.allocate(capacity: 0)
    @exclusivity(unchecked) private var foundCount = 0
    @exclusivity(unchecked) private var foundCapacity = 0
    /// The starts `withStarts` gives when every event is a closed-form yearly rule shown as
    /// written (a calendar of birthdays): made on its first question; nil when they are not.
    @exclusivity(unchecked) private var yearlyStarts: YearlyStarts?
    @exclusivity(unchecked) private var checkedYearly = false
    /// The instances the cache's table gave, kept for the same events shown in another zone.
    let preset: PresetInstances?
    /// The same events shown in other zones (`shown(in:named:)`), made once each.
    @exclusivity(unchecked) var otherZones: [(name: String, store: EventStore)] = []
    /// Whether `withStarts` answered from the closed forms (`YearlyStarts`): for the tests.
    var answersFromYearlyForms: Bool { yearlyStarts.map { !$0.failed } ?? false }


    /// A store of `events` shown in `display`, `sources[i]` naming the file of `events[i]` and
    /// `calendars[calendarOfEvent[i]]` its calendar.
    /// With `preset`, the instances of the recurring events it covers in its range (worked out
    /// when the cache was written), which a window inside that range takes instead of
    /// expanding their rules.
    public init(events: [Event], display: DisplayZone, sources: [String] = [], calendars: [EventCalendar] = [],
                calendarOfEvent: [Int] = [], preset: PresetInstances? = nil) {
        self.events = events
        self.sources = sources
        self.calendars = calendars
        self.calendarOfEvent = calendarOfEvent
        self.display = display
        self.preset = preset
        for (index, event) in events.enumerated() {
            if event.isRecurring {
                recurring.append(index)
            } else {
                let (start, end, startOffset, endOffset) = shown(event, start: event.start.seconds, duration: event.duration)
                singles.append(Single(start: start, end: end, event: index, startOffset: startOffset, endOffset: endOffset))
                longestSingle = max(longestSingle, end - start)
            }
        }
        singles.sortStably { $0.start < $1.start }
        for index in recurring {
            let event = events[index]
            if let latest = latestStart { latestStart = event.latestStart.map { max(latest, $0) } }
            earliestStart = min(earliestStart, event.start.seconds, event.extraStarts.map(\.start).min() ?? Int.max)
            if event.expanders.count + (event.extraStarts.isEmpty ? 0 : 1) > 1,
               event.expanders.reduce(event.extraStarts.count, { $0 + $1.mostPerDay }) > InputLimits.instancesPerDay {
                overfilling.insert(index)
            }
            if Self.lastsLong(event) {
                if isLasting.isEmpty { isLasting = [Bool](repeating: false, count: events.count) }
                isLasting[index] = true
                lasting.append(index)
            } else {
                // Days of the calendar may last longer than 24 hours: a day's margin.
                let longest = event.duration + (event.nominalDays > 0 ? CivilTime.secondsPerDay : 0)
                longestRecurring = max(longestRecurring, longest, event.extraStarts.map { $0.duration ?? 0 }.max() ?? 0)
            }
        }
        if let preset {
            var covered = [Bool](repeating: false, count: events.count)
            for instance in preset.instances where instance.event >= 0 && instance.event < events.count { covered[instance.event] = true }
            window.setPreset(preset, places: recurring.map { covered[$0] }, only: recurring.contains { events[$0].rulesLeftOut })
        }
    }

    deinit {
        foundStarts.deallocate()
    }

    /// Display wall-clock start and end of an instance of `event` starting at `start` (the
    /// event's reckoning), with the display zone's offsets there (nil for dates and floating times).
    func shown(_ event: Event, start: Int, duration: Int) -> (Int, Int, Int?, Int?) {
        switch event.start.form {
        case .date, .floating:
            return (start, start + duration, nil, nil)
        case .utc, .zoned:
            let utc = event.zone?.utc(ofLocal: start) ?? start
            var end = utc + duration
            // The days of a DURATION are days of the event's zone (an RDATE period's own
            // length, which differs, is exact).
            if event.nominalDays > 0, duration == event.duration, let zone = event.zone {
                let days = event.nominalDays * CivilTime.secondsPerDay
                end = zone.utc(ofLocal: start + days) + (duration - days)
            }
            let (startOffset, endOffset) = (displayOffset(utc), displayOffset(end))
            return (utc + startOffset, end + endOffset, startOffset, endOffset)
        }
    }

    /// The display zone's offset at `utc`, kept per day where it holds all day.
    private func displayOffset(_ utc: Int) -> Int {
        let day = CivilTime.day(ofSeconds: utc)
        if let known = displayOffsets.value(at: day) { return known }
        let start = display.offset(day * CivilTime.secondsPerDay)
        let end = display.offset((day + 1) * CivilTime.secondsPerDay - 1)
        guard start == end else { return display.offset(utc) }
        displayOffsets.set(start, at: day)
        return start
    }

    /// Calls `body` with each occurrence of a shown calendar that starts on `days` (grid day
    /// numbers), or with `touching` that touches them: the event's index in `events`, its
    /// display start, end and offsets, and how many more the day limit left out after it.
    /// Singles come first in order of start, then the rules' instances in order of start, then
    /// of event; `reserve` is told first how many may come.
    @inline(__always)
    private func visit(_ days: Range<Int>, touching: Bool, reserve: (Int) -> Void,
                       _ body: (Int, (start: Int, end: Int, startOffset: Int?, endOffset: Int?), Int) -> Void) {
        guard !days.isEmpty else { return }
        let low = (days.lowerBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
        let high = (days.upperBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
        func admit(_ index: Int, _ shown: (start: Int, end: Int, startOffset: Int?, endOffset: Int?), more: Int = 0) {
            let (start, end) = (shown.start, shown.end)
            let inside = touching ? (start < high && (end > low || (end == start && start >= low))) : (start >= low && start < high)
            if inside {
                if !isShown(index) { return }
                body(index, shown, more)
            }
        }
        // Singles: binary search for the first that may reach the range.
        var index = firstSingle(from: touching ? low - longestSingle : low)
        let singlesEnd = max(index, firstSingle(from: high))
        // Recurring: ask each for its instances near the range, in its own reckoning (zones
        // differ from the display's by at most a day and a bit).
        let margin = 2 * CivilTime.secondsPerDay
        var near = 0..<0
        if !recurring.isEmpty {
            let range = (low - margin - (touching ? longestRecurring : 0))..<(high + margin)
            // The first month a stream lists asks what starts in it, then what touches its
            // first day: when the longest recurring event is short, the first window holds
            // both, and the rules are expanded once.
            let reach = touching || !window.range.isEmpty || longestRecurring > InstanceWindow.shortest ? 0 : longestRecurring
            window.fill((range.lowerBound - reach)..<range.upperBound, events: events, recurring: recurring)
            let first = window.firstIndex(from: range.lowerBound)
            near = first..<max(first, window.firstIndex(from: range.upperBound))
        }
        // Room for all at once: growing by doubling copies the occurrences, and touches new pages.
        reserve(singlesEnd - index + near.count)
        while index < singlesEnd {
            let single = singles[index]
            admit(single.event, (single.start, single.end, single.startOffset, single.endOffset))
            index += 1
        }
        let instances = window.instances
        for next in near {
            let instance = instances[next]
            if instance.local, !touching, !window.hasCuts {
                // Shown as written, with no cuts to look up: nothing of the event is needed.
                if instance.start >= low - margin { admit(instance.event, (instance.start, instance.start + instance.duration, nil, nil)) }
                continue
            }
            let event = events[instance.event]
            // What is under way of a lasting event is asked of it, day by day (`underWay`).
            let underWayAsked = touching && !isLasting.isEmpty && isLasting[instance.event]
            guard instance.start >= low - margin - (touching && !underWayAsked ? event.duration : 0) else { continue }
            // The last instance a day kept of a rule denser than the day limit says how many more.
            let day = CivilTime.day(ofSeconds: instance.start)
            let cut = window.hasCuts ? event.expanders.lazy.compactMap { $0.cuts.isEmpty ? nil : $0.cuts[day] }.first : nil
            let shownAt = shown(event, start: instance.start, duration: instance.duration)
            if underWayAsked, shownAt.0 < low { continue }
            admit(instance.event, shownAt, more: cut.map { $0.lastKept == instance.start ? $0.dropped : 0 } ?? 0)
        }
    }

    /// The occurrences that start on the days `days` (grid day numbers, where the calendar is
    /// shown), in order of start, then summary.
    public func occurrences(startingOn days: Range<Int>) -> [Occurrence] {
        collect(days, touching: false)
    }

    /// For each day of `days`, the occurrences that touch it (multi-day events on each of their
    /// days), in order of start: what a month grid asks.
    ///
    /// The day limit holds for what is under way too: of one event, a day lists at most
    /// `InputLimits.instancesPerDay` of the instances that began on earlier days, the last one
    /// saying how many more (`Occurrence.more`), as it lists at most as many of those that
    /// begin that day.
    public func occurrencesByDay(_ days: Range<Int>) -> [Int: [Occurrence]] {
        var result: [Int: [Occurrence]] = [:]
        for occurrence in collect(days, touching: true) {
            guard let span = listedDays(of: occurrence, in: days) else { continue }
            for day in span {
                if day == occurrence.startDay {
                    result[day, default: []].append(occurrence)
                } else {
                    // Under way: the count of its own day's cut says nothing of this one.
                    var underWay = occurrence
                    underWay.more = 0
                    result[day, default: []].append(underWay)
                }
            }
        }
        for day in result.keys { limitUnderWay(&result[day, default: []], on: day) }
        if !lasting.isEmpty {
            for day in days {
                let found = underWay(on: day)
                guard !found.isEmpty else { continue }
                result[day] = merged(found, result[day] ?? [])
            }
        }
        return result
    }

    /// The days of `days` (grid day numbers) whose lists hold `occurrence`: those it touches, or
    /// its first alone for a lasting event's (its later days are asked of it, `underWay`).
    func listedDays(of occurrence: Occurrence, in days: Range<Int>) -> ClosedRange<Int>? {
        let first = max(occurrence.startDay, days.lowerBound)
        let last = isLasting.isEmpty || !isLasting[occurrence.event ?? 0] ? min(occurrence.lastDay, days.upperBound - 1) : first
        return first <= last ? first...last : nil
    }

    /// The occurrences that touch day `day` (grid day number), in order of start: what
    /// `occurrencesByDay(day..<(day + 1))[day]` holds, without a dictionary keyed by day.
    public func occurrences(touching day: Int) -> [Occurrence] {
        var result = collect(day..<(day + 1), touching: true)
        for place in result.indices where result[place].startDay < day { result[place].more = 0 }
        limitUnderWay(&result, on: day)
        guard !lasting.isEmpty else { return result }
        let found = underWay(on: day)
        return found.isEmpty ? result : merged(found, result)
    }

    /// The occurrences that touch any of the days `days` (grid day numbers), each once, in
    /// order of start: what an alarm counted from the end of its occurrence asks.
    public func occurrences(touching days: Range<Int>) -> [Occurrence] {
        collect(days, touching: true)
    }

    /// Whether any occurrence may start on `day` (grid day number) or later.
    public func mayHaveOccurrences(from day: Int) -> Bool {
        let low = (day + CivilTime.dayNumberOffset - 2) * CivilTime.secondsPerDay
        if let last = singles.last, last.start >= low { return true }
        return latestStart.map { $0 >= low } ?? true
    }

    /// Whether any occurrence may start before `day` (grid day number).
    public func mayHaveOccurrences(before day: Int) -> Bool {
        let high = (day + CivilTime.dayNumberOffset + 2) * CivilTime.secondsPerDay
        if let first = singles.first, first.start < high { return true }
        return earliestStart < high
    }

    /// The index of the first single starting at `start` (display civil seconds) or later.
    func firstSingle(from start: Int) -> Int {
        partitionPoint(singles.count) { singles[$0].start < start }
    }

    func collect(_ days: Range<Int>, touching: Bool) -> [Occurrence] {
        // What each occurrence is made of, found first and put in order of start, then
        // summary; the occurrences are then made once, in place, in that order (sorting or
        // moving them would copy each, retaining its strings).
        var found: [Found] = []
        visit(days, touching: touching, reserve: { found.reserveCapacity($0) }) { index, shown, more in
            found.append(Found(event: index, start: shown.start, end: shown.end, startOffset: shown.startOffset,
                               endOffset: shown.endOffset, more: more))
        }
        if !overfilling.isEmpty, found.count > InputLimits.instancesPerDay {
            limitBeginning(&found, from: (days.lowerBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay)
        }
        var result: [Occurrence] = []
        result.reserveCapacity(found.count)
        func make(_ item: Found) {
            result.append(occurrence(of: item.event, start: item.start, end: item.end))
            let last = result.count - 1
            describe(&result[last], of: item.event)
            (result[last].startOffset, result[last].endOffset) = (item.startOffset, item.endOffset)
            result[last].more = item.more
        }
        if inOrder(found) {
            for item in found { make(item) }
        } else {
            var order = Array(found.indices)
            order.sortStably { (found[$0].start, events[found[$0].event].summary) < (found[$1].start, events[found[$1].event].summary) }
            for place in order { make(found[place]) }
        }
        return result
    }

    /// An occurrence of event `index` from `start` to `end` (display wall clock), with its
    /// summary and calendar's name; `describe` sets the rest.
    func occurrence(of index: Int, start: Int, end: Int) -> Occurrence {
        let event = events[index]
        let calendar = index < calendarOfEvent.count ? calendarOfEvent[index] : nil
        let shownAs = calendar.flatMap { $0 < calendars.count ? calendars[$0] : nil }
        return Occurrence(summary: event.summary, calendarName: shownAs?.name ?? event.calendarName,
                          isAllDay: event.isAllDay, start: start, end: end)
    }

    /// Whether event `index` is shown: its calendar not hidden, and not declined by the user
    /// where declined events are hidden.
    @inline(__always)
    func isShown(_ index: Int) -> Bool {
        if !hidden.isEmpty, index < calendarOfEvent.count, hidden.contains(calendarOfEvent[index]) { return false }
        return !(hidesDeclined && events[index].isDeclined(byAnyOf: ownAddresses))
    }

    /// Sets the calendar, colour, UID, source and event of `occurrence`, one of event `index`.
    func describe(_ occurrence: inout Occurrence, of index: Int) {
        let calendar = index < calendarOfEvent.count ? calendarOfEvent[index] : nil
        occurrence.calendar = calendar
        occurrence.color = calendar.flatMap { $0 < calendars.count ? calendars[$0] : nil }?.color
        occurrence.uid = events[index].uid
        occurrence.source = index < sources.count ? sources[index] : nil
        occurrence.event = index
        if !ownAddresses.isEmpty { occurrence.isDeclined = events[index].isDeclined(byAnyOf: ownAddresses) }
    }

    /// Keeps, of each event of `overfilling`, at most the day limit of the occurrences of
    /// `found` that begin on one day, from `low` (display civil seconds) on: each rule keeps
    /// that many a day, but an event of several rules, or of RDATEs, can make more. The last
    /// kept says how many more, those it drops and what they said of their own.
    private func limitBeginning(_ found: inout [Found], from low: Int) {
        let limit = InputLimits.instancesPerDay
        var counts: [DayOfEvent: Int] = [:]
        for item in found where item.start >= low && overfilling.contains(item.event) {
            counts[DayOfEvent(event: item.event, day: CivilTime.day(ofSeconds: item.start)), default: 0] += 1
        }
        guard counts.values.contains(where: { $0 > limit }) else { return }
        var kept: [DayOfEvent: (count: Int, last: Int)] = [:]
        var result: [Found] = []
        result.reserveCapacity(found.count)
        for item in found {
            let key = DayOfEvent(event: item.event, day: CivilTime.day(ofSeconds: item.start))
            guard item.start >= low, let total = counts[key], total > limit else {
                result.append(item)
                continue
            }
            let place = (kept[key]?.count ?? 0) + 1
            if place <= limit {
                result.append(item)
                kept[key] = (place, result.count - 1)
            } else if let last = kept[key]?.last {
                // Dropped: it and what it said of its own are the last kept's to say.
                let previous = result[last]
                let more = previous.more == Occurrence.uncounted || item.more == Occurrence.uncounted
                    ? Occurrence.uncounted : previous.more + 1 + item.more
                result[last] = Found(event: previous.event, start: previous.start, end: previous.end, startOffset: previous.startOffset,
                                     endOffset: previous.endOffset, more: more)
            }
        }
        found = result
    }

    /// An event and a civil day.
    private struct DayOfEvent: Hashable {
        let event: Int
        let day: Int
    }

    /// What an occurrence is made of, as `visit` finds it: its event, display start and end,
    /// the display offsets, and how many more the day limit left out.
    private struct Found {
        let event: Int
        let start: Int
        let end: Int
        let startOffset: Int?
        let endOffset: Int?
        let more: Int
    }

    /// Whether `found` is in order of start, then summary, already: the singles and the
    /// recurring instances each come in order of start, so many answers are, and a stable sort
    /// would leave them as they are.
    private func inOrder(_ found: [Found]) -> Bool {
        for place in found.indices.dropFirst() {
            let (start, previous) = (found[place].start, found[place - 1].start)
            if start < previous || (start == previous && events[found[place].event].summary < events[found[place - 1].event].summary) {
                return false
            }
        }
        return true
    }

    /// Calls `body` with what `occurrences(startingOn:)` gives, in its order, as each
    /// occurrence's display start and end and its event's index in `events`: the stream's
    /// question, without making an occurrence's strings. Returns what `body` returns, or false
    /// without calling it when some occurrence says how many more the day limit left out (only
    /// an occurrence carries that) or when an event of several rules may have to be cut to it.
    /// `body` must not ask the store again: the starts are its.
    public func withStarts(startingOn days: Range<Int>, _ body: (UnsafeBufferPointer<(start: Int, end: Int, event: Int)>) -> Bool) -> Bool {
        if let starts = yearlyStarts(startingOn: days) { return body(starts) }
        foundCount = 0
        var plain = true
        visit(days, touching: false, reserve: { reserveFound($0) }) { index, shown, more in
            if more > 0 { plain = false }
            reserveFound(1)
            foundStarts[foundCount] = (shown.start, shown.end, index)
            foundCount += 1
        }
        // An event of several rules may need cutting to the day limit (`limitBeginning`).
        guard plain, overfilling.isEmpty || foundCount <= InputLimits.instancesPerDay else { return false }
        let found = UnsafeMutableBufferPointer(start: foundStarts, count: foundCount)
        var ordered = true
        for place in found.indices.dropFirst() where found[place].start <= found[place - 1].start {
            if found[place].start < found[place - 1].start
                || events[found[place].event].summary < events[found[place - 1].event].summary { ordered = false }
        }
        if !ordered {
            var sorted = Array(found)
            sorted.sortStably { ($0.start, events[$0.event].summary) < ($1.start, events[$1.event].summary) }
            for place in sorted.indices { found[place] = sorted[place] }
        }
        return body(UnsafeBufferPointer(found))
    }

    /// What `withStarts` gives for `days` when the closed forms of a store of yearly rules
    /// answer it (`YearlyStarts`), returned rather than lent to a closure: a stream asks it
    /// once a row. Nil when they do not answer (then ask `withStarts`). The starts are the
    /// store's until the next question.
    public func yearlyStarts(startingOn days: Range<Int>) -> UnsafeBufferPointer<(start: Int, end: Int, event: Int)>? {
        guard hidden.isEmpty, !hidesDeclined, singles.isEmpty, !days.isEmpty else { return nil }
        if !checkedYearly {
            yearlyStarts = YearlyStarts(events: events, recurring: recurring)
            checkedYearly = true
        }
        guard let yearlyStarts else { return nil }
        let low = (days.lowerBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
        let high = (days.upperBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
        return yearlyStarts.starts(from: low, to: high)
    }

    /// Makes room in `foundStarts` for `extra` more after `foundCount`.
    @inline(__always)
    private func reserveFound(_ extra: Int) {
        guard foundCount + extra > foundCapacity else { return }
        let capacity = max(64, foundCount + extra, 2 * foundCapacity)
        let bigger = UnsafeMutablePointer<(start: Int, end: Int, event: Int)>.allocate(capacity: capacity)
        bigger.moveInitialize(from: foundStarts, count: foundCount)
        foundStarts.deallocate()
        (foundStarts, foundCapacity) = (bigger, capacity)
    }
}

