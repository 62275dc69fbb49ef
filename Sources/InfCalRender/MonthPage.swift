import InfCalModel
import InfCalEvents

extension Array where Element == UInt8 {
    /// The bytes as text (escape sequences are ASCII).
    var text: String { String(decoding: self, as: UTF8.self) }
}

/// Draws a month as a page of boxes: the title as the stream titles it, the weekday names over
/// the columns, six week rows, the day numbers at the top right of their cells.
///
/// Pure: a month and a layout in, lines out. With `color` on, today's number is in reverse video
/// and the weekend's numbers and names are dim; with it off the lines are plain text.
public struct MonthPage {
    /// The renderer whose names, calendar, first weekday, numbering and week numbers the page uses.
    public var renderer: MonthRenderer
    public let box: BoxCharacters
    /// The locale's weekend, as weekdays 1 (Sunday) to 7 (Saturday).
    public let weekendDays: Set<Int>
    /// Whether escape sequences set today and the weekend apart.
    public let color: Bool
    /// Whether calendars' colours are drawn as 24-bit rather than the nearest of 256.
    public var trueColor = false
    /// The occurrences touching each day of the month drawn (day number to occurrences): each
    /// day cell lists them under its number (see `DayCellEvents`), and with colour the numbers
    /// of days with events are bold and underlined. Empty without events.
    public var events: [Int: [Occurrence]] = [:]
    /// Whether today, the selected day and the days with events are set apart by attributes
    /// (reverse, bold, underline): with colour, and always in the pager, where a terminal
    /// without colour still shows them.
    public var marks: Bool
    /// Whether the run shows events (the pager and `--wall` with `--events`), so that a cell
    /// keeps a line for them: the other calendar's day then moves to the number's line
    /// where the cell has no line beyond that one.
    public var showsEvents = false

    /// Dim on and off (SGR 2 and 22).
    static let dimOn = "\u{1B}[2m"
    static let dimOff = "\u{1B}[22m"

    /// A page drawn with `renderer`'s names and numbering, the lines of `box`, and with `color`,
    /// today (the renderer's highlighted day) and `weekendDays` set apart.
    public init(renderer: MonthRenderer, box: BoxCharacters, weekendDays: Set<Int>, color: Bool) {
        self.renderer = renderer
        self.box = box
        self.weekendDays = weekendDays
        self.color = color
        marks = color
    }

    /// The layout that fills `size`, or nil when it is too small for a page.
    public func layout(filling size: TerminalSize) -> MonthPageLayout? {
        MonthPageLayout.filling(size, numberWidth: renderer.metrics.dayWidth, weekColumnWidth: renderer.metrics.weekColumnWidth)
    }

    /// The layout of the page printed `width` cells wide (`--wall`), or nil when it is too narrow.
    public func wallLayout(width: Int) -> MonthPageLayout? {
        MonthPageLayout.wall(width: width, numberWidth: renderer.metrics.dayWidth, weekColumnWidth: renderer.metrics.weekColumnWidth)
    }

    /// The smallest size a page fits.
    public var smallestSize: TerminalSize { renderer.metrics.smallestPage }

    /// The weekday names over cells `inside` cells wide, Sunday first: the locale's whole names
    /// where all fit, else its abbreviations, else the two-cell labels of the compact grid.
    public func weekdayNames(inside: Int) -> [String] {
        let names = renderer.names
        for candidate in [names.fullWeekdayNames, names.shortWeekdayNames]
        where candidate.allSatisfy({ DisplayWidth.of($0) <= inside }) {
            return candidate
        }
        return names.weekdayLabels
    }

    /// The weekday (1 is Sunday) of column `column`.
    func weekday(ofColumn column: Int) -> Int {
        (renderer.firstWeekday - 1 + column) % 7 + 1
    }

    /// The page's lines for `month` laid out by `layout`: exactly `layout.height` lines, the
    /// blank lines of the top margin not included, none ending in a space.
    public func lines(for month: Month, layout: MonthPageLayout) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(layout.height)
        let margin = String(repeating: " ", count: layout.left)
        let weekBlank = String(repeating: " ", count: layout.weekColumnWidth)
        let inside = layout.cellWidth - 1

        // The title, centred over the width, cut (at a character) when wider.
        let title = DisplayWidth.prefix(of: titleText(month), fitting: layout.width)
        lines.append(String(repeating: " ", count: max(0, (layout.width - DisplayWidth.of(title)) / 2)) + title)

        // Weekday names, centred over the insides of the cells.
        let names = weekdayNames(inside: inside)
        var header = margin + weekBlank + " "
        for column in 0..<7 {
            let weekday = weekday(ofColumn: column)
            let name = DisplayWidth.prefix(of: names[weekday - 1], fitting: inside)
            let width = DisplayWidth.of(name)
            let before = (inside - width) / 2
            header += String(repeating: " ", count: before)
            header += color && weekendDays.contains(weekday) ? Self.dimOn + name + Self.dimOff : name
            header += String(repeating: " ", count: inside - width - before + 1)
        }
        lines.append(Self.trimmed(header))

