import InfCalModel
import InfCalEvents

/// The text of one day with every event in full, as the pager's day view shows it: the date in
/// the calendar shown (and in Gregorian when that is another), then each event of the day with
/// its times (the end's date when it ends on another day, "day 2 of 3" for a span, the times
/// in the event's own zone when it differs), summary, location, the calendar it comes from,
/// its rule in words and its description wrapped to the width.
///
/// Pure: a day, its occurrences and their store in, lines out.
public struct DayView {
    /// The day's date in the calendar shown, with its weekday.
    public let title: String
    /// The lines, at most `width` cells each.
    public let lines: [String]
    /// The line each event starts on (its heading), in the order listed.
    public let eventStarts: [Int]
    /// The day's occurrences, in the order listed (the highlighted event is an index into it).
    public let occurrences: [Occurrence]

    /// The marker before the highlighted event's heading, and the blank before the others.
    static let marker = (on: "> ", off: "  ")
    /// Where an event's details start, under its heading.
    static let indent = "    "

    /// The day view of `day` (a day number) in `month` of `calendar`, named by `names`, with
    /// the occurrences touching it (`occurrences`, from `store`, nil when the run reads no
    /// events), `width` cells wide, `highlighted` marked; `arrow` joins a start and an end.
    public init(day: Int, month: Month, names: CalendarNames, calendar: MonthCalendar, occurrences: [Occurrence],
                store: EventStore?, width: Int, highlighted: Int, arrow: String = "→") {
        let weekday = names.fullWeekdayNames[DayNumber.weekday(day) - 1]
        title = weekday + " " + String(day - month.firstDay + 1) + " " + names.title(of: month)
        var lines: [String] = []
        let gregorian = ISODate.text(dayNumber: day)
        if calendar.identifier != .gregorian, calendar.identifier != .iso8601 {
            lines.append(gregorian + " in the Gregorian calendar")
            lines.append("")
        }
        let width = max(8, width)
        let ordered = DayCellEvents.ordered(occurrences)
        self.occurrences = ordered
        var starts: [Int] = []
        if store == nil {
            lines.append("No events: start infcal with --events FILE (an .ics file or a directory of them).")
        } else if ordered.isEmpty {
            lines.append("No events on this day.")
        }
        for (number, occurrence) in ordered.enumerated() {
            if number > 0 { lines.append("") }
            starts.append(lines.count)
            let event = occurrence.event.flatMap { index in store.flatMap { index < $0.events.count ? $0.events[index] : nil } }
            // With how many more the day limit left out, after the last it kept.
            let summary = occurrence.shownSummary
            let heading = (number == highlighted ? Self.marker.on : Self.marker.off)
                + Self.times(occurrence, arrow: arrow) + "  " + summary
            lines += DisplayWidth.wrap(heading, width: width, indent: 0).enumerated().map { $0.offset == 0 ? $0.element : Self.indent + $0.element }
            var details: [String] = []
            if occurrence.startDay != occurrence.lastDay {
                details.append("day \(day - occurrence.startDay + 1) of \(occurrence.lastDay - occurrence.startDay + 1)")
            }
            if let event, let zone = Self.ownZone(occurrence, event: event, arrow: arrow) { details.append(zone) }
            if let location = event?.details.location, !location.isEmpty {
                details.append("Where: " + InertText.forView(location))
            }
            if let calendar = occurrence.calendarName ?? occurrence.source.map(Self.fileName) {
                details.append("Calendar: " + InertText.forView(calendar))
            }
            if let event, let rule = event.rule {
                details.append("Repeats " + RuleDescription.text(rule, start: event.start.seconds))
            } else if let event, event.isRecurring {
                details.append("Repeats on the dates the file lists")
            }
            for detail in details {
                lines += DisplayWidth.wrap(detail, width: width - Self.indent.count, indent: 0).map { Self.indent + $0 }
            }
            if let description = event?.details.description, !description.isEmpty {
                for paragraph in description.split(separator: "\n", omittingEmptySubsequences: false) {
                    let text = InertText.forView(String(paragraph))
                    lines += DisplayWidth.wrap(text, width: width - Self.indent.count, indent: 0).map { $0.isEmpty ? "" : Self.indent + $0 }
                }
            }
        }
        self.lines = lines
        eventStarts = starts
    }

    /// The times of `occurrence`: "all day", "09:00-10:00", or with the other
    /// day's date where it starts or ends on another day ("2014-04-09 09:30 → 2014-04-12 10:30").
    static func times(_ occurrence: Occurrence, arrow: String) -> String {
        let startDate = ISODate.text(civilDay: CivilTime.day(ofSeconds: occurrence.start))
        if occurrence.isAllDay {
            guard occurrence.lastDay != occurrence.startDay else { return "all day" }
            let last = ISODate.text(dayNumber: occurrence.lastDay)
            return "all day, " + startDate + " " + arrow + " " + last
        }
        let start = AgendaPrinter.clock(occurrence.start)
        guard occurrence.end > occurrence.start else { return start }
        let end = AgendaPrinter.clock(occurrence.end)
        if occurrence.startDay == occurrence.lastDay { return start + "-" + end }
        let endDate = ISODate.text(civilDay: CivilTime.day(ofSeconds: occurrence.end))
        return startDate + " " + start + " " + arrow + " " + endDate + " " + end
    }

    /// The times in the event's own zone, when it has one whose offset differs from the
    /// display's at the start: "09:30-10:30 in America/New_York".
    static func ownZone(_ occurrence: Occurrence, event: Event, arrow: String) -> String? {
        guard case .zoned(let name) = event.start.form, let zone = event.zone,
              let shown = occurrence.startOffset else { return nil }
        let utc = occurrence.start - shown
        let own = zone.offset(atUTC: utc)
        guard own != shown else { return nil }
        let endUTC = occurrence.end - (occurrence.endOffset ?? shown)
        let ownEnd = zone.offset(atUTC: endUTC)
        let moved = Occurrence(summary: occurrence.summary, calendarName: nil, isAllDay: false, start: utc + own, end: endUTC + ownEnd)
        return times(moved, arrow: arrow) + " in " + InertText.forView(name)
    }

    /// The last part of a path.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
