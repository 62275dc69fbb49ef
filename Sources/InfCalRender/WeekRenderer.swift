import InfCalModel
import InfCalEvents

/// Draws a `WeekLayout` as lines: a title, the days' headings, the band of all-day events,
/// then the rows of the time scale, the scale down the left and the days' columns sharing the
/// width evenly, the blocks of the timed events inside them.
///
/// ```
///             February 2024
///        │ Sun 11  │ Mon 12  │ ...
/// ───────┼─────────┼─────────┼
///        │ Ski trip ─────────│      the band
/// ───────┼─↑1──────┼─────────┼      (one event before the hours shown)
///  08:00 │         │▌08:30   │
///        │         │▌Standup │
/// ───────┴─────────┴─────────┴
/// ```
///
/// Pure: a layout and a width in, lines out, each at most `width` cells (escape sequences
/// take none). Plain text unless `color` (calendars' colours, today's heading, the "now" line
/// in red) or `marks` (the pager's attributes: today underlined, the selected day's heading and
/// the highlighted event reversed) is on.
public struct WeekRenderer {
    /// Names, calendar, first weekday and `--also` of the run.
    public let renderer: MonthRenderer
    /// The lines of the grid (and whether the text is ASCII).
    public let box: BoxCharacters
    /// How times are written.
    public let clock: WeekClock
    /// Whether escape sequences colour the events by calendar, mark today's heading and the
    /// "now" line.
    public var color = false
    /// Whether calendars' colours are 24-bit.
    public var trueColor = false
    /// Whether the pager's attributes set apart today, the selected day and the highlighted event.
    public var marks = false
    /// Today (a grid day number): its heading is set apart (with `color` or `marks`).
    public var today: Int?
    /// The selected day (with `marks`, its heading is reversed).
    public var selected: Int?
    /// The occurrence (an index into the layout's) drawn reversed with `marks`, or nil.
    public var highlighted: Int?
    /// The current instant (UTC civil seconds), drawn as a line across its day's column, or nil.
    public var now: Int?
    /// The zone's name, said after the title, or nil to say none.
    public var zoneName: String?
    /// Whether the title line is drawn (the day view's timeline goes without).
    public var showsTitle = true

    /// The narrowest a column of a week of several days may be, and of a single day.
    public static let narrowestColumn = 8
    public static let narrowestSingleColumn = 6
    /// The numbers of days shown, widest first: a week, the selected day and one either side, the day.
    public static let dayCounts = [7, 3, 1]

    /// A renderer drawing with `renderer`'s names, `box`'s lines and `clock`'s times.
    public init(renderer: MonthRenderer, box: BoxCharacters, clock: WeekClock) {
        self.renderer = renderer
        self.box = box
        self.clock = clock
        var widest = 0
        for hour in 0..<24 { widest = max(widest, DisplayWidth.of(clock.time(minute: hour * 60))) }
        // The label, a fold's mark after it and a space before the line.
        scaleWidth = widest + 2
    }

    /// Cells of the time scale, left of the first column's line.
    public let scaleWidth: Int

    /// The mark after the label of an hour shown the second time (the clocks went back).
    var foldMark: String { box == .ascii ? "'" : "²" }

    // MARK: Sizes

    /// The width of a column when `count` days share `width` cells.
    public func columnWidth(days count: Int, width: Int) -> Int {
        (min(width, 100_000) - scaleWidth - 1 - count) / max(1, count)
    }

    /// The narrowest width `count` days fit: the scale, and each column at its narrowest.
    public func width(days count: Int) -> Int {
        scaleWidth + 1 + count * ((count == 1 ? Self.narrowestSingleColumn : Self.narrowestColumn) + 1)
    }

    /// How many days fit `width` cells: 7, else 3, else 1; nil when not even one does.
    public func dayCount(width: Int) -> Int? {
        Self.dayCounts.first { count in
            columnWidth(days: count, width: width) >= (count == 1 ? Self.narrowestSingleColumn : Self.narrowestColumn)
        }
    }

