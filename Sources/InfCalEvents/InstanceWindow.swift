import Foundation
import InfCalModel

/// The instances of the recurring events in a window of their reckoning, in order of start,
/// then of event. The window grows while it holds few instances (yearly rules are expanded once
/// for years of months) and shrinks when it holds many, never below the range asked; it lies
/// after the range asked, or before it when the ranges go backwards.
struct InstanceWindow {
    private(set) var range: Range<Int> = 0..<0
    /// `local`: the event's times are dates or floating, shown as they are written.
    private(set) var instances: [(start: Int, duration: Int, event: Int, local: Bool)] = []
    private var span = 0
    /// The closed forms of the recurring events' instances, where they have one, made on the
    /// first fill.
    private var yearly: [YearlyInstances] = []
    /// Whether each recurring event is among `yearly`.
    private var isYearly: [Bool] = []
    /// Whether some rule left instances out of a day (the day limit): only then does an
    /// instance need looking up among the cuts.
    private(set) var hasCuts = false

    /// Instances worked out ahead (the cache's table of them): of the events `recurring` lists
    /// at the places marked in `presetPlaces`, every instance starting in its range. A window
    /// inside that range takes them as they are and expands only the other events.
    private var preset: PresetInstances?
    private var presetPlaces: [Bool] = []
    /// Whether some of the preset's events came without their rules (`Event.rulesLeftOut`):
    /// then the preset is all there is of them.
    private var presetOnly = false

    static let shortest = 64 * CivilTime.secondsPerDay
    static let longest = 8192 * CivilTime.secondsPerDay

    /// Takes `preset` (its events indices into the store's events), the events at the places
    /// `places` of the store's `recurring` marked as the ones it covers; `only`: some of them
    /// have no rules to expand.
    mutating func setPreset(_ preset: PresetInstances, places: [Bool], only: Bool) {
        self.preset = preset
        presetPlaces = places
        presetOnly = only
    }

    /// Makes the window hold `wanted`, expanding the events `recurring` of `events` again when
    /// it does not.
    mutating func fill(_ wanted: Range<Int>, events: [Event], recurring: [Int]) {
        if wanted.lowerBound >= range.lowerBound, wanted.upperBound <= range.upperBound { return }
        // Inside the preset's range its events' instances are as given. Events without rules
        // have no others to give: the range reaches back before the run's months by the
        // longest any of them lasts, and past their end, so that none beyond it is asked for.
        if let preset, presetPlaces.count == recurring.count,
           presetOnly || (wanted.lowerBound >= preset.range.lowerBound && wanted.upperBound <= preset.range.upperBound) {
            range = min(wanted.lowerBound, preset.range.lowerBound)..<max(wanted.upperBound, preset.range.upperBound)
            instances = preset.instances
            expand(events: events, recurring: recurring, skipping: presetPlaces)
            return
        }
        if span == 0 {
            span = Self.shortest
        } else if instances.count < 64 {
            span = min(Self.longest, span * 2)
        } else if instances.count > 1024 {
            span = max(Self.shortest, span / 2)
        }
        let length = max(span, wanted.upperBound - wanted.lowerBound)
        if wanted.lowerBound < range.lowerBound, !range.isEmpty {
            let (low, overflow) = wanted.upperBound.subtractingReportingOverflow(length)
            range = (overflow ? Int.min : min(low, wanted.lowerBound))..<wanted.upperBound
        } else {
            let (high, overflow) = wanted.lowerBound.addingReportingOverflow(length)
            range = wanted.lowerBound..<(overflow ? Int.max : max(high, wanted.upperBound))
        }
        instances.removeAll(keepingCapacity: true)
        expand(events: events, recurring: recurring)
    }

    /// Appends the instances in `range` of the events `recurring` of `events`, but for those at
    /// the places marked in `skipping`, and puts all it holds in order of start, then of event.
    private mutating func expand(events: [Event], recurring: [Int], skipping: [Bool] = []) {
        if isYearly.count != recurring.count { findYearly(events: events, recurring: recurring) }
        var general = false
        let before = instances.count
        if skipping.isEmpty {
            fillYearly(range)
        } else {
            let kept = yearly
            yearly = kept.filter { !skipping[$0.place] }
            fillYearly(range)
            yearly = kept
        }
        if instances.count > before, before > 0 { general = true }
        for (place, index) in recurring.enumerated() where !isYearly[place] && (skipping.isEmpty || !skipping[place]) {
            let local = events[index].start.form == .date || events[index].start.form == .floating
            for instance in events[index].instances(in: range) {
                instances.append((instance.start, instance.duration, index, local))
                general = true
            }
        }
        // The yearly events' instances are in order already, year by year.
        if general { instances.sortStably { ($0.start, $0.event) < ($1.start, $1.event) } }
        // A closed form's one day a year never meets the day limit.
        hasCuts = recurring.indices.contains { place in
            !isYearly[place] && events[recurring[place]].expanders.contains { !$0.cuts.isEmpty }
        }
    }

