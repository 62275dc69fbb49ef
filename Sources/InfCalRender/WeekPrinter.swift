import InfCalModel
import InfCalEvents

/// Weeks by the hour printed one after another (`infcal --week`): each week's grid as the
/// pager's week view draws it, as wide as asked, its hours in half-hour rows and every event of
/// its band on a line (`WeekLayout.printed`), a blank line between weeks; or each week as one
/// JSON object (`WeekJSON`).
public struct WeekPrinter {
    /// Draws the grids: names, calendar, `--also`, clock, colour, today.
    public var renderer: WeekRenderer
    /// The width of the grids, in cells (at least `renderer.width(days: 7)`).
    public var width: Int
    /// The hours shown (`--hours`); nil: each week's events' working hours.
    public var hours: Range<Int>?
    /// The zone the times are in, as the JSON names it (nil: null).
    public var zoneName: String?
    /// Each week as a JSON object instead of a grid.
    public var json = false

    /// A printer drawing with `renderer` at `width` cells.
    public init(renderer: WeekRenderer, width: Int) {
        self.renderer = renderer
        self.width = width
    }

    /// Bytes collected before they are written: a few weeks' grids.
    static let blockSize = 64 * 1024

    /// The layout of the week starting on `first` (a day number) with the occurrences of
    /// `store` (nil: none), as printed, or as the JSON places it.
    public func layout(week first: Int, store: EventStore?) -> WeekLayout {
        let days = Array(first..<(first + 7))
        let zone = store?.display ?? .utc
        let occurrences = store.map { ZonedOccurrences.touching(first..<(first + 7), store: $0, zone: nil) } ?? []
        let shown = hours ?? WeekLayout.workingHours(days: days, zone: zone, occurrences: occurrences)
        if json { return WeekLayout(days: days, zone: zone, occurrences: occurrences, hours: shown, height: WeekJSON.layoutHeight) }
        return WeekLayout.printed(days: days, zone: zone, occurrences: occurrences, hours: shown)
    }

    /// Prints the weeks starting on `weeks` (day numbers), with the events of `store`, to `sink`.
    public func print(_ weeks: some Sequence<Int>, store: EventStore?, to sink: ByteSink) throws {
        let buffer = ByteBuffer(capacity: Self.blockSize + 16 * 1024)
        var first = true
        for week in weeks {
            let layout = layout(week: week, store: store)
            if json {
                WeekJSON.appendWeek(layout, renderer: renderer.renderer, zoneName: zoneName, to: buffer)
            } else {
                if !first { buffer.append(UInt8(ascii: "\n")) }
                for line in renderer.lines(for: layout, width: width) {
                    buffer.append(line)
                    buffer.append(UInt8(ascii: "\n"))
                }
            }
            first = false
            if buffer.count >= Self.blockSize {
                try sink.write(buffer.bytes)
                buffer.removeAll()
            }
        }
        if buffer.count > 0 { try sink.write(buffer.bytes) }
    }
}
