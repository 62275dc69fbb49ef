import InfCalModel

/// The starts of a store whose events are all closed-form yearly rules (`YearlyInstances`)
/// shown as written (dates and floating times): what `EventStore.withStarts` gives, made
/// straight from the forms a block of years at a time, already in its order (start, then
/// summary, then event). A stream's month then costs two binary searches in the block, with no
/// instance window, no visit of each instance and no copy of what was found.
final class YearlyStarts {
    typealias Start = (start: Int, end: Int, event: Int)

    private let forms: [YearlyInstances]
    /// Each form's place among the forms in order of its event's summary, then of the event:
    /// the order of two instances starting at the same second.
    private let ranks: [Int]
    /// The starts of the years the block covers, `covered` in wall-clock civil seconds.
    private var starts = UnsafeMutablePointer<Start>.allocate(capacity: 0)
    private var count = 0
    private var capacity = 0
    private var covered: Range<Int> = 0..<0
    /// Where the last answer ended in the block.
    private var next = 0
    /// Whether some block came out of order (a time of day past the day's last second would
    /// do it): the store then asks the general path from there on.
    private(set) var failed = false

    /// Years made at once: a stream steps month by month, so the forms are visited (their
    /// plans made and put in order) once for this many years; more for fewer forms, as a
    /// block holds about the same number of starts.
    let blockYears: Int
    static func blockYears(forms: Int) -> Int { min(512, max(64, 4096 / max(1, forms))) }
    /// Years beyond which the block's seconds are not worked out (the general path answers).
    static let farthestYear = 100_000_000

    /// The starts of `recurring` (indices into `events`, in order), or nil when one of them has
    /// no closed form or is not shown as written.
    init?(events: [Event], recurring: [Int]) {
        var forms: [YearlyInstances] = []
        for index in recurring {
            guard let form = YearlyInstances(events[index], index: index), form.local else { return nil }
            forms.append(form)
        }
        guard !forms.isEmpty else { return nil }
        var order = Array(forms.indices)
        order.sortStably { events[forms[$0].event].summary < events[forms[$1].event].summary }
        var ranks = [Int](repeating: 0, count: forms.count)
        for (rank, place) in order.enumerated() { ranks[place] = rank }
        (self.forms, self.ranks) = (forms, ranks)
        blockYears = Self.blockYears(forms: forms.count)
    }

    deinit {
        starts.deallocate()
    }

    /// The starts in `low..<high` (wall-clock civil seconds), in order; nil when they cannot
    /// be worked out here (far years, a block out of order).
    func starts(from low: Int, to high: Int) -> UnsafeBufferPointer<Start>? {
        guard !failed else { return nil }
        guard low < high else { return UnsafeBufferPointer(start: starts, count: 0) }
        if low < covered.lowerBound || high > covered.upperBound {
            let (first, last) = (YearlyInstances.year(of: low), YearlyInstances.year(of: high - 1))
            guard first > -Self.farthestYear, last < Self.farthestYear else { return nil }
            // The block lies after the range asked, or before it when the ranges go backwards.
            if !covered.isEmpty, low < covered.lowerBound {
                fill(years: min(first, last - blockYears + 1)...last)
            } else {
                fill(years: first...max(last, first + blockYears - 1))
            }
            guard !failed else { return nil }
        }
        // A stream asks month after month: where the last answer ended is where this one starts.
        var lower = next
        if lower > count || (lower > 0 && starts[lower - 1].start >= low) || (lower < count && starts[lower].start < low) {
            lower = partitionPoint(count) { starts[$0].start < low }
        }
        var upper = lower
        while upper < count, starts[upper].start < high { upper += 1 }
        next = upper
        return UnsafeBufferPointer(start: starts + lower, count: upper - lower)
    }

