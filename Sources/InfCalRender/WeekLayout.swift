import InfCalModel
import InfCalEvents

/// Where a week's events go on a grid of days by the hour: plain arithmetic on the days, the
/// zone, the occurrences, the hours and the height; no strings (`WeekRenderer` draws it).
///
/// - The time scale is one row a half-hour, or an hour where half-hours do not fit the height,
///   for the hours wanted, widened to fill the height; each day's clock is its own
///   (`DayClock`): the scale is the rows of all the days shown, in order, so that a week with a
///   day of 25 hours has the repeated hour's rows twice, and each day says which rows its
///   clock has (`present`): the skipped hour of a day of 23 hours is a row it lacks.
/// - A timed event is a block from the row holding its start to the row holding its end, in
///   each day it touches (one past midnight goes on in the next column). Blocks whose rows
///   meet share the column side by side as calendar apps share it: each cluster of blocks
///   linked by overlaps has as many lanes as most of them at once, each block the lowest
///   lane free when it starts (`lane` of `lanes`).
/// - One entirely before the hours shown counts in `above`, after them in `below`; one cut by
///   them says so (`clippedAbove`, `clippedBelow`).
/// - All-day events and those of 24 hours or more go in a band above the grid, one line
///   each, spanning their days; lines are shared by events whose days do not meet.
public struct WeekLayout: Sendable {
    /// A row of the time scale: the wall-clock minute it starts at and which time the day's
    /// clock shows it (`DayClock.Slot.fold`).
    public struct Row: Hashable, Sendable {
        public let minute: Int
        public let fold: Int

        /// The row of `minute` minutes after midnight, shown for the `fold + 1`th time.
        public init(minute: Int, fold: Int) {
            self.minute = minute
            self.fold = fold
        }
    }

    /// A timed event's block in one day's column.
    public struct Block: Hashable, Sendable {
        /// Its occurrence, an index into `occurrences`.
        public let occurrence: Int
        /// Its day's column, an index into `days`.
        public let column: Int
        /// The rows it covers, indices into `rows`, the last included.
        public let firstRow: Int
        public let lastRow: Int
        /// Its lane, from 0, of the `lanes` its cluster of overlapping blocks shares the column in.
        public let lane: Int
        public let lanes: Int
        /// Whether it goes on above the first row or below the last one shown.
        public let clippedAbove: Bool
        public let clippedBelow: Bool
        /// Whether it started on an earlier day, or goes on into the next.
        public let fromPreviousDay: Bool
        public let toNextDay: Bool
    }

    /// An event of the band above the grid.
    public struct BandItem: Hashable, Sendable {
        /// Its occurrence, an index into `occurrences`.
        public let occurrence: Int
        /// The columns it spans, the last included.
        public let firstColumn: Int
        public let lastColumn: Int
        /// Its line of the band, from 0.
        public let line: Int
        /// Whether it starts before the first day shown, or ends after the last.
        public let startsBefore: Bool
        public let endsAfter: Bool
    }

    /// The days shown, one a column, in order (grid day numbers).
    public let days: [Int]
    /// The occurrences touching them, as the zone shows them, in order of start.
    public let occurrences: [Occurrence]
    /// Each day's clock in the zone, at the scale's step.
    public let clocks: [DayClock]
    /// Minutes a row stands for: 30 or 60.
    public let step: Int
    /// The hours of the wall clock the rows show (from 0 to 24).
    public let hours: Range<Int>
    /// The rows shown, in order.
    public let rows: [Row]
    /// For each column, for each row, whether the day's clock has it.
    public let present: [[Bool]]
    /// The blocks of the timed events in the rows shown, column by column, lane by lane.
    public let blocks: [Block]
    /// The band's events on the lines shown.
    public let band: [BandItem]
    /// Lines the band takes (0 without any all-day or long event, or in fewer than 3 lines).
    /// Where its events need more, the last line counts those left out in each column
    /// (`bandHidden`).
    public let bandLines: Int
    /// For each column, how many band events the band has no line for.
    public let bandHidden: [Int]
    /// For each column, how many timed events lie entirely before / after the hours shown.
    public let above: [Int]
    public let below: [Int]
    /// Each timed occurrence's instants (UTC civil seconds), nil for those of the band.
    let instants: [(start: Int, end: Int)?]
    /// For each column, the row of each of its clock's slots (an index into all the day's
    /// rows), and where the rows shown begin among those.
    let rowOfSlot: [[Int]]
    let firstShown: Int

