import Foundation
import InfCalModel

/// One thing a cache was built from: a path below the source ("" for the source itself),
/// whether it is a directory, and its identity then.
public struct CacheKeyEntry: Equatable, Sendable {
    public var path: String
    public var isDirectory: Bool
    public var identity: FileIdentity

    public init(path: String, isDirectory: Bool, identity: FileIdentity) {
        self.path = path
        self.isDirectory = isDirectory
        self.identity = identity
    }
}

/// The binary form of what reading a source gave: its files' warnings, its events with their
/// rules and zones, and an index of the span of time in which each event can occur, so that a
/// run decodes only the events that can fall in the months it shows.
///
/// Layout: a header of 64-bit words (magic, byte-order mark, format version, total length,
/// length of the metadata, number of events, checksums of the header and of metadata plus
/// block directory), the metadata (source, key, files, zone directory) as variable-length
/// integers, the block directory, the index (four words an event: earliest start, latest end,
/// offset of its record, and its length with the halves of months in which it can occur),
/// then the records of zones and events, each behind its own checksum, checked when decoded.
///
/// The index is sorted so that events near in time lie together (short events by start, then
/// longer ones, then those without end by their halves of months) and cut into blocks of
/// `blockSize` entries; the directory holds four words a block (the earliest start and the
/// latest end of its events, their halves of months, the checksum of its entries), so that a
/// run of a few months checks and reads only the blocks that can hold its events, not the
/// whole index. Records stay in the order reading gave the events: their offsets give it back.
public enum EventCacheFormat {
    /// Bump whenever what is written changes, or what reading a file produces does (a new
    /// field of `Event`, `RecurrenceRule`, `ICalTime` or a zone): a cache of another version
    /// is rebuilt. `EventCacheFormatTests` fails when the model's stored fields change and
    /// this does not.
    public static let version: UInt64 = 6

    static let magic: UInt64 = 0x5645_4C41_4346_4E49  // "INFCALEV" read as a little-endian word
    static let byteOrderMark: UInt64 = 0x0102_0304_0506_0708
    static let headerSize = 64
    static let indexEntrySize = 32
    static let blockSize = 64
    static let blockEntrySize = 32
    /// An event lasting at most this long (seconds, from its earliest start to its latest end)
    /// is sorted with the single events, by its start.
    static let shortReach = 2 * CivilTime.secondsPerDay
    /// How far an occurrence shown in the display zone can lie from its time in the event's
    /// own reckoning (zone offsets reach about a day), with room to spare.
    static let selectionMargin = 3 * CivilTime.secondsPerDay

    // MARK: Writing

