import InfCalModel

extension DisplayZone {
    /// UTC civil seconds of the wall-clock time `local` in this zone: a time a change of
    /// offset skips is read with the offset before it, a repeated one as its first
    /// occurrence (RFC 5545 §3.3.5).
    public func utc(ofLocal local: Int) -> Int {
        CivilTime.utc(ofLocal: local, offset: offset)
    }
}

/// One firing of an alarm: when, which alarm, and of which occurrence.
public struct AlarmInstance: Sendable, Equatable {
    /// When it fires: UTC civil seconds (seconds since 1970).
    public let fires: Int
    /// The alarm that fires.
    public let alarm: EventAlarm
    /// The alarm's place among its event's alarms (`Event.alarms`).
    public let alarmIndex: Int
    /// 0 for the first firing, then 1 ... `alarm.repeatCount` for its repetitions.
    public let repetition: Int
    /// The occurrence it reminds of, as the store gives it (start and end on the display
    /// zone's wall clock, its event's index, its calendar and file).
    public let occurrence: Occurrence
    /// The occurrence's start and end as instants: UTC civil seconds (an all-day or floating
    /// one's on the display zone's clock).
    public let start: Int
    /// The occurrence's end as an instant (exclusive).
    public let end: Int
    /// For a snooze (`RELATED-TO;RELTYPE=SNOOZE`), when the firing it replaces fired; nil for
    /// any other alarm, and for a snooze whose snoozed firing was not found.
    public let snoozed: Int?

    /// How long before the occurrence's start it fires, in seconds (negative: after the start).
    public var lead: Int { start - fires }

    /// Whether it was acknowledged (RFC 9074 §6: its alarm's ACKNOWLEDGED at or after this
    /// firing): done already, not to be delivered.
    public var isAcknowledged: Bool { alarm.acknowledged.map { $0 >= fires } ?? false }

    /// Under what its delivery is remembered.
    public var key: AlarmKey {
        AlarmKey(calendar: occurrence.calendarName ?? occurrence.source ?? "", uid: occurrence.uid,
                 occurrence: occurrence.startOffset == nil ? occurrence.start : start,
                 alarm: alarm.uid.map { "uid:" + $0 } ?? "#\(alarmIndex)", repetition: repetition)
    }
}

/// What names one firing of one alarm of one occurrence, for the record of what was
/// delivered: the calendar, the event's UID, the occurrence's start (UTC for a timed one, as
/// written for an all-day or floating one), the alarm (its UID, else `#` and its place) and
/// which repetition.
public struct AlarmKey: Hashable, Sendable, Comparable {
    public var calendar: String
    public var uid: String
    public var occurrence: Int
    public var alarm: String
    public var repetition: Int

    /// The key of one firing (see the type's summary for each part).
    public init(calendar: String, uid: String, occurrence: Int, alarm: String, repetition: Int) {
        self.calendar = calendar
        self.uid = uid
        self.occurrence = occurrence
        self.alarm = alarm
        self.repetition = repetition
    }

    /// By calendar, UID, occurrence, alarm, repetition: the order of the record's lines.
    public static func < (left: AlarmKey, right: AlarmKey) -> Bool {
        (left.calendar, left.uid, left.occurrence, left.alarm, left.repetition)
            < (right.calendar, right.uid, right.occurrence, right.alarm, right.repetition)
    }
}

/// When the alarms of a store's events fire. Occurrences are found with the store's own
/// question ("what happens on these days?"), over the window asked widened by how far each
/// event's alarms fire from its occurrences (events grouped by that reach, so that one alarm a
/// week ahead does not widen the look at every other), never by walking a rule from its start.
///
/// Relative triggers count from each occurrence's start (or end): for a timed event in a zone,
/// days are nominal in that zone and hours, minutes and seconds exact (RFC 5545 §3.3.6); for
/// an all-day or floating event, whose times belong to no zone, the arithmetic is on the wall
/// clock (from local midnight of its day) and the result is read in the display zone.
/// Absolute triggers fire once, for the occurrence in progress or next at that instant.
/// What the store leaves out (hidden calendars, instances past the day limit) has no alarm.
public final class AlarmSchedule {
    /// The events, and what the views hide of them.
    public let store: EventStore
    /// Events whose relative alarms count from the start (`start`) or the end, by the bucket of
    /// their reach: the span of their firings around the anchor (seconds), and the members.
    private var startGroups: [Int: Group] = [:]
    private var endGroups: [Int: Group] = [:]
    /// Alarms with an absolute trigger: the event, the alarm's place, and for a snooze the
    /// place of the alarm it snoozes.
    private var absolutes: [(event: Int, alarm: Int, snoozes: Int?)] = []

