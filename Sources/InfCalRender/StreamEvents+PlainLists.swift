import InfCalModel
import InfCalEvents

/// The plain lists of the stream: written from the store's bare starts (`EventStore.withStarts`),
/// each line put together in place from bytes kept once per event, with no occurrence, string
/// or generic call per line.
extension StreamEvents {
    /// A start as `EventStore.withStarts` gives it.
    typealias Start = (start: Int, end: Int, event: Int)

    /// Appends the lists under `row` (after the blank line) as `appendRow` does, from the store's
    /// starts, when every line is plain (`appendLine`), no list starts with occurrences under
    /// way and every month's title fits the row's width `rowWidth`. Returns false, having
    /// appended nothing, when one of them is not.
    func appendPlainLists(_ row: UnsafeBufferPointer<MonthGrid>, rowWidth: Int, cellWidth: Int, names: CalendarNames,
                          to out: ByteBuffer) -> Bool {
        var first = Int.max, end = Int.min, inOrder = true
        for position in row.indices {
            let (firstDay, endDay) = (row[position].month.firstDay, row[position].month.endDay)
            // Months one after another: each month's starts follow the one's before.
            if firstDay < end { inOrder = false }
            first = min(first, firstDay)
            end = max(end, endDay)
        }
        guard first < end else { return true }
        if let from = listedFrom, first <= from, from < end { return false }
        let lineWidth = width ?? Int.max
        return store.withStarts(startingOn: first..<end) { starts in
            guard !starts.isEmpty else { return true }
            let mark = out.count
            out.append(UInt8(ascii: "\n"))
            let plain = weekdayPadded.withUnsafeBufferPointer { weekdays in
                weekdayLengths.withUnsafeBufferPointer { lengths in
                    guard lengths.count == 7, let weekdays = weekdays.baseAddress, let lengths = lengths.baseAddress else { return false }
                    let layout = PlainLayout(rowWidth: rowWidth, cellWidth: cellWidth, lineWidth: lineWidth, weekdays: weekdays,
                                             weekdayLengths: lengths)
                    return appendPlainLists(row, starts: starts, inOrder: inOrder, layout: layout, names: names, to: out)
                }
            }
            if !plain { out.truncate(to: mark) }
            return plain
        }
    }

    /// What every line of a row's plain lists is laid out by.
    struct PlainLayout {
        let rowWidth: Int
        let cellWidth: Int
        let lineWidth: Int
        /// The weekday abbreviations, Sunday first, each padded to 16 bytes, and their lengths.
        let weekdays: UnsafePointer<UInt8>
        let weekdayLengths: UnsafePointer<Int>
    }