    /// The hours wanted when neither the user nor the events say: a working day.
    public static let workingDay = 8..<18
    /// The fewest hours the events' hours are widened to.
    public static let fewestHours = 8

    /// Whether `occurrence` goes in the band: all day, or 24 hours long or more.
    public static func isBand(_ occurrence: Occurrence, zone: DisplayZone) -> Bool {
        guard !occurrence.isAllDay else { return true }
        let (start, end) = instants(of: occurrence, zone: zone)
        return end - start >= CivilTime.secondsPerDay
    }

    /// The instants (UTC civil seconds) of a timed occurrence shown in `zone`: from its
    /// offsets, or for a floating time, its wall clock read in `zone`.
    public static func instants(of occurrence: Occurrence, zone: DisplayZone) -> (start: Int, end: Int) {
        if let offset = occurrence.startOffset {
            let start = occurrence.start - offset
            return (start, max(start, occurrence.end - (occurrence.endOffset ?? offset)))
        }
        let start = CivilTime.utc(ofLocal: occurrence.start, offset: zone.offset)
        return (start, max(start, CivilTime.utc(ofLocal: occurrence.end, offset: zone.offset)))
    }

    /// The layout of `days` (consecutive grid day numbers) in `zone` with `occurrences` (those
    /// touching the days, shown in `zone`: see `ZonedOccurrences`), for `height` lines of band
    /// and rows together (a band takes one line more, for the rule under it).
    /// The rows show `hours` (0 to 24) where they fit, widened to fill the height; from `top`
    /// (an hour) instead where it is given, as many hours as fit.
    public init(days: [Int], zone: DisplayZone, occurrences: [Occurrence], hours: Range<Int>, top: Int? = nil, height: Int) {
        self.init(days: days, zone: zone, occurrences: occurrences, hours: hours, top: top, height: height, printed: false)
    }

    /// The layout, or with `printed` the layout `printed(days:zone:occurrences:hours:)` gives
    /// (`height` then unused).
    init(days: [Int], zone: DisplayZone, occurrences: [Occurrence], hours: Range<Int>, top: Int?, height: Int, printed: Bool) {
        self.days = days
        self.occurrences = occurrences
        let instants = occurrences.map { Self.isBand($0, zone: zone) ? nil : Self.instants(of: $0, zone: zone) }
        self.instants = instants

        // The band.
        let placed = Self.bandPlaces(days: days, occurrences: occurrences, instants: instants)
        let needed = (placed.map(\.line).max() ?? -1) + 1
        // A band needs a line, the rule under it and a row left for the hours.
        let lines = printed ? needed : needed == 0 || height < 3 ? 0 : min(needed, max(1, height / 4))
        let itemLines = needed > lines ? lines - 1 : lines
        band = placed.filter { $0.line < itemLines }
        var hidden = [Int](repeating: 0, count: days.count)
        for item in placed where item.line >= itemLines {
            for column in item.firstColumn...item.lastColumn { hidden[column] += 1 }
        }
        bandHidden = hidden
        bandLines = lines
        // The scale: half-hours where the hours wanted fit in them, else hours; printed, exactly
        // the half-hours of the hours wanted.
        let wanted = Self.clamped(hours)
        let halfHours = days.map { DayClock(day: $0, zone: zone, step: 1800) }
        let halfScale = Self.scale(halfHours)
        let wantedRows = halfScale.rows.filter { wanted.contains($0.minute / 60) }.count
        let gridHeight = printed ? max(1, wantedRows) : max(1, height - lines - (lines > 0 ? 1 : 0))
        let fitsHalves = wantedRows <= gridHeight
        let clocks = fitsHalves ? halfHours : days.map { DayClock(day: $0, zone: zone, step: 3600) }
        let (allRows, rowOfSlot) = fitsHalves ? halfScale : Self.scale(clocks)
        self.clocks = clocks
        self.rowOfSlot = rowOfSlot
        step = fitsHalves ? 30 : 60

        // The hours shown, and their rows.
        var perHour = [Int](repeating: 0, count: 24)
        for row in allRows { perHour[min(23, max(0, row.minute / 60))] += 1 }
        let shownHours = Self.window(wanted: wanted, top: top, rowsPerHour: perHour, height: gridHeight)
        self.hours = shownHours
        let first = allRows.firstIndex { shownHours.contains($0.minute / 60) } ?? 0
        let last = allRows.lastIndex { shownHours.contains($0.minute / 60) }.map { $0 + 1 } ?? first
        let end = min(last, first + gridHeight)
        firstShown = first
        rows = Array(allRows[first..<end])
        present = rowOfSlot.map { slotRows in
            var has = [Bool](repeating: false, count: end - first)
            for row in slotRows where row >= first && row < end { has[row - first] = true }
            return has
        }

        // The blocks.
        var blocks: [Block] = []
        var above = [Int](repeating: 0, count: days.count)
        var below = [Int](repeating: 0, count: days.count)
        for (column, clock) in clocks.enumerated() {
            for piece in Self.lanes(Self.pieces(of: instants, in: clock, rows: rowOfSlot[column])) {
                if piece.lastRow < first {
                    above[column] += 1
                } else if piece.firstRow >= end {
                    below[column] += 1
                } else {
                    blocks.append(Block(occurrence: piece.occurrence, column: column, firstRow: max(piece.firstRow, first) - first,
                                        lastRow: min(piece.lastRow, end - 1) - first, lane: piece.lane, lanes: piece.lanes,
                                        clippedAbove: piece.firstRow < first, clippedBelow: piece.lastRow >= end,
                                        fromPreviousDay: piece.fromPreviousDay, toNextDay: piece.toNextDay))
                }
            }
        }
        self.blocks = blocks
        self.above = above
        self.below = below
    }