    private struct Group {
        var low = Int.max
        var high = Int.min
        var events = Set<Int>()

        /// With `event`, whose firings lie `reach.low` to `reach.high` from their anchors.
        mutating func add(_ event: Int, _ reach: Group) {
            events.insert(event)
            low = min(low, reach.low)
            high = max(high, reach.high)
        }
    }

    /// How far back from a snooze the firing it snoozes is looked for.
    public static let snoozeLookBack = 7 * CivilTime.secondsPerDay

    /// The schedule of the alarms of `store`'s events. The store must have its events' rules
    /// (a cache decoded with details, which keeps them), or their alarms follow only the
    /// instances its table holds.
    public init(store: EventStore) {
        self.store = store
        for (index, event) in store.events.enumerated() where !event.alarms.isEmpty {
            var start = Group(), end = Group()
            for (place, alarm) in event.alarms.enumerated() {
                let repeats = alarm.repeatCount * alarm.interval.nominalSeconds
                switch alarm.trigger {
                case .start(let offset):
                    start.low = min(start.low, offset.nominalSeconds)
                    start.high = max(start.high, offset.nominalSeconds + repeats)
                case .end(let offset):
                    end.low = min(end.low, offset.nominalSeconds)
                    end.high = max(end.high, offset.nominalSeconds + repeats)
                case .absolute, .floating:
                    let snoozed = alarm.snoozes.flatMap { uid in
                        event.alarms.indices.first { $0 != place && event.alarms[$0].uid == uid }
                    }
                    absolutes.append((index, place, snoozed))
                }
            }
            for (reach, isStart) in [(start, true), (end, false)] where reach.low <= reach.high {
                let bucket = Self.bucket(max(abs(reach.low), abs(reach.high)))
                if isStart {
                    startGroups[bucket, default: Group()].add(index, reach)
                } else {
                    endGroups[bucket, default: Group()].add(index, reach)
                }
            }
        }
    }

    /// The bucket of a reach of `seconds`: reaches up to an hour share one, then each doubling.
    private static func bucket(_ seconds: Int) -> Int {
        var bucket = 0
        var limit = 3600
        while limit < seconds { limit *= 2; bucket += 1 }
        return bucket
    }

    /// The window (display wall-clock civil seconds) to decode a cache for, so that a
    /// schedule asked `from..<until` (UTC) has every event whose alarms can fire then: widened
    /// by how far a relative alarm reaches, and the zones' offsets.
    public static func decodingWindow(from: Int, until: Int) -> Range<Int> {
        let margin = InputLimits.alarmReach + 2 * CivilTime.secondsPerDay
        let (low, high) = (clamped(from) - margin, clamped(until) + margin)
        return low..<max(low, high)
    }

    /// Whether any event of the store has an alarm.
    public var isEmpty: Bool { startGroups.isEmpty && endGroups.isEmpty && absolutes.isEmpty }