    /// The lists of `appendPlainLists`, after the blank line: false as soon as one line or title
    /// is not plain (the caller takes back what was appended).
    private func appendPlainLists(_ row: UnsafeBufferPointer<MonthGrid>, starts: UnsafeBufferPointer<Start>, inOrder: Bool,
                                  layout: PlainLayout, names: CalendarNames, to out: ByteBuffer) -> Bool {
        let scratch = self.scratch
        if scratch.eventCount != store.events.count {
            scratch.lineOfEvent.deallocate()
            scratch.lineOfEvent = .allocate(capacity: store.events.count)
            scratch.lineOfEvent.initialize(repeating: -1, count: store.events.count)
            scratch.eventCount = store.events.count
        }
        guard let grids = row.baseAddress else { return true }
        var next = 0
        for position in row.indices {
            // Fields read through the pointer: a copy of a grid retains its labels.
            let grid = grids + position
            let (firstDay, endDay) = (grid.pointee.month.firstDay, grid.pointee.month.endDay)
            var lower: Int, upper: Int
            if inOrder {
                // A start is on a day before `day` when it is before that day's first second.
                let (firstSecond, endSecond) = (Self.firstSecond(of: firstDay), Self.firstSecond(of: endDay))
                while next < starts.count, starts[next].start < firstSecond { next += 1 }
                lower = next
                while next < starts.count, starts[next].start < endSecond { next += 1 }
                upper = next
            } else {
                lower = Self.firstIndex(starts.count, from: firstDay) { starts[$0].start }
                upper = Self.firstIndex(starts.count, from: endDay) { starts[$0].start }
            }
            guard lower < upper else { continue }
            if row.count > 1 {
                guard appendTitleLine(of: grid.pointee.month, names: names, to: out) <= layout.rowWidth else { return false }
            }
            for place in lower..<upper {
                let (start, event) = (starts[place].start, starts[place].event)
                guard event >= 0, event < scratch.eventCount else { return false }
                var packed = scratch.lineOfEvent[event]
                if packed == -1 {
                    packed = packedLine(of: store.events[event])
                    scratch.lineOfEvent[event] = packed
                }
                guard packed >= 0 else { return false }
                let civil = CivilTime.day(ofSeconds: start)
                let index = civil &- CivilTime.dayNumberOffset &- firstDay
                let label = grid.pointee.labels.label(at: index)
                // Sunday first, as the abbreviations are kept.
                let weekday = CivilTime.floorMod(civil &+ 4, 7)
                let weekdayLength = layout.weekdayLengths[weekday]
                let count = packed & 0xFFFF, isAllDay = packed & 0x10000 != 0
                guard label >= 0, weekdayLength >= 0 else { return false }
                if layout.lineWidth < Int.max, !fits(label: label, weekdayLength: weekdayLength, isAllDay: isAllDay, count: count,
                                                     width: layout.lineWidth, cellWidth: layout.cellWidth) { return false }
                appendPlainLine(start: start, isAllDay: isAllDay, summary: scratch.summaries + (packed >> 18), count: count,
                                endsInSpace: packed & 0x20000 != 0, label: label, weekday: weekday, layout: layout, to: out)
            }
        }
        return true
    }

