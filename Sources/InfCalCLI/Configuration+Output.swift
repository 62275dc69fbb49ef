import InfCalModel
import InfCalRender

extension Configuration {
    /// What a run that shows months puts out, decided once from its settings: the program
    /// makes one switch on it. (`--help`, `--version` and `--completions` are answered before
    /// a configuration exists; `add`, `edit` and `delete` before options are read.)
    public enum Output: Equatable, Sendable {
        /// The calendars this platform computes (`--calendar list`).
        case calendarList
        /// Compact grids, as cal prints them, with the events below each month when read.
        case grids
        /// Month pages (`--wall`).
        case wall
        /// Months as JSON Lines (`--json`).
        case json
        /// The events listed day by day (`--agenda`, `--days`).
        case agenda
        /// The agenda as JSON Lines (`--agenda --json`).
        case agendaJSON
        /// The interactive pager, with its day view and its writes.
        case pager
    }

    /// What this run puts out; `events` says whether it lists the events (`--agenda`).
    public func output(events: EventSettings) -> Output {
        if mode == .listCalendars { return .calendarList }
        if events.agenda != nil { return json ? .agendaJSON : .agenda }
        if mode == .paged { return .pager }
        if json { return .json }
        return page.wallWidth == nil ? .grids : .wall
    }
}
