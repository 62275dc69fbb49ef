import InfCalModel

/// One VEVENT, read and checked, in its own reckoning: times are wall-clock civil seconds of
/// `zone` (or floating, or dates), converted only when an occurrence is shown.
public final class Event {
    public let uid: String
    public let summary: String
    /// The calendar's X-WR-CALNAME, if any.
    public let calendarName: String?
    /// DTSTART (for a RECURRENCE-ID;RANGE=THISANDFUTURE override, its own DTSTART in the
    /// reckoning of the series it changes).
    public let start: ICalTime
    /// The zone of DTSTART; nil for dates and floating times.
    public let zone: EventZone?
    /// From the start to the end, in seconds (whole days for a date): the exact time between
    /// the two instants for a UTC or zoned start, wall-clock time for a floating one.
    public let duration: Int
    /// How many of `duration`'s first seconds are whole days of the calendar rather than of
    /// 24 hours: a DURATION's days (`P1D`, `P2W`) of a zoned start, which end on the same
    /// wall-clock time that many days on, 23 or 25 hours a day where the offset changes
    /// (RFC 5545 §3.3.6). 0 for a DTEND, which gives the exact time.
    public let nominalDays: Int
    /// The RRULEs: their instances are united (RFC 5545 allows several, RFC 2445 too).
    let expanders: [RecurrenceExpander]
    /// The EXRULEs (RFC 2445): their instances are removed.
    let exclusionRules: [RecurrenceExpander]
    /// RDATEs in the event's reckoning, with their own duration for a period.
    let extraStarts: [(start: Int, duration: Int?)]
    /// EXDATEs and the RECURRENCE-IDs of overrides, in the event's reckoning.
    let excluded: Set<Int>
    /// EXDATEs given as dates: every instance on these civil days is left out.
    let excludedDays: Set<Int>
    /// The line of BEGIN:VEVENT.
    public let line: Int
    /// What the day view shows besides the times: location and description.
    public let details: EventDetails
    /// Its VALARMs, in the order written; empty for most events. An override has its own.
    public let alarms: [EventAlarm]
    /// The part of the series this event shows, and how far it moves it: a master shows the
    /// instances before its first RECURRENCE-ID;RANGE=THISANDFUTURE, each such override those
    /// from its RECURRENCE-ID to the next one's, moved by its DTSTART minus its RECURRENCE-ID.
    let segment: Segment
    /// Whether the event was made without its rules, RDATEs and EXDATEs (from a cache whose
    /// table gives its instances in the run's months): it recurs, but only that table knows
    /// when, so nothing may ask it for instances, a latest start or a reach.
    let rulesLeftOut: Bool
    /// STATUS, when it is TENTATIVE or CONFIRMED (a cancelled event is never made: the reader
    /// leaves it out); nil when the event has none.
    public let status: EventStatus?
    /// The addresses (`CalendarAddress.key`) of the attendees whose PARTSTAT is DECLINED: all
    /// that telling "declined by you" needs, with the user's addresses given only when asked
    /// (`isDeclined(byAnyOf:)`), so that a cache stays valid whatever they are.
    public let declinedBy: [String]

    /// Instances of the series from `from` (inclusive) to `to` (exclusive), in the series'
    /// reckoning, shown `shift` seconds later.
    struct Segment {
        var seriesStart: Int
        var from: Int?
        var to: Int?
        var shift = 0
    }

    init(uid: String, summary: String, calendarName: String?, start: ICalTime, zone: EventZone?, duration: Int, nominalDays: Int = 0,
         expanders: [RecurrenceExpander], exclusionRules: [RecurrenceExpander] = [], extraStarts: [(start: Int, duration: Int?)],
         excluded: Set<Int>, excludedDays: Set<Int>, line: Int, segment: Segment? = nil,
         details: EventDetails = EventDetails(), alarms: [EventAlarm] = [], rulesLeftOut: Bool = false,
         status: EventStatus? = nil, declinedBy: [String] = []) {
        self.rulesLeftOut = rulesLeftOut
        self.alarms = alarms
        self.status = status
        self.declinedBy = declinedBy
        self.uid = uid
        self.summary = summary
        self.calendarName = calendarName
        self.start = start
        self.zone = zone
        self.duration = duration
        self.nominalDays = nominalDays
        self.expanders = expanders
        self.exclusionRules = exclusionRules
        self.extraStarts = extraStarts
        self.excluded = excluded
        self.excludedDays = excludedDays
        self.line = line
        self.segment = segment ?? Segment(seriesStart: start.seconds)
        self.details = details
    }

    /// A copy of the event as far as its instances go (its times, rules, RDATEs, EXDATEs and
    /// part of the series), with fresh expanders and without its texts or zone: another thread
    /// may expand it while this one goes on being used. Nil when a rule cannot be so copied
    /// (`RecurrenceExpander.freshCopy`).
    func instanceCopy() -> sending Event? {
        var copies: [RecurrenceExpander] = []
        copies.reserveCapacity(expanders.count)
        for expander in expanders {
            guard let copy = expander.freshCopy() else { return nil }
            copies.append(copy)
        }
        var exclusionCopies: [RecurrenceExpander] = []
        for expander in exclusionRules {
            guard let copy = expander.freshCopy() else { return nil }
            exclusionCopies.append(copy)
        }
        return Event(uid: "", summary: "", calendarName: nil, start: start, zone: nil, duration: duration, nominalDays: nominalDays, expanders: copies,
                     exclusionRules: exclusionCopies, extraStarts: extraStarts, excluded: excluded, excludedDays: excludedDays,
                     line: line, segment: segment, rulesLeftOut: rulesLeftOut)
    }

