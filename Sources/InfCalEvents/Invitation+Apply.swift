import InfCalModel

/// What taking an iTIP object into the user's calendar did with one of its events.
public enum InvitationOutcome: Sendable, Equatable {
    /// A REQUEST (or PUBLISH) the calendar did not have, stored as it came (not answered).
    case stored
    /// A newer version replaced the stored one; `answerKept` tells whether the user's answer
    /// stayed (false: its time changed, so the answer went back to NEEDS-ACTION).
    case updated(answerKept: Bool)
    /// The calendar already had it as it is.
    case unchanged
    /// The calendar's copy is newer: nothing changed.
    case keptNewer
    /// A CANCEL marked the event (nil) or one occurrence (its RECURRENCE-ID) STATUS:CANCELLED.
    case cancelled(occurrence: String?)
    /// A REPLY recorded an attendee's answer in an event the user organised.
    case answerRecorded(attendee: String, answer: Participation)
    /// Nothing was done, and why (a COUNTER is shown, not applied; a CANCEL of an event the
    /// calendar does not have; a REPLY to an event the user did not organise, ...).
    case notApplied(String)
}

/// What taking an iTIP object into the user's calendar gives.
public struct AppliedInvitation: Sendable {
    /// One outcome per UID of the object, in its order.
    public var outcomes: [(uid: String, outcome: InvitationOutcome)]
    /// The calendar's bytes after (the same when nothing changed).
    public var bytes: [UInt8]
    public var changed: Bool
}

extension Invitation {
    /// Takes the iTIP object `incoming` into the calendar `calendar` (a file's bytes, or a vdir
    /// item's) for the user (`addresses`: `CalendarAddress.keys`), as RFC 5546 §3.2 has an
    /// organizer's or attendee's program do:
    /// - REQUEST (unanswered): stored when new; a newer version replaces the stored one and
    ///   keeps the user's PARTSTAT unless DTSTART, DTEND, DURATION or RRULE changed (then it is
    ///   NEEDS-ACTION again, as mail clients ask again);
    /// - CANCEL: STATUS:CANCELLED on the event, or on the occurrence its RECURRENCE-ID names
    ///   (an override made for it when there is none), with the CANCEL's SEQUENCE and DTSTAMP;
    /// - REPLY: the replying attendee's PARTSTAT set in the event, when the user organised it
    ///   and the reply answers its current SEQUENCE;
    /// - PUBLISH or no METHOD: imported (`CalendarImport`);
    /// - COUNTER, REFRESH, DECLINECOUNTER, ADD and others: nothing changed (`notApplied`).
    /// What infcal changes keeps the organizer's DTSTAMP and SEQUENCE (a CANCEL's, for a
    /// cancellation), so that the organizer's next update is still told newer or older by them.
    /// - throws: `Refusal` when a component to change has no END, or the calendar has bytes but
    ///   no `END:VCALENDAR` to add before.
    public static func apply(_ incoming: CalendarData, addresses: Set<String>, into calendar: [UInt8]) throws(Refusal) -> AppliedInvitation {
        var bytes = calendar
        var outcomes: [(uid: String, outcome: InvitationOutcome)] = []
        for uid in incoming.uids {
            let parts = CalendarImport.newest(incoming.components(uid: uid).filter(\.isIntact))
            let (outcome, after) = try apply(parts, uid: uid, of: incoming, addresses: addresses, into: bytes)
            outcomes.append((uid, outcome))
            bytes = after
        }
        return AppliedInvitation(outcomes: outcomes, bytes: bytes, changed: bytes != calendar)
    }

    private static func apply(_ parts: [CalendarComponent], uid: String, of incoming: CalendarData, addresses: Set<String>,
                              into data: [UInt8]) throws(Refusal) -> (InvitationOutcome, [UInt8]) {
        switch incoming.method ?? .publish {
        case .request:
            return try update(parts, uid: uid, of: incoming, addresses: addresses, into: data)
        case .publish:
            let result = try CalendarImport.merge(incoming, into: data, uids: [uid])
            let outcome: InvitationOutcome
            switch result.decisions.first?.outcome ?? .unchanged {
            case .added: outcome = .stored
            case .updated: outcome = .updated(answerKept: true)
            case .unchanged: outcome = .unchanged
            case .keptNewer: outcome = .keptNewer
            }
            return (outcome, result.bytes)
        case .cancel:
            return try cancel(parts, uid: uid, of: incoming, into: data)
        case .reply:
            return try recordReply(parts, uid: uid, of: incoming, addresses: addresses, into: data)
        case .counter:
            return (.notApplied("a COUNTER proposes a change to the organizer; it is shown, not applied"), data)
        case .refresh:
            return (.notApplied("a REFRESH asks the organizer to send the event again; nothing to store"), data)
        case .declineCounter:
            return (.notApplied("a DECLINECOUNTER turns a proposed change down; nothing to store"), data)
        case .add:
            return (.notApplied("METHOD:ADD (instances added to a series) is not taken in; ask the organizer to send the event again"), data)
        case .other(let name):
            return (.notApplied("METHOD:\(InertText.echo(name, limit: 40)) is no iTIP method infcal knows"), data)
        }
    }

