import InfCalModel
import InfCalEvents
import InfCalRender

/// The pager's search (`/`, `f`, `F`): the days are looked at in slices, so that the terminal
/// layer reads keys between them and Esc stops a long search.
extension PagerView {
    /// Days one slice looks at, at most: a few of the store's chunks of days.
    static let searchSlice = 16_384

    /// Looks at the next slice of days of the state's search, and selects the day with a
    /// match when there is one, or says there is none once nothing is left to look at.
    public mutating func continueSearch(_ state: inout PagerState) {
        guard let search = state.search else { return }
        guard let events = shownEvents(for: state) else { return state.searchFailed(beyondAll: true) }
        let store: EventStore
        if let kept = searchStore, kept.text == search.text, kept.events == ObjectIdentifier(events) {
            store = kept.store
        } else {
            guard let matcher = EventMatcher(search.text) else { return state.searchFailed(beyondAll: true) }
            store = events.restricted(to: matcher)
            searchStore = (search.text, ObjectIdentifier(events), store)
        }
        // The calendars hidden now are not searched.
        store.hidden = state.hiddenCalendars
        if search.forward {
            // Straight to where an event can start next; nothing left: no match at all.
            guard let start = store.earliestStartDay(from: search.next) else { return state.searchFailed(beyondAll: true) }
            guard start < search.horizon else { return state.searchPassed(search.horizon) }
            let end = start + min(Self.searchSlice, search.horizon - start)
            if let day = store.firstDayWithOccurrence(in: start..<end) { return state.searchFound(day) }
            state.searchPassed(end)
        } else {
            guard let last = store.latestStartDay(before: search.next) else { return state.searchFailed(beyondAll: true) }
            guard last >= search.horizon else { return state.searchPassed(search.horizon) }
            let start = last + 1 - min(Self.searchSlice, last + 1 - search.horizon)
            if let day = store.lastDayWithOccurrence(in: start..<(last + 1)) { return state.searchFound(day) }
            state.searchPassed(start)
        }
    }
}
