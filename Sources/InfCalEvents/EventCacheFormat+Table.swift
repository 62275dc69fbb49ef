import Foundation
import InfCalModel

extension EventCacheFormat {
    // MARK: The table of occurrences

    /// The years, around the year `year` a cache is written in, whose occurrences its table
    /// holds: three years back and three ahead. A run of months inside them takes the
    /// instances of recurring events from the table (a search by start) and decodes only the
    /// events it shows; a run outside them expands the rules as reading the file does.
    public static func occurrenceYears(around year: Int) -> Range<Int> {
        (year - 3)..<(year + 4)
    }

    /// The most occurrences a table holds: a calendar with more in its years (rules by the
    /// hour, say) has no table, and its runs expand the rules.
    static let tableLimit = 250_000
    /// The mark, in an index entry's offset word, of an event whose instances are in the table;
    /// in a block's word of halves, of a block of such events alone.
    static let tableFlag: UInt64 = 1 << 63
    static let tableEntrySize = 32
    static let tableBlockEntrySize = 16

    /// An occurrence as the table keeps it: its start and duration, the place of its event's
    /// record (from the body's start) and its length, and whether it is shown as written.
    struct TableOccurrence {
        let start: Int
        let duration: Int
        let offset: UInt64
        let length: UInt64
        let local: Bool
    }

    /// Where the table lies and what it covers, as the metadata records it: the range of
    /// starts (the events' reckoning), the number of occurrences, the longest duration among
    /// them, and its offset from the body's start.
    struct TablePlace {
        let range: Range<Int>
        let count: Int
        let longest: Int
        let offset: Int
    }

    /// A table of occurrences (`occurrenceTable`): the range of starts it covers (the events'
    /// reckoning), the places in reading order of the recurring events, the instances (start,
    /// duration, the event's place, whether shown as written) in order, and the longest any
    /// instance lasts.
    public struct OccurrenceTable: Sendable {
        let range: Range<Int>
        let recurring: [Int]
        let instances: [(start: Int, duration: Int, event: Int, local: Bool)]
        let longest: Int
    }

    /// What the layout of a cache of some files can have built apart from them, on another
    /// thread, while the files' own events go on being used: the table of occurrences, from
    /// copies of their recurring events (`Event.instanceCopy`, with their places in reading
    /// order) and the years, and the changes of offset of their Foundation zones, which the
    /// zones' records hold (`SideResults`).
    public final class SideWork {
        let events: [Event]
        let ordinals: [Int]
        let years: Range<Int>
        let zones: [TimeZone]

        init(events: [Event], ordinals: [Int], years: Range<Int>, zones: [TimeZone]) {
            self.events = events
            self.ordinals = ordinals
            self.years = years
            self.zones = zones
        }
    }

    /// What `results(of:)` built: the table of occurrences (nil for none) and the changes of
    /// offset of the zones (`EventZone.changeRuns(of:)` of `EventZone.storedSpans`) by identifier.
    public struct SideResults: Sendable {
        let table: OccurrenceTable?
        let zoneRuns: [String: [Int]]

        /// No table, and every zone's changes found as its record is made.
        public static let nothing = SideResults(table: nil, zoneRuns: [:])
    }

    /// The most Foundation zones whose changes `SideWork` takes; any more are found as the
    /// zones' records are made.
    static let sideZones = 16

    /// What the layout of the cache of `files` with a table of `years` can have built apart
    /// (`SideWork`), or nil when there is nothing to build, or a recurring event cannot be
    /// copied (then all of it is built from the files).
    public static func sideWork(of files: [(name: String, file: EventFile)], years: Range<Int>) -> sending SideWork? {
        var zones: [EventZone] = []
        var timeZones: [TimeZone] = []
        let (events, ordinals) = recurringEvents(of: files) { event in
            // Events in a row mostly share a zone: only a change of zone is looked up.
            guard let zone = event.zone, zone !== zones.last, zones.count < sideZones,
                  !zones.contains(where: { $0 === zone }) else { return }
            zones.append(zone)
            if case .foundation(let timeZone) = zone.source { timeZones.append(timeZone) }
        }
        var copies: [Event] = []
        copies.reserveCapacity(events.count)
        for event in events {
            guard let copy = event.instanceCopy() else { return nil }
            copies.append(copy)
        }
        guard !copies.isEmpty || !timeZones.isEmpty else { return nil }
        return SideWork(events: copies, ordinals: ordinals, years: years, zones: timeZones)
    }

    /// What `work` is for: the table of occurrences of its events, as
    /// `occurrenceTable(of:years:spans:)` gives it for the files they were copied from, and
    /// the changes of offset of its zones, each from a zone of its own.
    public static func results(of work: SideWork) -> SideResults {
        var zoneRuns: [String: [Int]] = [:]
        for timeZone in work.zones {
            zoneRuns[timeZone.identifier] = EventZone(.foundation(timeZone)).changeRuns(of: EventZone.storedSpans)
        }
        let table = occurrenceTable(recurring: work.events, ordinals: work.ordinals, years: work.years) { event, _ in reach(of: event) }
        return SideResults(table: table, zoneRuns: zoneRuns)
    }

