import InfCalModel
import InfCalEvents
import InfCalRender

// The week view (`WeekLayout` drawn by `WeekRenderer`) and the day view's timeline.
extension PagerView {
    /// The lines a screen needs at least (the status line's among them) for the day view to put
    /// a timeline of the day above its events.
    static let timelineRows = 30

    /// The week renderer for `state`: the pager's marks, today, the selected day, the clock.
    func weekRenderer(for state: PagerState) -> WeekRenderer {
        var week = WeekRenderer(renderer: marking(state), box: box, clock: clock)
        week.color = highlightToday
        week.trueColor = trueColor
        week.marks = true
        week.today = state.today
        week.selected = state.selected
        week.now = state.now
        return week
    }

    /// The layout of the week view of `state` in `room` (the screen without its status line),
    /// or nil when the room is too small for a day.
    public func weekLayout(for state: PagerState, room: TerminalSize) -> WeekLayout? {
        weekRenderer(for: state).layout(selected: state.selected, store: shownEvents(for: state), zone: nil,
                                        hidden: state.hiddenCalendars, hours: weekHours, top: state.weekTop, size: room)
    }

    /// The occurrences of `layout` on `day`, as indices into them, in the order the day view
    /// lists that day's events (the order `highlightedEvent` counts in).
    static func dayEvents(_ layout: WeekLayout, day: Int) -> [Int] {
        let touching = layout.occurrences.indices.filter { layout.occurrences[$0].startDay <= day && day <= layout.occurrences[$0].lastDay }
        return DayCellEvents.orderedIndices(touching.map { layout.occurrences[$0] }).map { touching[$0] }
    }

    /// The week view's body: the week's lines, and where it stands (its first and last day,
    /// the zone shown when zones are configured: "2024-03-25 – 31  Europe/Berlin").
    func weekBody(for state: PagerState, room: TerminalSize) -> Result<Body, TooSmall> {
        var week = weekRenderer(for: state)
        guard let layout = weekLayout(for: state, room: room), let first = layout.days.first, let last = layout.days.last else {
            return .failure(TooSmall(needed: week.smallestSize))
        }
        let events = Self.dayEvents(layout, day: state.selected)
        if events.indices.contains(state.highlightedEvent) { week.highlighted = events[state.highlightedEvent] }
        // The first day's date, and of the last what differs: "2024-03-25 – 31", "2024-03-29 – 04-04".
        let (from, to) = (ISODate.text(dayNumber: first), ISODate.text(dayNumber: last))
        let common = from.hasPrefix(to.prefix(8)) ? 8 : from.hasPrefix(to.prefix(5)) ? 5 : 0
        let position = from + (first == last ? "" : (box == .ascii ? " - " : " – ") + to.dropFirst(common))
        return .success(Body(lines: week.lines(for: layout, width: room.columns), position: position, monthCount: 1))
    }

    /// What the week view's keys need of `room`: the hours shown, and the hour each of the
    /// selected day's events starts at (-1 for the band's).
    func weekRoom(for state: PagerState, room: TerminalSize, into result: inout PagerState.Room) {
        guard let layout = weekLayout(for: state, room: room) else { return }
        result.weekHours = layout.hours
        let midnight = CivilTime.day(ofGrid: state.selected) * CivilTime.secondsPerDay
        result.eventStarts = Self.dayEvents(layout, day: state.selected).map { index in
            guard layout.instants(ofOccurrence: index) != nil else { return -1 }
            return max(0, layout.occurrences[index].start - midnight) / 3600
        }
    }

    /// The occurrences touching `day` as the state's zone shows them, those of hidden
    /// calendars left out, in the store's order.
    func occurrences(touching day: Int, for state: PagerState) -> [Occurrence] {
        shownEvents(for: state)?.occurrencesByDay(day..<(day + 1))[day] ?? []
    }

    /// The day view's timeline of the selected day, `width` cells wide, when `room` (the screen
    /// without its status line) is tall enough (`timelineRows`): a week view of that day alone
    /// in half of it, without colour (the day view's box cuts its lines by their text); nil
    /// otherwise.
    func dayTimeline(for state: PagerState, width: Int, room: TerminalSize) -> [String]? {
        guard room.rows + 1 >= Self.timelineRows, let events = shownEvents(for: state) else { return nil }
        var week = WeekRenderer(renderer: renderer, box: box, clock: clock)
        week.showsTitle = false
        week.now = state.now
        guard let layout = week.layout(selected: state.selected, count: 1, store: events, zone: nil,
                                       hidden: state.hiddenCalendars, hours: weekHours, top: nil,
                                       size: TerminalSize(columns: width, rows: room.rows / 2)) else { return nil }
        return week.lines(for: layout, width: width)
    }
}