    /// Makes the block hold the starts of `years`, year by year, each year's few put in order.
    private func fill(years: ClosedRange<Int>) {
        let low = CivilTime.day(year: years.lowerBound, month: 1, day: 1) * CivilTime.secondsPerDay
        let high = CivilTime.day(year: years.upperBound + 1, month: 1, day: 1) * CivilTime.secondsPerDay
        let range = low..<high
        // DTSTART and the rule's day may both fall in DTSTART's year.
        let needed = (years.count + 1) * forms.count
        if needed > capacity {
            starts.deallocate()
            starts = .allocate(capacity: needed)
            capacity = needed
        }
        (count, next) = (0, 0)
        covered = range
        let plans = forms.map { $0.plan(in: range) }
        let lastYearStart = CivilTime.day(year: years.upperBound, month: 1, day: 1) * CivilTime.secondsPerDay
        // The forms in the order of their instances in a common year and in a leap year: a
        // year's instances come out in order, but for DTSTART's.
        var orders = [[Entry]]()
        for isLeap in [false, true] {
            var order = plans.indices.map { place in
                let plan = plans[place], offset = isLeap ? plan.leap : plan.common
                // Every such year of the block has its instance, within the year, with no
                // DTSTART among them nor an end: the instances after DTSTART that the block
                // holds (`first...last`) hold the earliest such a year can have (that of the
                // block's first year) and the latest (that of its last).
                let everyYear = plan.start == Int.min && plan.interval == 1 && plan.startYear < years.lowerBound
                    && offset >= 0 && offset < (isLeap ? 366 : 365) * CivilTime.secondsPerDay
                    && plan.first <= low + offset && plan.last >= lastYearStart + offset
                return Entry(offset: offset, duration: forms[place].duration, event: forms[place].event,
                             rank: ranks[place], place: place, everyYear: everyYear)
            }
            order.sortStably { ($0.offset, $0.rank) < ($1.offset, $1.rank) }
            orders.append(order)
        }
        // Whether every form has its instance in every such year of the block.
        let everyYear = orders.map { $0.allSatisfy(\.everyYear) }
        plans.withUnsafeBufferPointer { plans in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: needed) { rankOf in
                orders[0].withUnsafeBufferPointer { common in
                    orders[1].withUnsafeBufferPointer { leap in
                        // Years before every form's DTSTART have none of their instances.
                        let earliest = plans.reduce(Int.max) { min($0, $1.startYear) }
                        guard earliest <= years.upperBound else { return }
                        for year in max(years.lowerBound, earliest)...years.upperBound {
                            let isLeap = CivilTime.isLeapYear(year)
                            if everyYear[isLeap ? 1 : 0] {
                                fillEveryYear(year, order: isLeap ? leap : common, rankOf: rankOf)
                            } else {
                                fillYear(year, plans: plans, order: isLeap ? leap : common, rankOf: rankOf)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A form as a year of the block takes it: its instance's offset into such a year
    /// (`Int.min`: none), duration, event, rank, place among the forms, and whether every year
    /// of the block has that instance (else its plan says which do).
    struct Entry {
        let offset: Int
        let duration: Int
        let event: Int
        let rank: Int
        let place: Int
        let everyYear: Bool
    }

    /// Appends the starts of year `year` in order of start, then of rank (`rankOf` keeps each
    /// one's rank while they are put in order): what `YearlyInstances.forEach` gives for the
    /// year, from each form's plan, the forms taken in `order` (their order in such a year).
    @inline(__always)
    private func fillYear(_ year: Int, plans: UnsafeBufferPointer<Plan>, order: UnsafeBufferPointer<Entry>,
                          rankOf: UnsafeMutableBufferPointer<Int>) {
        let begin = count
        let firstSecond = CivilTime.day(year: year, month: 1, day: 1) &* CivilTime.secondsPerDay
        @inline(__always) func add(_ start: Int, _ entry: Entry) {
            guard count < capacity else { failed = true; return }
            starts[count] = (start, start &+ entry.duration, entry.event)
            rankOf[count] = entry.rank
            count &+= 1
        }
        var sorted = true
        for entry in order {
            if entry.everyYear {
                add(firstSecond &+ entry.offset, entry)
                continue
            }
            let plan = plans[entry.place]
            if year == plan.startYear, plan.start != Int.min {
                add(plan.start, entry)
                sorted = false
            }
            guard year >= plan.startYear, plan.interval == 1 || (year &- plan.startYear) % plan.interval == 0 else { continue }
            guard entry.offset != Int.min else { continue }
            let instance = firstSecond &+ entry.offset
            if instance >= plan.first, instance <= plan.last { add(instance, entry) }
        }
        // DTSTART's year: an insertion sort of its few.
        var position = begin + 1
        while !sorted, position < count {
            let (item, itemRank) = (starts[position], rankOf[position])
            var slot = position
            while slot > begin, (item.start, itemRank) < (starts[slot - 1].start, rankOf[slot - 1]) {
                starts[slot] = starts[slot - 1]
                rankOf[slot] = rankOf[slot - 1]
                slot -= 1
            }
            starts[slot] = item
            rankOf[slot] = itemRank
            position += 1
        }
        // Years follow one another only when each year's starts lie in that year.
        if begin > 0, begin < count, (starts[begin].start, rankOf[begin]) < (starts[begin - 1].start, rankOf[begin - 1]) { failed = true }
    }

    /// Appends the starts of year `year` as `fillYear` does, when every entry of `order` is
    /// one of every year (`Entry.everyYear`): one each, in the order's order.
    @inline(__always)
    private func fillEveryYear(_ year: Int, order: UnsafeBufferPointer<Entry>, rankOf: UnsafeMutableBufferPointer<Int>) {
        let begin = count
        guard order.count <= capacity &- begin else { failed = true; return }
        let firstSecond = CivilTime.day(year: year, month: 1, day: 1) &* CivilTime.secondsPerDay
        for entry in order {
            let start = firstSecond &+ entry.offset
            starts[count] = (start, start &+ entry.duration, entry.event)
            rankOf[count] = entry.rank
            count &+= 1
        }
        // Years follow one another only when each year's starts lie in that year.
        if begin > 0, begin < count, (starts[begin].start, rankOf[begin]) < (starts[begin - 1].start, rankOf[begin - 1]) { failed = true }
    }

    typealias Plan = (common: Int, leap: Int, start: Int, startYear: Int, interval: Int, first: Int, last: Int)
}