    /// The layout of `days` as a printed week shows them (`--week`): every event of the band
    /// on a line, the hours wanted in half-hour rows, no more and no fewer (the hour a day of
    /// 25 hours repeats has its rows twice).
    public static func printed(days: [Int], zone: DisplayZone, occurrences: [Occurrence], hours: Range<Int>) -> WeekLayout {
        WeekLayout(days: days, zone: zone, occurrences: occurrences, hours: hours, top: nil, height: 0, printed: true)
    }

    /// The row shown (an index into `rows`) holding the instant `utc` (UTC civil seconds) in
    /// column `column`, or nil when the day does not hold it or the row is not shown.
    public func row(containing utc: Int, column: Int) -> Int? {
        guard clocks.indices.contains(column), let slot = clocks[column].slot(containing: utc) else { return nil }
        let row = rowOfSlot[column][slot] - firstShown
        return row >= 0 && row < rows.count ? row : nil
    }

    /// The column of `day`, or nil when it is not shown.
    public func column(of day: Int) -> Int? {
        guard let first = days.first, day >= first, day - first < days.count else { return nil }
        return day - first
    }

    /// The instants of occurrence `index` when it is timed (UTC civil seconds), nil for one of the band.
    public func instants(ofOccurrence index: Int) -> (start: Int, end: Int)? {
        instants.indices.contains(index) ? instants[index] : nil
    }

    // MARK: The hours

    /// The hours the timed events of `occurrences` take on `days` in `zone` (from the hour
    /// the earliest starts in to the hour the latest ends in), widened to `fewestHours` by
    /// turns, an hour later, an hour earlier; `workingDay` when there are none.
    public static func workingHours(days: [Int], zone: DisplayZone, occurrences: [Occurrence]) -> Range<Int> {
        var earliest = Int.max, latest = Int.min
        for day in days {
            let midnight = CivilTime.day(ofGrid: day) * CivilTime.secondsPerDay
            let clock = (start: CivilTime.utc(ofLocal: midnight, offset: zone.offset),
                         end: CivilTime.utc(ofLocal: midnight + CivilTime.secondsPerDay, offset: zone.offset))
            for occurrence in occurrences where !isBand(occurrence, zone: zone) {
                let (start, end) = instants(of: occurrence, zone: zone)
                guard start < clock.end, end > clock.start || (end == start && start >= clock.start) else { continue }
                let from = max(start, clock.start), to = min(end, clock.end)
                let startWall = from + zone.offset(from) - midnight
                let endWall = to == clock.end ? CivilTime.secondsPerDay : to + zone.offset(to) - midnight
                earliest = min(earliest, max(0, startWall / 3600))
                latest = max(latest, min(24, (endWall + 3599) / 3600), min(24, startWall / 3600 + 1))
            }
        }
        guard earliest < latest else { return workingDay }
        var (low, high) = (earliest, latest)
        while high - low < fewestHours {
            if high < 24 { high += 1 }
            if high - low < fewestHours, low > 0 { low -= 1 }
        }
        return low..<high
    }

