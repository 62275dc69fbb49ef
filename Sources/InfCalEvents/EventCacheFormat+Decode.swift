import InfCalModel

extension EventCacheFormat {
    // MARK: Reading

    /// What a cache holds before its events are decoded: checked header, metadata and index.
    public struct Contents {
        public let source: String
        public let key: [CacheKeyEntry]
        let buffer: UnsafeRawBufferPointer
        /// Makes the bytes of the spans given (offsets in `buffer`) present before they are read.
        let loader: (UnsafeBufferPointer<CacheSpan>) -> Bool
        let files: [FileEntry]
        /// Where each zone's record lies: its offset from the body's start, and its length
        /// (two arrays of words, not one of tuples: see `CacheSpan`).
        let zoneOffsets: [Int]
        let zoneLengths: [Int]
        /// The table of occurrences, if the cache has one.
        let table: TablePlace?
        /// The range of starts (the events' reckoning) of the table of occurrences; nil
        /// when the cache has none.
        public var tableRange: Range<Int>? { table?.range }
        let directoryStart: Int
        let indexStart: Int
        let bodyStart: Int
        let eventCount: Int

        /// Makes the bytes of `spans` present (`loader`).
        func load(_ spans: [CacheSpan]) -> Bool { spans.withUnsafeBufferPointer(loader) }

        /// Makes the bytes at `start..<end` present, with no array made for them: a run
        /// asks this for every record it reads.
        func load(_ start: Int, _ end: Int) -> Bool { EventCacheFormat.load(start, end, with: loader) }
    }

    /// A file of a cache's source as the metadata records it: its name, whether it held
    /// calendar data, its warnings and its colour. A struct, not a tuple: the metadata of an
    /// array of tuples of arrays is put together at run time, on every run's way to its first
    /// page.
    struct FileEntry {
        let name: String
        let hasCalendarData: Bool
        let skipped: [(line: Int, reason: String)]
        let notes: [(line: Int, message: String)]
        let color: CalendarColor?
        let problems: [(line: Int, message: String)]
    }

