import InfCalModel

// The properties of one VEVENT read into a `Draft`: dates and times in their zones, durations,
// rules, RDATE and EXDATE lists, RECURRENCE-ID; `EventReader` assembles the drafts into events.

extension EventReader {
    /// Why a VEVENT cannot be read, and on which line.
    struct Failure: Error {
        var position: (line: Int, reason: String)
    }

    /// What reading one calendar's VEVENTs shares: its zones, the file's notes so far, the
    /// zone X-WR-TIMEZONE names, the rules already read.
    struct Context {
        let document: ICalDocument
        let resolver: ZoneResolver
        var file: EventFile
        var noted: Set<String>
        var defaultZone: (EventZone, String)?
        /// Rules already read, by their text, once a second text came; the last one read.
        /// A calendar with one rule (every birthday is FREQ=YEARLY) then makes no dictionary:
        /// the first dictionary keyed by strings makes the runtime look up a conformance by
        /// scanning every conformance of the static binary.
        var rules: [String: RecurrenceRule?] = [:]
        var lastRule: (text: String, rule: RecurrenceRule?)?

        init(document: ICalDocument, resolver: ZoneResolver, file: EventFile, noted: Set<String>) {
            self.document = document
            self.resolver = resolver
            self.file = file
            self.noted = noted
        }

        mutating func zone(named name: String, line: Int) -> EventZone? {
            if let zone = resolver.zone(named: name) { return zone }
            if noted.insert(name).inserted {
                file.notes.append((line, EventReader.unknownZoneNote(name)))
            }
            return .utc
        }

        /// `value`'s seconds in the reckoning of an event whose start has `form` in `zone`.
        func convert(_ value: ICalTime, to form: ICalTime.Form, zone: EventZone?) -> Int {
            let utc: Int
            switch value.form {
            case .date, .floating: return value.seconds
            case .utc: utc = value.seconds
            case .zoned(let name): utc = (resolver.zone(named: name) ?? .utc).utc(ofLocal: value.seconds)
            }
            switch form {
            case .date, .floating: return value.form == .utc ? value.seconds : utc
            case .utc: return utc
            case .zoned: return utc + (zone?.offset(atUTC: utc) ?? 0)
            }
        }

        /// The instant (UTC civil seconds) of `value`, a time of an event whose DTSTART is in
        /// `zone`: a UTC or zoned time in its own zone, a floating one (or a date) on the wall
        /// clock of `zone`.
        func instant(of value: ICalTime, zone: EventZone?) -> Int {
            switch value.form {
            case .utc, .zoned: return convert(value, to: .utc, zone: nil)
            case .date, .floating: return zone?.utc(ofLocal: value.seconds) ?? value.seconds
            }
        }

        /// The instance of `series` (made from `master`) that RECURRENCE-ID `id` names: its start
        /// in the series' reckoning, whether the series has it, and whether the master's EXDATE
        /// removed it. A date-time names the instance on its own calendar date in an all-day
        /// series (Exchange writes `RECURRENCE-ID;TZID=GMT Standard Time:20200416T000000`), and
        /// a date the series' instance on that date.
        func instance(_ id: ICalTime, of master: Draft, in series: Event) -> (start: Int, isInstance: Bool, isExcluded: Bool, day: Int?) {
            func excluded(_ start: Int) -> Bool {
                series.excluded.contains(start) || series.excludedDays.contains(CivilTime.day(ofSeconds: start))
            }
            if master.start.isDate != id.isDate {
                let day = CivilTime.day(ofSeconds: id.seconds)
                let range = (day * CivilTime.secondsPerDay)..<((day + 1) * CivilTime.secondsPerDay)
                if master.start.isDate {
                    let start = range.lowerBound
                    return (start, !series.instances(in: start..<(start + 1)).isEmpty, excluded(start), nil)
                }
                if let found = series.instances(in: range).first { return (found.start, true, false, nil) }
                let exact = master.start.seconds - CivilTime.day(ofSeconds: master.start.seconds) * CivilTime.secondsPerDay
                return (range.lowerBound + exact, false, series.excludedDays.contains(day), nil)
            }
            let start = convert(id, to: master.start.form, zone: master.zone)
            return (start, !series.instances(in: start..<(start + 1)).isEmpty, excluded(start), nil)
        }

