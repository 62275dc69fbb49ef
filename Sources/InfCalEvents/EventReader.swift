import InfCalModel

/// What reading one file gave: its events, and what it had to leave out or guess.
public struct EventFile {
    public var events: [Event] = []
    /// Events left out: the line and the reason (`RRULE: unknown FREQ 'FORTNIGHTLY'`).
    public var skipped: [(line: Int, reason: String)] = []
    /// Things read with a guess (a zone nobody knows, taken as UTC).
    public var notes: [(line: Int, message: String)] = []
    /// Whether the file held any VCALENDAR or VEVENT at all.
    public var hasCalendarData = false
    /// What a file without them is said to be, by every run and by `infcal check`.
    public static let noCalendarData = "no iCalendar data (no BEGIN:VCALENDAR or BEGIN:VEVENT)"
    /// Structural errors read past (a component left open, an END that matches nothing): no
    /// event is lost to them, but `--strict` counts them.
    public var problems: [(line: Int, message: String)] = []
    /// The calendar's own colour: its COLOR (RFC 7986), else its X-APPLE-CALENDAR-COLOR (the
    /// first calendar's that has one, where a file holds several).
    public var calendarColor: CalendarColor?
    /// The instances of its recurring events in a range, when they come from a cache's table
    /// of occurrences (indices into `events`); nil when read, or when the cache's range does
    /// not hold the run's.
    public var preset: PresetInstances?

    public init() {}
}

/// Turns iCalendar bytes into events: the VEVENTs of every VCALENDAR in the file, with
/// overrides (RECURRENCE-ID) folded into the events they change. A VEVENT that cannot be
/// read is skipped and said why; the rest are kept.
public enum EventReader {
    public static func read(_ data: [UInt8]) -> EventFile {
        read(ICalDocument.parse(data))
    }

    /// The events of `document`, parsed already (`CalendarCheck` looks at its components too).
    static func read(_ document: ICalDocument) -> EventFile {
        var file = EventFile()
        file.problems = document.problems
        file.hasCalendarData = document.hasCalendar || document.components.contains { $0.name == "VEVENT" }
        for calendar in calendars(of: document) {
            read(calendar, document: document, into: &file)
        }
        return file
    }

    /// The calendars of `document` as the reader reads them: its VCALENDARs, then one made of
    /// the VEVENTs and VTIMEZONEs written at its top level without one.
    static func calendars(of document: ICalDocument) -> [Component] {
        var calendars = document.components.filter { $0.name == "VCALENDAR" }
        let loose = document.components.filter { $0.name == "VEVENT" || $0.name == "VTIMEZONE" }
        if !loose.isEmpty { calendars.append(Component(name: "VCALENDAR", children: loose, line: loose[0].line)) }
        return calendars
    }

    /// The VTIMEZONEs of `calendar` by their TZID. TZID is a TEXT value (RFC 5545 §3.8.3.1):
    /// Outlook escapes the commas of its display names (`(UTC+01:00) Amsterdam\, Berlin`),
    /// which the TZID parameters that name it write quoted and unescaped (§3.2.19).
    static func zoneDefinitions(of calendar: Component, document: ICalDocument) -> [String: Component] {
        var definitions: [String: Component] = [:]
        for child in calendar.children where child.name == "VTIMEZONE" {
            if let id = child.first("TZID") { definitions[document.textValue(id).trimmingSpaces] = child }
        }
        return definitions
    }

    /// What the reader notes of a TZID `name` that nothing knows (`ZoneResolver`).
    static func unknownZoneNote(_ name: String) -> String {
        "TZID '\(InertText.echo(name, limit: 40))' is no zone infcal knows (IANA, Windows or the file's VTIMEZONE); its times are read as UTC"
    }

    /// A VEVENT as written, before overrides are folded in (a class: drafts are passed
    /// around, not copied).
    final class Draft {
        let uid: String
        let summary: String
        let start: ICalTime
        let zone: EventZone?
        let duration: Int
        /// The whole days of a DURATION of a zoned start, which are days of its zone's calendar
        /// (`Event.nominalDays`); 0 otherwise.
        let nominalDays: Int
        let rules: [RecurrenceRule]
        let exclusionRules: [RecurrenceRule]
        var extraStarts: [(ICalTime, Int?)] = []
        var exclusions: [ICalTime] = []
        var recurrenceID: ICalTime?
        /// RECURRENCE-ID;RANGE=THISANDFUTURE.
        var thisAndFuture = false
        let cancelled: Bool
        let line: Int
        /// SEQUENCE, and the latest of DTSTAMP and LAST-MODIFIED (UTC civil seconds): which of
        /// two versions of one component is newer.
        var sequence = 0
        var stamp = Int.min
        var details = EventDetails()
        /// STATUS when TENTATIVE or CONFIRMED.
        var status: EventStatus?
        /// `Event.declinedBy`.
        var declinedBy: [String] = []
        /// Its VALARMs (an override's are its own).
        var alarms: [EventAlarm] = []

