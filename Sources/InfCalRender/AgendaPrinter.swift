import Foundation
import InfCalModel
import InfCalEvents

/// Prints `--agenda`: one line per occurrence, month by month, as the months come.
///
/// `2024-04-02 Tue  09:00-10:00  Standup`: the ISO date of the start where the calendar is
/// shown, the locale's weekday abbreviation, the times in 24-hour form (or `all-day`), the
/// summary. At a terminal a line is cut to the width; in a pipe nothing is cut.
public struct AgendaPrinter {
    /// Weekday abbreviations, Sunday first, padded to one width.
    let weekdays: [String]
    /// Weekday names in full, Sunday first, for the headings of `--days`.
    let fullWeekdays: [String]
    let width: Int?
    static let timeWidth = 11
    /// What joins a start and an end on another day: an arrow, `->` where the character set
    /// is not UTF-8.
    public var arrow = "→"
    /// Occurrences that start before this day (a day number) are under way when the list
    /// starts: they are listed first, with their true start, marked `(continuing)`.
    public var listedFrom: Int?
    /// The mark of an occurrence under way when the list starts.
    public static let continuing = "(continuing)"
    /// The width of the calendars' names, a column before the summary; 0 for no column (no
    /// calendar of the run has a name).
    public var calendarWidth = 0
    /// Whether the calendar's name and the summary are drawn in the calendar's colour, and
    /// how: nil for no colour, else whether the terminal shows 24-bit colour.
    public var colors: Bool?
    /// Whether each line ends in a tab and the UID.
    public var showsUID = false
    /// `--also`: each line carries its day in this calendar after the weekday, or nil.
    public var also: AlsoCalendar?

    /// An agenda printer with the weekday names of `locale` (nil: POSIX English).
    public init(locale: Locale?, width: Int?) {
        var names = CalendarNames.posixWeekdayNames
        var full = CalendarNames.posixFullWeekdayNames
        if let locale {
            let formatter = DateFormatter()
            formatter.locale = locale
            let symbols: [String] = formatter.shortStandaloneWeekdaySymbols
            if symbols.count == 7 { names = symbols }
            let fullSymbols: [String] = formatter.standaloneWeekdaySymbols
            if fullSymbols.count == 7 { full = fullSymbols }
        }
        fullWeekdays = full
        let widest = names.map { DisplayWidth.of($0) }.max() ?? 3
        weekdays = names.map { $0 + String(repeating: " ", count: max(0, widest - DisplayWidth.of($0))) }
        self.width = width
    }

    /// The line of `occurrence`, without its newline: the end's date where it ends on another
    /// day (`09:30 → 2014-04-12 10:30`, `all-day → 2014-04-11` for the last of several days).
    public func line(_ occurrence: Occurrence) -> String {
        let civil = CivilTime.day(ofSeconds: occurrence.start)
        let date = CivilTime.date(ofDay: civil)
        let weekday = DayNumber.weekday(CivilTime.dayNumber(ofCivilDay: civil))
        let other = also.map { $0.agendaText(CivilTime.dayNumber(ofCivilDay: civil)) + "  " } ?? ""
        let lead = ISODate.text(date) + " " + weekdays[weekday - 1] + "  " + other
            + Self.padded(times(occurrence), to: Self.timeWidth) + "  "
        let mark = listedFrom.map { occurrence.startDay < $0 } == true ? "  " + Self.continuing : ""
        if showsUID { return finished(lead, occurrence, cut: { $0 + mark }) }
        return finished(lead, occurrence, cut: { text in
            let marked = text + mark
            return width.map { DisplayWidth.prefix(of: marked, fitting: $0) } ?? marked
        })
    }

