import InfCalModel

extension EventCacheFormat {
    // MARK: Writing

    /// The cache of `files` (every file read from `source`, with its name), built from the
    /// files and directories of `key`.
    public static func encode(source: String, key: [CacheKeyEntry], files: [(name: String, file: EventFile)]) -> [UInt8] {
        var zones: [ObjectIdentifier: Int] = [:]
        var zoneList: [EventZone] = []
        var records = CacheWriter()
        // Zones first, in order of first use, so that events name them by number; events
        // in a row mostly share theirs, so the last one is kept at hand.
        var eventZones: [Int?] = []
        var last: (zone: EventZone, number: Int)?
        for (_, file) in files {
            for event in file.events {
                guard let zone = event.zone else { eventZones.append(nil); continue }
                if let last, last.zone === zone { eventZones.append(last.number); continue }
                let number = zones[ObjectIdentifier(zone)] ?? zoneList.count
                if number == zoneList.count {
                    zones[ObjectIdentifier(zone)] = number
                    zoneList.append(zone)
                }
                eventZones.append(number)
                last = (zone, number)
            }
        }
        var zoneDirectory: [(offset: Int, length: Int)] = []
        for zone in zoneList { zoneDirectory.append(appendRecord(to: &records) { write(zone, to: &$0) }) }
        var events: [(fileIndex: Int, event: Event)] = []
        // Room for every record at once: growing by doubling would copy them over and over.
        var room = 0
        for (fileIndex, entry) in files.enumerated() {
            for event in entry.file.events {
                events.append((fileIndex, event))
                room += 256 + event.summary.utf8.count + event.details.location.utf8.count + event.details.description.utf8.count
            }
        }
        records.bytes.reserveCapacity(room)
        // The details (location, description) next, apart: a run that shows none never reads them.
        var details: [(offset: Int, length: Int)] = []
        details.reserveCapacity(events.count)
        for (_, event) in events {
            guard !event.details.location.isEmpty || !event.details.description.isEmpty else {
                details.append((0, 0))
                continue
            }
            details.append(appendRecord(to: &records) { out in
                out.string(event.details.location)
                out.string(event.details.description)
            })
        }
        // Then the events in the index's order, so that those a run decodes together lie
        // together (the pages it touches are few); each records its place in reading order.
        var spans: [(earliest: Int, latest: Int, halves: UInt64)] = []
        spans.reserveCapacity(events.count)
        for (_, event) in events {
            let (earliest, latest) = reach(of: event)
            spans.append((earliest, latest, UInt64(halfMonths(of: event))))
        }
        var entries: [(earliest: Int, latest: Int, offset: Int, last: UInt64)] = []
        entries.reserveCapacity(events.count)
        for ordinal in indexOrder(of: spans) {
            let (fileIndex, event) = events[ordinal]
            let zone = eventZones[ordinal]
            let (offset, length) = appendRecord(to: &records) { out in
                out.int(ordinal)
                out.int(fileIndex)
                write(event, zone: zone, to: &out)
                out.int(details[ordinal].offset)
                out.int(details[ordinal].length)
            }
            let span = spans[ordinal]
            entries.append((span.earliest, span.latest, offset, UInt64(length) | span.halves << 40))
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

    /// The order of the index: the group (short, longer, without end) with the halves of
    /// months above it, then the earliest start; ties keep the events' order.
    private static func indexOrder(of spans: [(earliest: Int, latest: Int, halves: UInt64)]) -> [Int] {
        // Keys made once: sorting compares often.
        let keys = spans.map { span -> (group: UInt64, earliest: Int) in
            if span.latest == Int.max { return (2 << 32 | span.halves, span.earliest) }
            let (reach, overflow) = span.latest.subtractingReportingOverflow(span.earliest)
            return (!overflow && reach <= shortReach ? 0 : 1 << 32, span.earliest)
        }
        return spans.indices.sorted { a, b in
            keys[a].group != keys[b].group ? keys[a].group < keys[b].group
                : keys[a].earliest != keys[b].earliest ? keys[a].earliest < keys[b].earliest : a < b
        }
    }

    /// The block directory and the index of `sorted`, entries in the index's order.
    private static func blocks(of sorted: [(earliest: Int, latest: Int, offset: Int, last: UInt64)])
        -> (directory: CacheWriter, index: CacheWriter) {
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

    /// Appends a record (its checksum, then what `body` writes, in place) and returns where
    /// its bytes lie.
    private static func appendRecord(to records: inout CacheWriter, _ body: (inout CacheWriter) -> Void) -> (offset: Int, length: Int) {
        let checksumAt = records.bytes.count
        records.word(0)
        let offset = records.bytes.count
        body(&records)
        let length = records.bytes.count - offset
        records.setWord(CacheChecksum.of(records.bytes, offset..<(offset + length)), at: checksumAt)
        return (offset, length)
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
        // Where a COUNT rule ends, found once here: a run reading the cache then neither
        // counts from DTSTART to the months it shows nor walks the rule to find its end.
        let end = expander.rule.count == nil ? nil : expander.countEnd
        out.bool(end != nil)
        if let end {
            out.int(end.latest)
            out.bool(end.last != nil)
            if let last = end.last { out.int(last.batch); out.int(last.taken) }
        }
    }

    private static func write(_ zone: EventZone, to out: inout CacheWriter) {
        switch zone.source {
        case .utc:
            out.int(0)
        case .foundation, .named:
            // With its changes of offset in the years most shown, found here once: a run
            // reading the cache then makes no Foundation zone for them (under the same zone data).
            out.int(3)
            out.string(zone.identifier ?? "")
            out.string(EventZone.dataVersion)
            out.ints(zone.changeRuns(of: EventZone.storedSpans))
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
        out.ints(event.excluded.isEmpty ? [] : event.excluded.sorted())
        out.ints(event.excludedDays.isEmpty ? [] : event.excludedDays.sorted())
        out.int(event.segment.seriesStart)
        out.optional(event.segment.from)
        out.optional(event.segment.to)
        out.int(event.segment.shift)
    }
}