    /// Every firing from `from` (inclusive) to `until` (exclusive), UTC civil seconds, in order
    /// of the instant, then of the occurrence's start, the event, the alarm and the repetition.
    /// Acknowledged firings are in it (`isAcknowledged`); a snoozed firing is not: its snooze
    /// is, at the snooze's time (`snoozed`). The cost grows with the occurrences in the window.
    public func firing(from: Int, until: Int) -> [AlarmInstance] {
        let (from, until) = (Self.clamped(from), Self.clamped(until))
        guard from < until, !isEmpty else { return [] }
        var found = relative(from: from, until: until, events: nil)
        // Absolute snoozes replace the firings they snooze, found where they were.
        var replaced = Set<Replaced>()
        var snoozeTargets: [Int: (instance: AlarmInstance, time: Int)] = [:]
        for (position, item) in absolutes.enumerated() where item.snoozes != nil {
            let alarm = store.events[item.event].alarms[item.alarm]
            let first = absoluteTime(alarm, event: store.events[item.event])
            let last = first + alarm.repeatCount * alarm.interval.nominalSeconds
            guard last + CivilTime.secondsPerDay >= from, first < until + Self.snoozeLookBack + CivilTime.secondsPerDay,
                  let target = snoozedFiring(event: item.event, alarm: item.snoozes ?? 0, snooze: alarm, at: first) else { continue }
            replaced.insert(Replaced(target))
            snoozeTargets[position] = (target, target.fires)
        }
        if !replaced.isEmpty { found.removeAll { replaced.contains(Replaced($0)) } }
        for (position, item) in absolutes.enumerated() {
            let event = store.events[item.event]
            let alarm = event.alarms[item.alarm]
            let first = absoluteTime(alarm, event: event)
            let times = (0...alarm.repeatCount).map { shifted(first, by: alarm.interval, times: $0, event: event) }
            guard times.contains(where: { $0 >= from && $0 < until }) else { continue }
            let target = snoozeTargets[position]
            guard let occurrence = target.map({ ($0.instance.occurrence, $0.instance.start, $0.instance.end) })
                    ?? occurrence(of: item.event, near: first) else { continue }
            for (repetition, time) in times.enumerated() where time >= from && time < until {
                found.append(AlarmInstance(fires: time, alarm: alarm, alarmIndex: item.alarm, repetition: repetition,
                                           occurrence: occurrence.0, start: occurrence.1, end: occurrence.2, snoozed: target?.time))
            }
        }
        found.sort { left, right in
            (left.fires, left.start, left.occurrence.event ?? -1, left.alarmIndex, left.repetition)
                < (right.fires, right.start, right.occurrence.event ?? -1, right.alarmIndex, right.repetition)
        }
        return found
    }

    /// The first firing from `from` on, before `from + within` (seconds), that is not
    /// acknowledged (or any, with `acknowledged`); nil when there is none. Looks in windows
    /// of a day, then doubling, so that a near alarm costs a short look.
    public func next(from: Int, within: Int, acknowledged: Bool = false) -> AlarmInstance? {
        let end = Self.clamped(from) + max(0, min(within, 1 << 40))
        var low = Self.clamped(from)
        var step = CivilTime.secondsPerDay
        while low < end {
            let high = min(end, low + step)
            if let first = firing(from: low, until: high).first(where: { acknowledged || !$0.isAcknowledged }) { return first }
            low = high
            step = min(step * 2, 64 * CivilTime.secondsPerDay)
        }
        return nil
    }

    // MARK: Relative triggers

    /// The firings of relative alarms in `from..<until` of the events `events` (nil: all),
    /// snoozes by relative snoozes applied.
    private func relative(from: Int, until: Int, events: Set<Int>?) -> [AlarmInstance] {
        var seen = Set<SeenOccurrence>()
        var found: [AlarmInstance] = []
        for (groups, fromEnd) in [(startGroups, false), (endGroups, true)] {
            for group in groups.values {
                if let events, events.isDisjoint(with: group.events) { continue }
                // The anchors (starts, or ends) that can fire in the window.
                let days = Self.days(from - group.high, until - group.low)
                let occurrences = fromEnd ? store.occurrences(touching: days) : store.occurrences(startingOn: days)
                for occurrence in occurrences {
                    guard let index = occurrence.event, group.events.contains(index), events?.contains(index) ?? true,
                          seen.insert(SeenOccurrence(event: index, start: occurrence.start, offset: occurrence.startOffset)).inserted
                    else { continue }
                    firings(of: occurrence, event: store.events[index], from: from, until: until, into: &found)
                }
            }
        }
        return found
    }

