import Foundation
import InfCalModel
import InfCalEvents

/// Prints months as JSON Lines (`--json`): one object a month, as the months come, for scripts.
///
/// A month's object holds the calendar and locale, the title as the stream prints it, the
/// month's place in its calendar, its first and last day as ISO 8601 dates, its weeks as rows
/// of seven day numbers (null for the blanks) in the run's weekday order, the week numbers
/// when the run shows them, and with events the occurrences that start in it. With `--agenda`
/// each line is one occurrence instead. The man page lists every field.
public struct JSONLinesPrinter {
    /// Grids, titles and week numbers come from the renderer the text would be printed with.
    public let renderer: MonthRenderer
    /// `locale.identifier`, or "C" for the POSIX locale.
    public let localeName: String
    /// The events, when the run reads some: each month then carries an `events` array.
    public let store: EventStore?
    /// Bytes gathered before each write.
    public var blockSize = 64 * 1024
    /// The first day listed, when the months run forward: the occurrences under way on it
    /// (started before it) head its month's `events`, with their true starts.
    public var listedFrom: Int?

    static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    public init(renderer: MonthRenderer, locale: Locale?, store: EventStore?) {
        var renderer = renderer
        renderer.titleStyle = .monthAndYear
        self.renderer = renderer
        localeName = locale?.identifier ?? "C"
        self.store = store
    }

    // MARK: Months

    /// Appends the object of `month` and its newline.
    public func appendMonth(_ month: Month, to out: ByteBuffer) {
        let grid = renderer.grid(for: month)
        out.append("{\"calendar\":")
        JSONText.appendString(CalendarChoice.name(of: renderer.calendar.identifier), to: out)
        out.append(",\"locale\":")
        JSONText.appendString(localeName, to: out)
        out.append(",\"title\":")
        JSONText.appendString(renderer.titleText(month), to: out)
        out.append(",\"era\":\(month.name.era),\"year\":\(month.name.year),\"month\":\(month.name.month)")
        out.append(",\"leapMonth\":" + (month.name.isLeapMonth ? "true" : "false"))
        out.append(",\"first\":\"" + ISODate.text(dayNumber: month.firstDay) + "\"")
        out.append(",\"last\":\"" + ISODate.text(dayNumber: month.lastDay) + "\"")
        out.append(",\"days\":\(month.dayCount)")
        out.append(",\"firstWeekday\":\"" + Self.weekdayNames[(renderer.firstWeekday + 6) % 7] + "\"")
        out.append(",\"numbering\":\"" + (renderer.numbering == .dayOfYear ? "day-of-year" : "day-of-month") + "\"")
        out.append(",\"weeks\":[")
        for week in 0..<grid.weekCount {
            if week > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for column in 0..<7 {
                if column > 0 { out.append(UInt8(ascii: ",")) }
                if let cell = grid.cell(week: week, column: column) {
                    JSONText.appendNumber(cell.label, to: out)
                } else {
                    out.append("null")
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
        if renderer.weekNumbers != nil {
            out.append(",\"weekNumbers\":[")
            for week in 0..<grid.weekCount {
                if week > 0 { out.append(UInt8(ascii: ",")) }
                if let number = renderer.weekNumber(ofRowStarting: month.firstDay - grid.leadingBlanks + 7 * week) {
                    JSONText.appendNumber(number, to: out)
                } else {
                    out.append("null")
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        if let also = renderer.also {
            // The month's days in order, each as the other calendar has it.
            out.append(",\"also\":[")
            for day in month.firstDay..<month.endDay {
                if day > month.firstDay { out.append(UInt8(ascii: ",")) }
                also.appendJSON(day, dated: true, to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if let store {
            out.append(",\"events\":[")
            var occurrences = store.occurrences(startingOn: month.firstDay..<month.endDay)
            // The first month listed forward starts with what is under way on its first day
            // listed, with true starts.
            if let first = listedFrom, month.firstDay <= first, first < month.endDay {
                let underWay = store.occurrences(touching: first).filter { $0.startDay < first }
                occurrences = underWay + occurrences.filter { $0.startDay >= first }
            }
            for (position, occurrence) in occurrences.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendOccurrence(occurrence, to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append("}\n")
    }

    /// Writes the object of every month of `months` to `sink`, in blocks of `blockSize`, so an
    /// endless sequence streams in constant memory and stops when the sink throws.
    public func print<Months: Sequence<Month>>(_ months: Months, to sink: ByteSink) throws {
        let buffer = ByteBuffer(capacity: blockSize + 16 * 1024)
        for month in months {
            appendMonth(month, to: buffer)
            if buffer.count >= blockSize {
                try sink.write(buffer.bytes)
                buffer.removeAll()
            }
        }
        if buffer.count > 0 { try sink.write(buffer.bytes) }
    }

    // MARK: Occurrences

    /// Appends the object of `occurrence`: start and end (dates for all-day events, the end
    /// exclusive; date-times with the display zone's offset for timed ones, without one for
    /// floating times), the all-day flag, summary, UID and source file.
    public static func appendOccurrence(_ occurrence: Occurrence, also: AlsoCalendar? = nil, to out: ByteBuffer) {
        func time(_ seconds: Int, _ offset: Int?) -> String {
            occurrence.isAllDay ? ISODate.text(civilDay: CivilTime.day(ofSeconds: seconds))
                : JSONText.isoDateTime(seconds, offset: offset)
        }
        out.append("{\"start\":\"" + time(occurrence.start, occurrence.startOffset) + "\"")
        out.append(",\"end\":\"" + time(occurrence.end, occurrence.endOffset) + "\"")
        out.append(",\"allDay\":" + (occurrence.isAllDay ? "true" : "false"))
        out.append(",\"summary\":")
        JSONText.appendString(occurrence.summary, to: out)
        out.append(",\"uid\":")
        JSONText.appendString(occurrence.uid, to: out)
        out.append(",\"source\":")
        if let source = occurrence.source { JSONText.appendString(source, to: out) } else { out.append("null") }
        if let name = occurrence.calendarName {
            out.append(",\"calendarName\":")
            JSONText.appendString(name, to: out)
        }
        // The cut of the day limit: this is the last instance kept that day (of those beginning
        // that day, or of those under way), followed by this many more, or by more than counted.
        if occurrence.more == Occurrence.uncounted {
            out.append(",\"moreThisDay\":true")
        } else if occurrence.more > 0 {
            out.append(",\"moreThisDay\":" + String(occurrence.more))
        }
        if let also {
            // The start's day in the other calendar of --also.
            out.append(",\"also\":")
            also.appendJSON(occurrence.startDay, to: out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Prints `--agenda --json`: one object a line for each occurrence the agenda lists, in its
    /// order, one write per month.
    public static func printAgenda<Months: Sequence<Month>>(_ months: Months, store: EventStore, plan: AgendaPlan,
                                                           bounds: MonthBounds, also: AlsoCalendar? = nil,
                                                           to sink: ByteSink) throws {
        let buffer = ByteBuffer()
        try AgendaPrinter.walk(months, store: store, plan: plan, bounds: bounds) { occurrences in
            buffer.removeAll()
            for occurrence in occurrences {
                appendOccurrence(occurrence, also: also, to: buffer)
                buffer.append(UInt8(ascii: "\n"))
            }
            try sink.write(buffer.bytes)
        }
    }
}
