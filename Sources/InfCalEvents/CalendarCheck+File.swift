import InfCalModel

/// What one file shows on its own, from its parsed document and what the reader made of it:
/// one walk over the components (UIDs, DTSTARTs, TZIDs, malformed lines), then the reader's
/// records (skipped events, problems, notes) sorted into kinds by where they are, then its
/// rules and exclusions.
struct FileLook {
    let document: ICalDocument
    let file: EventFile
    var items: [CheckedFile.Item] = []
    var own: [CheckedFile.Own] = []

    /// The lines of BEGIN:VEVENT of the events without DTSTART (the reader's skip of them is
    /// this finding already).
    private var missingStart = Set<Int>()
    /// The lines the parser left out (each a finding already, whatever the reader notes).
    private var skippedLines = Set<Int>()
    /// The lines of VALARMs: their BEGIN and their properties.
    private var alarmLines = Set<Int>()
    /// The reader's notes that a finding here says already (an unknown TZID).
    private var saidNotes = Set<String>()
    /// The TZIDs found unknown.
    private var unknownZones = Set<String>()
    /// The VEVENTs a calendar of the file holds, by the line of their BEGIN.
    private var events: [Int: Component] = [:]
    /// The UID of the component each line of a VEVENT, VTODO or VJOURNAL is in (its BEGIN, its
    /// properties and those of its alarms), for the findings on those lines.
    private var uidOfLine: [Int: String] = [:]

    init(document: ICalDocument, file: EventFile) {
        self.document = document
        self.file = file
    }

    mutating func run() {
        guard file.hasCalendarData else {
            own.append(CheckedFile.Own(line: nil, kind: .notICalendar,
                                       message: EventFile.noCalendarData + ": not a calendar file"))
            return
        }
        for calendar in EventReader.calendars(of: document) {
            let resolver = ZoneResolver(document: document, definitions: EventReader.zoneDefinitions(of: calendar, document: document))
            if let line = calendar.first("X-WR-TIMEZONE") {
                look(zone: document.rawValue(line).trimmingSpaces, line: line.line, resolver: resolver, calendar: calendar)
            }
            skipped(in: calendar)
            for child in calendar.children {
                if ICalLayout.itemNames.contains(child.name) {
                    if let uid = child.first("UID").map({ document.trimmedValue($0) }), !uid.isEmpty { lines(of: child, uid: uid) }
                    if child.defect == nil { item(child, resolver: resolver) }
                }
                walk(child, resolver: resolver, calendar: calendar, inAlarm: false)
            }
        }
        readerRecords()
        rules()
    }

    /// Records `uid` as the UID of the lines of `component`.
    private mutating func lines(of component: Component, uid: String) {
        uidOfLine[component.line] = uid
        for property in component.properties { uidOfLine[property.line] = uid }
        for line in component.skippedLines { uidOfLine[line] = uid }
        for child in component.children { lines(of: child, uid: uid) }
    }

    /// `own` with a finding `kind` on `line` saying `message`, and the UID of the component
    /// the line is in.
    private mutating func add(_ kind: CheckFinding.Kind, line: Int?, _ message: String) {
        own.append(CheckedFile.Own(line: line, kind: kind, message: message, uid: line.flatMap { uidOfLine[$0] }))
    }

    /// The malformed lines the parser left out of `component`.
    private mutating func skipped(in component: Component) {
        for line in component.skippedLines where skippedLines.insert(line).inserted {
            add(.skippedLine, line: line, "malformed content line (no NAME:value) in \(InertText.echo(component.name, limit: 40)); left out")
        }
    }

    /// `component` and those within it: malformed lines, alarms, TZIDs.
    private mutating func walk(_ component: Component, resolver: ZoneResolver, calendar: Component, inAlarm: Bool) {
        skipped(in: component)
        let alarm = inAlarm || component.name == "VALARM"
        if alarm {
            alarmLines.insert(component.line)
            for property in component.properties { alarmLines.insert(property.line) }
        }
        // A VTIMEZONE's observances are where TZIDs are defined, not named.
        guard component.name != "VTIMEZONE" else { return }
        for property in component.properties where !property.parameters.isEmpty {
            if let zone = property.parameter("TZID") { look(zone: zone, line: property.line, resolver: resolver, calendar: calendar) }
        }
        for child in component.children { walk(child, resolver: resolver, calendar: calendar, inAlarm: alarm) }
    }

    /// The TZID `name` on `line`: a finding when neither the calendar's VTIMEZONEs nor the zone
    /// database (IANA and Windows names, Outlook's display names) know it; once a file.
    private mutating func look(zone name: String, line: Int, resolver: ZoneResolver, calendar: Component) {
        guard !unknownZones.contains(name), resolver.zone(named: name) == nil else { return }
        unknownZones.insert(name)
        saidNotes.insert(EventReader.unknownZoneNote(name))
        let defined = EventReader.zoneDefinitions(of: calendar, document: document)[name.trimmingSpaces] != nil
        let message = defined
            ? "TZID '\(InertText.echo(name, limit: 40))': its VTIMEZONE has no observance infcal can read; its times are read as UTC"
            : "TZID '\(InertText.echo(name, limit: 40))' has no VTIMEZONE in this file and is no zone of the zone database; its times are read as UTC"
        add(.unknownZone, line: line, message)
    }