        /// The RRULE or EXRULE on `line` (nil for an empty one), its lenient readings noted.
        mutating func rule(_ line: ContentLine) throws(Failure) -> RecurrenceRule? {
            // Files repeat their rules (every birthday is FREQ=YEARLY): each text is read once.
            let text = document.rawValue(line)
            var rule: RecurrenceRule?
            if let last = lastRule, last.text == text {
                rule = last.rule
            } else if let known = rules[text] {
                rule = known
                lastRule = (text, known)
            } else {
                do {
                    rule = try RecurrenceRule.parse(text)
                } catch {
                    throw Failure(position: (line.line, error.message.replacingOccurrences(of: "RRULE:", with: line.name + ":")))
                }
                // The dictionary from the second text on, holding the first as well.
                if let last = lastRule, rules.isEmpty { rules[last.text] = last.rule }
                if lastRule != nil, rules.count < 10_000 { rules[text] = rule }
                lastRule = (text, rule)
            }
            for note in rule?.notes ?? [] { file.notes.append((line.line, note.replacingOccurrences(of: "RRULE:", with: line.name + ":"))) }
            return rule
        }

        /// A date or date-time property, with its VALUE and TZID; calendar-wide X-WR-TIMEZONE
        /// applies to floating and UTC times.
        mutating func time(_ line: ContentLine, _ what: String) throws(Failure) -> (ICalTime, EventZone?) {
            let kind = line.parameters.isEmpty ? nil : line.parameter("VALUE").map { $0 == "DATE" || $0 == "DATE-TIME" ? $0 : $0.uppercased() }
            guard let value = ICalTime.parse(document.trimmedBytes(line), isDate: kind == "DATE" ? true : (kind == "DATE-TIME" ? false : nil),
                                             zone: line.parameters.isEmpty ? nil : line.parameter("TZID")) else {
                throw Failure(position: (line.line, "\(what): '\(InertText.echo(document.rawValue(line), limit: 40))' is no date or date-time"))
            }
            return localize(value, line: line.line)
        }

        mutating func localize(_ value: ICalTime, line: Int) -> (ICalTime, EventZone?) {
            switch value.form {
            case .date: return (value, nil)
            case .floating, .utc:
                guard let (zone, name) = defaultZone else { return (value, value.form == .utc ? .utc : nil) }
                let seconds = value.form == .utc ? value.seconds + zone.offset(atUTC: value.seconds) : value.seconds
                return (ICalTime(seconds: seconds, form: .zoned(name)), zone)
            case .zoned(let name):
                return (value, zone(named: name, line: line))
            }
        }

        mutating func draft(_ component: Component) throws(Failure) -> Draft {
            if let defect = component.defect { throw Failure(position: (defect.line, defect.reason + "; event skipped")) }
            for line in component.skippedLines {
                file.notes.append((line, "malformed line in a property infcal does not read; line skipped"))
            }
            guard let startLine = component.first("DTSTART") else {
                throw Failure(position: (component.line, "VEVENT: no DTSTART; event skipped"))
            }
            do {
                return try makeDraft(component, startLine: startLine)
            } catch {
                throw Failure(position: (error.position.line, error.position.reason + "; event skipped"))
            }
        }

        /// The organizer or attendee an ORGANIZER or ATTENDEE line names; nil without an address.
        func participant(_ line: ContentLine) -> Participant? {
            Participant(value: document.rawValue(line), parameter: line.parameter)
        }