        // The grid.
        let segment = String(repeating: box.horizontal, count: inside)
        func rule(_ ends: [String]) -> String {
            margin + weekBlank + ends[0] + Array(repeating: segment, count: 7).joined(separator: ends[1]) + ends[2]
        }
        let emptyInside = String(repeating: " ", count: inside)
        let blankLine = margin + weekBlank + box.vertical
            + Array(repeating: emptyInside, count: 7).joined(separator: box.vertical) + box.vertical
        let grid = renderer.grid(for: month)
        let weeks = max(MonthPageLayout.weeks, grid.weekCount)
        let numberRoom = min(inside, inside > renderer.metrics.dayWidth ? inside - 1 : inside)
        // With --also, the other calendar's day takes the line under the number where the cell has
        // lines to spare (one at least left for events when the run shows some), else it
        // goes on the number's line, left of the number.
        let extraLines = max(0, layout.cellHeight - 2)
        let alsoLine = renderer.also != nil && (extraLines >= 2 || (extraLines == 1 && !showsEvents))
        let alsoDays = renderer.also.map { also in also.days(month.firstDay..<month.endDay) } ?? []
        for week in 0..<weeks {
            lines.append(rule(week == 0 ? box.top : box.middle))
            var numbers = margin
            if layout.weekColumnWidth > 0 {
                let rowStart = grid.month.firstDay - grid.leadingBlanks + 7 * week
                // A row past the month's last week (the page always has six) holds none of
                // its days, so it has no week number either.
                let number = week < grid.weekCount ? renderer.weekNumber(ofRowStarting: rowStart).map(String.init) ?? "" : ""
                numbers += String(repeating: " ", count: max(0, layout.weekColumnWidth - 1 - number.count)) + number + " "
            }
            numbers += box.vertical
            for column in 0..<7 {
                if let cell = grid.cell(week: week, column: column) {
                    let other = alsoLine || alsoDays.isEmpty ? nil : alsoDays[cell.day - month.firstDay]
                    numbers += number(cell, column: column, room: numberRoom, inside: inside, also: other)
                } else {
                    numbers += emptyInside
                }
                numbers += box.vertical
            }
            lines.append(numbers)
            if alsoLine {
                lines.append(alsoLineText(grid, week: week, days: alsoDays, room: numberRoom, inside: inside,
                                          left: margin + weekBlank))
            }
            let room = extraLines - (alsoLine ? 1 : 0)
            if events.isEmpty || room == 0 {
                for _ in 0..<room { lines.append(blankLine) }
            } else {
                lines += eventLines(grid, week: week, inside: inside, room: room, left: margin + weekBlank, blankLine: blankLine)
            }
        }
        lines.append(rule(box.bottom))
        return lines
    }

    /// The day number of `cell` in column `column`, right-aligned in `room` of a cell `inside`
    /// cells wide, padded to `inside`: set apart for today, events and the selection when
    /// `marks` is on (the weekend dim only with colour), and the selected day in brackets
    /// where the cell has a cell to spare on each side of the number, so that it reads
    /// on any terminal.
    func number(_ cell: MonthGrid.Cell, column: Int, room: Int, inside: Int, also: AlsoCalendar.Day? = nil) -> String {
        let digits = String(cell.label)
        let selected = cell.day == renderer.selectedDay
        let brackets = selected && room > digits.count && inside > room
        let lead = max(0, room - digits.count - (brackets ? 1 : 0))
        var text = String(repeating: " ", count: lead)
        // The other calendar's day left of the number: a cell from the line, a cell at least
        // before the number (or its bracket).
        if let also, let other = renderer.also, inside > room {
            let shown = other.cellText(also, width: lead - 2)
            if !shown.isEmpty {
                text = " " + dimmed(shown) + String(repeating: " ", count: lead - 1 - DisplayWidth.of(shown))
            }
        }
        if brackets { text += "[" }
        let attributes = renderer.attributes
        var on = "", off = ""
        if marks {
            if events[cell.day] != nil { (on, off) = (on + attributes.marked.on.text, attributes.marked.off.text + off) }
            if cell.day == renderer.highlightedDay { (on, off) = (on + attributes.today.on.text, attributes.today.off.text + off) }
            if selected { (on, off) = (on + attributes.selected.on.text, attributes.selected.off.text + off) }
        }
        if on.isEmpty, color, weekendDays.contains(weekday(ofColumn: column)) { (on, off) = (Self.dimOn, Self.dimOff) }
        text += on + digits + off
        if brackets { text += "]" }
        return text + String(repeating: " ", count: max(0, inside - max(room, digits.count) - (brackets ? 1 : 0)))
    }

    /// The page's title: the month's, and with `--also` the other calendar's months it spans
    /// ("December 2026 · Kislev – Tevet 5787").
    public func titleText(_ month: Month) -> String {
        let title = renderer.titleText(month)
        guard let span = renderer.also?.spanTitle(month.firstDay..<month.endDay) else { return title }
        return title + " · " + span
    }

    /// `text` dim when colour is on.
    func dimmed(_ text: String) -> String {
        color ? Self.dimOn + text + Self.dimOff : text
    }

    /// The line of week `week` that carries the other calendar's days, each right-aligned under
    /// the day's number (in `room` of a cell `inside` cells wide), a cell from the cell's left line.
    func alsoLineText(_ grid: MonthGrid, week: Int, days: [AlsoCalendar.Day?], room: Int, inside: Int, left: String) -> String {
        var text = left + box.vertical
        for column in 0..<7 {
            var shown = ""
            if let cell = grid.cell(week: week, column: column), let other = renderer.also,
               let day = days[cell.day - grid.month.firstDay] {
                shown = other.cellText(day, width: inside > room ? room - 1 : room)
            }
            let width = DisplayWidth.of(shown)
            text += String(repeating: " ", count: max(0, room - width)) + (shown.isEmpty ? "" : dimmed(shown))
            text += String(repeating: " ", count: max(0, inside - max(room, width))) + box.vertical
        }
        return text
    }

    /// The `room` lines under the numbers of week `week`, after `left` (the margin and the week
    /// column): each day's events, one a line, a space from the cell's left and right lines.
    func eventLines(_ grid: MonthGrid, week: Int, inside: Int, room: Int, left: String, blankLine: String) -> [String] {
        let pad = inside > 2 ? 1 : 0
        var cells: [[(text: String, color: CalendarColor?)]] = []
        for column in 0..<7 {
            guard let cell = grid.cell(week: week, column: column), let occurrences = events[cell.day] else {
                cells.append([])
                continue
            }
            // A space from both lines of the cell, as the day numbers keep from the right one.
            cells.append(DayCellEvents.coloredLines(occurrences, day: cell.day, width: inside - 2 * pad, height: room))
        }
        guard cells.contains(where: { !$0.isEmpty }) else { return Array(repeating: blankLine, count: room) }
        let start = left + box.vertical
        return (0..<room).map { line in
            var text = start
            for column in 0..<7 {
                let entry: (text: String, color: CalendarColor?) = line < cells[column].count ? cells[column][line] : ("", nil)
                let gap = String(repeating: " ", count: max(0, inside - pad - DisplayWidth.of(entry.text)))
                text += String(repeating: " ", count: pad)
                if color, let shade = entry.color, !entry.text.isEmpty {
                    text += shade.foreground(trueColor: trueColor) + entry.text + CalendarColor.defaultForeground
                } else {
                    text += entry.text
                }
                text += gap + box.vertical
            }
            return text
        }
    }

    /// `line` without trailing spaces.
    static func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}

