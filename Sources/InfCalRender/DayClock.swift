import InfCalModel
import InfCalEvents

/// One day's clock in a zone, as the zone's changes of offset make it: the wall-clock slots of
/// a step (half an hour, an hour) the day passes through, in order, each with the instants it
/// covers. A day of 24 hours has 24 slots of an hour; the day the clocks go forward lacks the
/// skipped hour (23 slots), the day they go back has the repeated one twice (25 slots, the
/// second `fold` 1). A day the zone skipped entirely (Pacific/Apia, 2011-12-30) has none.
///
/// Pure arithmetic on the zone's offsets; no strings.
public struct DayClock: Sendable {
    /// One slot of the day's clock.
    public struct Slot: Hashable, Sendable {
        /// Minutes from midnight to the slot's wall-clock start, a multiple of the step.
        public let minute: Int
        /// 0 the first time the day's clock shows `minute`, 1 the second (the hour repeated
        /// when the clocks go back).
        public let fold: Int
        /// The instants the slot covers, as UTC civil seconds, the end exclusive: a whole step,
        /// or less where the offset changes within it.
        public let start: Int
        public let end: Int
        /// The zone's offset from UTC (seconds) at the slot's start.
        public let offset: Int
    }

    /// The day (a grid day number).
    public let day: Int
    /// The first instant of the day and the first of the next one (UTC civil seconds): the
    /// wall clock's midnights, or where a change of offset skips midnight the instant after.
    public let start: Int
    public let end: Int
    /// The slots, in order of time.
    public let slots: [Slot]
    /// Seconds in a slot.
    public let step: Int

    /// The clock of `day` (a grid day number) in `zone`, in slots of `step` seconds (a divisor
    /// of an hour or a whole number of hours).
    public init(day: Int, zone: DisplayZone, step: Int) {
        self.day = day
        self.step = max(60, step)
        let midnight = CivilTime.day(ofGrid: day) * CivilTime.secondsPerDay
        start = CivilTime.utc(ofLocal: midnight, offset: zone.offset)
        end = max(start, CivilTime.utc(ofLocal: midnight + CivilTime.secondsPerDay, offset: zone.offset))
        var slots: [Slot] = []
        // The wall clock where the last slice ended, to tell a slot continued after a gap
        // inside it from one shown again after the clocks went back.
        var wallReached = Int.min
        for segment in Self.segments(from: start, to: end, zone: zone) {
            var instant = segment.start
            while instant < segment.end {
                let wall = instant + segment.offset - midnight
                let index = CivilTime.floorDiv(wall, self.step)
                let sliceEnd = min(segment.end, instant + (index + 1) * self.step - wall)
                defer {
                    wallReached = wall + (sliceEnd - instant)
                    instant = sliceEnd
                }
                // Instants whose wall clock falls outside the day (a change of offset across
                // midnight) have no slot of it.
                guard wall >= 0, wall < CivilTime.secondsPerDay else { continue }
                let minute = index * self.step / 60
                if let last = slots.last, last.minute == minute, last.end == instant, wallReached <= wall {
                    slots[slots.count - 1] = Slot(minute: minute, fold: last.fold, start: last.start, end: sliceEnd, offset: last.offset)
                } else {
                    let fold = slots.reduce(0) { $0 + ($1.minute == minute ? 1 : 0) }
                    slots.append(Slot(minute: minute, fold: fold, start: instant, end: sliceEnd, offset: segment.offset))
                }
            }
        }
        self.slots = slots
    }

    /// The index of the slot holding the instant `utc`, or nil when the day does not hold it.
    public func slot(containing utc: Int) -> Int? {
        guard utc >= start, utc < end else { return nil }
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle].end <= utc { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && slots[low].start <= utc ? low : nil
    }

    /// The stretches of constant offset that make up `start..<end`, each with its offset. The
    /// offset is looked at every hour and each change found to the second: a zone changes its
    /// offset at most once in an hour.
    static func segments(from start: Int, to end: Int, zone: DisplayZone) -> [(start: Int, end: Int, offset: Int)] {
        guard start < end else { return [] }
        var segments: [(start: Int, end: Int, offset: Int)] = []
        var segmentStart = start
        var offset = zone.offset(start)
        var probe = start
        while probe < end - 1 {
            let next = min(end - 1, probe + 3600)
            let found = zone.offset(next)
            if found == offset {
                probe = next
                continue
            }
            // The first instant after `probe` with another offset.
            var (low, high) = (probe, next)
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if zone.offset(middle) == offset { low = middle } else { high = middle }
            }
            segments.append((segmentStart, high, offset))
            segmentStart = high
            offset = zone.offset(high)
            probe = high
        }
        segments.append((segmentStart, end, offset))
        return segments
    }
}
