import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// The day view: its keys, its events stepped through, and the writes it asks for.
extension PagerState {
    /// In the day view: Enter and Esc close it, the days' moves show the next or previous day,
    /// j, k, Space and b scroll it (j and k from event to event), q and Ctrl-C quit; the other
    /// keys act on the months, and the view shows the day then selected.
    mutating func handleDay(_ key: Key) -> Outcome {
        if key == .escape, count == nil {
            closeDay()
            return .draw
        }
        let action = PagerBindings.action(for: key)
        switch action {
        case .openDay?:
            count = nil
            closeDay()
            return .draw
        case .nextDay?, .nextMonth?, .previousDay?, .previousMonth?:
            let repeats = count ?? 1
            count = nil
            message = nil
            moveDays(action == .nextDay || action == .nextMonth ? repeats : -repeats)
            highlightedEvent = 0
            scroll = 0
            return .draw
        case .nextWeek?, .previousWeek?:
            let repeats = min(count ?? 1, room.scrollLimit + room.eventStarts.count + 1)
            count = nil
            for _ in 0..<repeats { action == .nextWeek ? stepDown() : stepUp() }
            return .draw
        case .nextScreen?, .previousScreen?:
            let lines = scrollLines(for: action ?? .nextScreen) * (count ?? 1)
            count = nil
            scroll = min(room.scrollLimit, max(0, scroll + lines))
            highlightedEvent = max(0, (room.eventStarts.lastIndex { $0 <= scroll }) ?? 0)
            return .draw
        case .addEvent?, .deleteEvent?:
            count = nil
            message = nil
            askForWrite(action == .addEvent ? .add : nil, events: room.eventStarts.count)
            return .draw
        case .cycleZone?:
            count = nil
            cycleZone()
            highlightedEvent = 0
            scroll = 0
            return .draw
        default:
            let before = selected
            let outcome = handleMonths(key)
            if selected != before {
                highlightedEvent = 0
                scroll = 0
            }
            return outcome
        }
    }

    /// Selects `day` and opens the day view on it.
    public mutating func open(_ day: Int) {
        message = nil
        count = nil
        select(day)
        screen = .day
        scroll = 0
        highlightedEvent = 0
    }

    /// Closes the day view.
    private mutating func closeDay() {
        screen = .months
        scroll = 0
        highlightedEvent = 0
    }

    /// j in the day view: down a line while the highlighted event goes on below the screen,
    /// else to the next event, scrolled into sight.
    private mutating func stepDown() {
        let starts = room.eventStarts
        let visible = max(1, room.linesPerScreen + 1)
        let end = highlightedEvent + 1 < starts.count ? starts[highlightedEvent + 1] : scroll + visible + room.scrollLimit
        if end > scroll + visible, scroll < room.scrollLimit {
            scroll += 1
        } else if highlightedEvent + 1 < starts.count {
            highlightedEvent += 1
            let next = highlightedEvent + 1 < starts.count ? starts[highlightedEvent + 1] : starts[highlightedEvent] + visible
            if next > scroll + visible { scroll = min(room.scrollLimit, starts[highlightedEvent]) }
        } else if scroll < room.scrollLimit {
            scroll += 1
        }
    }

    /// k in the day view: up a line while the highlighted event starts above the screen, else
    /// to the event before, scrolled into sight.
    private mutating func stepUp() {
        let starts = room.eventStarts
        let start = highlightedEvent < starts.count ? starts[highlightedEvent] : 0
        if start < scroll {
            scroll -= 1
        } else if highlightedEvent > 0 {
            highlightedEvent -= 1
            if starts[highlightedEvent] < scroll { scroll = starts[highlightedEvent] }
        } else if scroll > 0 {
            scroll -= 1
        }
    }

    /// Opens the prompt for the highlighted event's new time and summary, holding `text`
    /// (what the event has now) to be edited; a day without events says so, and so does a
    /// zone other than the events' own.
    public mutating func startEditing(_ text: String?) {
        message = nil
        count = nil
        guard writesAllowed else { return refuseWrite(.editEvent) }
        guard let text else {
            message = Message(text: "no event to change on this day", isError: false)
            return
        }
        afterEventPrompt = screen == .months ? .months : .day
        screen = .eventPrompt(.edit, String(text.prefix(Self.maximumEventPromptLength)))
    }

    /// Opens the prompt for a new event (`purpose` `.add`) or the question before deleting
    /// the highlighted one (nil) of the selected day, which has `events` events; from the
    /// screen shown, which they go back to.
    mutating func askForWrite(_ purpose: EventPrompt?, events: Int) {
        guard writesAllowed else { return refuseWrite(purpose == nil ? .deleteEvent : .addEvent) }
        let back: Screen = screen == .months ? .months : .day
        if purpose == nil, events == 0 {
            message = Message(text: "no event to delete on this day", isError: false)
            return
        }
        afterEventPrompt = back
        screen = purpose.map { .eventPrompt($0, "") } ?? .confirmDelete
    }

    /// Says that `action`'s key writes only in the events' own zone, naming it.
    private mutating func refuseWrite(_ action: PagerAction) {
        let own = zones.first.map { " (" + $0.name + ")" } ?? ""
        message = Message(text: "\(PagerBindings.keyName(of: action)): times are shown in \(shownZone?.name ?? "another zone"); writes only in the events' zone\(own)",
                          isError: false)
    }

    /// Shows the times in the next of `zones`, or says there is none.
    mutating func cycleZone() {
        guard zones.count > 1 else {
            message = Message(text: "no other zone to show", isError: false)
            return
        }
        zoneIndex = (zoneIndex + 1) % zones.count
        message = nil
    }

    /// Keeps the day view's highlight on one of the day's `count` events (after a write
    /// took one away).
    public mutating func keepHighlight(within count: Int) {
        highlightedEvent = max(0, min(highlightedEvent, count - 1))
    }

    /// Says how a write went, on the status line, inert (`InertText.echo`, uncut: a path
    /// or a UID a write quotes could hold controls or bidirectional overrides).
    public mutating func report(_ text: String, isError: Bool) {
        message = Message(text: InertText.echo(text, limit: Int.max), isError: isError)
    }

    mutating func handleEventPrompt(_ key: Key, purpose: EventPrompt, text: String) -> Outcome {
        switch Self.edit(text, with: key, limit: Self.maximumEventPromptLength) {
        case .typed(let typed):
            screen = .eventPrompt(purpose, typed)
        case .cancelled:
            screen = afterEventPrompt
        case .quit:
            return .quit
        case .entered:
            screen = afterEventPrompt
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return .draw }
            switch purpose {
            case .add: return .write(.add(day: selected, text: trimmed))
            case .edit: return .write(.edit(day: selected, event: highlightedEvent, text: trimmed))
            }
        }
        return .draw
    }
}