    /// The firings of the relative alarms of `event` for `occurrence` that fall in
    /// `from..<until`, each snoozed one replaced by its relative snooze.
    private func firings(of occurrence: Occurrence, event: Event, from: Int, until: Int, into found: inout [AlarmInstance]) {
        let (start, end) = instants(of: occurrence, event: event)
        var all: [(alarm: Int, repetition: Int, time: Int)] = []
        let local = isLocal(event)
        for (place, alarm) in event.alarms.enumerated() {
            let offset: EventAlarm.Offset
            let anchor: (local: Int, instant: Int)
            switch alarm.trigger {
            case .start(let from): (offset, anchor) = (from, (occurrence.start, start))
            case .end(let from): (offset, anchor) = (from, (occurrence.end, end))
            case .absolute, .floating: continue
            }
            if local {
                // On the wall clock, from local midnight (or the floating time), then read in the display zone.
                let first = anchor.local + offset.nominalSeconds
                for repetition in 0...alarm.repeatCount {
                    all.append((place, repetition, store.display.utc(ofLocal: first + repetition * alarm.interval.nominalSeconds)))
                }
            } else {
                let first = shifted(anchor.instant, by: offset, times: 1, event: event)
                for repetition in 0...alarm.repeatCount {
                    all.append((place, repetition, shifted(first, by: alarm.interval, times: repetition, event: event)))
                }
            }
        }
        // A relative snooze replaces its alarm's latest firing before it for this occurrence.
        var snoozedAt: [Int: Int] = [:]
        var replaced = Set<Int>()
        for (place, alarm) in event.alarms.enumerated() {
            guard let uid = alarm.snoozes, alarm.trigger.offset != nil,
                  let time = all.first(where: { $0.alarm == place && $0.repetition == 0 })?.time,
                  let target = event.alarms.indices.first(where: { $0 != place && event.alarms[$0].uid == uid }) else { continue }
            let anchor = min(time, event.alarms[target].acknowledged ?? time)
            if let latest = all.indices.filter({ all[$0].alarm == target && all[$0].time <= anchor }).max(by: { all[$0].time < all[$1].time }) {
                replaced.insert(latest)
                snoozedAt[place] = all[latest].time
            }
        }
        for (position, item) in all.enumerated() where item.time >= from && item.time < until && !replaced.contains(position) {
            found.append(AlarmInstance(fires: item.time, alarm: event.alarms[item.alarm], alarmIndex: item.alarm, repetition: item.repetition,
                                       occurrence: occurrence, start: start, end: end, snoozed: snoozedAt[item.alarm]))
        }
    }

    // MARK: Instants

    /// Whether `event`'s times belong to no zone (all-day, floating): its alarms are reckoned
    /// on the wall clock and read in the display zone.
    private func isLocal(_ event: Event) -> Bool {
        event.start.form == .date || event.start.form == .floating
    }

    /// The start and end of `occurrence` as UTC instants.
    private func instants(of occurrence: Occurrence, event: Event) -> (start: Int, end: Int) {
        if let startOffset = occurrence.startOffset, let endOffset = occurrence.endOffset {
            return (occurrence.start - startOffset, occurrence.end - endOffset)
        }
        return (store.display.utc(ofLocal: occurrence.start), store.display.utc(ofLocal: occurrence.end))
    }

    /// `instant` moved `times` times by `offset`: nominal days on the wall clock of the event's
    /// zone (the display zone's for an all-day or floating event), then exact seconds.
    private func shifted(_ instant: Int, by offset: EventAlarm.Offset, times: Int, event: Event) -> Int {
        guard times != 0 else { return instant }
        let days = offset.days * times
        var result = instant
        if days != 0 {
            if isLocal(event) {
                let display = store.display
                result = display.utc(ofLocal: instant + display.offset(instant) + days * CivilTime.secondsPerDay)
            } else if let zone = event.zone {
                result = zone.utc(ofLocal: instant + zone.offset(atUTC: instant) + days * CivilTime.secondsPerDay)
            } else {
                result = instant + days * CivilTime.secondsPerDay
            }
        }
        return result + offset.seconds * times
    }

    /// The first instant of an absolute trigger (a floating one read in the display zone).
    private func absoluteTime(_ alarm: EventAlarm, event: Event) -> Int {
        switch alarm.trigger {
        case .absolute(let instant): return instant
        case .floating(let local): return store.display.utc(ofLocal: local)
        case .start, .end: return 0
        }
    }

    // MARK: Absolute triggers

