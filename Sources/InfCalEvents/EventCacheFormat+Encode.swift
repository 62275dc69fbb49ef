import InfCalModel

extension EventCacheFormat {
    // MARK: Writing

    /// Where an event can occur, as the index keeps it.
    struct Span {
        let earliest: Int
        let latest: Int
        let halves: UInt64
        /// Whether its instances are in the table of occurrences (a recurring event, when
        /// there is a table).
        var inTable = false
    }

    /// The cache of `files` (every file read from `source`, with its name), built from the
    /// files and directories of `key`; empty should its layout come out other than planned.
    public static func encode(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)]) -> [UInt8] {
        var pieces: [(offset: Int, bytes: [UInt8])] = []
        guard encode(source: source, key: key, files: files, into: { bytes, offset in pieces.append((offset, Array(bytes))) })
        else { return [] }
        var whole = [UInt8](repeating: 0, count: pieces.map { $0.offset + $0.bytes.count }.max() ?? 0)
        for piece in pieces { whole.replaceSubrange(piece.offset..<(piece.offset + piece.bytes.count), with: piece.bytes) }
        return whole
    }

    /// How much of the body is gathered before it is handed on: a buffer used over and over
    /// stays in the processor's caches and costs no fresh pages.
    static let chunkSize = 256 << 10

    /// Encodes the cache of `files` (as `encode(source:key:files:)` does) into `sink`, which
    /// gets the bytes for each offset of the file: the body in order, in pieces, then its front
    /// (header, metadata, block directory, index) at offset 0. Whether the layout came out as
    /// planned (when not, what `sink` got is no cache).
    public static func encode(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)],
                              into sink: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows -> Bool {
        try encode(layout(source: source, key: key, files: files), into: sink)
    }

    /// The part of encoding the cache of `files` that looks at their events (the rest is
    /// `encode(_:into:)`): their records, zones, spans and details, and the metadata.
    /// With `occurrenceYears` (Gregorian years), the cache also holds the instances of its
    /// recurring events that start in those years (`occurrenceTable`).
    public static func layout(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)],
                              occurrenceYears: Range<Int>? = nil) -> CacheLayout {
        layout(source: source, key: key, files: files, tableOf: { spans in
            occurrenceYears.flatMap { occurrenceTable(of: files, years: $0, spans: spans) }
        }, zoneRuns: { _ in nil })
    }

    /// The layout of the cache of `files` (as `layout(source:key:files:occurrenceYears:)`
    /// gives it) with what `side` gives, asked for once the events' records are made: what
    /// `results(of:)` built apart, with `sideWork(of:years:)`, from the same files.
    public static func layout(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)],
                              side: () -> SideResults) -> CacheLayout {
        var zoneRuns: [String: [Int]] = [:]
        return layout(source: source, key: key, files: files, tableOf: { _ in
            let results = side()
            zoneRuns = results.zoneRuns
            return results.table
        }, zoneRuns: { zoneRuns[$0] })
    }

    /// The layout, with the table of occurrences `tableOf` gives for the events' spans, and
    /// the changes of offset `zoneRuns` gives for the identifier of a Foundation zone (nil:
    /// found from the zone).
    private static func layout(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)],
                               tableOf: ([Span]) -> OccurrenceTable?, zoneRuns: (String) -> [Int]?) -> CacheLayout {
        // The body holds the details (location, description) first, apart: a run that shows
        // none never reads them; then the zones, then the events. Where each details record
        // lies follows from the lengths of those before it, so one pass over the events in
        // reading order (the order they lie in memory) numbers their zones in order of first
        // use (events in a row mostly share theirs, so the last one is kept at hand), computes
        // their spans, and writes their records apart, each with its checksum, computed where
        // the bytes are hot.
        var zones: [ObjectIdentifier: Int] = [:]
        var zoneList: [EventZone] = []
        var last: (zone: EventZone, number: Int)?
        let eventCount = files.reduce(0) { $0 + $1.file.events.count }
        var spans: [Span] = []
        spans.reserveCapacity(eventCount)
        var detailsList: [EventDetails] = []
        detailsList.reserveCapacity(eventCount)
        var eventRecords = CacheWriter(capacity: eventCount * 128)
        var recordPlaces: [Int] = []
        recordPlaces.reserveCapacity(eventCount + 1)
        var detailsEnd = 0
        for (fileIndex, entry) in files.enumerated() {
            for event in entry.file.events {
                var number: Int?
                if let zone = event.zone {
                    if let last, last.zone === zone {
                        number = last.number
                    } else {
                        let found = zones[ObjectIdentifier(zone)] ?? zoneList.count
                        if found == zoneList.count {
                            zones[ObjectIdentifier(zone)] = found
                            zoneList.append(zone)
                        }
                        number = found
                        last = (zone, found)
                    }
                }
                var details = (offset: 0, length: 0)
                if hasDetails(event.details) {
                    details = (detailsEnd + 8, length(of: event.details))
                    detailsEnd += 8 + details.length
                    detailsList.append(event.details)
                }
                var (earliest, latest) = reach(of: event)
                var halves = halfMonths(of: event)
                if !event.alarms.isEmpty { widen(&earliest, &latest, &halves, byAbsoluteAlarmsOf: event) }
                let ordinal = spans.count
                spans.append(Span(earliest: earliest, latest: latest, halves: UInt64(halves)))
                recordPlaces.append(eventRecords.count)
                _ = appendRecord(to: &eventRecords, base: 0) { out in
                    out.int(ordinal)
                    out.int(fileIndex)
                    write(event, zone: number, details: details, to: &out)
                }
            }
        }
        recordPlaces.append(eventRecords.count)
        let table = tableOf(spans)
        if let table {
            for ordinal in table.recurring { spans[ordinal].inTable = true }
        }
        var zoneRecords = CacheWriter(capacity: zoneList.count * 64)
        var zoneDirectory: [(offset: Int, length: Int)] = []
        zoneDirectory.reserveCapacity(zoneList.count)
        for zone in zoneList {
            let runs = zone.foundationIdentifier.flatMap(zoneRuns)
            let (offset, length) = appendRecord(to: &zoneRecords, base: 0) { write(zone, runs: runs, to: &$0) }
            zoneDirectory.append((detailsEnd + offset, length))
        }
        let tablePlace = table.map { TablePlace(range: $0.range, count: $0.instances.count, longest: $0.longest,
                                                offset: detailsEnd + zoneRecords.count + eventRecords.count) }
        let meta = metadata(source: source, key: key, files: files, zones: zoneDirectory, table: tablePlace)
        return CacheLayout(eventRecords: eventRecords, recordPlaces: recordPlaces, spans: spans, details: detailsList,
                           detailsEnd: detailsEnd, zoneRecords: zoneRecords, meta: meta, table: table?.instances ?? [])
    }

    /// The rest of encoding (after `layout(source:key:files:)`), which looks at no event, only
    /// at bytes, numbers and texts: it may go on on another thread. Writes into `sink` as
    /// `encode(source:key:files:into:)` does; whether the layout came out as planned.
    public static func encode(_ layout: CacheLayout, into sink: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows -> Bool {
        let spans = layout.spans
        let eventCount = spans.count
        let recordPlaces = layout.recordPlaces
        let metaCount = layout.meta.count
        let directoryStart = headerSize + metaCount
        let indexStart = directoryStart + (eventCount + blockSize - 1) / blockSize * blockEntrySize
        let bodyStart = indexStart + eventCount * indexEntrySize
        let detailsEnd = layout.detailsEnd
        let eventsStart = bodyStart + detailsEnd + layout.zoneRecords.count
        let recordsCount = layout.eventRecords.count

        // The body, through one chunk: the details, the zones, then the events in the index's
        // order, so that those a run decodes together lie together (the pages it touches are
        // few); each records its place in reading order.
        var chunk = CacheWriter(capacity: chunkSize + 4096)
        var position = bodyStart
        for details in layout.details {
            _ = appendRecord(to: &chunk, base: 0) { out in write(details, to: &out) }
            try flush(&chunk, at: &position, from: chunkSize, into: sink)
        }
        guard position + chunk.count == bodyStart + detailsEnd else { return false }
        chunk.append(layout.zoneRecords.written)
        let order = indexOrder(of: spans)
        let records = layout.eventRecords.written
        for ordinal in order {
            chunk.append(UnsafeRawBufferPointer(rebasing: records[recordPlaces[ordinal]..<recordPlaces[ordinal + 1]]))
            try flush(&chunk, at: &position, from: chunkSize, into: sink)
        }
        try flush(&chunk, at: &position, from: 1, into: sink)
        guard position == eventsStart + recordsCount else { return false }
        // The table of occurrences after the records, each naming the record of its event.
        if !layout.table.isEmpty {
            var place = [Int](repeating: 0, count: eventCount)
            var offset = eventsStart - bodyStart
            for ordinal in order {
                place[ordinal] = offset + 8
                offset += recordPlaces[ordinal + 1] - recordPlaces[ordinal]
            }
            try writeTable(layout.table, places: place, recordPlaces: recordPlaces, at: &position, into: sink)
        }

        // The front, now that every record's place is known.
        var front = [UInt8](repeating: 0, count: bodyStart)
        front.withUnsafeMutableBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: bytes[headerSize..<directoryStart]).copyMemory(from: layout.meta.written)
            var offset = eventsStart - bodyStart
            var (block, entry, first) = (directoryStart, indexStart, 0)
            while first < eventCount {
                let blockEnd = min(first + blockSize, eventCount)
                let entriesStart = entry
                var (earliest, latest, halves) = (Int.max, Int.min, UInt64(0))
                var allInTable = true
                for ordinal in order[first..<blockEnd] {
                    let span = spans[ordinal]
                    allInTable = allInTable && span.inTable
                    let length = recordPlaces[ordinal + 1] - recordPlaces[ordinal] - 8
                    bytes.storeBytes(of: UInt64(bitPattern: Int64(span.earliest)), toByteOffset: entry, as: UInt64.self)
                    bytes.storeBytes(of: UInt64(bitPattern: Int64(span.latest)), toByteOffset: entry + 8, as: UInt64.self)
                    bytes.storeBytes(of: UInt64(offset + 8) | (span.inTable ? tableFlag : 0), toByteOffset: entry + 16, as: UInt64.self)
                    bytes.storeBytes(of: UInt64(length) | span.halves << 40, toByteOffset: entry + 24, as: UInt64.self)
                    offset += length + 8
                    entry += indexEntrySize
                    earliest = min(earliest, span.earliest)
                    latest = max(latest, span.latest)
                    halves |= span.halves
                }
                bytes.storeBytes(of: UInt64(bitPattern: Int64(earliest)), toByteOffset: block, as: UInt64.self)
                bytes.storeBytes(of: UInt64(bitPattern: Int64(latest)), toByteOffset: block + 8, as: UInt64.self)
                bytes.storeBytes(of: halves | (allInTable ? tableFlag : 0), toByteOffset: block + 16, as: UInt64.self)
                bytes.storeBytes(of: CacheChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[entriesStart..<entry])),
                                 toByteOffset: block + 24, as: UInt64.self)
                block += blockEntrySize
                first = blockEnd
            }
            let total = UInt64(position)
            for (index, word) in [magic, byteOrderMark, version, total, UInt64(metaCount), UInt64(eventCount)].enumerated() {
                bytes.storeBytes(of: word, toByteOffset: index * 8, as: UInt64.self)
            }
            bytes.storeBytes(of: CacheChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[0..<48])), toByteOffset: 48, as: UInt64.self)
            bytes.storeBytes(of: CacheChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[headerSize..<indexStart])),
                             toByteOffset: 56, as: UInt64.self)
        }
        try front.withUnsafeBytes { try sink($0, 0) }
        return true
    }

    /// The metadata: the source, the key, the files (names, warnings, colours) and the
    /// places of the zones' records.
    private static func metadata(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)],
                                 zones: [(offset: Int, length: Int)], table: TablePlace?) -> CacheWriter {
        var meta = CacheWriter()
        meta.string(source)
        meta.int(key.count)
        for entry in key {
            meta.string(entry.path)
            meta.bool(entry.isDirectory)
            write(entry.identity, to: &meta)
        }
        meta.int(files.count)
        for (name, file) in files {
            meta.string(name)
            meta.bool(file.hasCalendarData)
            meta.int(file.skipped.count)
            for skipped in file.skipped { meta.int(skipped.line); meta.string(skipped.reason) }
            meta.int(file.notes.count)
            for note in file.notes { meta.int(note.line); meta.string(note.message) }
            switch file.calendarColor {
            case nil: meta.int(0)
            case .indexed(let index)?: meta.int(1); meta.int(Int(index))
            case .rgb(let red, let green, let blue)?: meta.int(2); meta.int(Int(red)); meta.int(Int(green)); meta.int(Int(blue))
            }
            meta.int(file.problems.count)
            for problem in file.problems { meta.int(problem.line); meta.string(problem.message) }
        }
        meta.int(zones.count)
        for zone in zones { meta.int(zone.offset); meta.int(zone.length) }
        if let table {
            meta.bool(true)
            for value in [table.range.lowerBound, table.range.upperBound, table.count, table.longest, table.offset] { meta.int(value) }
        } else {
            meta.bool(false)
        }
        return meta
    }

    /// Appends a record (its checksum, then what `body` writes, in place) and returns where
    /// its bytes lie, counted from `base`.
    private static func appendRecord(to records: inout CacheWriter, base: Int, _ body: (inout CacheWriter) -> Void) -> (offset: Int, length: Int) {
        let checksumAt = records.count
        records.word(0)
        let offset = records.count
        body(&records)
        let length = records.count - offset
        records.setWord(CacheChecksum.of(UnsafeRawBufferPointer(rebasing: records.written[offset..<(offset + length)])), at: checksumAt)
        return (offset - base, length)
    }

    /// Hands what `chunk` holds to `sink` at `position` (and moves it on) once it holds at
    /// least `limit` bytes.
    private static func flush(_ chunk: inout CacheWriter, at position: inout Int, from limit: Int,
                              into sink: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        guard chunk.count >= limit else { return }
        try sink(chunk.written, position)
        position += chunk.count
        chunk.removeAll()
    }
}

