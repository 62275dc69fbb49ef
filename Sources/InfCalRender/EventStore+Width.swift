import InfCalEvents
import InfCalModel

/// Display widths are the render layer's: the event store only holds the names.
extension EventStore {
    /// The widest calendar name as the views show it (`InertText.forView`: a control as a
    /// space), for a column of them; 0 when no calendar has a name.
    public var calendarWidth: Int { calendars.compactMap(\.name).map { DisplayWidth.of(InertText.forView($0)) }.max() ?? 0 }
}
