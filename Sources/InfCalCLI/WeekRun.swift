import InfCalModel
import InfCalEvents
import InfCalRender

/// `--week`: weeks by the hour printed one after another (see `ShownWeeks`), as grids or as
/// JSON objects (`--week --json`).
public struct WeekRun {
    /// The look of the weeks (internal: the runner prints through `print`).
    let configuration: Configuration
    /// The weeks printed.
    public let weeks: ShownWeeks
    /// The events to read before printing (none when `events.needsEvents` is false).
    public let events: EventSettings
    /// Each week as a JSON object.
    public let json: Bool
    /// The zone's name the title and the JSON give: `--zone`'s, or TZ's name (nil where TZ
    /// names none); the title names a zone only when `--zone` does.
    let zoneLabel: String?

    /// The printer of the run's weeks.
    func printer() -> WeekPrinter {
        var week = configuration.makeWeekRenderer()
        if configuration.zone != .local { week.zoneName = configuration.zone.name }
        var printer = WeekPrinter(renderer: week, width: configuration.weekWidth)
        printer.hours = configuration.weekHours
        printer.zoneName = zoneLabel
        printer.json = json
        return printer
    }

    /// Prints the weeks to `sink`, with the events of `store` when the run read some.
    public func print(events store: EventStore?, to sink: ByteSink) throws {
        try printer().print(weeks.weeks(), store: store, to: sink)
    }
}
