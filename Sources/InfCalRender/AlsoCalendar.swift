import Foundation
import InfCalModel
import InfCalEvents

/// The second calendar of `--also`: each day shown in it as well, by infcal's own months of that
/// calendar (`MonthCalendar`), so that a day reads here as it reads on that calendar's own pages.
///
/// A class, so that copies of a renderer share the month last looked up: the days of a page, a
/// stream or an agenda come in order, and the month holding the next day is nearly always the
/// one already found or the one after it, so a day costs a comparison, not a calendar call.
/// Used from one thread at a time, as the renderer is.
public final class AlsoCalendar {
    /// The other calendar's months.
    public let calendar: MonthCalendar
    /// Its names, in the run's locale.
    public let names: CalendarNames
    /// The month last looked up, and its days' numbers.
    private var last: (month: Month, labels: DayLabels)?

    /// The name `--also` takes for the calendar ("hebrew").
    public var identifierName: String { CalendarChoice.name(of: calendar.identifier) }

    /// The other calendar `calendar`, named in `locale` (nil: POSIX English).
    public init(calendar: MonthCalendar, locale: Locale?) {
        self.calendar = calendar
        names = CalendarNames(locale: locale, calendar: calendar)
    }

    /// One day as the other calendar has it.
    public struct Day: Hashable, Sendable {
        /// The other calendar's month that holds the day.
        public let month: Month
        /// The day's number in that month, as the calendar numbers it.
        public let label: Int
        /// Whether the day is that month's first.
        public var startsMonth: Bool { label == firstLabel }
        let firstLabel: Int
    }

    /// `day` (a day number) in the other calendar.
    /// - returns: nil outside the calendar's range.
    public func day(_ day: Int) -> Day? {
        if var month = last?.month, !month.contains(day: day) {
            // A month or two on, when the days come in order (a month's last day after its
            // first); else a fresh look-up.
            var steps = 0
            while day >= month.endDay, steps < 2, let next = calendar.month(after: month) {
                month = next
                steps += 1
            }
            last = month.contains(day: day) ? (month, calendar.dayLabels(of: month)) : nil
        }
        if last == nil {
            guard let month = calendar.month(containing: day) else { return nil }
            last = (month, calendar.dayLabels(of: month))
        }
        guard let (month, labels) = last else { return nil }
        return Day(month: month, label: labels.label(at: day - month.firstDay), firstLabel: labels.label(at: 0))
    }

    /// The days `first..<end`, in order; nil for a day outside the calendar's range.
    public func days(_ days: Range<Int>) -> [Day?] {
        days.map(day)
    }

    /// The other calendar's months that `days` span, first and last: "Kislev – Tevet 5787",
    /// "Elul 5786 – Tishri 5787" across a year, "Kislev 5787" for one.
    /// - returns: nil where none of the days lies in the calendar's range.
    public func spanTitle(_ days: Range<Int>) -> String? {
        guard !days.isEmpty else { return nil }
        let first = day(days.lowerBound)?.month ?? day(days.upperBound - 1)?.month
        let last = day(days.upperBound - 1)?.month ?? first
        guard let first, let last else { return nil }
        let lastTitle = names.title(of: last)
        guard first != last else { return lastTitle }
        let firstName = names.monthName(of: first)
        // In one year the year is said once, where the title puts the month first.
        if first.name.era == last.name.era, first.name.year == last.name.year,
           lastTitle.hasPrefix(names.monthName(of: last)) {
            return firstName + " – " + lastTitle
        }
        return names.title(of: first) + " – " + lastTitle
    }

    /// The day as a line of the agenda carries it: "14 Kislev 5787".
    public func dateText(_ day: Day) -> String {
        "\(day.label) " + names.title(of: day.month)
    }

    /// The agenda's column for the other date: as wide as the widest "[30 Month Year]" of the
    /// year of months from the one holding `day`, so the times after it line up (worked out
    /// once, at the first line).
    public func agendaWidth(near day: Int) -> Int {
        if let agendaColumn { return agendaColumn }
        var widest = 0
        var month = calendar.month(containing: day)
        for _ in 0..<14 {
            guard let shown = month else { break }
            widest = max(widest, DisplayWidth.of(names.title(of: shown)))
            month = calendar.month(after: shown)
        }
        let width = widest + 5
        agendaColumn = width
        return width
    }
    private var agendaColumn: Int?

    /// The day as the agenda lists it, in brackets, padded to `agendaWidth`: "[14 Kislev 5787]".
    public func agendaText(_ day: Int) -> String {
        let text = self.day(day).map { "[" + dateText($0) + "]" } ?? ""
        return text + String(repeating: " ", count: max(0, agendaWidth(near: day) - DisplayWidth.of(text)))
    }

    /// Appends the JSON object of `day` (a day number) in the other calendar: its calendar,
    /// era, year, month number (as `--json`'s months number them), month name, day and
    /// whether the month is a leap month, after its ISO 8601 date where `dated` says so; `null`
    /// outside the calendar's range.
    public func appendJSON(_ day: Int, dated: Bool = false, to out: ByteBuffer) {
        guard let found = self.day(day) else { return out.append("null") }
        let name = found.month.name
        out.append(dated ? "{\"date\":\"" + ISODate.text(dayNumber: day) + "\",\"calendar\":" : "{\"calendar\":")
        JSONText.appendString(identifierName, to: out)
        out.append(",\"era\":\(name.era),\"year\":\(name.year),\"month\":\(name.month),\"monthName\":")
        JSONText.appendString(names.monthName(of: found.month), to: out)
        out.append(",\"day\":\(found.label),\"leapMonth\":" + (name.isLeapMonth ? "true" : "false") + "}")
    }

    /// What a day cell shows of `day` in `width` cells: "1 Tevet" where the month starts (its
    /// name cut to fit, at least three characters of it), else the day's number; empty where
    /// not even the number fits.
    public func cellText(_ day: Day, width: Int) -> String {
        let number = String(day.label)
        guard number.count <= width else { return "" }
        guard day.startsMonth else { return number }
        let name = names.monthName(of: day.month)
        let room = width - number.count - 1
        if DisplayWidth.of(name) <= room { return number + " " + name }
        var cut = DisplayWidth.prefix(of: name, fitting: room)
        while cut.last == " " { cut.removeLast() }
        return cut.count >= 3 ? number + " " + cut : number
    }
}