        init(uid: String, summary: String, start: ICalTime, zone: EventZone?, duration: Int, rules: [RecurrenceRule],
             exclusionRules: [RecurrenceRule], nominalDays: Int = 0, cancelled: Bool, line: Int) {
            self.nominalDays = nominalDays
            self.uid = uid
            self.summary = summary
            self.start = start
            self.zone = zone
            self.duration = duration
            self.rules = rules
            self.exclusionRules = exclusionRules
            self.cancelled = cancelled
            self.line = line
        }
    }

    /// Which of the copies of one component (same UID and RECURRENCE-ID) is kept: the highest
    /// SEQUENCE, then the latest DTSTAMP or LAST-MODIFIED, then the last in the file (RFC 5545
    /// §3.8.7.4; what CalDAV servers and clients do with a re-sent invitation).
    private static func latestVersions(_ drafts: [Draft]) -> [Draft] {
        struct Key: Hashable { var uid: String; var recurrenceID: ICalTime? }
        var winners: [Key: Int] = [:]
        for (index, draft) in drafts.enumerated() where !draft.uid.isEmpty {
            let key = Key(uid: draft.uid, recurrenceID: draft.recurrenceID)
            if let known = winners[key] {
                let old = drafts[known]
                if (draft.sequence, draft.stamp) >= (old.sequence, old.stamp) { winners[key] = index }
            } else {
                winners[key] = index
            }
        }
        guard winners.count < drafts.count else { return drafts }
        return drafts.indices.filter { index in
            drafts[index].uid.isEmpty || winners[Key(uid: drafts[index].uid, recurrenceID: drafts[index].recurrenceID)] == index
        }.map { drafts[$0] }
    }

