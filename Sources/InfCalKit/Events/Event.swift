/// One VEVENT, read and checked, in its own reckoning: times are wall-clock civil seconds of
/// `zone` (or floating, or dates), converted only when an occurrence is shown.
public final class Event {
    public let uid: String
    public let summary: String
    /// The calendar's X-WR-CALNAME, if any.
    public let calendarName: String?
    /// DTSTART.
    public let start: ICalTime
    /// The zone of DTSTART; nil for dates and floating times.
    let zone: EventZone?
    /// From the start to the end, in seconds (whole days for a date).
    public let duration: Int
    let expander: RecurrenceExpander?
    /// RDATEs in the event's reckoning, with their own duration for a period.
    let extraStarts: [(start: Int, duration: Int?)]
    /// EXDATEs and the RECURRENCE-IDs of overrides, in the event's reckoning.
    let excluded: Set<Int>
    /// EXDATEs given as dates: every instance on these civil days is left out.
    let excludedDays: Set<Int>
    /// The line of BEGIN:VEVENT.
    public let line: Int

    init(uid: String, summary: String, calendarName: String?, start: ICalTime, zone: EventZone?, duration: Int,
         expander: RecurrenceExpander?, extraStarts: [(start: Int, duration: Int?)], excluded: Set<Int>,
         excludedDays: Set<Int>, line: Int) {
        self.uid = uid
        self.summary = summary
        self.calendarName = calendarName
        self.start = start
        self.zone = zone
        self.duration = duration
        self.expander = expander
        self.extraStarts = extraStarts
        self.excluded = excluded
        self.excludedDays = excludedDays
        self.line = line
    }

    public var isAllDay: Bool { start.isDate }

    /// The latest any instance can start (event's reckoning), or nil when the rule has no end
    /// that is known without walking it.
    var latestStart: Int? {
        var latest = max(start.seconds, extraStarts.map(\.start).max() ?? start.seconds)
        if let expander {
            guard let until = expander.until else { return expander.rule.count == 0 ? latest : nil }
            latest = max(latest, until)
        }
        return latest
    }
    public var isRecurring: Bool { expander != nil || !extraStarts.isEmpty }

    /// The starts (event's reckoning) with their durations, of instances starting in `range`
    /// (event's reckoning), in order: DTSTART, the rule's instances and RDATEs, less EXDATEs.
    func instances(in range: Range<Int>) -> [(start: Int, duration: Int)] {
        var starts: [(start: Int, duration: Int)] = []
        if range.contains(start.seconds) { starts.append((start.seconds, duration)) }
        if let expander {
            for instance in expander.instances(in: range) where instance != start.seconds {
                starts.append((instance, duration))
            }
        }
        var needsSort = false
        for extra in extraStarts where range.contains(extra.start) {
            if starts.contains(where: { $0.start == extra.start }) { continue }
            starts.append((extra.start, extra.duration ?? duration))
            needsSort = true
        }
        if needsSort { starts.sort { $0.start < $1.start } }
        if !excluded.isEmpty || !excludedDays.isEmpty {
            starts.removeAll { excluded.contains($0.start) || excludedDays.contains(CivilTime.day(ofSeconds: $0.start)) }
        }
        return starts
    }
}

/// A calendar as the views show its events: the name (configured, else nil for the
/// calendar's own X-WR-CALNAME) and the colour (configured, else the calendar's own).
public struct EventCalendar: Equatable, Sendable {
    public let name: String?
    public let color: CalendarColor?

    public init(name: String?, color: CalendarColor?) {
        self.name = name
        self.color = color
    }
}

/// One occurrence of an event, in the display zone's wall clock.
public struct Occurrence: Sendable, Equatable {
    public let summary: String
    public let calendarName: String?
    public let isAllDay: Bool
    /// Start and end, wall-clock civil seconds where the calendar is shown (dates and floating
    /// times as written); the end is exclusive and never before the start.
    public let start: Int
    public let end: Int
    /// The display zone's offset from UTC in seconds at the start and at the end; nil for
    /// dates and floating times, which belong to no zone.
    public var startOffset: Int?
    public var endOffset: Int?
    /// The event's UID.
    public var uid: String = ""
    /// The file the event came from, if the store was told.
    public var source: String?
    /// How many instances of its event the day limit (`InputLimits.instancesPerDay`) left out
    /// after this one, the last kept that day; 0 almost always.
    public var more = 0

    /// The summary as text views show it: with "(+N more this day)" after the last instance a
    /// day kept of a rule denser than the day limit.
    public var shownSummary: String {
        let title = summary.isEmpty ? "(no title)" : InertText.forView(summary)
        return more > 0 ? title + " (+\(more) more this day)" : title
    }
    /// The index of its calendar in the store's `calendars`, if the store was told.
    public var calendar: Int?
    /// The colour of its calendar, if it has one.
    public var color: CalendarColor?

    public init(summary: String, calendarName: String?, isAllDay: Bool, start: Int, end: Int) {
        self.summary = summary
        self.calendarName = calendarName
        self.isAllDay = isAllDay
        self.start = start
        self.end = end
    }

    /// The grids' day number of the start.
    public var startDay: Int { CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: start)) }

    /// The grids' day number of the last day the occurrence touches.
    public var lastDay: Int {
        let last = end > start ? end - 1 : start
        return CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: last))
    }
}