    /// `lead` and then the calendar's name (in its column) and the summary of `occurrence`,
    /// `cut` to the line's width, and coloured after `lead` where the calendar has a colour.
    func finished(_ lead: String, _ occurrence: Occurrence, cut: (String) -> String) -> String {
        let summary = occurrence.shownSummary
        var name = ""
        if calendarWidth > 0 {
            name = InertText.forView(occurrence.calendarName ?? "")
            name += String(repeating: " ", count: max(0, calendarWidth - DisplayWidth.of(name))) + "  "
        }
        // With --uid the line is for programs: uncoloured, the UID after a tab (`cut` then only
        // marks, it does not cut).
        if showsUID { return cut(lead + name + summary) + "\t" + InertText.uid(occurrence.uid) }
        let text = cut(lead + name + summary)
        guard let trueColor = colors, let color = occurrence.color, text.count > lead.count else { return text }
        let split = text.index(text.startIndex, offsetBy: lead.count)
        return text[..<split] + color.foreground(trueColor: trueColor) + text[split...] + CalendarColor.defaultForeground
    }

    /// `text` with spaces after it to `width` characters; longer text is left whole.
    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// The times of `occurrence`: `09:00-10:00`, `all-day`, or with the end's date where it
    /// ends on another day.
    func times(_ occurrence: Occurrence) -> String {
        let multiDay = occurrence.lastDay != occurrence.startDay
        if occurrence.isAllDay {
            guard multiDay else { return "all-day" }
            return "all-day " + arrow + " " + ISODate.text(dayNumber: occurrence.lastDay)
        }
        var time = Self.clock(occurrence.start)
        guard occurrence.end > occurrence.start else { return time }
        if multiDay {
            time += " " + arrow + " " + ISODate.text(civilDay: CivilTime.day(ofSeconds: occurrence.end)) + " "
        } else {
            time += "-"
        }
        return time + Self.clock(occurrence.end)
    }

    /// The line of `occurrence` under a month of the stream: the day as the grid numbers it
    /// (`day`, already padded), the weekday, the start time for a timed occurrence and the
    /// summary, ` 2 Tue  09:00  Standup`, cut with `…` to `width` cells. With `continuing`,
    /// the day (grid day number) the line stands under, for an occurrence under way since an
    /// earlier day: that day's weekday, no time, and `(continuing)` after the summary.
    public func dayLine(_ occurrence: Occurrence, day: String, width: Int, on continuing: Int? = nil) -> String {
        let weekday = DayNumber.weekday(continuing ?? occurrence.startDay)
        let time = occurrence.isAllDay || continuing != nil ? "" : Self.clock(occurrence.start) + "  "
        let lead = day + " " + weekdays[weekday - 1] + "  " + time
        let mark = continuing == nil ? "" : "  " + Self.continuing
        return finished(lead, occurrence, cut: { DisplayWidth.truncated($0 + mark, to: width) })
    }

