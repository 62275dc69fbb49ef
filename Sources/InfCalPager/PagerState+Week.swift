import InfCalModel
import InfCalEvents
import InfCalRender

// The week view's keys: the hours scrolled, a week at a time, the selected day's events stepped
// through, the zones cycled, the day's writes asked for.
extension PagerState {
    /// What `action` does in the week view, repeated `repeats` times, or nil where it does
    /// what it does in every view (the days' moves, Enter, the years, the overlays, quit).
    mutating func handleWeek(_ action: PagerAction, key: Key, repeats: Int) -> Outcome? {
        let before = selected
        defer {
            if selected != before { highlightedEvent = 0 }
        }
        switch action {
        case .nextWeek, .previousWeek:
            // The hours an hour at a time, as far as the day's ends.
            let shown = room.weekHours
            let top = shown.lowerBound + (action == .nextWeek ? repeats : -repeats)
            weekTop = min(max(0, 24 - shown.count), max(0, top))
        case .nextMonth, .nextScreen:
            moveDays(7 * repeats)
        case .previousMonth, .previousScreen:
            moveDays(-7 * repeats)
        case .nextEvent:
            let starts = room.eventStarts
            guard !starts.isEmpty else {
                message = Message(text: "no event on this day", isError: false)
                return .draw
            }
            highlightedEvent = (highlightedEvent + repeats) % starts.count
            // Its hours brought into sight.
            let hour = starts[highlightedEvent]
            let shown = room.weekHours
            if hour >= 0, !shown.contains(hour) { weekTop = max(0, min(hour, 24 - shown.count)) }
        case .cycleZone:
            cycleZone()
        case .addEvent, .deleteEvent:
            askForWrite(action == .addEvent ? .add : nil, events: room.eventStarts.count)
        default:
            return nil
        }
        return .draw
    }
}