        private mutating func makeDraft(_ component: Component, startLine: ContentLine) throws(Failure) -> Draft {
            let (start, zone) = try time(startLine, "DTSTART")
            var endLine: ContentLine?, durationLine: ContentLine?, ruleLines: [ContentLine] = [], exclusionRuleLines: [ContentLine] = []
            var uidLine: ContentLine?, summaryLine: ContentLine?, statusLine: ContentLine?
            var sequenceLine: ContentLine?, stampLines: [ContentLine] = []
            var locationLine: ContentLine?, descriptionLine: ContentLine?
            var organizerLine: ContentLine?, attendeeLines: [ContentLine] = []
            var hasSets = false
            for line in component.properties {
                switch line.name {
                case "DTEND": if endLine == nil { endLine = line }
                case "DURATION": if durationLine == nil { durationLine = line }
                case "RRULE": ruleLines.append(line)
                case "EXRULE": exclusionRuleLines.append(line)
                case "UID": if uidLine == nil { uidLine = line }
                case "SUMMARY": if summaryLine == nil { summaryLine = line }
                case "STATUS": if statusLine == nil { statusLine = line }
                case "SEQUENCE": if sequenceLine == nil { sequenceLine = line }
                case "DTSTAMP", "LAST-MODIFIED": stampLines.append(line)
                case "LOCATION": if locationLine == nil { locationLine = line }
                case "DESCRIPTION": if descriptionLine == nil { descriptionLine = line }
                case "RDATE", "EXDATE", "RECURRENCE-ID": hasSets = true
                case "ORGANIZER": if organizerLine == nil { organizerLine = line }
                case "ATTENDEE": attendeeLines.append(line)
                default: break
                }
            }
            var duration = 0
            var nominalDays = 0
            if let endLine {
                let (end, _) = try time(endLine, "DTEND")
                switch start.form {
                case .date:
                    // A date-time DTEND of an all-day event ends it on that date, as written.
                    duration = end.seconds - start.seconds
                case .floating:
                    duration = convert(end, to: start.form, zone: zone) - start.seconds
                case .utc, .zoned:
                    // DTSTART and DTEND are each read in their own zone: the event lasts the
                    // exact time between the two instants (RFC 5545 §3.8.2.2), however the
                    // offset changes between them.
                    duration = instant(of: end, zone: zone) - instant(of: start, zone: zone)
                }
            } else if let durationLine {
                let text = document.rawValue(durationLine)
                guard let length = EventAlarm.Offset(duration: text) else {
                    throw Failure(position: (durationLine.line, "DURATION: '\(InertText.echo(text, limit: 40))' is no duration"))
                }
                duration = length.nominalSeconds
                // A day of a DURATION is a day of the calendar, not 24 hours (RFC 5545 §3.3.6):
                // the instance ends on the wall clock of its zone that many days on.
                if case .zoned = start.form, length.days > 0, length.seconds >= 0 { nominalDays = length.days }
            }
            if start.isDate {
                // Whole days; a missing or backward end makes one day.
                let days = CivilTime.floorDiv(duration + CivilTime.secondsPerDay - 1, CivilTime.secondsPerDay)
                duration = max(1, days) * CivilTime.secondsPerDay
            } else {
                duration = max(0, duration)
            }
            var parsedRules: [RecurrenceRule] = []
            var exclusionRules: [RecurrenceRule] = []
            for line in ruleLines { if let rule = try rule(line) { parsedRules.append(rule) } }
            for line in exclusionRuleLines { if let rule = try rule(line) { exclusionRules.append(rule) } }
            let draft = Draft(uid: uidLine.map { document.trimmedValue($0) } ?? "",
                              summary: summaryLine.map { document.textValue($0, newline: " ") } ?? "",
                              start: start, zone: zone, duration: duration, rules: parsedRules, exclusionRules: exclusionRules,
                              nominalDays: nominalDays, cancelled: statusLine.map { document.trimmedValue($0).uppercased() == "CANCELLED" } ?? false,
                              line: component.line)
            if let sequenceLine, let sequence = Int(document.trimmedValue(sequenceLine)) { draft.sequence = sequence }
            for line in stampLines {
                if let stamp = ICalTime.parse(document.trimmedBytes(line), isDate: false, zone: nil) {
                    draft.stamp = max(draft.stamp, stamp.seconds)
                }
            }
            if let statusLine, !draft.cancelled { draft.status = EventStatus(value: document.trimmedValue(statusLine)) }
            if locationLine != nil || descriptionLine != nil || organizerLine != nil || !attendeeLines.isEmpty {
                draft.details = EventDetails(location: locationLine.map { document.textValue($0) } ?? "",
                                             description: descriptionLine.map { document.textValue($0) } ?? "",
                                             organizer: organizerLine.flatMap(participant),
                                             attendees: attendeeLines.compactMap(participant))
                for attendee in draft.details.attendees where attendee.answer == .declined { draft.declinedBy.append(attendee.key) }
            }
            if !component.children.isEmpty { draft.alarms = alarms(of: component) }
            for line in component.properties where hasSets {
                switch line.name {
                case "RDATE", "EXDATE":
                    let kind = line.parameter("VALUE")?.uppercased()
                    let text = document.rawValue(line)
                    for piece in text.split(separator: ",") {
                        let item = piece.trimmingSpaces
                        var own: Int?
                        var startText = Substring(item)
                        if let slash = item.firstIndex(of: "/") {
                            startText = item[..<slash]
                            let rest = item[item.index(after: slash)...]
                            if let length = ICalTime.parseDuration(rest) {
                                own = length
                            } else if let end = ICalTime.parse(rest, isDate: false, zone: line.parameter("TZID")),
                                      let begin = ICalTime.parse(startText, isDate: false, zone: line.parameter("TZID")) {
                                own = convert(end, to: .utc, zone: nil) - convert(begin, to: .utc, zone: nil)
                            } else {
                                throw Failure(position: (line.line, "\(line.name): '\(InertText.echo(item, limit: 40))' is no period"))
                            }
                        }
                        guard let value = ICalTime.parse(startText, isDate: kind == "DATE" ? true : nil, zone: line.parameter("TZID")) else {
                            throw Failure(position: (line.line, "\(line.name): '\(InertText.echo(item, limit: 40))' is no date or date-time"))
                        }
                        let (localized, _) = localize(value, line: line.line)
                        if line.name == "RDATE" {
                            draft.extraStarts.append((localized, own.map { max(0, $0) }))
                        } else {
                            draft.exclusions.append(localized)
                        }
                    }
                case "RECURRENCE-ID":
                    draft.recurrenceID = try time(line, "RECURRENCE-ID").0
                    draft.thisAndFuture = line.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
                default:
                    break
                }
            }
            return draft
        }
    }
}