    /// `hours` kept within 0 to 24, at least an hour.
    static func clamped(_ hours: Range<Int>) -> Range<Int> {
        let low = min(23, max(0, hours.lowerBound))
        return low..<min(24, max(low + 1, hours.upperBound))
    }

    /// The hours shown in `height` rows, `rowsPerHour[h]` rows for hour h: `wanted`, widened
    /// later and earlier by turns while the rows fit; where they do not fit, as many of them as
    /// fit around the working day's middle; from `top` instead where it is given. As many
    /// hours as fit, earlier ones added where the day's end is reached; at least an hour,
    /// whose rows may then be more than fit.
    static func window(wanted: Range<Int>, top: Int?, rowsPerHour: [Int], height: Int) -> Range<Int> {
        func rows(_ low: Int, _ high: Int) -> Int { (low..<high).reduce(0) { $0 + rowsPerHour[$1] } }
        var (low, high) = (wanted.lowerBound, wanted.upperBound)
        if top == nil, rows(low, high) <= height {
            var later = true
            while true {
                if later, high < 24, rows(low, high + 1) <= height {
                    high += 1
                } else if low > 0, rows(low - 1, high) <= height {
                    low -= 1
                } else if high < 24, rows(low, high + 1) <= height {
                    high += 1
                } else {
                    break
                }
                later.toggle()
            }
            return low..<high
        }
        if let top {
            low = min(23, max(0, top))
        } else {
            // As many of the hours wanted as fit, around the working day's middle.
            var count = 0
            while count < wanted.count, rows(low, low + count + 1) <= height { count += 1 }
            let middle = (workingDay.lowerBound + workingDay.upperBound) / 2
            low = min(max(wanted.lowerBound, middle - count / 2), wanted.upperBound - max(1, count))
        }
        high = low
        while high < 24, rows(low, high + 1) <= height { high += 1 }
        while high == 24, low > 0, rows(low - 1, high) <= height { low -= 1 }
        return low..<max(high, low + 1)
    }

    // MARK: The scale

    /// The rows of all `clocks` in order, and for each clock the row of each of its slots.
    /// Each day's slots keep their order; rows no day orders are put by minute, then fold.
    static func scale(_ clocks: [DayClock]) -> (rows: [Row], rowOfSlot: [[Int]]) {
        let sequences = clocks.map { $0.slots.map { Row(minute: $0.minute, fold: $0.fold) } }
        var rows: [Row]
        if let longest = sequences.max(by: { $0.count < $1.count }), sequences.allSatisfy({ $0 == longest || isOrderedSubsequence($0, of: longest) }) {
            rows = longest
        } else {
            rows = merged(sequences)
        }
        // Each day's rows found in order along the scale (a day without a change of offset
        // has them all, in order); a dictionary only where the days disagree.
        var rowOfSlot: [[Int]] = []
        rowOfSlot.reserveCapacity(sequences.count)
        var index: [Row: Int]?
        for sequence in sequences {
            if sequence == rows {
                rowOfSlot.append(Array(rows.indices))
                continue
            }
            var places: [Int] = []
            places.reserveCapacity(sequence.count)
            var place = 0
            for row in sequence {
                while place < rows.count, rows[place] != row { place += 1 }
                if place == rows.count { break }
                places.append(place)
                place += 1
            }
            if places.count < sequence.count {
                if index == nil { index = Dictionary(rows.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) }
                places = sequence.map { index?[$0] ?? 0 }
            }
            rowOfSlot.append(places)
        }
        return (rows, rowOfSlot)
    }

    /// Whether `part` is `whole` with some rows left out, in the same order.
    static func isOrderedSubsequence(_ part: [Row], of whole: [Row]) -> Bool {
        var place = whole.startIndex
        for row in part {
            guard let found = whole[place...].firstIndex(of: row) else { return false }
            place = found + 1
        }
        return true
    }

    /// The rows of `sequences` in one order that keeps each sequence's (a topological sort:
    /// of the rows ready, the earliest by minute and fold first; were the days to disagree,
    /// the earliest left).
    static func merged(_ sequences: [[Row]]) -> [Row] {
        var after: [Row: Set<Row>] = [:]
        var waiting: [Row: Int] = [:]
        for sequence in sequences {
            for row in sequence where waiting[row] == nil { waiting[row] = 0 }
            for (row, next) in zip(sequence, sequence.dropFirst()) where after[row, default: []].insert(next).inserted {
                waiting[next, default: 0] += 1
            }
        }
        var result: [Row] = []
        let before = { (a: Row, b: Row) in (a.minute, a.fold) < (b.minute, b.fold) }
        while !waiting.isEmpty {
            let ready = waiting.filter { $0.value == 0 }.keys
            guard let next = ready.min(by: before) ?? waiting.keys.min(by: before) else { break }
            waiting[next] = nil
            result.append(next)
            for later in after[next] ?? [] where waiting[later] != nil { waiting[later, default: 1] -= 1 }
        }
        return result
    }