    /// Every instance starting in `range` of the events `recurring` of `events`, in order of
    /// start, then of event, as windows in it give them; nil when some rule leaves instances
    /// of a day out (the day limit: only a walk finds out where) or when they are more than
    /// `limit`. Each rule is expanded once over the whole range, and all put in order once.
    static func all(in range: Range<Int>, events: [Event], recurring: [Int], limit: Int) -> [(start: Int, duration: Int, event: Int, local: Bool)]? {
        var window = InstanceWindow()
        window.range = range
        window.findYearly(events: events, recurring: recurring)
        window.fillYearly(range, sorting: false)
        guard window.instances.count <= limit else { return nil }
        for (place, index) in recurring.enumerated() where !window.isYearly[place] {
            let local = events[index].start.form == .date || events[index].start.form == .floating
            for instance in events[index].instances(in: range) { window.instances.append((instance.start, instance.duration, index, local)) }
            guard window.instances.count <= limit, !events[index].expanders.contains(where: { !$0.cuts.isEmpty }) else { return nil }
        }
        window.instances.sortStably { ($0.start, $0.event) < ($1.start, $1.event) }
        return window.instances
    }

    /// Finds which of `recurring` have a closed form (`YearlyInstances`).
    private mutating func findYearly(events: [Event], recurring: [Int]) {
        yearly = []
        isYearly = []
        for (place, index) in recurring.enumerated() {
            var form = YearlyInstances(events[index], index: index)
            form?.place = place
            if let form { yearly.append(form) }
            isYearly.append(form != nil)
        }
    }

    /// Appends the instances in `range` of the events with a closed form, in order of start,
    /// then of event: year by year, each year's few instances put in order among themselves.
    private mutating func fillYearly(_ range: Range<Int>, sorting: Bool = true) {
        guard !range.isEmpty else { return }
        var first = Int.max, last = Int.min
        let rangeYears = YearlyInstances.year(of: range.lowerBound)...YearlyInstances.year(of: range.upperBound - 1)
        for form in yearly {
            guard let years = form.years(in: range, within: rangeYears) else { continue }
            first = min(first, years.lowerBound)
            last = max(last, years.upperBound)
        }
        guard first <= last else { return }
        instances.reserveCapacity(instances.count + (last - first + 2) * yearly.count)
        yearly.withUnsafeBufferPointer { forms in
            withUnsafeTemporaryAllocation(of: ClosedRange<Int>?.self, capacity: forms.count) { spans in
                for place in forms.indices { spans.initializeElement(at: place, to: forms[place].after(range)) }
                for year in first...last {
                    fillYear(year, forms: forms, spans: UnsafeBufferPointer(spans), range: range, sorting: sorting)
                }
            }
        }
    }

    /// Appends the instances of year `year` of `forms` (their parts `spans` of `range` after
    /// their DTSTART), in order of start, then of event unless not `sorting`.
    @inline(__always)
    private mutating func fillYear(_ year: Int, forms: UnsafeBufferPointer<YearlyInstances>, spans: UnsafeBufferPointer<ClosedRange<Int>?>,
                                   range: Range<Int>, sorting: Bool) {
        let begin = instances.count
        let firstDay = CivilTime.day(year: year, month: 1, day: 1), isLeap = CivilTime.isLeapYear(year)
        for place in forms.indices {
            let (event, duration, local) = (forms[place].event, forms[place].duration, forms[place].local)
            forms[place].forEach(inYear: year, firstDay: firstDay, isLeap: isLeap, in: range, after: spans[place]) {
                instances.append(($0, duration, event, local))
            }
        }
        guard sorting else { return }
        // Nearly always in order already (events in the order of their months); else an
        // insertion sort of the year's few.
        var position = begin + 1
        while position < instances.count {
            let item = instances[position]
            var slot = position
            while slot > begin, (item.start, item.event) < (instances[slot - 1].start, instances[slot - 1].event) {
                instances[slot] = instances[slot - 1]
                slot -= 1
            }
            if slot != position { instances[slot] = item }
            position += 1
        }
    }

    /// The index of the first instance starting at `start` or later.
    func firstIndex(from start: Int) -> Int {
        partitionPoint(instances.count) { instances[$0].start < start }
    }
}

/// The first of the indices `0..<count` for which `isBefore` is false, where it is true for a
/// prefix of them and false for the rest (a binary search).
func partitionPoint(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
    var lower = 0
    var upper = count
    while lower < upper {
        let middle = (lower + upper) / 2
        if isBefore(middle) { lower = middle + 1 } else { upper = middle }
    }
    return lower
}

/// Instances of recurring events worked out ahead: every instance starting in `range` (the
/// events' reckoning) of the events it covers, in order of start, then of event (an index
/// into the events they come with).
public struct PresetInstances {
    public var range: Range<Int>
    var instances: [(start: Int, duration: Int, event: Int, local: Bool)]

    init(range: Range<Int>, instances: [(start: Int, duration: Int, event: Int, local: Bool)]) {
        self.range = range
        self.instances = instances
    }

    /// These instances with their events' indices moved by `offset` (for events put after
    /// `offset` others).
    public func moved(by offset: Int) -> PresetInstances {
        PresetInstances(range: range, instances: instances.map { ($0.start, $0.duration, $0.event + offset, $0.local) })
    }

    /// The instances of `first` and then `second` (of events after `first`'s), all of them
    /// (each is whole in its own range), in the range both cover.
    public static func joined(_ first: PresetInstances, _ second: PresetInstances) -> PresetInstances {
        let low = max(first.range.lowerBound, second.range.lowerBound)
        let high = max(low, min(first.range.upperBound, second.range.upperBound))
        var all = first.instances + second.instances
        all.sortStably { ($0.start, $0.event) < ($1.start, $1.event) }
        return PresetInstances(range: low..<high, instances: all)
    }
}
