import InfCalModel
import InfCalEvents
import InfCalRender

/// Composes the pager's frames: the view the state asks for (the month page, the strip of
/// compact grids, the year page) above a status line.
///
/// Pure: a state and a terminal size in, a `Frame` out, so the layout can be tested without a
/// terminal. A compact grid block always takes `gridLines` lines (a six-week month's height),
/// so the titles stay put as months of five and six weeks follow each other.
public struct PagerView {
    /// The renderer of the grids (calendar, names, first weekday, numbering); its highlighted
    /// day is set from the state's today.
    public let renderer: MonthRenderer
    /// Whether colour is on: the month page dims the weekend. Today (underlined), the
    /// selected day (reversed) and the days with events (bold) are attributes, not colours,
    /// and are drawn either way, so that nothing is lost without colour.
    public let highlightToday: Bool
    /// Months side by side in the strip, or nil for as many as the width takes.
    public let columns: Int?
    /// The lines of the month page's grid.
    public let box: BoxCharacters
    /// The locale's weekend (weekdays, 1 is Sunday).
    public let weekendDays: Set<Int>
    /// The events of the run, if it reads any: listed in the month page's cells, marked in the
    /// strip and the year page when colour is on, and the month's agenda (key `a`).
    public var events: EventStore?
    /// Formats the agenda's lines (the locale's weekday names).
    public var agendaPrinter = AgendaPrinter(locale: nil, width: nil)
    /// Whether calendars' colours are drawn as 24-bit.
    public var trueColor = false
    /// How the week view writes times: the locale's clock.
    public var clock = WeekClock.twentyFourHour
    /// The hours the week view shows (`hours =`), or nil for those of the week's events.
    public var weekHours: Range<Int>?
    /// The events the last search matched (`/`), kept while its text and the events stay.
    var searchStore: (text: String, events: ObjectIdentifier, store: EventStore)?

    /// Lines of the grid block: title, weekday header and six weeks.
    public static let gridLines = 8
    /// The go-to prompt's label.
    public static let promptLabel = "Go to (YYYY-MM or YYYY-MM-DD): "
    /// The search prompt's label.
    public static let searchLabel = "Search: "
    /// Cells of the status line kept for where the screen stands, whatever the key hints take
    /// (half a narrow line, at least 20).
    static let statusRoom = 40

    /// A view drawing with `renderer`; `columns` nil means as many as fit in the strip.
    public init(renderer: MonthRenderer, highlightToday: Bool, columns: Int?,
                box: BoxCharacters = .ascii, weekendDays: Set<Int> = [1, 7]) {
        self.renderer = renderer
        self.highlightToday = highlightToday
        self.columns = columns
        self.box = box
        self.weekendDays = weekendDays
    }

    /// Months side by side in the strip on a screen `width` cells wide.
    public func columnCount(width: Int) -> Int {
        columns ?? renderer.metrics.columns(fitting: width, limit: .max)
    }

    /// The smallest screen the compact grid of one month (and the status line) fits.
    public var compactSize: TerminalSize {
        TerminalSize(columns: renderer.monthWidth, rows: renderer.rowLineCount + 1)
    }

    /// The renderer with the state's today and selected day set apart as the pager does.
    func marking(_ state: PagerState) -> MonthRenderer {
        var renderer = self.renderer
        renderer.highlightedDay = state.today
        renderer.selectedDay = state.selected
        renderer.attributes = .pager
        return renderer
    }

    /// The month page for the state's today, selected day and colour.
    func monthPage(for state: PagerState) -> MonthPage {
        var page = MonthPage(renderer: marking(state), box: box, weekendDays: weekendDays, color: highlightToday)
        page.marks = true
        page.trueColor = trueColor
        page.showsEvents = events != nil
        return page
    }

    // MARK: Room

    /// What `state`'s screen allows at `size`: months a screenful of the strip shows, and how
    /// far the help or the year page scrolls.
    public func room(for state: PagerState, size: TerminalSize) -> PagerState.Room {
        let room = TerminalSize(columns: size.columns, rows: max(0, size.rows - 1))
        var result = PagerState.Room(monthsPerScreen: 1, scrollLimit: 0, linesPerScreen: max(1, room.rows - 1))
        if case .help = state.screen {
            let count = helpLines(width: size.columns, view: state.view, rows: room.rows).count
            result.scrollLimit = count <= size.rows ? 0 : count - room.rows
            return result
        }
        if case .agenda = state.screen {
            let overlay = agenda(for: state)
            result.scrollLimit = overlay.scrollLimit(in: room)
            result.linesPerScreen = max(1, overlay.visibleLines(in: room) - 1)
            return result
        }
        if case .day = state.screen {
            let (overlay, starts) = dayOverlay(for: state, room: room)
            result.scrollLimit = overlay.scrollLimit(in: room)
            result.linesPerScreen = max(1, overlay.visibleLines(in: room) - 1)
            result.eventStarts = starts
        }
        if state.view == .week, state.screen == .months { weekRoom(for: state, room: room, into: &result) }
        // The month page neither pages by screenfuls nor scrolls: no need to draw it.
        if state.view == .strip, case .success(let body) = self.body(for: state, room: room) {
            result.monthsPerScreen = max(1, body.monthCount)
        }
        return result
    }