    // MARK: Blocks

    /// A timed event's rows in one day (indices into all the day's rows) and its lane.
    struct Piece {
        let occurrence: Int
        let start: Int
        let firstRow: Int
        let lastRow: Int
        let fromPreviousDay: Bool
        let toNextDay: Bool
        var lane = 0
        var lanes = 1
    }

    /// The pieces of the timed events (`instants`, nil for the band's) that the day of `clock`
    /// holds, its slots on rows `rows`.
    static func pieces(of instants: [(start: Int, end: Int)?], in clock: DayClock, rows: [Int]) -> [Piece] {
        guard !clock.slots.isEmpty else { return [] }
        func slot(_ instant: Int) -> Int {
            clock.slot(containing: instant) ?? clock.slots.firstIndex { $0.end > instant } ?? clock.slots.count - 1
        }
        var pieces: [Piece] = []
        for (index, span) in instants.enumerated() {
            guard let (start, end) = span else { continue }
            let touches = end > start ? start < clock.end && end > clock.start : start >= clock.start && start < clock.end
            guard touches else { continue }
            let first = slot(max(start, clock.start))
            let last = end > start ? slot(min(end, clock.end) - 1) : first
            pieces.append(Piece(occurrence: index, start: start, firstRow: rows[first], lastRow: max(rows[first], rows[last]),
                                fromPreviousDay: start < clock.start, toNextDay: end > clock.end))
        }
        return pieces
    }

    /// `pieces` in lanes: in order of first row (the longer first, then by start), each in the
    /// lowest lane free at its first row; a cluster of pieces linked by shared rows has as many
    /// lanes as it uses.
    static func lanes(_ pieces: [Piece]) -> [Piece] {
        var ordered = pieces.sorted { ($0.firstRow, -$0.lastRow, $0.start, $0.occurrence) < ($1.firstRow, -$1.lastRow, $1.start, $1.occurrence) }
        var clusterStart = 0
        var laneEnds: [Int] = []
        var clusterEnd = Int.min
        func close(_ end: Int) {
            for place in clusterStart..<end { ordered[place].lanes = max(1, laneEnds.count) }
        }
        for place in ordered.indices {
            let piece = ordered[place]
            if piece.firstRow > clusterEnd {
                close(place)
                clusterStart = place
                laneEnds = []
            }
            if let free = laneEnds.firstIndex(where: { $0 < piece.firstRow }) {
                ordered[place].lane = free
                laneEnds[free] = piece.lastRow
            } else {
                ordered[place].lane = laneEnds.count
                laneEnds.append(piece.lastRow)
            }
            clusterEnd = max(clusterEnd, piece.lastRow)
        }
        close(ordered.count)
        return ordered
    }

    // MARK: The band

    /// The band's events on `days` and their lines: in order of first column, the longer
    /// first, each on the first line free over its columns.
    static func bandPlaces(days: [Int], occurrences: [Occurrence], instants: [(start: Int, end: Int)?]) -> [BandItem] {
        guard let firstDay = days.first, let lastDay = days.last else { return [] }
        var items: [(occurrence: Int, first: Int, last: Int, before: Bool, after: Bool)] = []
        for (index, occurrence) in occurrences.enumerated() where instants[index] == nil {
            let (start, last) = (occurrence.startDay, occurrence.lastDay)
            guard start <= lastDay, last >= firstDay else { continue }
            items.append((index, max(start, firstDay) - firstDay, min(last, lastDay) - firstDay, start < firstDay, last > lastDay))
        }
        items.sort { ($0.first, -$0.last, $0.occurrence) < ($1.first, -$1.last, $1.occurrence) }
        var lineEnds: [Int] = []
        return items.map { item in
            let line = lineEnds.firstIndex { $0 < item.first } ?? lineEnds.count
            if line == lineEnds.count { lineEnds.append(item.last) } else { lineEnds[line] = item.last }
            return BandItem(occurrence: item.occurrence, firstColumn: item.first, lastColumn: item.last, line: line,
                            startsBefore: item.before, endsAfter: item.after)
        }
    }
}