    /// Checks the header (magic, byte order, version, length, checksums) and reads the
    /// metadata of the cache in `buffer`, which must stay valid while the result is used.
    /// `load` makes spans of `buffer` present before they are read, for a buffer that holds
    /// only the parts of a file read so far (`Platform.CacheFile`); it returns false when it
    /// cannot. Without it the whole buffer is taken as present.
    /// - returns: nil for anything but an intact cache of this version and byte order.
    public static func open(_ buffer: UnsafeRawBufferPointer,
                            load: @escaping (UnsafeBufferPointer<CacheSpan>) -> Bool = { _ in true }) -> Contents? {
        func present(_ start: Int, _ end: Int) -> Bool { Self.load(start, end, with: load) }
        guard buffer.count >= headerSize, present(0, headerSize),
              buffer.loadUnaligned(fromByteOffset: 0, as: UInt64.self) == magic,
              buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == byteOrderMark,
              buffer.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == version,
              buffer.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == UInt64(buffer.count),
              buffer.loadUnaligned(fromByteOffset: 48, as: UInt64.self) == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[0..<48]))
        else { return nil }
        let metaLength = buffer.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
        let eventCount = buffer.loadUnaligned(fromByteOffset: 40, as: UInt64.self)
        let room = UInt64(buffer.count - headerSize)
        guard metaLength <= room, eventCount <= (room - metaLength) / UInt64(indexEntrySize) else { return nil }
        let directoryStart = headerSize + Int(metaLength)
        let blockCount = (Int(eventCount) + blockSize - 1) / blockSize
        let indexStart = directoryStart + blockCount * blockEntrySize
        let bodyStart = indexStart + Int(eventCount) * indexEntrySize
        // The index's blocks are checked when read (`decode`): the header covers the directory.
        guard bodyStart <= buffer.count, present(headerSize, indexStart), buffer.loadUnaligned(fromByteOffset: 56, as: UInt64.self)
                == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[headerSize..<indexStart])) else { return nil }
        do {
            var reader = try CacheReader(buffer, from: headerSize, to: directoryStart)
            let source = try reader.string()
            var key: [CacheKeyEntry] = []
            let keyCount = try reader.count()
            key.reserveCapacity(keyCount)
            for _ in 0..<keyCount {
                let path = try reader.string()
                let isDirectory = try reader.bool()
                key.append(CacheKeyEntry(path: path, isDirectory: isDirectory, identity: try readIdentity(&reader)))
            }
            var files: [FileEntry] = []
            let fileCount = try reader.count()
            files.reserveCapacity(fileCount)
            for _ in 0..<fileCount {
                let name = try reader.string()
                let hasData = try reader.bool()
                var skipped: [(line: Int, reason: String)] = []
                for _ in 0..<(try reader.count()) { skipped.append((try reader.int(), try reader.string())) }
                var notes: [(line: Int, message: String)] = []
                for _ in 0..<(try reader.count()) { notes.append((try reader.int(), try reader.string())) }
                var color: CalendarColor?
                switch try reader.int() {
                case 0: color = nil
                case 1: color = .indexed(try byte(&reader))
                case 2: color = .rgb(try byte(&reader), try byte(&reader), try byte(&reader))
                default: return nil
                }
                var problems: [(line: Int, message: String)] = []
                for _ in 0..<(try reader.count()) { problems.append((try reader.int(), try reader.string())) }
                files.append(FileEntry(name: name, hasCalendarData: hasData, skipped: skipped, notes: notes, color: color, problems: problems))
            }
            var (zoneOffsets, zoneLengths): ([Int], [Int]) = ([], [])
            for _ in 0..<(try reader.count()) {
                zoneOffsets.append(try reader.int())
                zoneLengths.append(try reader.int())
            }
            var table: TablePlace?
            if try reader.bool() {
                let (low, high, count, longest, offset) = (try reader.int(), try reader.int(), try reader.int(), try reader.int(), try reader.int())
                guard low < high, count >= 0, longest >= 0 else { return nil }
                table = TablePlace(range: low..<high, count: count, longest: longest, offset: offset)
            }
            guard reader.isAtEnd else { return nil }
            return Contents(source: source, key: key, buffer: buffer, loader: load, files: files, zoneOffsets: zoneOffsets, zoneLengths: zoneLengths, table: table,
                            directoryStart: directoryStart, indexStart: indexStart, bodyStart: bodyStart, eventCount: Int(eventCount))
        } catch {
            return nil
        }
    }

    /// Has `loader` make the bytes at `start..<end` present, with no array made for them.
    fileprivate static func load(_ start: Int, _ end: Int, with loader: (UnsafeBufferPointer<CacheSpan>) -> Bool) -> Bool {
        withUnsafePointer(to: CacheSpan(start, end)) { loader(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    private static func byte(_ reader: inout CacheReader) throws(CacheDefect) -> UInt8 {
        let value = try reader.int()
        guard let byte = UInt8(exactly: value) else { throw CacheDefect() }
        return byte
    }

    private static func readIdentity(_ reader: inout CacheReader) throws(CacheDefect) -> FileIdentity {
        FileIdentity(device: try reader.int(), inode: try reader.int(), size: try reader.int(),
                     seconds: try reader.int(), nanoseconds: try reader.int())
    }

    /// Decodes the files of `contents` and the events that can occur in `window` (display
    /// wall-clock civil seconds; nil: all), with their locations and descriptions unless
    /// `details` is false (they are left empty: for views that show neither). A file is left
    /// out when none of its events is decoded and it has nothing to warn about and no colour.
    /// - returns: nil when a record is corrupt: the caller reads the source afresh.
    public static func decode(_ contents: Contents, window: Range<Int>?,
                              details: Bool = true) -> [(name: String, file: EventFile)]? {
        var files = contents.files.map { entry -> EventFile in
            var file = EventFile()
            file.hasCalendarData = entry.hasCalendarData
            file.skipped = entry.skipped
            file.notes = entry.notes
            file.calendarColor = entry.color
            file.problems = entry.problems
            return file
        }
        var zones = [EventZone?](repeating: nil, count: contents.zoneOffsets.count)
        let buffer = contents.buffer
        let low = window.map { $0.lowerBound.subtractingReportingOverflow(selectionMargin) }
        let high = window.map { $0.upperBound.addingReportingOverflow(selectionMargin) }
        var wantedHalves = everyHalfMonth
        // The spans of the zones' stored offsets the window's instants lie in (with a day to
        // spare): the rest of a zone's record is not taken.
        var zoneSpans: Range<Int>?
        if let low, let high, !low.overflow, !high.overflow {
            wantedHalves = halves(from: low.partialValue, lasting: high.partialValue - low.partialValue)
            if low.partialValue > Int.min / 2, high.partialValue < Int.max / 2 {
                zoneSpans = CivilTime.floorDiv(low.partialValue - CivilTime.secondsPerDay, EventZone.span)
                    ..< (CivilTime.floorDiv(high.partialValue + CivilTime.secondsPerDay, EventZone.span) + 1)
            }
        }
        /// Whether nothing in the span from `earliest` to `latest` in `halves` can fall in the window.
        func outside(_ earliest: UInt64, _ latest: UInt64, _ halves: UInt64) -> Bool {
            guard let low, let high else { return false }
            if !high.overflow, Int(Int64(bitPattern: earliest)) >= high.partialValue { return true }
            if !low.overflow, Int(Int64(bitPattern: latest)) <= low.partialValue { return true }
            return UInt32(truncatingIfNeeded: halves) & wantedHalves == 0
        }
        // The table gives the recurring events' instances when the window, with the margin
        // and the longest an instance lasts before it, lies inside its range.
        var tableStarts: Range<Int>?
        if let table = contents.table, let low, let high, !low.overflow, !high.overflow {
            let (from, early) = low.partialValue.subtractingReportingOverflow(table.longest)
            if !early, from >= table.range.lowerBound, high.partialValue <= table.range.upperBound, from < high.partialValue {
                tableStarts = from..<high.partialValue
            }
        }
        do {
            // The blocks that can hold an event in the window, read in one go, then checked.
            // (Arrays of words and spans rather than of tuples: the first array of each tuple
            // type costs a look-up of its metadata by name, on every run's way to its page.)
            var blocks: [Int] = []
            var entrySpans: [CacheSpan] = []
            var first = 0
            var block = contents.directoryStart
            while first < contents.eventCount {
                defer { first += blockSize; block += blockEntrySize }
                // A block of events the table holds alone, for a run that takes them from it.
                if tableStarts != nil, buffer.loadUnaligned(fromByteOffset: block + 16, as: UInt64.self) & tableFlag != 0 { continue }
                if outside(buffer.loadUnaligned(fromByteOffset: block, as: UInt64.self), buffer.loadUnaligned(fromByteOffset: block + 8, as: UInt64.self),
                           buffer.loadUnaligned(fromByteOffset: block + 16, as: UInt64.self)) { continue }
                let start = contents.indexStart + first * indexEntrySize
                blocks.append(block)
                entrySpans.append(CacheSpan(start, start + min(blockSize, contents.eventCount - first) * indexEntrySize))
            }
            guard contents.load(entrySpans) else { throw CacheDefect() }
            // A run that reads every block of the index reads the whole cache: the table too.
            if tableStarts == nil, let table = contents.table, blocks.count == (contents.eventCount + blockSize - 1) / blockSize {
                _ = try tableOccurrences(contents, table: table, starts: nil)
            }
            // The records wanted: each one's offset, and its last index word (length and halves).
            var offsets: [UInt64] = []
            var lasts: [UInt64] = []
            for (block, entries) in zip(blocks, entrySpans) {
                let (start, end) = (entries.start, entries.end)
                guard buffer.loadUnaligned(fromByteOffset: block + 24, as: UInt64.self)
                        == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) else { throw CacheDefect() }
                for entry in stride(from: start, to: end, by: indexEntrySize) {
                    let offset = buffer.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self)
                    // The table names those of its events the window holds.
                    if offset & tableFlag != 0, tableStarts != nil { continue }
                    let last = buffer.loadUnaligned(fromByteOffset: entry + 24, as: UInt64.self)
                    if outside(buffer.loadUnaligned(fromByteOffset: entry, as: UInt64.self),
                               buffer.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self), last >> 40) { continue }
                    offsets.append(offset & ~tableFlag)
                    lasts.append(last)
                }
            }
            // The table's events, each once, after the index's, by the places of their records.
            let indexed = offsets.count
            var occurrences: [TableOccurrence] = []
            var tableRecords: [UInt64] = []
            if let tableStarts, let table = contents.table {
                occurrences = try tableOccurrences(contents, table: table, starts: tableStarts)
                for occurrence in occurrences {
                    guard occurrence.offset < 1 << 32, occurrence.length < 1 << 31 else { throw CacheDefect() }
                    tableRecords.append(occurrence.offset << 31 | occurrence.length)
                }
                tableRecords.sortWords()
                var unique = 0
                for word in tableRecords where unique == 0 || tableRecords[unique - 1] != word {
                    tableRecords[unique] = word
                    unique += 1
                }
                tableRecords.removeLast(tableRecords.count - unique)
                for word in tableRecords {
                    offsets.append(word >> 31)
                    lasts.append(word & (1 << 31 - 1))
                }
            }
            // The records lie in the index's order, as the index's part of `offsets` is, and so
            // does its table's part: the two merged, they are read in one pass. The events go
            // back into the order reading gave them.
            var spans: [CacheSpan] = []
            spans.reserveCapacity(offsets.count)
            var (left, right) = (0, indexed)
            while left < indexed || right < offsets.count {
                let takeLeft = right == offsets.count || (left < indexed && offsets[left] < offsets[right])
                let next = takeLeft ? left : right
                if takeLeft { left += 1 } else { right += 1 }
                spans.append(recordBytes(at: offsets[next], length: lasts[next] & ((1 << 40) - 1), bodyStart: contents.bodyStart))
            }
            guard contents.load(spans) else { throw CacheDefect() }
            // What each record held: its place in reading order, its file and its event.
            var ordinals: [Int] = []
            var fileIndices: [Int] = []
            var events: [Event] = []
            ordinals.reserveCapacity(offsets.count)
            fileIndices.reserveCapacity(offsets.count)
            events.reserveCapacity(offsets.count)
            for position in offsets.indices {
                let (offset, last) = (offsets[position], lasts[position])
                // An event the table names, for a run that shows no details (and so asks the
                // store nothing beyond the table's years), is read without its rules.
                let fromTable = position >= indexed && !details
                var reader = try record(contents, at: offset, length: last & ((1 << 40) - 1), bodyStart: contents.bodyStart)
                let ordinal = try reader.int()
                let fileIndex = try reader.int()
                guard ordinal >= 0, ordinal < contents.eventCount, fileIndex >= 0, fileIndex < files.count else { throw CacheDefect() }
                let event = try readEvent(&reader, calendarZone: { number throws(CacheDefect) -> EventZone in
                    guard number >= 0, number < zones.count else { throw CacheDefect() }
                    if let zone = zones[number] { return zone }
                    var zoneReader = try record(contents, at: UInt64(truncatingIfNeeded: contents.zoneOffsets[number]),
                                                length: UInt64(truncatingIfNeeded: contents.zoneLengths[number]), bodyStart: contents.bodyStart)
                    let zone = try readZone(&zoneReader, spans: zoneSpans)
                    zones[number] = zone
                    return zone
                }, details: { offset, length throws(CacheDefect) -> EventDetails in
                    guard offset != 0 || length != 0 else { return EventDetails() }
                    // Not asked for: neither read nor checked (nothing of them is shown).
                    guard details else { return EventDetails() }
                    var detailsReader = try record(contents, at: UInt64(truncatingIfNeeded: offset),
                                                   length: UInt64(truncatingIfNeeded: length), bodyStart: contents.bodyStart)
                    let found = try readDetails(&detailsReader)
                    guard detailsReader.isAtEnd else { throw CacheDefect() }
                    return found
                }, rules: !fromTable)
                // An event read up to its rules has the rest of its record left unread.
                guard fromTable || reader.isAtEnd else { throw CacheDefect() }
                ordinals.append(ordinal)
                fileIndices.append(fileIndex)
                events.append(event)
            }
            // Each place in reading order with the position decoded, in one word sorted as a
            // number (both are below 2^31 in any cache that can be mapped; a closure comparing
            // tuples costs several times more).
            var order: [Int] = []
            if contents.eventCount < 1 << 31 {
                order = ordinals.indices.map { ordinals[$0] << 32 | $0 }
                order.sortStably(by: <)
                order = order.map { $0 & 0xFFFF_FFFF }
            } else {
                order = ordinals.indices.sorted { ordinals[$0] < ordinals[$1] }
            }
            var slots = [Int](repeating: 0, count: events.count)
            for position in order {
                slots[position] = files[fileIndices[position]].events.count
                files[fileIndices[position]].events.append(events[position])
            }
            if let tableStarts {
                var presets = [[(start: Int, duration: Int, event: Int, local: Bool)]](repeating: [], count: files.count)
                for occurrence in occurrences {
                    let word = occurrence.offset << 31 | occurrence.length
                    let position = indexed + partitionPoint(tableRecords.count) { tableRecords[$0] < word }
                    guard position < events.count else { throw CacheDefect() }
                    presets[fileIndices[position]].append((occurrence.start, occurrence.duration, slots[position], occurrence.local))
                }
                for index in files.indices { files[index].preset = PresetInstances(range: tableStarts, instances: presets[index]) }
            }
        } catch {
            return nil
        }
        var result: [(name: String, file: EventFile)] = []
        for (index, file) in files.enumerated()
        where !file.events.isEmpty || !file.hasCalendarData || !file.skipped.isEmpty || !file.notes.isEmpty || file.calendarColor != nil
            || !file.problems.isEmpty {
            result.append((contents.files[index].name, file))
        }
        return result
    }

    /// A reader over the record at `offset` (from the body's start) of `length` bytes, after
    /// checking its checksum.
    private static func record(_ contents: Contents, at offset: UInt64, length: UInt64,
                               bodyStart: Int) throws(CacheDefect) -> CacheReader {
        let buffer = contents.buffer
        let room = UInt64(buffer.count - bodyStart)
        guard offset >= 8, offset <= room, length <= room - offset else { throw CacheDefect() }
        let start = bodyStart + Int(offset)
        let end = start + Int(length)
        guard contents.load(start - 8, end) else { throw CacheDefect() }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        guard buffer.loadUnaligned(fromByteOffset: start - 8, as: UInt64.self) == CacheChecksum.of(bytes) else { throw CacheDefect() }
        return try CacheReader(buffer, from: start, to: end)
    }

    /// The bytes of the record at `offset` (from `bodyStart`) of `length` bytes with the
    /// checksum before it, for reading ahead; an empty span for a record that cannot lie in
    /// the cache (`record` rejects it).
    private static func recordBytes(at offset: UInt64, length: UInt64, bodyStart: Int) -> CacheSpan {
        guard offset >= 8, offset < UInt64(Int32.max), length < UInt64(Int32.max) else { return CacheSpan(0, 0) }
        let start = bodyStart + Int(offset) - 8
        return CacheSpan(start, start + 8 + Int(length))
    }
}
