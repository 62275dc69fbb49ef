import InfCalModel
import InfCalEvents
import InfCalRender

// What the pager draws over its views: the agenda, the list of calendars, the day view.
extension PagerView {
    /// The agenda of the state's first month: its occurrences as `--agenda` lists them.
    func agenda(for state: PagerState) -> AgendaOverlay {
        let month = state.current
        let title = renderer.names.title(of: month)
        guard let events = shownEvents(for: state) else { return AgendaOverlay(title: title, lines: ["no events: start infcal with --events FILE"]) }
        // The overlay cuts its lines to the screen by their text, so they carry no colour.
        var printer = agendaPrinter
        printer.calendarWidth = events.calendarWidth
        return AgendaOverlay(title: title, lines: events.occurrences(startingOn: month.firstDay..<month.endDay).map(printer.line))
    }

    /// The list of calendars (key `c`): a row each, `[x]` shown or `[ ]` hidden, the chosen
    /// one marked `>`, numbered for the digit keys.
    func calendarList(for state: PagerState) -> AgendaOverlay {
        let rows = state.calendars.enumerated().map { row, calendar in
            (row == state.calendarCursor ? "> " : "  ") + (state.hiddenCalendars.contains(calendar.index) ? "[ ] " : "[x] ")
                + (row < 9 ? "\(row + 1) " : "  ") + InertText.forView(calendar.name)
        }
        return AgendaOverlay(title: "Calendars", lines: rows)
    }

    /// The zone the times are shown in, for the status line, where `z` has zones to cycle; nil otherwise.
    func zoneNote(_ state: PagerState) -> String? {
        state.zones.count > 1 && state.zones.indices.contains(state.zoneIndex) ? state.zones[state.zoneIndex].name : nil
    }

    /// What the status line says when calendars are hidden ("2 of 5 calendars hidden"), or nil.
    func hiddenNote(_ state: PagerState) -> String? {
        let hidden = state.calendars.filter { state.hiddenCalendars.contains($0.index) }.count
        return hidden == 0 ? nil : "\(hidden) of \(state.calendars.count) calendar\(state.calendars.count == 1 ? "" : "s") hidden"
    }

    /// The day view of the state's selected day in a box over the page (below its timeline
    /// where the screen is tall enough), and the line each of its events starts on.
    func dayOverlay(for state: PagerState, room: TerminalSize) -> (AgendaOverlay, [Int]) {
        let day = state.selected
        let month = state.selectedMonth
        let width = min(Self.dayViewWidth, room.columns - 4)
        let text = DayView(day: day, month: month, names: renderer.names, calendar: renderer.calendar,
                           occurrences: occurrences(touching: day, for: state), store: shownEvents(for: state), width: width,
                           highlighted: state.highlightedEvent, arrow: box == .ascii ? "->" : "→")
        guard let timeline = dayTimeline(for: state, width: width, room: room) else {
            return (AgendaOverlay(title: text.title, lines: text.lines), text.eventStarts)
        }
        return (AgendaOverlay(title: text.title, lines: timeline + [""] + text.lines), text.eventStarts.map { $0 + timeline.count + 1 })
    }

    /// The selected day's occurrences, in the order the day view lists them (the order its
    /// highlighted event and its writes count in), in the zone shown.
    public func dayOccurrences(for state: PagerState) -> [Occurrence] {
        DayCellEvents.ordered(occurrences(touching: state.selected, for: state))
    }

    /// What an edit of the highlighted event starts from: its time (`HH:MM-HH:MM`, none for
    /// an all-day event) and summary, as the prompt takes them; nil when the day has none.
    func editText(for state: PagerState) -> String? {
        let occurrences = dayOccurrences(for: state)
        guard occurrences.indices.contains(state.highlightedEvent) else { return nil }
        let occurrence = occurrences[state.highlightedEvent]
        var time = ""
        if !occurrence.isAllDay {
            time = AgendaPrinter.clock(occurrence.start)
            if occurrence.end > occurrence.start, occurrence.startDay == occurrence.lastDay { time += "-" + AgendaPrinter.clock(occurrence.end) }
            time += " "
        }
        return time + InertText.forView(occurrence.summary)
    }

    /// What the status line says before an event prompt's text.
    static let addLabel = "add (TIME[-TIME] SUMMARY): "
    static let editLabel = "change (TIME[-TIME] SUMMARY): "

    /// The widest the day view's text is wrapped to: lines a reader's eye can follow.
    static let dayViewWidth = 100
}