    /// Appends a plain line and its newline: what `appendLine(start:isAllDay:summary:label:weekday:cellWidth:to:)`
    /// appends, for the `count` bytes at `summary` (readable for 8 more), trimmed of trailing
    /// spaces only when the summary `endsInSpace` (else the line ends in its last byte).
    @inline(__always)
    private func appendPlainLine(start: Int, isAllDay: Bool, summary: UnsafePointer<UInt8>, count: Int, endsInSpace: Bool,
                                 label: Int, weekday: Int, layout: PlainLayout, to out: ByteBuffer) {
        // Wrapping arithmetic: every value is a small count, bounded by the room asked for.
        let digitCount = label < 10 ? 1 : label < 100 ? 2 : label < 1000 ? 3 : Self.digitCount(label)
        let pad = max(0, layout.cellWidth &- digitCount)
        out.appendWriting(atMost: pad &+ digitCount &+ count &+ 35) { line in
            // A byte or two: a call to memset costs more.
            var blank = 0
            while blank < pad {
                line[blank] = UInt8(ascii: " ")
                blank &+= 1
            }
            var at = pad &+ digitCount, rest = label
            repeat {
                at &-= 1
                line[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while at > pad
            at = pad &+ digitCount
            line[at] = UInt8(ascii: " ")
            ByteBuffer.copyWords(from: layout.weekdays + 16 &* weekday, count: 16, to: line + (at &+ 1))
            at &+= 1 &+ layout.weekdayLengths[weekday]
            line[at] = UInt8(ascii: " ")
            line[at &+ 1] = UInt8(ascii: " ")
            at &+= 2
            if !isAllDay {
                let minutes = CivilTime.floorMod(start, CivilTime.secondsPerDay) / 60
                let (hour, minute) = (minutes / 60, minutes % 60)
                line[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hour / 10)
                line[at &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hour % 10)
                line[at &+ 2] = UInt8(ascii: ":")
                line[at &+ 3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: minute / 10)
                line[at &+ 4] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: minute % 10)
                line[at &+ 5] = UInt8(ascii: " ")
                line[at &+ 6] = UInt8(ascii: " ")
                at &+= 7
            }
            ByteBuffer.copyWords(from: summary, count: count, to: line + at)
            at &+= count
            guard !endsInSpace else { return at }
            line[at] = UInt8(ascii: "\n")
            return at &+ 1
        }
        guard endsInSpace else { return }
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
    }

    /// The decimal digits of `value` (at least 1).
    static func digitCount(_ value: Int) -> Int {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        return digitCount
    }

    /// Appends what `names.appendTitle(of: month, withYear: true, to:)` appends, trimmed of
    /// trailing spaces, and a newline, and returns the cells the title takes: from the titles of
    /// its year, made once a year (`CalendarNames.posixTitles`).
    @inline(__always)
    private func appendTitleLine(of month: Month, names: CalendarNames, to out: ByteBuffer) -> Int {
        if month.name.year != scratch.titlesYear.year || month.name.era != scratch.titlesYear.era { makeTitles(of: month, names: names) }
        let index = month.name.month &- 1
        guard scratch.hasTitles, index >= 0, index < 12 else { return appendTitleLineSlowly(of: month, names: names, to: out) }
        let slot = scratch.titles + 48 &* index, count = Int(slot[47])
        // The line ends in the title's last byte unless that is a space.
        guard count > 0, count <= 32, slot[count &- 1] != UInt8(ascii: " ") else {
            return appendTitleLineSlowly(of: month, names: names, to: out)
        }
        out.appendWriting(atMost: 33) { title in
            ByteBuffer.copyWords(from: slot, count: 32, to: title)
            title[count] = UInt8(ascii: "\n")
            return count &+ 1
        }
        return count
    }

    /// Makes the titles of the year of `month` (`Scratch.titles`).
    @inline(never)
    private func makeTitles(of month: Month, names: CalendarNames) {
        scratch.hasTitles = names.posixTitles(ofYearOf: month, into: scratch.titles)
        scratch.titlesYear = (month.name.year, month.name.era)
    }

    /// What `appendTitleLine` appends, where the year's titles do not have it or it ends in a space.
    @inline(never)
    private func appendTitleLineSlowly(of month: Month, names: CalendarNames, to out: ByteBuffer) -> Int {
        let index = month.name.month - 1
        var cells: Int
        if scratch.hasTitles, index >= 0, index < 12 {
            let slot = scratch.titles + 48 * index
            cells = Int(slot[47])
            out.appendWriting(atMost: 32) { title in
                ByteBuffer.copyWords(from: slot, count: 32, to: title)
                return cells
            }
        } else {
            cells = names.appendTitle(of: month, withYear: true, to: out)
        }
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
        return cells
    }

    /// `event`'s summary as its line shows it put in `scratch.summaries`, packed as
    /// `Scratch.lineOfEvent` keeps it; -2 when it is not plain.
    private func packedLine(of event: Event) -> Int {
        var summary = event.summary.isEmpty ? "(no title)" : event.summary
        return summary.withUTF8 { bytes in
            guard bytes.count <= 0xFFFF, Self.isPlain(bytes) else { return -2 }
            // Each followed by the 8 bytes of room the line's copy reads past its end.
            let offset = scratch.summariesCount, needed = offset + bytes.count + 8
            if needed > scratch.summariesCapacity {
                let capacity = max(needed, 2 * scratch.summariesCapacity, 256)
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                bigger.initialize(from: scratch.summaries, count: offset)
                scratch.summaries.deallocate()
                (scratch.summaries, scratch.summariesCapacity) = (bigger, capacity)
            }
            if let base = bytes.baseAddress { (scratch.summaries + offset).initialize(from: base, count: bytes.count) }
            (scratch.summaries + offset + bytes.count).initialize(repeating: 0, count: 8)
            scratch.summariesCount = needed
            let endsInSpace = bytes.last == UInt8(ascii: " ")
            return offset << 18 | (endsInSpace ? 0x20000 : 0) | (event.isAllDay ? 0x10000 : 0) | bytes.count
        }
    }
}