    /// The recurring events of `files`, with their places in reading order; `visit` sees every
    /// event on the way.
    private static func recurringEvents(of files: [(name: String, file: EventFile)],
                                        visiting visit: (Event) -> Void = { _ in }) -> (events: [Event], ordinals: [Int]) {
        var events: [Event] = []
        var ordinals: [Int] = []
        var ordinal = 0
        for entry in files {
            for event in entry.file.events {
                visit(event)
                if event.isRecurring {
                    events.append(event)
                    ordinals.append(ordinal)
                }
                ordinal += 1
            }
        }
        return (events, ordinals)
    }

    /// Every instance starting in `years` of the recurring events of `files` (their places in
    /// reading order), what the store's windows would find for them; nil when there are none,
    /// too many, or a rule leaves instances of a day out (the day limit), which only a walk
    /// of the rule tells apart.
    /// `spans` are the events' reaches (as the index keeps them), by which an event that cannot
    /// occur in the years is passed over unexpanded.
    static func occurrenceTable(of files: [(name: String, file: EventFile)], years: Range<Int>, spans: [Span]) -> OccurrenceTable? {
        let (events, ordinals) = recurringEvents(of: files)
        return occurrenceTable(recurring: events, ordinals: ordinals, years: years) { _, place in
            (spans[ordinals[place]].earliest, spans[ordinals[place]].latest)
        }
    }

    /// The table of `recurringEvents` (at `ordinals` in reading order) for `years`, as
    /// `occurrenceTable(of:years:spans:)` describes it; `reach` gives the reach of an event (as
    /// the index keeps it) and its place among them.
    private static func occurrenceTable(recurring recurringEvents: [Event], ordinals: [Int], years: Range<Int>,
                                        reach: (Event, Int) -> (earliest: Int, latest: Int)) -> OccurrenceTable? {
        guard years.lowerBound > -100_000, years.upperBound < 100_000, !years.isEmpty else { return nil }
        let range = (CivilTime.day(year: years.lowerBound, month: 1, day: 1) * CivilTime.secondsPerDay)
            ..< (CivilTime.day(year: years.upperBound, month: 1, day: 1) * CivilTime.secondsPerDay)
        guard !recurringEvents.isEmpty else { return nil }
        // Those whose reach meets the years are expanded (the rest have no instance there).
        let reaching = recurringEvents.indices.filter { place in
            let (earliest, latest) = reach(recurringEvents[place], place)
            return latest >= range.lowerBound && earliest < range.upperBound
        }
        // A rule of hours, minutes or seconds (by its frequency or its parts) can give
        // dozens of instances a day, each found among many candidates: over years that is work
        // a cache's writing must not wait for. Any other gives at most one a day for each of its
        // rules, so that the limit bounds the work.
        func isDense(_ expander: RecurrenceExpander) -> Bool {
            let rule = expander.rule
            return rule.frequency < .daily || !rule.byHour.isEmpty || !rule.byMinute.isEmpty || !rule.bySecond.isEmpty
        }
        if reaching.contains(where: { recurringEvents[$0].expanders.contains(where: isDense) || recurringEvents[$0].exclusionRules.contains(where: isDense) }) {
            return nil
        }
        guard var instances = InstanceWindow.all(in: range, events: recurringEvents, recurring: reaching,
                                                 limit: tableLimit) else { return nil }
        // The longest any instance lasts, in the table or not: one that starts before the
        // table's range can still reach into a run's months.
        var longest = 0
        for event in recurringEvents {
            longest = max(longest, event.duration)
            for extra in event.extraStarts { longest = max(longest, extra.duration ?? 0) }
        }
        for place in instances.indices { instances[place].event = ordinals[instances[place].event] }
        return OccurrenceTable(range: range, recurring: ordinals, instances: instances, longest: longest)
    }