    // MARK: REQUEST

    /// A REQUEST taken in without an answer.
    private static func update(_ parts: [CalendarComponent], uid: String, of incoming: CalendarData, addresses: Set<String>,
                               into data: [UInt8]) throws(Refusal) -> (InvitationOutcome, [UInt8]) {
        let target = CalendarData.read(data, name: "")
        let stored = target.components(uid: uid)
        guard !stored.isEmpty else {
            let result = try CalendarImport.merge(incoming, into: data, uids: [uid])
            return (.stored, result.bytes)
        }
        var byKey: [String: CalendarComponent] = [:]
        for component in stored where byKey[component.key] == nil { byKey[component.key] = component }
        var kept = true
        var answers: [String: Participation] = [:]
        for part in parts {
            // The user's answer as stored: on the same component, else (a new override) on the master.
            let own = byKey[part.key] ?? byKey[""]
            guard let previous = own?.attendees.first(where: { addresses.contains($0.key) })?.answer else { continue }
            let sameTime: Bool
            if let own, own.key == part.key {
                sameTime = timing(of: part.span, in: incoming) == timing(of: own.span, in: target)
            } else {
                sameTime = part.start != nil && part.start == part.recurrenceTime
            }
            answers[part.key] = sameTime ? previous : .needsAction
            if !sameTime && previous != .needsAction { kept = false }
        }
        let changed = rebuilt(incoming, components: parts) { index, line in
            guard line.name == "ATTENDEE", addresses.contains(CalendarAddress.key(line.value)),
                  let part = parts.first(where: { $0.span.begin < index && index < ($0.span.end ?? 0) }),
                  let answer = answers[part.key], var text = ContentLineText(line.string) else { return nil }
            text.set("PARTSTAT", to: answer.rawValue)
            return text.text
        }
        let result = try CalendarImport.merge(changed, into: data, uids: [uid])
        switch result.decisions.first?.outcome ?? .unchanged {
        case .added: return (.stored, result.bytes)
        case .updated: return (.updated(answerKept: kept), result.bytes)
        case .unchanged: return (.unchanged, result.bytes)
        case .keptNewer: return (.keptNewer, result.bytes)
        }
    }

    /// The lines that say when a component happens (DTSTART, DTEND, DURATION, RRULE), as
    /// written, unfolded, in order: an update that changes them asks the user again.
    static func timing(of span: ICalLayout.Span, in data: CalendarData) -> [String] {
        data.layout.ownLines(of: span).map(\.line).filter { ["DTSTART", "DTEND", "DURATION", "RRULE"].contains($0.name) }
            .map { $0.name + ":" + ($0.parameter("TZID") ?? "") + ":" + $0.value.trimmingSpaces }.sorted()
    }

    // MARK: CANCEL

    private static func cancel(_ parts: [CalendarComponent], uid: String, of incoming: CalendarData,
                               into data: [UInt8]) throws(Refusal) -> (InvitationOutcome, [UInt8]) {
        let target = CalendarData.read(data, name: "")
        let stored = target.components(uid: uid)
        guard !stored.isEmpty else { return (.notApplied("the calendar has no event \(uid) to cancel"), data) }
        if target.openUIDs.contains(uid) { throw Refusal("its component \(uid) has no END") }
        var patch = CalendarPatch(target: target)
        var outcome: InvitationOutcome = .unchanged
        let newest = stored.map(\.version.sequence).max() ?? 0
        for part in parts {
            guard part.version.sequence >= newest || stored.contains(where: { $0.key == part.key && $0.version <= part.version }) else {
                outcome = .notApplied("the CANCEL (SEQUENCE \(part.version.sequence)) is older than the calendar's event (SEQUENCE \(newest))")
                continue
            }
            let stamp = incoming.layout.ownLines(of: part.span).first { $0.line.name == "DTSTAMP" }?.line.value.trimmingSpaces
            var changes: [CalendarEdit.Change] = [.set(name: "STATUS", line: "STATUS:CANCELLED")]
            if let stamp { changes.append(.set(name: "DTSTAMP", line: "DTSTAMP:" + stamp)) }
            // The whole event: every component of it, or its overrides would still show.
            let targets = part.recurrenceID == nil ? stored : stored.filter { $0.key == part.key }
            if targets.isEmpty {
                // One occurrence without an override: one made for it from the master.
                guard let master = stored.first(where: { $0.recurrenceID == nil }),
                      let idLine = incoming.layout.ownLines(of: part.span).first(where: { $0.line.name == "RECURRENCE-ID" })?.line else {
                    outcome = .notApplied("the calendar has no occurrence \(part.recurrenceID ?? "") of \(uid) to cancel")
                    continue
                }
                let bytes = try override(of: master, in: target, recurrenceLine: idLine.string,
                                         changes: changes + [.set(name: "SEQUENCE", line: "SEQUENCE:\(max(part.version.sequence, master.version.sequence))")])
                patch.add(bytes: bytes, after: stored.compactMap(\.span.end).max())
                patch.bringZones(part.zoneNames, from: incoming)
                outcome = .cancelled(occurrence: part.recurrenceID)
                continue
            }
            var cancelled = false
            for component in targets where component.status != .cancelled || component.version.sequence < part.version.sequence {
                let sequence = max(part.version.sequence, component.version.sequence)
                patch.replace(component, bytes: try CalendarEdit.changed(component.span, in: target.layout,
                                                                         changes + [.set(name: "SEQUENCE", line: "SEQUENCE:\(sequence)")]))
                cancelled = true
            }
            if cancelled { outcome = .cancelled(occurrence: part.recurrenceID) }
        }
        return (outcome, try patch.apply(to: data))
    }

