import InfCalModel
import InfCalEvents

/// A zone times are shown in, with the name the status line and the headings give it
/// ("Europe/Berlin", "local").
public struct NamedZone: Sendable {
    /// How the zone is named to the user.
    public let name: String
    /// Its offset from UTC at any instant.
    public let zone: DisplayZone

    /// The zone `zone`, called `name`.
    public init(name: String, zone: DisplayZone) {
        self.name = name
        self.zone = zone
    }
}

/// Occurrences as another zone shows them than the one their store was made for.
///
/// The store answers in its own display zone: a timed occurrence of a zone or of UTC carries
/// that zone's offsets, from which its instant is known, and moves to any other zone's wall
/// clock; dates and floating times belong to no zone and stay as written.
public enum ZonedOccurrences {
    /// `occurrence` shown in `zone`: a timed one with offsets moved to `zone`'s wall clock (and
    /// its offsets), one without (a date, a floating time) as it is.
    public static func moved(_ occurrence: Occurrence, to zone: DisplayZone) -> Occurrence {
        guard !occurrence.isAllDay, let startOffset = occurrence.startOffset else { return occurrence }
        let start = occurrence.start - startOffset
        let end = occurrence.end - (occurrence.endOffset ?? startOffset)
        let (newStart, newEnd) = (zone.offset(start), zone.offset(end))
        var moved = Occurrence(summary: occurrence.summary, calendarName: occurrence.calendarName, isAllDay: false,
                               start: start + newStart, end: max(start + newStart, end + newEnd))
        moved.startOffset = newStart
        moved.endOffset = newEnd
        moved.uid = occurrence.uid
        moved.source = occurrence.source
        moved.more = occurrence.more
        moved.event = occurrence.event
        moved.calendar = occurrence.calendar
        moved.color = occurrence.color
        return moved
    }

    /// The occurrences of `store` that touch `days` (grid day numbers) where `zone` shows them
    /// (nil: the store's own zone), each once, in order of start, then summary; those of the
    /// calendars in `hidden` left out.
    public static func touching(_ days: Range<Int>, store: EventStore, zone: DisplayZone?, hidden: Set<Int> = []) -> [Occurrence] {
        guard !days.isEmpty else { return [] }
        // Two zones' wall clocks differ by at most 26 hours: two days either side hold every
        // occurrence that may touch the days in the other zone.
        let margin = zone == nil ? 0 : 2
        let asked = (days.lowerBound - margin)..<(days.upperBound + margin)
        let byDay = store.occurrencesByDay(asked)
        var found: [Occurrence] = []
        for day in asked {
            guard let occurrences = byDay[day] else { continue }
            // Each occurrence is listed on every day it touches: taken on the first of them.
            for occurrence in occurrences where day == max(occurrence.startDay, asked.lowerBound) {
                if let calendar = occurrence.calendar, hidden.contains(calendar) { continue }
                let shown = zone.map { moved(occurrence, to: $0) } ?? occurrence
                guard shown.startDay < days.upperBound, shown.lastDay >= days.lowerBound else { continue }
                found.append(shown)
            }
        }
        // The standard sort is stable: equal starts and summaries keep the store's order.
        found.sort { ($0.start, $0.summary) < ($1.start, $1.summary) }
        return found
    }
}