    /// A VEVENT, VTODO or VJOURNAL: its UID and RECURRENCE-ID kept for the comparisons, a
    /// missing UID or (for a VEVENT) DTSTART said.
    private mutating func item(_ component: Component, resolver: ZoneResolver) {
        let kind = InertText.echo(component.name, limit: 40)
        if component.name == "VEVENT" {
            events[component.line] = component
            if component.first("DTSTART") == nil {
                missingStart.insert(component.line)
                add(.missingStart, line: component.line, "VEVENT without DTSTART (RFC 5545 requires one); infcal skips it")
            }
        }
        let uid = component.first("UID").map { document.trimmedValue($0) } ?? ""
        guard !uid.isEmpty else {
            own.append(CheckedFile.Own(line: component.line, kind: .missingUID,
                                       message: "\(kind) without UID (RFC 5545 requires one); nothing can tell it apart from a copy of it"))
            return
        }
        var recurrence: CheckedFile.Recurrence?
        var text: String?
        if let line = component.first("RECURRENCE-ID") {
            let value = line.parameter("VALUE")?.uppercased()
            text = document.trimmedValue(line)
            let time = ICalTime.parse(document.trimmedBytes(line), isDate: value == "DATE" ? true : value == "DATE-TIME" ? false : nil,
                                      zone: line.parameter("TZID"))
            switch time?.form {
            case .date?: recurrence = time.map { .date($0.seconds) }
            case .floating?: recurrence = time.map { .floating($0.seconds) }
            case .utc?: recurrence = time.map { .instant($0.seconds) }
            case .zoned(let name)?:
                recurrence = time.flatMap { time in resolver.zone(named: name).map { .instant($0.utc(ofLocal: time.seconds)) } }
            case nil: break
            }
            if recurrence == nil { recurrence = .text(text ?? "") }
        }
        items.append(CheckedFile.Item(uid: uid, recurrence: recurrence, recurrenceText: text, line: component.line))
    }

    /// The reader's skipped events, problems and notes, each with its kind: what a finding
    /// here says already left out, an alarm's told by its line.
    private mutating func readerRecords() {
        for (line, reason) in file.skipped where !missingStart.contains(line) {
            add(.skippedEvent, line: line, reason)
        }
        for (line, message) in file.problems {
            add(alarmLines.contains(line) ? .alarm : .structure, line: line, message)
        }
        for (line, message) in file.notes where !saidNotes.contains(message) && !skippedLines.contains(line) {
            add(alarmLines.contains(line) ? .alarm : .note, line: line, message)
        }
    }

    /// The events' rules: an RRULE whose pattern matches no date after DTSTART (its UNTIL and
    /// COUNT aside: a series cut short is no mistake), and an event whose EXDATEs remove every
    /// occurrence. Each series once (the parts of one split by RANGE=THISANDFUTURE share it).
    private mutating func rules() {
        let overridden = Set(items.filter { $0.recurrence != nil }.map(\.uid))
        var looked = Set<Int>()
        for event in file.events where looked.insert(event.line).inserted {
            let component = events[event.line]
            let ruleLines = component?.properties.filter { $0.name == "RRULE" }.map(\.line) ?? []
            for (index, expander) in event.expanders.enumerated() {
                var pattern = expander
                if expander.rule.until != nil {
                    var rule = expander.rule
                    rule.until = nil
                    pattern = RecurrenceExpander(rule: rule, start: expander.start, isDate: expander.isDate, until: nil, scale: expander.scale)
                }
                guard !pattern.yieldsAfterStart else { continue }
                let line = ruleLines.count == event.expanders.count ? ruleLines[index] : ruleLines.first ?? event.line
                let within = expander.scale is GregorianScale ? "" : " within \(InputLimits.farthestLook * 400 / 146_097) years"
                own.append(CheckedFile.Own(line: line, kind: .ruleNeverRecurs,
                                           message: "RRULE matches no date after DTSTART\(within); the event occurs on DTSTART alone",
                                           uid: event.uid.isEmpty ? nil : event.uid))
            }
            if !overridden.contains(event.uid), Self.neverOccurs(event) {
                own.append(CheckedFile.Own(line: event.line, kind: .neverOccurs,
                                           message: "its EXDATEs remove every occurrence; the event never shows",
                                           uid: event.uid.isEmpty ? nil : event.uid))
            }
        }
    }

    /// Whether the EXDATEs of `event` (a whole series, without EXRULE) leave no occurrence:
    /// its occurrences looked for from the first it can have to the last, in spans that
    /// double, so that one found early ends the look, and one looked for in vain costs what
    /// the EXDATEs remove. A series without a known end is never so.
    static func neverOccurs(_ event: Event) -> Bool {
        guard !event.excluded.isEmpty || !event.excludedDays.isEmpty, event.exclusionRules.isEmpty,
              event.segment.from == nil, event.segment.to == nil, !event.rulesLeftOut else { return false }
        let reach = EventCacheFormat.reach(of: event, walking: true)
        guard reach.latest != Int.max, reach.earliest != Int.min else { return false }
        var low = reach.earliest
        var span = CivilTime.secondsPerDay
        while low <= reach.latest {
            let (end, overflow) = low.addingReportingOverflow(span)
            let high = overflow ? reach.latest + 1 : min(end, reach.latest + 1)
            if !event.instances(in: low..<high).isEmpty { return false }
            low = high
            span = span < Int.max / 4 ? span * 2 : span
        }
        return true
    }
}