    // MARK: Frames

    /// The frame for `state` on a terminal of `size`.
    public func frame(for state: PagerState, size: TerminalSize) -> Frame {
        var frame = Frame(size: size)
        guard size.rows > 0, size.columns > 0 else { return frame }
        let statusRow = size.rows - 1
        let room = TerminalSize(columns: size.columns, rows: statusRow)
        let lastWidth = size.columns - 1
        let compact = compactSize
        if size.columns < compact.columns || size.rows < compact.rows {
            frame.lines[0] = Self.tooSmall(needed: compact, size: size)
            return frame
        }
        if case .help = state.screen {
            let lines = helpLines(width: size.columns, view: state.view, rows: room.rows)
            // A help one line taller than the room takes the status line's row too: its own
            // last line says how to leave it.
            let whole = lines.count > room.rows && lines.count <= size.rows
            let scroll = whole ? 0 : min(state.scroll, max(0, lines.count - room.rows))
            let shown = Array(lines.dropFirst(scroll).prefix(whole ? size.rows : room.rows))
            let top = lines.count <= room.rows ? (room.rows - lines.count) / 2 : 0
            let width = lines.map { DisplayWidth.of($0) }.max() ?? 0
            let left = String(repeating: " ", count: max(0, (size.columns - width) / 2))
            for (offset, line) in shown.enumerated() where !line.isEmpty {
                frame.lines[top + offset] = Self.fit(left + line, width: top + offset == statusRow ? lastWidth : size.columns)
            }
            if whole { return frame }
            let status = lines.count <= room.rows ? "Press any key to return"
                : "lines \(scroll + 1)-\(scroll + shown.count) of \(lines.count): \(Self.scrollKeys) scroll; any other key returns"
            frame.lines[statusRow] = Self.fit(status, width: lastWidth)
            return frame
        }
        let body: Body
        switch self.body(for: state, room: room) {
        case .success(let made): body = made
        case .failure(let tooSmall):
            frame.lines[0] = Self.tooSmall(needed: tooSmall.needed, size: size)
            return frame
        }
        // A year page taller than the screen scrolls as little as keeps the selected day on it.
        let scroll = state.view == .yearPage ? min(max(0, body.focus - room.rows + 1), max(0, body.lines.count - room.rows)) : 0
        for (row, line) in body.lines.dropFirst(scroll).prefix(room.rows).enumerated() where !line.isEmpty {
            frame.lines[row] = line
        }
        if case .agenda = state.screen {
            let overlay = agenda(for: state)
            let scroll = min(state.scroll, overlay.scrollLimit(in: room))
            let drawn = overlay.draw(over: Array(frame.lines.prefix(room.rows)), room: room, scroll: scroll, box: box)
            for row in 0..<min(room.rows, drawn.count) { frame.lines[row] = drawn[row] }
            var position = ["agenda of " + overlay.title]
            if overlay.lines.count > overlay.visibleLines(in: room) {
                position.append("lines \(scroll + 1)-\(scroll + overlay.visibleLines(in: room))/\(overlay.lines.count)")
            }
            position.append(PagerBindings.closing(.agenda))
            frame.lines[statusRow] = statusLine(for: state, position: position, width: lastWidth)
        } else if [.day, .confirmDelete].contains(state.screen) || state.isEventPrompt {
            let (overlay, _) = dayOverlay(for: state, room: room)
            let scroll = min(state.scroll, overlay.scrollLimit(in: room))
            let drawn = overlay.draw(over: Array(frame.lines.prefix(room.rows)), room: room, scroll: scroll, box: box)
            for row in 0..<min(room.rows, drawn.count) { frame.lines[row] = drawn[row] }
            var position = [overlay.title]
            if let zone = zoneNote(state) { position.append(zone) }
            if overlay.lines.count > overlay.visibleLines(in: room) {
                position.append("lines \(scroll + 1)-\(scroll + overlay.visibleLines(in: room))/\(overlay.lines.count)")
            }
            position.append(PagerBindings.closing(.openDay))
            position.append(PagerBindings.hint([(.addEvent, "add"), (.editEvent, "edit"), (.deleteEvent, "delete")]))
            frame.lines[statusRow] = statusLine(for: state, position: position, width: lastWidth, hints: false)
            if case .eventPrompt(let purpose, let text) = state.screen {
                // The end of a long line stays in sight, where the cursor is.
                let label = purpose == .add ? Self.addLabel : Self.editLabel
                let room = max(1, lastWidth - DisplayWidth.of(label))
                var shown = text
                while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
                let prompt = Self.fit(label + InertText.forView(shown), width: lastWidth)
                frame.lines[statusRow] = prompt
                frame.cursor = ScreenPosition(row: statusRow, column: DisplayWidth.of(prompt))
            } else if state.screen == .confirmDelete {
                let summary = editText(for: state).map { " '" + $0 + "'" } ?? ""
                frame.lines[statusRow] = Self.fit("delete" + summary + "? (y or n) ", width: lastWidth)
            }
        } else if case .calendars = state.screen {
            let overlay = calendarList(for: state)
            let drawn = overlay.draw(over: Array(frame.lines.prefix(room.rows)), room: room,
                                     scroll: max(0, state.calendarCursor - overlay.visibleLines(in: room) + 1), box: box)
            for row in 0..<min(room.rows, drawn.count) { frame.lines[row] = drawn[row] }
            frame.lines[statusRow] = statusLine(for: state, position: [hiddenNote(state) ?? "all calendars shown",
                                                                       PagerBindings.key(.nextScreen) + " shows or hides",
                                                                       PagerBindings.closing(.calendars)], width: lastWidth)
        } else if case .prompt(let text) = state.screen {
            let prompt = Self.fit(Self.promptLabel + text, width: lastWidth)
            frame.lines[statusRow] = prompt
            frame.cursor = ScreenPosition(row: statusRow, column: DisplayWidth.of(prompt))
        } else if case .searchPrompt(let text) = state.screen {
            let prompt = Self.fit(Self.searchLabel + InertText.forView(text), width: lastWidth)
            frame.lines[statusRow] = prompt
            frame.cursor = ScreenPosition(row: statusRow, column: DisplayWidth.of(prompt))
        } else {
            var position = [body.position, "[" + state.view.label + "]"]
            if let zone = zoneNote(state) { position.insert(zone, at: 1) }
            if let hidden = hiddenNote(state) { position.insert(hidden, at: 1) }
            if body.lines.count > room.rows {
                position.append("lines \(scroll + 1)-\(scroll + room.rows)/\(body.lines.count)")
            }
            frame.lines[statusRow] = statusLine(for: state, position: position, width: lastWidth)
        }
        return frame
    }