    /// The cache of `files` (every file read from `source`, with its name), built from the
    /// files and directories of `key`.
    public static func encode(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)]) -> [UInt8] {
        var zones: [ObjectIdentifier: Int] = [:]
        var zoneList: [EventZone] = []
        var records = CacheWriter()
        var entries: [(earliest: Int, latest: Int, offset: Int, last: UInt64)] = []
        // Zones first, in order of first use, so that events name them by number.
        for (_, file) in files {
            for event in file.events {
                guard let zone = event.zone, zones[ObjectIdentifier(zone)] == nil else { continue }
                zones[ObjectIdentifier(zone)] = zoneList.count
                zoneList.append(zone)
            }
        }
        var zoneDirectory: [(offset: Int, length: Int)] = []
        for zone in zoneList {
            var payload = CacheWriter()
            write(zone, to: &payload)
            zoneDirectory.append(append(payload, to: &records))
        }
        for (fileIndex, entry) in files.enumerated() {
            for event in entry.file.events {
                var payload = CacheWriter()
                payload.int(fileIndex)
                write(event, zone: event.zone.flatMap { zones[ObjectIdentifier($0)] }, to: &payload)
                let (offset, length) = append(payload, to: &records)
                let (earliest, latest) = reach(of: event)
                entries.append((earliest, latest, offset, UInt64(length) | UInt64(halfMonths(of: event)) << 40))
            }
        }
        let (directory, index) = blocks(of: entries)
        let eventCount = entries.count
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
        meta.int(zoneDirectory.count)
        for zone in zoneDirectory { meta.int(zone.offset); meta.int(zone.length) }

        var out = CacheWriter()
        let total = headerSize + meta.bytes.count + directory.bytes.count + index.bytes.count + records.bytes.count
        out.bytes.reserveCapacity(total)
        out.word(magic)
        out.word(byteOrderMark)
        out.word(version)
        out.word(UInt64(total))
        out.word(UInt64(meta.bytes.count))
        out.word(UInt64(eventCount))
        out.word(0)
        out.word(0)
        out.bytes += meta.bytes
        out.bytes += directory.bytes
        let indexStart = out.bytes.count
        out.bytes += index.bytes
        out.bytes += records.bytes
        out.setWord(CacheChecksum.of(out.bytes, 0..<48), at: 48)
        out.setWord(CacheChecksum.of(out.bytes, headerSize..<indexStart), at: 56)
        return out.bytes
    }

    /// The block directory and the index of `entries`, sorted as the layout says.
    private static func blocks(of entries: [(earliest: Int, latest: Int, offset: Int, last: UInt64)])
        -> (directory: CacheWriter, index: CacheWriter) {
        // The group (short, longer, without end) with the halves of months above it, then the
        // earliest start; ties keep the events' order. Keys made once: sorting compares often.
        let keys = entries.map { entry -> (group: UInt64, earliest: Int) in
            if entry.latest == Int.max { return (2 << 32 | entry.last >> 40, entry.earliest) }
            let (reach, overflow) = entry.latest.subtractingReportingOverflow(entry.earliest)
            return (!overflow && reach <= shortReach ? 0 : 1 << 32, entry.earliest)
        }
        let sorted = entries.indices.sorted { a, b in
            keys[a].group != keys[b].group ? keys[a].group < keys[b].group
                : keys[a].earliest != keys[b].earliest ? keys[a].earliest < keys[b].earliest : a < b
        }.map { entries[$0] }
        var directory = CacheWriter()
        var index = CacheWriter()
        index.bytes.reserveCapacity(sorted.count * indexEntrySize)
        var first = 0
        while first < sorted.count {
            let block = sorted[first..<min(first + blockSize, sorted.count)]
            var entryBytes = CacheWriter()
            var (earliest, latest, halves) = (Int.max, Int.min, UInt64(0))
            for entry in block {
                entryBytes.word(UInt64(bitPattern: Int64(entry.earliest)))
                entryBytes.word(UInt64(bitPattern: Int64(entry.latest)))
                entryBytes.word(UInt64(entry.offset))
                entryBytes.word(entry.last)
                earliest = min(earliest, entry.earliest)
                latest = max(latest, entry.latest)
                halves |= entry.last >> 40
            }
            directory.word(UInt64(bitPattern: Int64(earliest)))
            directory.word(UInt64(bitPattern: Int64(latest)))
            directory.word(halves)
            directory.word(entryBytes.bytes.withUnsafeBytes { CacheChecksum.of($0) })
            index.bytes += entryBytes.bytes
            first += blockSize
        }
        return (directory, index)
    }

    /// Appends a record (its checksum, then its bytes) and returns where its bytes lie.
    private static func append(_ payload: CacheWriter, to records: inout CacheWriter) -> (offset: Int, length: Int) {
        records.word(payload.bytes.withUnsafeBytes { CacheChecksum.of($0) })
        let offset = records.bytes.count
        records.bytes += payload.bytes
        return (offset, payload.bytes.count)
    }

    /// The earliest an instance of `event` can start and the latest one can end, in the
    /// event's reckoning (`Int.max`: no end is known without walking the whole rule).
    static func reach(of event: Event) -> (earliest: Int, latest: Int) {
        let segment = event.segment
        var earliest = min(segment.seriesStart, event.start.seconds)
        var latest = max(segment.seriesStart, event.start.seconds)
        var longest = event.duration
        for extra in event.extraStarts {
            earliest = min(earliest, extra.start)
            latest = max(latest, extra.start)
            longest = max(longest, extra.duration ?? 0)
        }
        var unbounded = false
        for expander in event.expanders {
            if let until = expander.until {
                latest = max(latest, until)
            } else if expander.rule.count != nil, let last = expander.lastCountedInstance(walkingAtMost: 10_000) {
                latest = max(latest, last)
            } else {
                unbounded = true
            }
        }
        // A part of a series (RANGE=THISANDFUTURE) ends where the next part begins, moved.
        if let to = segment.to {
            latest = min(latest, to - 1)
            unbounded = false
        }
        let (shiftedEarliest, early) = earliest.addingReportingOverflow(min(0, segment.shift))
        earliest = early ? Int.min : shiftedEarliest
        if unbounded { return (earliest, Int.max) }
        let (shiftedLatest, late) = latest.addingReportingOverflow(max(0, segment.shift))
        let (end, overflow) = shiftedLatest.addingReportingOverflow(longest)
        return (earliest, late || overflow ? Int.max : end)
    }

    // MARK: Halves of months

    /// The 24 halves of the Gregorian months (days 1-15 and 16 on), one bit each: January's
    /// first half is bit 0, December's second bit 23.
    static let everyHalfMonth: UInt32 = (1 << 24) - 1

    /// The halves of months in which an instance of `event` can start or last (in its
    /// reckoning), whatever the year: what lets a run of a few months skip the yearly events
    /// of other seasons, which never end and so have no latest end in the index.
    static func halfMonths(of event: Event) -> UInt32 {
        var mask = halves(from: event.start.seconds, lasting: event.duration)
        for extra in event.extraStarts { mask |= halves(from: extra.start, lasting: extra.duration ?? event.duration) }
        // A part of a series moved by RANGE=THISANDFUTURE may land in any half.
        guard event.segment.shift == 0 else { return event.expanders.isEmpty ? mask : everyHalfMonth }
        for expander in event.expanders {
            let rule = expander.rule
            guard rule.frequency == .yearly, expander.scale is GregorianScale, rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty,
                  rule.skip == .omit else { return everyHalfMonth }
            if !rule.byMonth.isEmpty {
                for month in rule.byMonth {
                    guard (1...12).contains(month.month), !month.isLeap else { return everyHalfMonth }
                    // Any day of the month (2001 is no leap year; a 29 February lasts into March anyway).
                    let first = CivilTime.day(year: 2001, month: month.month, day: 1) * CivilTime.secondsPerDay
                    mask |= halves(from: first, lasting: 31 * CivilTime.secondsPerDay + event.duration)
                }
                continue
            }
            // No BYMONTH, BYMONTHDAY or BYDAY: the month and day of DTSTART, every year.
            guard rule.byDay.isEmpty && rule.byMonthDay.isEmpty else { return everyHalfMonth }
        }
        return mask
    }

    /// The half of a month holding civil day `day`.
    static func halfMonth(ofDay day: Int) -> Int {
        let date = CivilTime.date(ofDay: day)
        return (date.month - 1) * 2 + (date.day > 15 ? 1 : 0)
    }

    /// The halves of months that the time from `start` for `duration` seconds touches.
    static func halves(from start: Int, lasting duration: Int) -> UInt32 {
        let first = CivilTime.day(ofSeconds: start)
        let (end, overflow) = start.addingReportingOverflow(max(0, duration - 1))
        guard !overflow else { return everyHalfMonth }
        let last = CivilTime.day(ofSeconds: end)
        guard last - first < 330 else { return everyHalfMonth }
        var mask: UInt32 = 0
        var day = first
        while day <= last {
            mask |= 1 << UInt32(halfMonth(ofDay: day))
            day += 1
        }
        return mask
    }

    private static func write(_ identity: FileIdentity, to out: inout CacheWriter) {
        out.int(identity.device)
        out.int(identity.inode)
        out.int(identity.size)
        out.int(identity.seconds)
        out.int(identity.nanoseconds)
    }

    private static func write(_ time: ICalTime, to out: inout CacheWriter) {
        out.int(time.seconds)
        switch time.form {
        case .date: out.int(0)
        case .floating: out.int(1)
        case .utc: out.int(2)
        case .zoned(let name): out.int(3); out.string(name)
        }
    }

    private static func write(_ rule: RecurrenceRule, to out: inout CacheWriter) {
        out.int(rule.frequency.rawValue)
        out.int(rule.interval)
        out.optional(rule.count)
        out.bool(rule.until != nil)
        if let until = rule.until { write(until, to: &out) }
        out.ints(rule.bySecond)
        out.ints(rule.byMinute)
        out.ints(rule.byHour)
        out.int(rule.byDay.count)
        for day in rule.byDay { out.int(day.weekday); out.int(day.ordinal) }
        out.ints(rule.byMonthDay)
        out.ints(rule.byYearDay)
        out.ints(rule.byWeekNo)
        out.int(rule.byMonth.count)
        for month in rule.byMonth { out.int(month.month); out.bool(month.isLeap) }
        out.ints(rule.bySetPos)
        out.int(rule.weekStart)
        out.optional(rule.scale)
        out.int(rule.skip == .omit ? 0 : rule.skip == .backward ? 1 : 2)
        out.int(rule.notes.count)
        for note in rule.notes { out.string(note) }
    }

    private static func write(_ expander: RecurrenceExpander, to out: inout CacheWriter) {
        write(expander.rule, to: &out)
        out.int(expander.start)
        out.bool(expander.isDate)
        out.optional(expander.until)
        // An event's rule counts in its RSCALE; a VTIMEZONE's always in the Gregorian calendar.
        out.bool(!(expander.scale is GregorianScale))
        out.bool(expander.includesStart)
    }

    private static func write(_ zone: EventZone, to out: inout CacheWriter) {
        switch zone.source {
        case .utc:
            out.int(0)
        case .foundation(let timeZone):
            out.int(1)
            out.string(timeZone.identifier)
        case .rules(let rules):
            out.int(2)
            out.int(rules.observances.count)
            for observance in rules.observances {
                out.int(observance.offsetFrom)
                out.int(observance.offsetTo)
                out.ints(observance.onsets)
                out.bool(observance.expander != nil)
                if let expander = observance.expander { write(expander, to: &out) }
            }
        }
    }

    private static func write(_ event: Event, zone: Int?, to out: inout CacheWriter) {
        out.int(event.line)
        out.string(event.uid)
        out.string(event.summary)
        out.optional(event.calendarName)
        write(event.start, to: &out)
        out.optional(zone)
        out.int(event.duration)
        out.int(event.expanders.count)
        for expander in event.expanders { write(expander, to: &out) }
        out.int(event.exclusionRules.count)
        for expander in event.exclusionRules { write(expander, to: &out) }
        out.int(event.extraStarts.count)
        for extra in event.extraStarts { out.int(extra.start); out.optional(extra.duration) }
        out.ints(event.excluded.sorted())
        out.ints(event.excludedDays.sorted())
        out.int(event.segment.seriesStart)
        out.optional(event.segment.from)
        out.optional(event.segment.to)
        out.int(event.segment.shift)
        out.string(event.details.location)
        out.string(event.details.description)
    }

    // MARK: Reading

    /// What a cache holds before its events are decoded: checked header, metadata and index.
    public struct Contents {
        public let source: String
        public let key: [CacheKeyEntry]
        let buffer: UnsafeRawBufferPointer
        let files: [(name: String, hasCalendarData: Bool, skipped: [(line: Int, reason: String)], notes: [(line: Int, message: String)],
                     color: CalendarColor?, problems: [(line: Int, message: String)])]
        let zones: [(offset: Int, length: Int)]
        let directoryStart: Int
        let indexStart: Int
        let bodyStart: Int
        let eventCount: Int
    }

    /// Checks the header (magic, byte order, version, length, checksums) and reads the
    /// metadata of the cache in `buffer`, which must stay valid while the result is used.
    /// - returns: nil for anything but an intact cache of this version and byte order.
    public static func open(_ buffer: UnsafeRawBufferPointer) -> Contents? {
        guard buffer.count >= headerSize,
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
        guard bodyStart <= buffer.count, buffer.loadUnaligned(fromByteOffset: 56, as: UInt64.self)
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
            var files: [(name: String, hasCalendarData: Bool, skipped: [(line: Int, reason: String)], notes: [(line: Int, message: String)],
                         color: CalendarColor?, problems: [(line: Int, message: String)])] = []
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
                files.append((name, hasData, skipped, notes, color, problems))
            }
            var zones: [(offset: Int, length: Int)] = []
            for _ in 0..<(try reader.count()) { zones.append((try reader.int(), try reader.int())) }
            guard reader.isAtEnd else { return nil }
            return Contents(source: source, key: key, buffer: buffer, files: files, zones: zones,
                            directoryStart: directoryStart, indexStart: indexStart, bodyStart: bodyStart, eventCount: Int(eventCount))
        } catch {
            return nil
        }
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
    /// wall-clock civil seconds; nil: all). A file is left out when none of its events is
    /// decoded and it has nothing to warn about and no colour.
    /// - returns: nil when a record is corrupt: the caller reads the source afresh.
    public static func decode(_ contents: Contents, window: Range<Int>?) -> [(name: String, file: EventFile)]? {
        var files = contents.files.map { entry -> EventFile in
            var file = EventFile()
            file.hasCalendarData = entry.hasCalendarData
            file.skipped = entry.skipped
            file.notes = entry.notes
            file.calendarColor = entry.color
            file.problems = entry.problems
            return file
        }
        var zones = [EventZone?](repeating: nil, count: contents.zones.count)
        let buffer = contents.buffer
        let low = window.map { $0.lowerBound.subtractingReportingOverflow(selectionMargin) }
        let high = window.map { $0.upperBound.addingReportingOverflow(selectionMargin) }
        var wantedHalves = everyHalfMonth
        if let low, let high, !low.overflow, !high.overflow {
            wantedHalves = halves(from: low.partialValue, lasting: high.partialValue - low.partialValue)
        }
        /// Whether nothing in the span from `earliest` to `latest` in `halves` can fall in the window.
        func outside(_ earliest: UInt64, _ latest: UInt64, _ halves: UInt64) -> Bool {
            guard let low, let high else { return false }
            if !high.overflow, Int(Int64(bitPattern: earliest)) >= high.partialValue { return true }
            if !low.overflow, Int(Int64(bitPattern: latest)) <= low.partialValue { return true }
            return UInt32(truncatingIfNeeded: halves) & wantedHalves == 0
        }
        do {
            var wanted: [(offset: UInt64, last: UInt64)] = []
            var first = 0
            var block = contents.directoryStart
            while first < contents.eventCount {
                defer { first += blockSize; block += blockEntrySize }
                if outside(buffer.loadUnaligned(fromByteOffset: block, as: UInt64.self), buffer.loadUnaligned(fromByteOffset: block + 8, as: UInt64.self),
                           buffer.loadUnaligned(fromByteOffset: block + 16, as: UInt64.self)) { continue }
                let start = contents.indexStart + first * indexEntrySize
                let end = start + min(blockSize, contents.eventCount - first) * indexEntrySize
                guard buffer.loadUnaligned(fromByteOffset: block + 24, as: UInt64.self)
                        == CacheChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) else { throw CacheDefect() }
                for entry in stride(from: start, to: end, by: indexEntrySize) {
                    let last = buffer.loadUnaligned(fromByteOffset: entry + 24, as: UInt64.self)
                    if outside(buffer.loadUnaligned(fromByteOffset: entry, as: UInt64.self),
                               buffer.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self), last >> 40) { continue }
                    wanted.append((buffer.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self), last))
                }
            }
            // The events in the order reading gave them, which is the order of their records.
            wanted.sort { $0.offset < $1.offset }
            for (offset, last) in wanted {
                var reader = try record(buffer, at: offset, length: last & ((1 << 40) - 1), bodyStart: contents.bodyStart)
                let fileIndex = try reader.int()
                guard fileIndex >= 0, fileIndex < files.count else { throw CacheDefect() }
                let event = try readEvent(&reader, calendarZone: { number throws(CacheDefect) -> EventZone in
                    guard number >= 0, number < zones.count else { throw CacheDefect() }
                    if let zone = zones[number] { return zone }
                    let place = contents.zones[number]
                    var zoneReader = try record(buffer, at: UInt64(truncatingIfNeeded: place.offset),
                                                length: UInt64(truncatingIfNeeded: place.length), bodyStart: contents.bodyStart)
                    let zone = try readZone(&zoneReader)
                    zones[number] = zone
                    return zone
                })
                guard reader.isAtEnd else { throw CacheDefect() }
                files[fileIndex].events.append(event)
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
    private static func record(_ buffer: UnsafeRawBufferPointer, at offset: UInt64, length: UInt64,
                               bodyStart: Int) throws(CacheDefect) -> CacheReader {
        let room = UInt64(buffer.count - bodyStart)
        guard offset >= 8, offset <= room, length <= room - offset else { throw CacheDefect() }
        let start = bodyStart + Int(offset)
        let end = start + Int(length)
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        guard buffer.loadUnaligned(fromByteOffset: start - 8, as: UInt64.self) == CacheChecksum.of(bytes) else { throw CacheDefect() }
        return try CacheReader(buffer, from: start, to: end)
    }

    private static func readTime(_ reader: inout CacheReader) throws(CacheDefect) -> ICalTime {
        let seconds = try reader.int()
        switch try reader.int() {
        case 0: return ICalTime(seconds: seconds, form: .date)
        case 1: return ICalTime(seconds: seconds, form: .floating)
        case 2: return ICalTime(seconds: seconds, form: .utc)
        case 3: return ICalTime(seconds: seconds, form: .zoned(try reader.string()))
        default: throw CacheDefect()
        }
    }

    private static func readRule(_ reader: inout CacheReader) throws(CacheDefect) -> RecurrenceRule {
        guard let frequency = RecurrenceRule.Frequency(rawValue: try reader.int()) else { throw CacheDefect() }
        var rule = RecurrenceRule(frequency: frequency)
        rule.interval = try reader.int()
        guard rule.interval >= 1 else { throw CacheDefect() }
        rule.count = try reader.optionalInt()
        if try reader.bool() { rule.until = try readTime(&reader) }
        rule.bySecond = try reader.ints()
        rule.byMinute = try reader.ints()
        rule.byHour = try reader.ints()
        for _ in 0..<(try reader.count()) {
            let weekday = try reader.int()
            guard (0...6).contains(weekday) else { throw CacheDefect() }
            rule.byDay.append(RecurrenceRule.WeekdayNumber(weekday: weekday, ordinal: try reader.int()))
        }
        rule.byMonthDay = try reader.ints()
        rule.byYearDay = try reader.ints()
        rule.byWeekNo = try reader.ints()
        for _ in 0..<(try reader.count()) {
            rule.byMonth.append(RecurrenceRule.MonthNumber(month: try reader.int(), isLeap: try reader.bool()))
        }
        rule.bySetPos = try reader.ints()
        rule.weekStart = try reader.int()
        guard (0...6).contains(rule.weekStart) else { throw CacheDefect() }
        rule.scale = try reader.optionalString()
        switch try reader.int() {
        case 0: rule.skip = .omit
        case 1: rule.skip = .backward
        case 2: rule.skip = .forward
        default: throw CacheDefect()
        }
        for _ in 0..<(try reader.count()) { rule.notes.append(try reader.string()) }
        return rule
    }

    private static func readExpander(_ reader: inout CacheReader) throws(CacheDefect) -> RecurrenceExpander {
        let rule = try readRule(&reader)
        let start = try reader.int()
        let isDate = try reader.bool()
        let until = try reader.optionalInt()
        let scale = try reader.bool() ? RecurrenceScales.scale(named: rule.scale) : GregorianScale.shared
        let includesStart = try reader.bool()
        return RecurrenceExpander(rule: rule, start: start, isDate: isDate, until: until, scale: scale, includesStart: includesStart)
    }

    private static func readZone(_ reader: inout CacheReader) throws(CacheDefect) -> EventZone {
        switch try reader.int() {
        case 0:
            return .utc
        case 1:
            guard let zone = TimeZone(identifier: try reader.string()) else { throw CacheDefect() }
            return EventZone(.foundation(zone))
        case 2:
            var observances: [VTimeZoneRules.Observance] = []
            for _ in 0..<(try reader.count()) {
                let from = try reader.int()
                let to = try reader.int()
                let onsets = try reader.ints()
                let expander = try reader.bool() ? try readExpander(&reader) : nil
                observances.append(VTimeZoneRules.Observance(offsetFrom: from, offsetTo: to, expander: expander, onsets: onsets))
            }
            guard let rules = VTimeZoneRules(observances: observances) else { throw CacheDefect() }
            return EventZone(.rules(rules))
        default:
            throw CacheDefect()
        }
    }

    private static func readEvent(_ reader: inout CacheReader,
                                  calendarZone: (Int) throws(CacheDefect) -> EventZone) throws(CacheDefect) -> Event {
        let line = try reader.int()
        let uid = try reader.string()
        let summary = try reader.string()
        let calendarName = try reader.optionalString()
        let start = try readTime(&reader)
        let zone = try reader.optionalInt().map { number throws(CacheDefect) in try calendarZone(number) }
        let duration = try reader.int()
        var expanders: [RecurrenceExpander] = []
        for _ in 0..<(try reader.count()) { expanders.append(try readExpander(&reader)) }
        var exclusionRules: [RecurrenceExpander] = []
        for _ in 0..<(try reader.count()) { exclusionRules.append(try readExpander(&reader)) }
        var extras: [(start: Int, duration: Int?)] = []
        for _ in 0..<(try reader.count()) { extras.append((try reader.int(), try reader.optionalInt())) }
        let excluded = Set(try reader.ints())
        let excludedDays = Set(try reader.ints())
        let segment = Event.Segment(seriesStart: try reader.int(), from: try reader.optionalInt(), to: try reader.optionalInt(),
                                    shift: try reader.int())
        let details = EventDetails(location: try reader.string(), description: try reader.string())
        return Event(uid: uid, summary: summary, calendarName: calendarName, start: start, zone: zone, duration: duration,
                     expanders: expanders, exclusionRules: exclusionRules, extraStarts: extras, excluded: excluded,
                     excludedDays: excludedDays, line: line, segment: segment, details: details)
    }
}
