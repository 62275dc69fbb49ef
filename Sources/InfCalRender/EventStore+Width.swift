import InfCalEvents
import InfCalModel

/// Display widths are the render layer's: the event store only holds the names.
extension EventStore {
    /// The widest calendar name, for a column of them; 0 when no calendar has a name.
    public var calendarWidth: Int { calendars.compactMap(\.name).map { DisplayWidth.of($0) }.max() ?? 0 }
}