/// What encoding a cache took from its events (`EventCacheFormat.layout`): the events' and
/// zones' records, where each event can occur, the details to write and the metadata. It holds
/// no event, only bytes, numbers and texts, so that the rest of the encoding
/// (`EventCacheFormat.encode(_:into:)`) can go on on another thread; handed over whole, it is never used
/// by two threads at once.
public final class CacheLayout: @unchecked Sendable {
    fileprivate let eventRecords: CacheWriter
    fileprivate let recordPlaces: [Int]
    fileprivate let spans: [EventCacheFormat.Span]
    /// The details of the events that have any, in reading order.
    fileprivate let details: [EventDetails]
    fileprivate let detailsEnd: Int
    fileprivate let zoneRecords: CacheWriter
    fileprivate let meta: CacheWriter
    /// The table of occurrences: start, duration, the event's place in reading order, whether
    /// shown as written; empty when there is none.
    fileprivate let table: [(start: Int, duration: Int, event: Int, local: Bool)]

    fileprivate init(eventRecords: consuming CacheWriter, recordPlaces: [Int], spans: [EventCacheFormat.Span], details: [EventDetails],
                     detailsEnd: Int, zoneRecords: consuming CacheWriter, meta: consuming CacheWriter,
                     table: [(start: Int, duration: Int, event: Int, local: Bool)]) {
        self.table = table
        self.eventRecords = eventRecords
        self.recordPlaces = recordPlaces
        self.spans = spans
        self.details = details
        self.detailsEnd = detailsEnd
        self.zoneRecords = zoneRecords
        self.meta = meta
    }
}