    /// An override of the instance of `master` that the RECURRENCE-ID line `recurrenceLine`
    /// names: the master's bytes without its recurrence (RRULE, RDATE, EXDATE, EXRULE), that
    /// RECURRENCE-ID, a DTSTART at the same time (without RANGE), the master's length as a
    /// DURATION, and `changes`.
    static func override(of master: CalendarComponent, in target: CalendarData, recurrenceLine: String,
                         changes: [CalendarEdit.Change]) throws(Refusal) -> [UInt8] {
        var start = ContentLineText(recurrenceLine) ?? ContentLineText("RECURRENCE-ID:")
        start?.name = "DTSTART"
        start?.set("RANGE", to: nil)
        var edits: [CalendarEdit.Change] = [
            .remove(name: "RRULE"), .remove(name: "RDATE"), .remove(name: "EXDATE"), .remove(name: "EXRULE"), .remove(name: "DTEND"),
            .set(name: "RECURRENCE-ID", line: recurrenceLine),
        ]
        if let start { edits.append(.set(name: "DTSTART", line: start.text)) }
        if let event = EventWrite.readEvent(master.span, uid: master.uid, in: target.layout) {
            edits.append(.set(name: "DURATION", line: "DURATION:" + ICalText.duration(event.duration)))
        }
        return try CalendarEdit.changed(master.span, in: target.layout, edits + changes)
    }

    // MARK: REPLY

    private static func recordReply(_ parts: [CalendarComponent], uid: String, of incoming: CalendarData, addresses: Set<String>,
                                    into data: [UInt8]) throws(Refusal) -> (InvitationOutcome, [UInt8]) {
        let target = CalendarData.read(data, name: "")
        let stored = target.components(uid: uid)
        guard let master = stored.first(where: { $0.recurrenceID == nil }) ?? stored.first else {
            return (.notApplied("the calendar has no event \(uid) for this reply"), data)
        }
        if target.openUIDs.contains(uid) { throw Refusal("its component \(uid) has no END") }
        guard let organizer = master.organizer, addresses.contains(organizer.key) else {
            return (.notApplied("you did not organise \(uid) (its ORGANIZER is \(master.organizer?.address ?? "not given")); a reply is for the organizer"), data)
        }
        var patch = CalendarPatch(target: target)
        var outcome: InvitationOutcome = .unchanged
        for part in parts {
            guard let answering = part.attendees.first else {
                outcome = .notApplied("the reply names no ATTENDEE")
                continue
            }
            let present = stored.first { $0.key == part.key }
            guard part.version.sequence >= (present ?? master).version.sequence else {
                outcome = .notApplied("the reply answers an older version of \(uid) (SEQUENCE \(part.version.sequence))")
                continue
            }
            guard (present ?? master).attendees.contains(where: { $0.key == answering.key }) else {
                outcome = .notApplied("\(answering.address) is not an attendee of \(uid)")
                continue
            }
            func setAnswer(_ index: Int, _ line: ICalLayout.Line) -> String? {
                guard line.name == "ATTENDEE", CalendarAddress.key(line.value) == answering.key, var text = ContentLineText(line.string) else { return nil }
                text.set("PARTSTAT", to: answering.answer.rawValue)
                text.set("RSVP", to: nil)
                return text.text
            }
            if let present {
                patch.replace(present, bytes: componentBytes(present.span, in: target.layout, end: patch.end, edit: setAnswer))
            } else if let idLine = incoming.layout.ownLines(of: part.span).first(where: { $0.line.name == "RECURRENCE-ID" })?.line {
                // An answer for one occurrence: an override of it holds the answer.
                let made = try override(of: master, in: target, recurrenceLine: idLine.string, changes: [])
                let layout = ICalLayout(made)
                guard let span = layout.spans.first else { continue }
                patch.add(bytes: componentBytes(span, in: layout, end: patch.end, edit: setAnswer), after: stored.compactMap(\.span.end).max())
                patch.bringZones(part.zoneNames, from: incoming)
            }
            outcome = .answerRecorded(attendee: answering.address, answer: answering.answer)
        }
        return (outcome, try patch.apply(to: data))
    }
}