    /// The (first) RRULE the event repeats by, as parsed, or nil when it has none.
    public var rule: RecurrenceRule? { expanders.first?.rule }

    public var isAllDay: Bool { start.isDate }

    /// Whether an attendee with one of `addresses` (`CalendarAddress.keys`) declined the event.
    public func isDeclined(byAnyOf addresses: Set<String>) -> Bool {
        !declinedBy.isEmpty && declinedBy.contains { addresses.contains($0) }
    }

    /// The latest any instance can start (event's reckoning), or nil when the rule has no end
    /// that is known without walking it.
    var latestStart: Int? {
        if rulesLeftOut { return nil }
        var latest: Int? = max(segment.seriesStart, extraStarts.map(\.start).max() ?? segment.seriesStart)
        for expander in expanders {
            if let until = expander.until {
                latest = latest.map { max($0, until) }
            } else if expander.rule.count != 0 {
                latest = nil
            }
        }
        if let to = segment.to { latest = min(latest ?? to - 1, to - 1) }
        return latest.map { $0 + segment.shift }
    }
    public var isRecurring: Bool { !expanders.isEmpty || !extraStarts.isEmpty || rulesLeftOut }

    /// The starts (event's reckoning) with their durations, of instances starting in `range`
    /// (event's reckoning), in order: DTSTART, the rules' instances and RDATEs, less EXDATEs
    /// and EXRULEs.
    func instances(in range: Range<Int>) -> [(start: Int, duration: Int)] {
        // Only the table it came with knows them (the store asks it instead).
        if rulesLeftOut { return [] }
        // The range in the series' reckoning, within the segment.
        let shift = segment.shift
        func unshifted(_ value: Int) -> Int {
            let (result, overflow) = value.subtractingReportingOverflow(shift)
            return overflow ? (shift > 0 ? Int.min : Int.max) : result
        }
        var lower = unshifted(range.lowerBound)
        var upper = unshifted(range.upperBound)
        if let from = segment.from { lower = max(lower, from) }
        if let to = segment.to { upper = min(upper, to) }
        guard lower < upper else { return [] }
        let within = lower..<upper
        let seriesStart = segment.seriesStart
        var starts: [(start: Int, duration: Int)] = []
        if within.contains(seriesStart) { starts.append((seriesStart, duration)) }
        var needsSort = false
        for (index, expander) in expanders.enumerated() {
            for instance in expander.instances(in: within) where instance != seriesStart {
                // A day SKIP moves into the next period can be one of that period's own.
                if index == 0, starts.last?.start == instance { continue }
                if index > 0, starts.contains(where: { $0.start == instance }) { continue }
                starts.append((instance, duration))
            }
            if index > 0 { needsSort = true }
        }
        for extra in extraStarts where within.contains(extra.start) {
            if starts.contains(where: { $0.start == extra.start }) { continue }
            starts.append((extra.start, extra.duration ?? duration))
            needsSort = true
        }
        if needsSort { starts.sort { $0.start < $1.start } }
        if !excluded.isEmpty || !excludedDays.isEmpty {
            starts.removeAll { excluded.contains($0.start) || excludedDays.contains(CivilTime.day(ofSeconds: $0.start)) }
        }
        if !exclusionRules.isEmpty, !starts.isEmpty {
            var removed = Set<Int>()
            for rule in exclusionRules { removed.formUnion(rule.instances(in: within)) }
            starts.removeAll { removed.contains($0.start) }
        }
        if shift != 0 { return starts.map { ($0.start + shift, $0.duration) } }
        return starts
    }
}

/// The text of an event that only the day view shows, escapes undone.
public struct EventDetails: Sendable, Equatable {
    public var location = ""
    public var description = ""
    /// ORGANIZER, if any.
    public var organizer: Participant?
    /// The ATTENDEEs, in the order written.
    public var attendees: [Participant] = []

    public init(location: String = "", description: String = "", organizer: Participant? = nil, attendees: [Participant] = []) {
        self.location = location
        self.description = description
        self.organizer = organizer
        self.attendees = attendees
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { location.isEmpty && description.isEmpty && organizer == nil && attendees.isEmpty }

    /// The attendee among `attendees` with one of `addresses` (`CalendarAddress.keys`), if any.
    public func attendee(amongAddresses addresses: Set<String>) -> Participant? {
        attendees.first { addresses.contains($0.key) }
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
    /// after this one, the last kept that day (of those beginning that day, or of those under
    /// way from before it); `uncounted` when more are left out than can be counted; 0 almost
    /// always.
    public var more = 0
    /// `more` when instances were left out but not counted (a rule that cannot be counted
    /// without a walk of millennia).
    public static let uncounted = Int.max

    /// The summary as text views show it: with "(+N more this day)" after the last instance a
    /// day kept of a rule denser than the day limit ("(and more this day)" when not counted).
    public var shownSummary: String {
        let title = summary.isEmpty ? "(no title)" : InertText.forView(summary)
        if more == Self.uncounted { return title + " (and more this day)" }
        return more > 0 ? title + " (+\(more) more this day)" : title
    }
    /// The event's place in its store's `events`, or nil for an occurrence made by hand.
    public var event: Int?
    /// The index of its calendar in the store's `calendars`, if the store was told.
    public var calendar: Int?
    /// The colour of its calendar, if it has one.
    public var color: CalendarColor?
    /// Whether the user (the store's `ownAddresses`) declined its event: views dim it.
    public var isDeclined = false

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