    /// The days shown when `count` of them fit: the week holding `selected` from `firstWeekday`
    /// (1 is Sunday) for 7, else the selected day with as many either side.
    public static func days(count: Int, selected: Int, firstWeekday: Int) -> [Int] {
        guard count >= 7 else { return Array((selected - count / 2)...(selected + (count - 1) / 2)) }
        let back = CivilTime.floorMod(CivilTime.foundationWeekday(ofGrid: selected) - firstWeekday, 7)
        return Array((selected - back)..<(selected - back + 7))
    }

    /// Lines drawn besides the band and the rows: the title, the headings (two with `--also`)
    /// and the rules above and below the rows.
    public var fixedLines: Int {
        (showsTitle ? 1 : 0) + 1 + (renderer.also == nil ? 0 : 1) + 2
    }

    /// The smallest size a week fits: one day, one row.
    public var smallestSize: TerminalSize {
        TerminalSize(columns: scaleWidth + 2 + Self.narrowestSingleColumn, rows: fixedLines + 1)
    }

    /// The layout of the days around `selected` that fit `size` (see `days(count:selected:firstWeekday:)`;
    /// `count` of them where it is given), with the occurrences of `store` (nil: none) shown in
    /// `zone` (nil: the store's own), those of the calendars in `hidden` left out, the rows
    /// showing `hours` (nil: the events' working hours) or from `top`; nil when `size` is
    /// smaller than `smallestSize` (or than `count` days need).
    public func layout(selected: Int, count: Int? = nil, store: EventStore?, zone: DisplayZone?, hidden: Set<Int> = [],
                       hours: Range<Int>?, top: Int?, size: TerminalSize) -> WeekLayout? {
        guard size.rows >= smallestSize.rows, let fitting = dayCount(width: size.columns), fitting >= count ?? 1 else { return nil }
        let count = count ?? fitting
        let days = Self.days(count: count, selected: selected, firstWeekday: renderer.firstWeekday)
        let shownZone = zone ?? store?.display ?? .utc
        let occurrences = store.map { ZonedOccurrences.touching(days[0]..<(days[0] + days.count), store: $0, zone: zone, hidden: hidden) } ?? []
        let wanted = hours ?? WeekLayout.workingHours(days: days, zone: shownZone, occurrences: occurrences)
        return WeekLayout(days: days, zone: shownZone, occurrences: occurrences, hours: wanted, top: top,
                          height: size.rows - fixedLines)
    }

    // MARK: Lines

    /// The lines of `layout` at `width` cells: the title, the headings, the band, the rows,
    /// the bottom rule. Empty when the width is below what the layout's days need.
    public func lines(for layout: WeekLayout, width: Int) -> [String] {
        let count = layout.days.count
        let cell = columnWidth(days: count, width: width)
        guard count > 0, cell >= 1 else { return [] }
        var lines: [String] = []
        if showsTitle { lines.append(title(layout, width: width)) }
        lines.append(headingLine(layout, cell: cell))
        if renderer.also != nil { lines.append(alsoLine(layout, cell: cell)) }
        let hasBand = layout.bandLines > 0
        lines.append(rule(box.middle, cell: cell, count: count, marks: hasBand ? nil : layout.above.map { upMark($0) }))
        if hasBand {
            lines += bandLines(layout, cell: cell)
            lines.append(rule(box.middle, cell: cell, count: count, marks: layout.above.map { upMark($0) }))
        }
        let (rows, hiddenLanes) = gridLines(layout, cell: cell)
        lines += rows
        let below = zip(layout.below, hiddenLanes).map { downMark($0, hidden: $1) }
        lines.append(rule(box.bottom, cell: cell, count: count, marks: below))
        return lines
    }

    /// The title: the months the days lie in, the other calendar's months with `--also`, the zone.
    func title(_ layout: WeekLayout, width: Int) -> String {
        guard let first = layout.days.first, let last = layout.days.last else { return "" }
        let calendar = renderer.calendar
        var text = ""
        if let firstMonth = calendar.month(containing: first), let lastMonth = calendar.month(containing: last) {
            text = renderer.names.title(of: firstMonth)
            if lastMonth != firstMonth { text += (box == .ascii ? " - " : " – ") + renderer.names.title(of: lastMonth) }
        }
        if let span = renderer.also?.spanTitle(first..<(last + 1)) { text += " · " + span }
        if let zoneName { text += " (" + zoneName + ")" }
        let shown = DisplayWidth.prefix(of: text, fitting: width)
        return String(repeating: " ", count: max(0, (width - DisplayWidth.of(shown)) / 2)) + shown
    }