    private static func read(_ calendar: Component, document: ICalDocument, into file: inout EventFile) {
        let resolver = ZoneResolver(document: document, definitions: zoneDefinitions(of: calendar, document: document))
        // What the zones had to guess, once every zone this calendar names has been looked up.
        defer { file.notes += resolver.notes }
        let name = calendar.first("X-WR-CALNAME").map { document.textValue($0, newline: " ") }
        if file.calendarColor == nil {
            file.calendarColor = (calendar.first("COLOR") ?? calendar.first("X-APPLE-CALENDAR-COLOR"))
                .flatMap { CalendarColor(property: document.textValue($0, newline: " ")) }
        }
        var noted = Set<String>()
        var context = Context(document: document, resolver: resolver, file: file, noted: noted)
        if let zoneLine = calendar.first("X-WR-TIMEZONE") {
            let zoneName = document.rawValue(zoneLine).trimmingSpaces
            context.defaultZone = context.zone(named: zoneName, line: zoneLine.line).map { ($0, zoneName) }
        }
        var drafts: [Draft] = []
        for child in calendar.children where child.name == "VEVENT" {
            do {
                drafts.append(try context.draft(child))
            } catch {
                context.file.skipped.append(error.position)
            }
        }
        file = context.file
        noted = context.noted
        drafts = latestVersions(drafts)

        /// A draft's UNTILs, EXDATEs and RDATEs in its own reckoning, made into an event.
        func event(_ draft: Draft, excluded: Set<Int> = [], excludedDays: Set<Int> = [], recurring: Bool = true,
                   segment: Event.Segment? = nil, summary: String? = nil, duration: (Int, nominalDays: Int)? = nil,
                   start: ICalTime? = nil, details: EventDetails? = nil, alarms: [EventAlarm]? = nil,
                   scheduling: Draft? = nil) -> Event {
            func expander(_ rule: RecurrenceRule, includesStart: Bool) -> RecurrenceExpander {
                RecurrenceExpander(rule: rule, start: draft.start.seconds, isDate: draft.start.isDate,
                                   until: rule.until.map { until in
                                       var seconds = context.convert(until, to: draft.start.form, zone: draft.zone)
                                       // A date UNTIL for a timed event includes its whole day.
                                       if until.isDate, !draft.start.isDate { seconds += CivilTime.secondsPerDay - 1 }
                                       return seconds
                                   },
                                   scale: RecurrenceScales.scale(named: rule.scale), includesStart: includesStart)
            }
            var exactExclusions = excluded
            var dayExclusions = excludedDays
            for exclusion in draft.exclusions {
                if exclusion.isDate, !draft.start.isDate {
                    dayExclusions.insert(CivilTime.day(ofSeconds: exclusion.seconds))
                } else {
                    exactExclusions.insert(context.convert(exclusion, to: draft.start.form, zone: draft.zone))
                }
            }
            let extras = draft.extraStarts.map { (start: context.convert($0.0, to: draft.start.form, zone: draft.zone), duration: $0.1) }
            return Event(uid: draft.uid, summary: summary ?? draft.summary, calendarName: name, start: start ?? draft.start,
                         zone: draft.zone, duration: duration?.0 ?? draft.duration, nominalDays: duration?.nominalDays ?? draft.nominalDays,
                         expanders: recurring ? draft.rules.map { expander($0, includesStart: true) } : [],
                         exclusionRules: recurring ? draft.exclusionRules.map { expander($0, includesStart: false) } : [],
                         extraStarts: recurring ? extras : [], excluded: exactExclusions,
                         excludedDays: dayExclusions, line: draft.line, segment: segment, details: details ?? draft.details,
                         alarms: alarms ?? draft.alarms,
                         status: (scheduling ?? draft).status, declinedBy: (scheduling ?? draft).declinedBy)
        }

        file.events.reserveCapacity(file.events.count + drafts.count)
        guard drafts.contains(where: { $0.recurrenceID != nil }) else {
            for draft in drafts where !draft.cancelled { file.events.append(event(draft)) }
            return
        }

        // Overrides: each replaces (or, cancelled, removes) the instance its RECURRENCE-ID names;
        // with RANGE=THISANDFUTURE, that instance and every later one.
        var masters: [String: Int] = [:]
        for index in drafts.indices where drafts[index].recurrenceID == nil { masters[drafts[index].uid] = index }
        var overridesOf: [Int: [Draft]] = [:]
        for draft in drafts where draft.recurrenceID != nil {
            if let master = masters[draft.uid] { overridesOf[master, default: []].append(draft) }
        }
        for (index, draft) in drafts.enumerated() {
            if draft.recurrenceID != nil, masters[draft.uid] != nil { continue }
            guard let overrides = overridesOf[index] else {
                if !draft.cancelled { file.events.append(event(draft, recurring: draft.recurrenceID == nil)) }
                continue
            }
            let series = event(draft)
            var excluded = Set<Int>()
            var excludedDays = Set<Int>()
            var pieces: [(from: Int, override: Draft)] = []
            var singles: [Draft] = []
            for override in overrides {
                guard let id = override.recurrenceID else { continue }
                let match = context.instance(id, of: draft, in: series)
                if !match.isInstance {
                    // Not an instance of the series: excluded by the master's EXDATE (the
                    // master is newer), or older than the master (stale); otherwise an extra
                    // occurrence of its own.
                    if match.isExcluded || override.sequence < draft.sequence { continue }
                    if !override.cancelled { singles.append(override) }
                    continue
                }
                if let day = match.day { excludedDays.insert(day) } else { excluded.insert(match.start) }
                if override.thisAndFuture {
                    pieces.append((match.start, override))
                } else if !override.cancelled {
                    singles.append(override)
                }
            }
            pieces.sort { $0.from < $1.from }
            if !draft.cancelled {
                let end = pieces.first?.from
                file.events.append(event(draft, excluded: excluded, excludedDays: excludedDays,
                                         segment: Event.Segment(seriesStart: draft.start.seconds, from: nil, to: end)))
            }
            for (position, piece) in pieces.enumerated() where !piece.override.cancelled {
                let moved = context.convert(piece.override.start, to: draft.start.form, zone: draft.zone)
                let to = position + 1 < pieces.count ? pieces[position + 1].from : nil
                // The override's own instance is shown as itself; the rest of the range moved.
                var pieceExcluded = excluded
                pieceExcluded.remove(piece.from)
                file.events.append(event(draft, excluded: pieceExcluded, excludedDays: excludedDays,
                                         segment: Event.Segment(seriesStart: draft.start.seconds, from: piece.from, to: to,
                                                                shift: moved - piece.from),
                                         summary: piece.override.summary,
                                         duration: (piece.override.duration, piece.override.nominalDays),
                                         start: ICalTime(seconds: moved, form: draft.start.form), details: piece.override.details,
                                         alarms: piece.override.alarms, scheduling: piece.override))
            }
            for single in singles { file.events.append(event(single, recurring: false)) }
        }
    }
}
