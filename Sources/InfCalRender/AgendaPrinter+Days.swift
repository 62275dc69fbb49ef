import Foundation
import InfCalModel
import InfCalEvents

/// `--agenda --days`: the list under day headings, as khal's `list` prints it. An occurrence of
/// several days is listed under each of its days: on its first with its start and an arrow, on
/// the days between with `↔`, on its last with an arrow and its end, and after the first day
/// marked `(continuing)`, so an event already under way on the first day listed is there too.
///
/// ```
/// Wednesday, 2014-04-09
///   09:30 →      An Event
/// Thursday, 2014-04-10
///   ↔            An Event  (continuing)
///   12:00-13:00  Lunch
/// ```
extension AgendaPrinter {
    /// The heading of the day `day` (grid day number): the locale's weekday name, the ISO date.
    public func dayHeading(_ day: Int) -> String {
        fullWeekdays[DayNumber.weekday(day) - 1] + ", " + ISODate.text(dayNumber: day)
    }

    /// The times of `occurrence` on `day`, one of its days: its own times when it has one day,
    /// else what part of it falls on `day`.
    func times(_ occurrence: Occurrence, on day: Int) -> String {
        guard occurrence.lastDay != occurrence.startDay else { return times(occurrence) }
        let both = arrow == "→" ? "↔" : "<->"
        if occurrence.isAllDay { return day == occurrence.startDay ? "all-day " + arrow : day == occurrence.lastDay ? "all-day" : both }
        if day == occurrence.startDay { return Self.clock(occurrence.start) + " " + arrow }
        if day == occurrence.lastDay { return arrow + " " + Self.clock(occurrence.end) }
        return both
    }

    /// The line of `occurrence` under the heading of `day`, without its newline, cut to the
    /// width where there is one.
    public func line(_ occurrence: Occurrence, on day: Int) -> String {
        let lead = "  " + Self.padded(times(occurrence, on: day), to: Self.timeWidth) + "  "
        let mark = day > occurrence.startDay ? "  " + Self.continuing : ""
        if showsUID { return finished(lead, occurrence, cut: { $0 + mark }) }
        return finished(lead, occurrence, cut: { text in
            let marked = text + mark
            return width.map { DisplayWidth.prefix(of: marked, fitting: $0) } ?? marked
        })
    }

    /// Prints the days of `months` (in the order given, inside `plan` and `bounds`) that have
    /// occurrences, each under its heading, and stops once `store` can hold no more.
    func printDays<Months: Sequence<Month>>(_ months: Months, store: EventStore, plan: AgendaPlan,
                                            bounds: MonthBounds, to sink: ByteSink) throws {
        var block: [UInt8] = []
        for month in months {
            let days = Self.listedDays(of: month, plan: plan, bounds: bounds)
            guard !days.isEmpty else { continue }
            let byDay = store.occurrencesByDay(days)
            let more = plan.backward ? store.mayHaveOccurrences(before: days.upperBound) : store.mayHaveOccurrences(from: days.lowerBound)
            if byDay.isEmpty, !more { break }
            for day in plan.backward ? Array(days.reversed()) : Array(days) {
                guard var occurrences = byDay[day], !occurrences.isEmpty else { continue }
                if plan.backward { occurrences.reverse() }
                block += dayHeading(day).utf8
                block.append(0x0A)
                for occurrence in occurrences {
                    block += line(occurrence, on: day).utf8
                    block.append(0x0A)
                }
            }
            if block.count >= Self.blockSize {
                try sink.write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { try sink.write(block) }
    }

    /// The days of `month` the agenda of `plan` lists inside `bounds` (maybe none).
    static func listedDays(of month: Month, plan: AgendaPlan, bounds: MonthBounds) -> Range<Int> {
        var first = month.firstDay
        var end = month.endDay
        if plan.backward { end = min(end, plan.startDay + 1) } else { first = max(first, plan.startDay) }
        if let since = bounds.since { first = max(first, since) }
        if let until = bounds.until { end = min(end, until + 1) }
        return first < end ? first..<end : first..<first
    }
}