    /// Writes the table `table` at `position` (and moves it on): the checksum of its block
    /// directory, the directory (a block's first start and the checksum of its entries), then
    /// the entries (start, duration, the place of the event's record from the body's start and
    /// its length, with the mark of an instance shown as written in the top bit), in order.
    /// `places` are the records' places by event, `recordPlaces` their bounds in the layout.
    static func writeTable(_ table: [(start: Int, duration: Int, event: Int, local: Bool)], places: [Int], recordPlaces: [Int],
                           at position: inout Int, into sink: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        let blockCount = (table.count + blockSize - 1) / blockSize
        let entriesStart = 8 + blockCount * tableBlockEntrySize
        var bytes = [UInt8](repeating: 0, count: entriesStart + table.count * tableEntrySize)
        bytes.withUnsafeMutableBytes { out in
            var entry = entriesStart
            for (number, instance) in table.enumerated() {
                let length = recordPlaces[instance.event + 1] - recordPlaces[instance.event] - 8
                out.storeBytes(of: UInt64(bitPattern: Int64(instance.start)), toByteOffset: entry, as: UInt64.self)
                out.storeBytes(of: UInt64(bitPattern: Int64(instance.duration)), toByteOffset: entry + 8, as: UInt64.self)
                out.storeBytes(of: UInt64(places[instance.event]), toByteOffset: entry + 16, as: UInt64.self)
                out.storeBytes(of: UInt64(length) | (instance.local ? 1 << 63 : 0), toByteOffset: entry + 24, as: UInt64.self)
                entry += tableEntrySize
                if number % blockSize == 0 {
                    out.storeBytes(of: UInt64(bitPattern: Int64(instance.start)),
                                   toByteOffset: 8 + number / blockSize * tableBlockEntrySize, as: UInt64.self)
                }
            }
            for block in 0..<blockCount {
                let start = entriesStart + block * blockSize * tableEntrySize
                let end = min(start + blockSize * tableEntrySize, out.count)
                out.storeBytes(of: CacheChecksum.of(UnsafeRawBufferPointer(rebasing: out[start..<end])),
                               toByteOffset: 8 + block * tableBlockEntrySize + 8, as: UInt64.self)
            }
            out.storeBytes(of: CacheChecksum.of(UnsafeRawBufferPointer(rebasing: out[8..<entriesStart])), toByteOffset: 0, as: UInt64.self)
        }
        try bytes.withUnsafeBytes { try sink($0, position) }
        position += bytes.count
    }

    /// The occurrences of the table of `contents` that start in `starts` (the events'
    /// reckoning), in order: start, duration, the place of the event's record and its length,
    /// whether shown as written. Reads and checks the directory and the blocks that hold them;
    /// with `starts` nil, checks every block and gives none (for a run that reads the whole
    /// cache, which so checks all of it).
    /// - throws: `CacheDefect` when a part is outside the cache or its checksum is wrong.
    static func tableOccurrences(_ contents: Contents, table: TablePlace, starts: Range<Int>?) throws(CacheDefect)
        -> [TableOccurrence] {
        let buffer = contents.buffer
        let blockCount = (table.count + blockSize - 1) / blockSize
        let (room, short) = (buffer.count - contents.bodyStart).subtractingReportingOverflow(table.offset)
        guard table.offset >= 0, !short, table.count >= 0, table.count <= tableLimit,
              8 + blockCount * tableBlockEntrySize + table.count * tableEntrySize <= room else { throw CacheDefect() }
        let base = contents.bodyStart + table.offset
        let entriesStart = base + 8 + blockCount * tableBlockEntrySize
        guard contents.load(base, entriesStart), buffer.loadUnaligned(fromByteOffset: base, as: UInt64.self)
                == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[(base + 8)..<entriesStart])) else { throw CacheDefect() }
        func firstStart(_ block: Int) -> Int {
            Int(Int64(bitPattern: buffer.loadUnaligned(fromByteOffset: base + 8 + block * tableBlockEntrySize, as: UInt64.self)))
        }
        // The blocks from the last that starts before the range to the last that starts in it.
        let first = starts.map { starts in max(0, partitionPoint(blockCount) { firstStart($0) < starts.lowerBound } - 1) } ?? 0
        let end = starts.map { starts in partitionPoint(blockCount) { firstStart($0) < starts.upperBound } } ?? blockCount
        guard first < end else { return [] }
        let entries = entriesStart + first * blockSize * tableEntrySize
            ..< min(entriesStart + end * blockSize * tableEntrySize, entriesStart + table.count * tableEntrySize)
        guard contents.load(entries.lowerBound, entries.upperBound) else { throw CacheDefect() }
        var found: [TableOccurrence] = []
        for block in first..<end {
            let start = entriesStart + block * blockSize * tableEntrySize
            let stop = min(start + blockSize * tableEntrySize, entries.upperBound)
            guard buffer.loadUnaligned(fromByteOffset: base + 8 + block * tableBlockEntrySize + 8, as: UInt64.self)
                    == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[start..<stop])) else { throw CacheDefect() }
            guard let starts else { continue }
            for entry in stride(from: start, to: stop, by: tableEntrySize) {
                let begins = Int(Int64(bitPattern: buffer.loadUnaligned(fromByteOffset: entry, as: UInt64.self)))
                guard starts.contains(begins) else { continue }
                let last = buffer.loadUnaligned(fromByteOffset: entry + 24, as: UInt64.self)
                found.append(TableOccurrence(start: begins, duration: Int(Int64(bitPattern: buffer.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self))),
                                             offset: buffer.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self),
                                             length: last & ~(1 << 63), local: last >> 63 == 1))
            }
        }
        return found
    }
}
