import InfCalModel
import InfCalEvents

/// What a day's cell on the month page says about its events: one line an occurrence, all-day
/// and multi-day ones first, then the timed ones by start with the time first (`09:00 Standup`),
/// each cut with `…` to the cell's width; when they do not fit, the last line shows one more
/// name and the count of the rest (`Rosa P… +1`), or only `+N more` where no name fits.
public enum DayCellEvents {
    /// The order of a cell: all-day and multi-day occurrences first, then by start, then summary.
    public static func ordered(_ occurrences: [Occurrence]) -> [Occurrence] {
        orderedIndices(occurrences).map { occurrences[$0] }
    }

    /// The indices of `occurrences` in the order of a cell (see `ordered`).
    public static func orderedIndices(_ occurrences: [Occurrence]) -> [Int] {
        occurrences.indices.sorted { a, b in
            let (longA, longB) = (spansDays(occurrences[a]), spansDays(occurrences[b]))
            if longA != longB { return longA }
            if occurrences[a].start != occurrences[b].start { return occurrences[a].start < occurrences[b].start }
            return a < b
        }
    }

    /// Whether `occurrence` goes before the timed ones: all-day, or touching more than one day.
    static func spansDays(_ occurrence: Occurrence) -> Bool {
        occurrence.isAllDay || occurrence.lastDay != occurrence.startDay
    }

    /// The text of `occurrence` in the cell of `day`: the start time first for a timed one that
    /// starts that day, the summary alone otherwise (control characters as spaces).
    public static func text(_ occurrence: Occurrence, on day: Int) -> String {
        let summary = occurrence.shownSummary
        guard !occurrence.isAllDay, occurrence.startDay == day else { return summary }
        return AgendaPrinter.clock(occurrence.start) + " " + summary
    }

    /// The lines of `day`'s cell for `occurrences` (those touching the day), at most `height`
    /// lines of at most `width` cells: every occurrence when they fit, else `height - 1` of
    /// them and `+N more` for the rest. Empty when there is no room.
    public static func lines(_ occurrences: [Occurrence], day: Int, width: Int, height: Int) -> [String] {
        coloredLines(occurrences, day: day, width: width, height: height).map(\.text)
    }

    /// `lines`, each with the colour of its occurrence's calendar (nil for none, and for
    /// `+N more`).
    public static func coloredLines(_ occurrences: [Occurrence], day: Int, width: Int,
                                    height: Int) -> [(text: String, color: CalendarColor?)] {
        guard width > 0, height > 0, !occurrences.isEmpty else { return [] }
        let ordered = ordered(occurrences)
        let shown = ordered.count <= height ? ordered.count : height - 1
        var lines = ordered.prefix(shown).map { (text: DisplayWidth.truncated(text($0, on: day), to: width), color: $0.color) }
        guard shown < ordered.count else { return lines }
        // The last line holds one more name, cut to leave room for the count of the rest
        // (`Rosa P… +1`), while two characters of it fit; else the count alone.
        let last = ordered[shown]
        let count = " +\(ordered.count - shown - 1)"
        let room = width - DisplayWidth.of(count)
        // The time gives way to the name where both do not fit.
        var name = text(last, on: day)
        if DisplayWidth.of(name) > room { name = last.shownSummary }
        if room >= 3 || (room >= 1 && DisplayWidth.of(name) <= room) {
            lines.append((DisplayWidth.truncated(name, to: room) + count, last.color))
        } else {
            let more = "+\(ordered.count - shown) more"
            lines.append((DisplayWidth.of(more) <= width ? more : DisplayWidth.prefix(of: "+\(ordered.count - shown)", fitting: width), nil))
        }
        return lines
    }
}