    /// The day's number as the calendar shown numbers it.
    func dayLabel(_ day: Int) -> String {
        guard let month = renderer.calendar.month(containing: day) else { return "" }
        return String(renderer.calendar.dayLabels(of: month).label(at: day - month.firstDay))
    }

    /// The headings: each day's weekday and number, centred in its column, names as whole as
    /// fit every column.
    func headingLine(_ layout: WeekLayout, cell: Int) -> String {
        let names = renderer.names
        // The names of one kind for every day: the whole ones where all fit, else the
        // abbreviations, the two-cell labels, the numbers alone.
        let headings = [names.fullWeekdayNames, names.shortWeekdayNames, names.weekdayLabels, nil].lazy.map { kind in
            layout.days.map { day in
                let number = self.dayLabel(day)
                return kind.map { $0[CivilTime.foundationWeekday(ofGrid: day) - 1] + " " + number } ?? number
            }
        }.first { $0.allSatisfy { DisplayWidth.of($0) <= cell } } ?? layout.days.map { DisplayWidth.prefix(of: dayLabel($0), fitting: cell) }
        var line = String(repeating: " ", count: scaleWidth) + box.vertical
        for (column, day) in layout.days.enumerated() {
            let text = headings[column]
            var on = "", off = ""
            if day == today, marks || color {
                (on, off) = (renderer.attributes.today.on.text, renderer.attributes.today.off.text)
            }
            if day == selected, marks {
                (on, off) = (on + renderer.attributes.selected.on.text, renderer.attributes.selected.off.text + off)
            }
            line += centred(on + text + off, width: DisplayWidth.of(text), in: cell) + box.vertical
        }
        return line
    }

    /// With `--also`: each day in the other calendar ("14 Kislev", or as much as fits), centred.
    func alsoLine(_ layout: WeekLayout, cell: Int) -> String {
        var line = String(repeating: " ", count: scaleWidth) + box.vertical
        for day in layout.days {
            var text = ""
            if let also = renderer.also, let other = also.day(day) {
                let whole = "\(other.label) " + also.names.monthName(of: other.month)
                text = DisplayWidth.of(whole) <= cell ? whole : also.cellText(other, width: cell)
            }
            let shown = color && !text.isEmpty ? MonthPage.dimOn + text + MonthPage.dimOff : text
            line += centred(shown, width: DisplayWidth.of(text), in: cell) + box.vertical
        }
        return line
    }

    /// A rule across the scale and the columns, with `ends`' crossing and right end, each
    /// column's mark (`↑2`) written into its part.
    func rule(_ ends: [String], cell: Int, count: Int, marks: [String]?) -> String {
        var line = String(repeating: box.horizontal, count: scaleWidth) + ends[1]
        for column in 0..<count {
            let mark = DisplayWidth.prefix(of: marks?[column] ?? "", fitting: max(0, cell - 1))
            let rest = cell - (mark.isEmpty ? 0 : 1 + DisplayWidth.of(mark))
            line += (mark.isEmpty ? "" : box.horizontal + mark) + String(repeating: box.horizontal, count: max(0, rest))
            line += column == count - 1 ? ends[2] : ends[1]
        }
        return line
    }

    /// The mark of `count` events before the hours shown: `↑2` (`^2` in ASCII), empty for none.
    func upMark(_ count: Int) -> String {
        count == 0 ? "" : (box == .ascii ? "^" : "↑") + String(count)
    }

    /// The mark of `count` events after the hours shown (`↓1`, `v1`) and of `hidden` more
    /// than the column has lanes for (`+2`).
    func downMark(_ count: Int, hidden: Int) -> String {
        var parts: [String] = []
        if count > 0 { parts.append((box == .ascii ? "v" : "↓") + String(count)) }
        if hidden > 0 { parts.append("+" + String(hidden)) }
        return parts.joined(separator: " ")
    }

    /// `text` (`width` cells on screen) centred in `cell` cells.
    func centred(_ text: String, width: Int, in cell: Int) -> String {
        let before = max(0, (cell - width) / 2)
        return String(repeating: " ", count: before) + text + String(repeating: " ", count: max(0, cell - width - before))
    }
}