    /// The occurrence of event `index` an absolute trigger at `instant` belongs to: a single
    /// event's one occurrence; of a recurring one, the occurrence in progress at `instant` or
    /// the next, else the last before it, within `InputLimits.alarmReach`. Nil when there is
    /// none (or the store hides it).
    private func occurrence(of index: Int, near instant: Int) -> (Occurrence, Int, Int)? {
        let event = store.events[index]
        var center = instant
        if !event.isRecurring {
            switch event.start.form {
            case .date, .floating: center = store.display.utc(ofLocal: event.start.seconds)
            case .utc: center = event.start.seconds
            case .zoned: center = event.zone?.utc(ofLocal: event.start.seconds) ?? event.start.seconds
            }
        }
        for reach in [1, 8, 64, InputLimits.alarmReach / CivilTime.secondsPerDay].map({ $0 * CivilTime.secondsPerDay }) {
            let candidates = store.occurrences(touching: Self.days(center - reach, center + reach))
                .filter { $0.event == index }
                .map { ($0, instants(of: $0, event: event)) }
            guard !candidates.isEmpty else { continue }
            if !event.isRecurring, let first = candidates.first { return (first.0, first.1.start, first.1.end) }
            let chosen = candidates.first { $0.1.end > instant } ?? candidates.last
            if let chosen { return (chosen.0, chosen.1.start, chosen.1.end) }
        }
        return nil
    }

    /// The firing that the snooze `snooze` (an absolute alarm of event `event`, first at
    /// `time`) replaces: the latest firing of alarm `alarm` at or before the snooze was made
    /// (its alarm's ACKNOWLEDGED, else the snooze's time), within `snoozeLookBack`; nil when
    /// there is none.
    private func snoozedFiring(event index: Int, alarm: Int, snooze: EventAlarm, at time: Int) -> AlarmInstance? {
        let event = store.events[index]
        let anchor = min(time, event.alarms[alarm].acknowledged ?? time)
        var candidates: [AlarmInstance] = []
        switch event.alarms[alarm].trigger {
        case .start, .end:
            candidates = relative(from: anchor - Self.snoozeLookBack, until: anchor + 1, events: [index])
        case .absolute, .floating:
            let target = event.alarms[alarm]
            let first = absoluteTime(target, event: event)
            for repetition in 0...target.repeatCount {
                let fires = shifted(first, by: target.interval, times: repetition, event: event)
                guard fires <= anchor, fires >= anchor - Self.snoozeLookBack, let near = occurrence(of: index, near: first) else { continue }
                candidates.append(AlarmInstance(fires: fires, alarm: target, alarmIndex: alarm, repetition: repetition,
                                                occurrence: near.0, start: near.1, end: near.2, snoozed: nil))
            }
        }
        return candidates.filter { $0.alarmIndex == alarm && $0.occurrence.event == index && $0.fires <= anchor }
            .max { $0.fires < $1.fires }
    }

    // MARK: Helpers

    /// The grid days whose occurrences can have an anchor from `low` to `high` (UTC), with two
    /// days to spare either side (the display zone's offset, a day with a change of offset).
    private static func days(_ low: Int, _ high: Int) -> Range<Int> {
        let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: low) - 2)
        let last = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: max(low, high)) + 3)
        return first..<last
    }

    /// `instant` kept within a range where arithmetic on it cannot overflow (about 35
    /// million years either side of 1970).
    private static func clamped(_ instant: Int) -> Int {
        min(max(instant, -(1 << 50)), 1 << 50)
    }

    /// An occurrence already looked at: its event, display start and offset (a wall-clock
    /// time that the clock going back shows twice is two occurrences).
    private struct SeenOccurrence: Hashable {
        let event: Int
        let start: Int
        let offset: Int?
    }

    /// A firing replaced by a snooze: its event, occurrence, alarm and repetition.
    private struct Replaced: Hashable {
        let event: Int
        let start: Int
        let alarm: Int
        let repetition: Int

        init(_ instance: AlarmInstance) {
            (event, start, alarm, repetition) = (instance.occurrence.event ?? -1, instance.start, instance.alarmIndex, instance.repetition)
        }
    }
}
