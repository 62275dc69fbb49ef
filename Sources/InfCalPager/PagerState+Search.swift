import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// Searching the events, in slices between keys.
extension PagerState {

    /// A search under way: the days still to look at lie from `next` up to `horizon`
    /// (forward) or from `horizon` up to `next` (backward, `next` itself excluded).
    public struct Search: Equatable, Sendable {
        public let text: String
        public let forward: Bool
        public var next: Int
        public let horizon: Int
        /// Whether the horizon is a bound of the calendar or of `--since`/`--until` rather
        /// than the farthest a search looks.
        public let horizonIsBound: Bool
    }

    /// How far a search looks from the selected day: 10,000 Gregorian years, in days, as far
    /// as a rule of no short cycle is looked at for its next instance.
    public static let searchReach = InputLimits.farthestLook

    /// Starts looking for `text` on the days after the selected one (before it, backward).
    mutating func startSearch(_ text: String, forward: Bool) {
        let days = selectableDays
        let reach = forward ? selected.addingReportingOverflow(1 + Self.searchReach) : selected.subtractingReportingOverflow(Self.searchReach)
        let horizon = forward ? (reach.overflow ? days.upperBound + 1 : min(days.upperBound + 1, reach.partialValue))
            : (reach.overflow ? days.lowerBound : max(days.lowerBound, reach.partialValue))
        let bound = forward ? horizon == days.upperBound + 1 : horizon == days.lowerBound
        search = Search(text: text, forward: forward, next: forward ? selected + 1 : selected, horizon: horizon, horizonIsBound: bound)
        message = Message(text: "searching for '\(InertText.echo(text, limit: 40))' (Esc stops)", isError: false)
    }

    /// While a search runs: Esc stops it, Ctrl-C quits, other keys wait for it.
    mutating func handleSearching(_ key: Key) -> Outcome {
        switch key {
        case .interrupt: return .quit
        case .escape:
            search = nil
            message = Message(text: "search stopped", isError: false)
        default: break
        }
        return .draw
    }

    /// The search looked at the days up to `day` (forward; back to it, backward) and found
    /// nothing there: it goes on from there, or ends, saying so, at its horizon.
    public mutating func searchPassed(_ day: Int) {
        guard var running = search else { return }
        running.next = day
        let done = running.forward ? day >= running.horizon : day <= running.horizon
        guard !done else { return searchFailed() }
        search = running
        let year = CivilTime.date(ofDay: day + CivilTime.dayNumberOffset).year
        message = Message(text: "searching for '\(InertText.echo(running.text, limit: 40))' in \(year) (Esc stops)", isError: false)
    }

    /// The search ends without a match: no event can match beyond the days looked at, or
    /// none did before the horizon.
    public mutating func searchFailed(beyondAll: Bool = false) {
        guard let running = search else { return }
        search = nil
        let text = "'" + InertText.echo(running.text, limit: 40) + "'"
        if beyondAll || running.horizonIsBound {
            message = Message(text: "no \(running.forward ? "later" : "earlier") match for \(text)", isError: false)
        } else {
            let year = CivilTime.date(ofDay: running.horizon + CivilTime.dayNumberOffset).year
            message = Message(text: "no match for \(text) \(running.forward ? "before" : "back to") \(year)", isError: false)
        }
    }

    /// The search found a match on `day`: it is selected (the day view, when open, shows it).
    public mutating func searchFound(_ day: Int) {
        guard search != nil else { return }
        search = nil
        message = nil
        select(day)
        scroll = 0
        highlightedEvent = 0
    }
}