    /// The keys that scroll the help: "j, k, Space, b".
    static let scrollKeys = [PagerAction.nextWeek, .previousWeek, .nextScreen, .previousScreen].map(PagerBindings.key).joined(separator: ", ")

    /// `text` cut to `width` cells (plain text, no escape sequences).
    static func fit(_ text: String, width: Int) -> String {
        DisplayWidth.prefix(of: text, fitting: max(0, width))
    }
}

// MARK: Keys at a size

extension PagerView {
    /// Hands `key` to `state` at a terminal of `size`: with the room it needs worked out first,
    /// and a click turned into the day under it (opened in the day view).
    public func handle(_ key: Key, in state: inout PagerState, size: TerminalSize) -> PagerState.Outcome {
        if case .click(let position) = key {
            guard state.screen == .months, let day = day(at: position, for: state, size: size) else { return .draw }
            state.open(day)
            return .draw
        }
        if state.needsRoom(for: key) { state.room = room(for: state, size: size) }
        if state.screen == .day || (state.view == .week && state.screen == .months),
           PagerBindings.action(for: key) == .editEvent, state.count == nil {
            state.startEditing(editText(for: state))
            return .draw
        }
        let outcome = state.handle(key)
        follow(state)
        return outcome
    }

    /// Makes the events show what `state` shows: the calendars its list (key `c`) hides are
    /// left out of every answer, in every view. Called where the state changes (a key, new
    /// calendars), never while a frame is drawn.
    public func follow(_ state: PagerState) {
        if let events, events.hidden != state.hiddenCalendars { events.hidden = state.hiddenCalendars }
        // The zone `z` chose has a store of its own (made on the first visit), hiding the same.
        if let events, let zone = state.shownZone { _ = events.shown(in: zone.zone, named: zone.name) }
    }

    /// The events as the state's zone shows them: the run's, in the zone they were read in,
    /// or the same events in the zone `z` chose (whose store `follow` made); nil without events.
    public func shownEvents(for state: PagerState) -> EventStore? {
        guard let events, let zone = state.shownZone else { return events }
        return events.shownStore(named: zone.name) ?? events.shown(in: zone.zone, named: zone.name)
    }

    /// The day drawn at `position` on the month page of `state` at `size`, or nil where no
    /// day is (a margin, a line, a blank cell, another view).
    public func day(at position: ScreenPosition, for state: PagerState, size: TerminalSize) -> Int? {
        guard state.view == .monthPage else { return nil }
        let room = TerminalSize(columns: size.columns, rows: max(0, size.rows - 1))
        let page = monthPage(for: state)
        guard let layout = page.layout(filling: room) else { return nil }
        let row = position.row - layout.top - 2
        let column = position.column - layout.left - layout.weekColumnWidth
        guard row >= 0, column >= 0, row % layout.cellHeight != 0, column % layout.cellWidth != 0 else { return nil }
        let (week, weekday) = (row / layout.cellHeight, column / layout.cellWidth)
        guard week < MonthPageLayout.weeks, weekday < 7 else { return nil }
        return renderer.grid(for: state.current).cell(week: week, column: weekday)?.day
    }
}