/// Prints months as pages one after another (`--wall`), a blank line between them, as the
/// months arrive: an endless sequence streams in constant memory.
public struct MonthPagePrinter {
    /// What each month is drawn with.
    public let page: MonthPage
    /// The pages' size.
    public let layout: MonthPageLayout
    /// Bytes gathered before each write.
    public var blockSize = 64 * 1024
    /// The events of the run, if it reads any: each month's cells list them, and its cells
    /// are as tall as its busiest day needs (at most `tallestCell` events a cell).
    public var events: EventStore?
    /// The most event lines a printed cell holds; more end in `+N more`.
    public static let tallestCell = 8

    /// A printer of `page`s laid out by `layout` (see `MonthPageLayout.wall`).
    public init(page: MonthPage, layout: MonthPageLayout) {
        self.page = page
        self.layout = layout
    }

    /// Writes every month of `months` to `sink`.
    public func print<Months: Sequence<Month>>(_ months: Months, to sink: ByteSink) throws {
        let buffer = ByteBuffer(capacity: blockSize + 64 * 1024)
        var first = true
        for month in months {
            if !first { buffer.append(UInt8(ascii: "\n")) }
            first = false
            var page = self.page
            var layout = self.layout
            page.showsEvents = events != nil
            if let events {
                page.events = events.occurrencesByDay(month.firstDay..<month.endDay)
                let busiest = page.events.values.map(\.count).max() ?? 0
                layout = MonthPageLayout(cellWidth: layout.cellWidth, cellHeight: layout.cellHeight + min(busiest, Self.tallestCell),
                                         weekColumnWidth: layout.weekColumnWidth, width: layout.width, left: layout.left, top: layout.top)
            }
            if page.renderer.also != nil {
                // A line for the other calendar's day, and with events one at least for them,
                // so that every month of the run is laid out alike.
                let extra = layout.cellHeight == 2 && events != nil ? 2 : 1
                layout = MonthPageLayout(cellWidth: layout.cellWidth, cellHeight: layout.cellHeight + extra,
                                         weekColumnWidth: layout.weekColumnWidth, width: layout.width, left: layout.left, top: layout.top)
            }
            for line in page.lines(for: month, layout: layout) {
                buffer.append(line)
                buffer.append(UInt8(ascii: "\n"))
            }
            if buffer.count >= blockSize {
                try sink.write(buffer.bytes)
                buffer.removeAll()
            }
        }
        if buffer.count > 0 { try sink.write(buffer.bytes) }
    }
}
