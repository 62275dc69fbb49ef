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
        guard scratch.hasWeekdays else { return false }
        let layout = PlainLayout(rowWidth: rowWidth, cellWidth: cellWidth, lineWidth: width ?? Int.max, weekdays: scratch.weekdays,
                                 weekdayLengths: scratch.weekdayLengths)
        // The closed forms' starts are returned, the others lent to a closure.
        if let starts = store.yearlyStarts(startingOn: first..<end) {
            return appendBlankLineAndLists(row, starts: starts, inOrder: inOrder, layout: layout, names: names, to: out)
        }
        return store.withStarts(startingOn: first..<end) { starts in
            appendBlankLineAndLists(row, starts: starts, inOrder: inOrder, layout: layout, names: names, to: out)
        }
    }

    /// Appends the blank line and the lists of `row` from `starts` (nothing when there are
    /// none): false, having appended nothing, when one line or title is not plain.
    @inline(__always)
    private func appendBlankLineAndLists(_ row: UnsafeBufferPointer<MonthGrid>, starts: UnsafeBufferPointer<Start>, inOrder: Bool,
                                         layout: PlainLayout, names: CalendarNames, to out: ByteBuffer) -> Bool {
        guard !starts.isEmpty else { return true }
        let mark = out.count
        out.append(UInt8(ascii: "\n"))
        let plain = appendPlainLists(row, starts: starts, inOrder: inOrder, layout: layout, names: names, to: out)
        if !plain { out.truncate(to: mark) }
        return plain
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
            scratch.templateOfEvent.deallocate()
            scratch.templateOfEvent = .allocate(capacity: store.events.count)
            scratch.templateOfEvent.initialize(repeating: -1, count: store.events.count)
            scratch.templateCount = 0
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
                guard appendTitleLine(of: grid, names: names, to: out) <= layout.rowWidth else { return false }
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
                // A yearly event's line differs from year to year only in its weekday: copied
                // from the one made for that weekday while the label, the pad and the time stay.
                let minutes = isAllDay ? 0 : CivilTime.floorMod(start, CivilTime.secondsPerDay) / 60
                // Keys are never negative: -2 where the packing would not be one to one.
                let key = label < 1 << 36 && layout.cellWidth < 4096 ? label &<< 24 | layout.cellWidth &<< 12 | minutes : -2
                let template = scratch.templateOfEvent[event]
                if template >= 0, scratch.templateKeys[template] == key {
                    let line = template &* 7 &+ weekday, length = scratch.templateLengths[line]
                    if length > 0 {
                        let bytes = scratch.templateBytes + line &* Scratch.templateRoom
                        out.appendWriting(atMost: length &+ 8) { target in
                            ByteBuffer.copyWords(from: bytes, count: length, to: target)
                            return length
                        }
                        continue
                    }
                }
                let line = PlainLine(start: start, isAllDay: isAllDay, summary: scratch.summaries + (packed >> 18), count: count,
                                     endsInSpace: packed & 0x20000 != 0, label: label, weekday: weekday)
                appendLine(line, event: event, key: key, layout: layout, to: out)
            }
        }
        return true
    }

    /// What a plain line shows: an occurrence starting at `start`, all day or not, the `count`
    /// bytes at `summary` (readable for 8 more; `endsInSpace` when the last is a space), on
    /// the day labelled `label`, a `weekday` (0 Sunday).
    struct PlainLine {
        let start: Int
        let isAllDay: Bool
        let summary: UnsafePointer<UInt8>
        let count: Int
        let endsInSpace: Bool
        let label: Int
        let weekday: Int
    }

    /// Appends `line`, made into the template of `event` for its weekday when `key` (its
    /// label, pad and time; -1: none) allows and there is room, then copied from there.
    @inline(never)
    private func appendLine(_ line: PlainLine, event: Int, key: Int, layout: PlainLayout, to out: ByteBuffer) {
        let room = Self.room(of: line, layout: layout)
        guard key >= 0, room <= Scratch.templateRoom, let template = scratch.template(of: event, key: key) else {
            out.appendWriting(atMost: room) { Self.write(line, layout: layout, into: $0) }
            return
        }
        let place = template * 7 + line.weekday, bytes = scratch.templateBytes + place * Scratch.templateRoom
        let length = Self.write(line, layout: layout, into: bytes)
        scratch.templateLengths[place] = length
        out.appendWriting(atMost: length + 8) { target in
            ByteBuffer.copyWords(from: bytes, count: length, to: target)
            return length
        }
    }

    /// The bytes `write(_:layout:into:)` may write for `line`.
    static func room(of line: PlainLine, layout: PlainLayout) -> Int {
        max(layout.cellWidth, line.label < 10 ? 1 : digitCount(line.label)) + line.count + 35
    }

    /// Writes a plain line and its newline at `target` (`room(of:layout:)` bytes) and returns
    /// its length: what `appendLine(start:isAllDay:summary:label:weekday:cellWidth:to:)`
    /// appends, trimmed of trailing spaces only when the summary ends in one (else the line
    /// ends in its last byte).
    static func write(_ line: PlainLine, layout: PlainLayout, into target: UnsafeMutablePointer<UInt8>) -> Int {
        let digitCount = line.label < 10 ? 1 : line.label < 100 ? 2 : line.label < 1000 ? 3 : Self.digitCount(line.label)
        let pad = max(0, layout.cellWidth - digitCount)
        // A byte or two: a call to memset costs more.
        var blank = 0
        while blank < pad {
            target[blank] = UInt8(ascii: " ")
            blank += 1
        }
        var at = pad + digitCount, rest = line.label
        repeat {
            at -= 1
            target[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while at > pad
        at = pad + digitCount
        target[at] = UInt8(ascii: " ")
        ByteBuffer.copyWords(from: layout.weekdays + 16 * line.weekday, count: 16, to: target + (at + 1))
        at += 1 + layout.weekdayLengths[line.weekday]
        target[at] = UInt8(ascii: " ")
        target[at + 1] = UInt8(ascii: " ")
        at += 2
        if !line.isAllDay {
            let minutes = CivilTime.floorMod(line.start, CivilTime.secondsPerDay) / 60
            let (hour, minute) = (minutes / 60, minutes % 60)
            target[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: hour / 10)
            target[at + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: hour % 10)
            target[at + 2] = UInt8(ascii: ":")
            target[at + 3] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: minute / 10)
            target[at + 4] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: minute % 10)
            target[at + 5] = UInt8(ascii: " ")
            target[at + 6] = UInt8(ascii: " ")
            at += 7
        }
        ByteBuffer.copyWords(from: line.summary, count: line.count, to: target + at)
        at += line.count
        // The line starts with the label's digits: trimming stops within it.
        if line.endsInSpace {
            while at > 0, target[at - 1] == UInt8(ascii: " ") { at -= 1 }
        }
        target[at] = UInt8(ascii: "\n")
        return at + 1
    }

    /// The decimal digits of `value` (at least 1).
    static func digitCount(_ value: Int) -> Int {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        return digitCount
    }

    /// Appends what `names.appendTitle(of: month, withYear: true, to:)` appends for the month
    /// of `grid`, trimmed of trailing spaces, and a newline, and returns the cells the title
    /// takes: from the titles of its year, made once a year (`CalendarNames.posixTitles`).
    /// (The grid's month read through the pointer: a copy of it costs more than the rest.)
    @inline(__always)
    private func appendTitleLine(of grid: UnsafePointer<MonthGrid>, names: CalendarNames, to out: ByteBuffer) -> Int {
        if grid.pointee.month.name.year != scratch.titlesYear.year || grid.pointee.month.name.era != scratch.titlesYear.era {
            makeTitles(of: grid.pointee.month, names: names)
        }
        let index = grid.pointee.month.name.month &- 1
        guard scratch.hasTitles, index >= 0, index < 12 else { return appendTitleLineSlowly(of: grid.pointee.month, names: names, to: out) }
        let slot = scratch.titles + 48 &* index, count = Int(slot[47])
        // The line ends in the title's last byte unless that is a space.
        guard count > 0, count <= 32, slot[count &- 1] != UInt8(ascii: " ") else {
            return appendTitleLineSlowly(of: grid.pointee.month, names: names, to: out)
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