    public static func clock(_ seconds: Int) -> String {
        let minutes = CivilTime.floorMod(seconds, CivilTime.secondsPerDay) / 60
        let (hour, minute) = (minutes / 60, minutes % 60)
        // Five ASCII bytes straight into a small string: every listed event pays this.
        let digits: (UInt8, UInt8, UInt8, UInt8, UInt8) = (UInt8(0x30 + hour / 10), UInt8(0x30 + hour % 10), 0x3A,
                                                           UInt8(0x30 + minute / 10), UInt8(0x30 + minute % 10))
        return withUnsafeBytes(of: digits) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the line of `occurrence` and a newline to `bytes`: what `line` gives, built
    /// byte by byte (the stream's hot path), cut to the width when there is one.
    func append(_ occurrence: Occurrence, to bytes: inout [UInt8]) {
        guard width == nil, calendarWidth == 0, colors == nil, also == nil, occurrence.start >= 0, occurrence.start < 253_402_300_800,
              occurrence.lastDay == occurrence.startDay, listedFrom.map({ occurrence.startDay >= $0 }) ?? true else {
            bytes += line(occurrence).utf8
            bytes.append(0x0A)
            return
        }
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
        let civil = CivilTime.day(ofSeconds: occurrence.start)
        let date = CivilTime.date(ofDay: civil)
        digits(date.year, 4); bytes.append(0x2D); digits(date.month, 2); bytes.append(0x2D); digits(date.day, 2)
        bytes.append(0x20)
        bytes += weekdays[DayNumber.weekday(CivilTime.dayNumber(ofCivilDay: civil)) - 1].utf8
        bytes += [0x20, 0x20]
        if occurrence.isAllDay {
            bytes += "all-day    ".utf8
        } else {
            func clock(_ seconds: Int) {
                let minutes = CivilTime.floorMod(seconds, CivilTime.secondsPerDay) / 60
                digits(minutes / 60, 2); bytes.append(0x3A); digits(minutes % 60, 2)
            }
            clock(occurrence.start)
            if occurrence.end > occurrence.start {
                bytes.append(0x2D)
                clock(occurrence.end)
            } else {
                bytes += [0x20, 0x20, 0x20, 0x20, 0x20, 0x20]
            }
        }
        bytes += [0x20, 0x20]
        bytes += occurrence.shownSummary.utf8
        if showsUID {
            bytes.append(0x09)
            bytes += InertText.uid(occurrence.uid).utf8
        }
        bytes.append(0x0A)
    }

    /// Prints the occurrences of `months` (in the order given) that start inside `plan` and
    /// `bounds`, in blocks of about 64 KiB, and stops early once `store` can hold no more.
    public func print<Months: Sequence<Month>>(_ months: Months, store: EventStore, plan: AgendaPlan,
                                               bounds: MonthBounds, to sink: ByteSink) throws {
        var printer = self
        printer.showsUID = plan.showsUID
        if plan.byDay { return try printer.printDays(months, store: store, plan: plan, bounds: bounds, to: sink) }
        try printer.printLines(months, store: store, plan: plan, bounds: bounds, to: sink)
    }

    private func printLines<Months: Sequence<Month>>(_ months: Months, store: EventStore, plan: AgendaPlan,
                                                     bounds: MonthBounds, to sink: ByteSink) throws {
        var block: [UInt8] = []
        block.reserveCapacity(Self.blockSize + 4096)
        var printer = self
        printer.listedFrom = plan.backward ? nil : max(plan.startDay, bounds.since ?? .min)
        try Self.walk(months, store: store, plan: plan, bounds: bounds) { occurrences in
            for occurrence in occurrences { printer.append(occurrence, to: &block) }
            if block.count >= Self.blockSize {
                try sink.write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { try sink.write(block) }
    }

    /// Hands `body` the occurrences of each month of `months` (in the order given) that start
    /// inside `plan` and `bounds`, in the plan's order, skipping months without any, and stops
    /// early once `store` can hold no more: the agenda's walk, whatever it is printed as.
    /// Forward, the first month's list starts with the occurrences already under way on its
    /// first day (started before it, not yet ended), with their true starts.
    public static func walk<Months: Sequence<Month>>(_ months: Months, store: EventStore, plan: AgendaPlan,
                                                     bounds: MonthBounds, body: ([Occurrence]) throws -> Void) rethrows {
        var firstMonth = true
        for month in months {
            let days = listedDays(of: month, plan: plan, bounds: bounds)
            let (first, end) = (days.lowerBound, days.upperBound)
            // Past the last start, what is still under way on the first day listed is listed.
            let ended = plan.backward ? !store.mayHaveOccurrences(before: end) : !store.mayHaveOccurrences(from: first)
            if ended, !firstMonth || plan.backward { break }
            guard first < end else { continue }
            var occurrences = ended ? [] : store.occurrences(startingOn: first..<end)
            if firstMonth, !plan.backward {
                let underWay = store.occurrences(touching: first).filter { $0.startDay < first }
                occurrences = underWay + occurrences
            }
            firstMonth = false
            if occurrences.isEmpty { if ended { break } else { continue } }
            if plan.backward { occurrences.reverse() }
            try body(occurrences)
        }
    }

    /// How much output is gathered before a write.
    static let blockSize = 64 * 1024
}
