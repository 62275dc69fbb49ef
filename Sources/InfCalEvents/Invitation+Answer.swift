import InfCalModel

/// An invitation answered: the user's calendar with the event stored (the user's PARTSTAT
/// set, declined too), and the METHOD:REPLY to send to the organizer.
public struct AnsweredInvitation: Sendable {
    /// The calendar after (one decision, for the invitation's UID).
    public let result: ImportResult
    /// The iCalendar object METHOD:REPLY (RFC 5546 §3.2.3), CRLF line ends.
    public let reply: [UInt8]
    public let uid: String
    public let summary: String
    public let organizer: Participant
    /// The user as the reply names them, with their answer.
    public let attendee: Participant
}

extension Invitation {
    /// Answers the REQUEST `incoming` (its only event, or the one with `uid`) with `answer`
    /// and an optional `comment`, for the user (`addresses`: `CalendarAddress.keys`), into
    /// the calendar `calendar` (a file's bytes, a vdir item's, or empty for a new item). The
    /// stored event is the invitation with the user's PARTSTAT set on each of its components;
    /// the reply carries `stamp` (UTC civil seconds) as its DTSTAMP.
    /// - throws: `Refusal` when `incoming` is not a REQUEST, holds no such event or several,
    ///   has no ORGANIZER, does not name the user among its attendees, when the calendar holds
    ///   a newer version of it, or when the calendar's bytes cannot be changed surgically.
    public static func answer(_ incoming: CalendarData, _ answer: InvitationAnswer, comment: String? = nil, uid: String? = nil,
                              addresses: Set<String>, stamp: Int, into calendar: [UInt8]) throws(Refusal) -> AnsweredInvitation {
        guard incoming.method == .request else {
            throw Refusal("it is \(incoming.method.map { "a METHOD:\($0.value)" } ?? "no invitation (no METHOD)"), not an invitation (METHOD:REQUEST) to answer")
        }
        let uids = incoming.uids
        guard let uid = uid ?? (uids.count == 1 ? uids[0] : nil), uids.contains(uid) else {
            throw Refusal(uids.isEmpty ? "it holds no event to answer" : "it holds \(uids.count) events (\(uids.joined(separator: ", "))); name one")
        }
        let parts = CalendarImport.newest(incoming.components(uid: uid).filter(\.isIntact))
        guard let head = parts.first(where: { $0.recurrenceID == nil }) ?? parts.first else {
            throw Refusal("it holds no event to answer")
        }
        guard let organizer = head.organizer else { throw Refusal("the invitation has no ORGANIZER to answer to") }
        guard var you = head.attendees.first(where: { addresses.contains($0.key) }) else {
            throw Refusal("the invitation does not name you among its attendees (your addresses: "
                          + (addresses.isEmpty ? "none set" : addresses.sorted().joined(separator: ", ")) + "); it can be stored without an answer")
        }
        you.answer = answer.participation
        let target = CalendarData.read(calendar, name: "")
        if let newer = target.components(uid: uid).first(where: { $0.recurrenceID == head.recurrenceID && head.version < $0.version }) {
            throw Refusal("the calendar holds a newer version of this invitation (SEQUENCE \(newer.version.sequence)); answer that one")
        }
        // The invitation with the user's answer on each of its components.
        let answered = rebuilt(incoming, components: parts) { index, line in
            guard line.name == "ATTENDEE", addresses.contains(CalendarAddress.key(line.value)), var text = ContentLineText(line.string) else { return nil }
            text.set("PARTSTAT", to: answer.participation.rawValue)
            return text.text
        }
        let result = try CalendarImport.merge(answered, into: calendar, uids: [uid], replacingEqual: true)
        // The reply answers the series (its master) or, without one, each occurrence it was asked.
        let answeredParts = parts.contains { $0.recurrenceID == nil } ? parts.filter { $0.recurrenceID == nil } : parts
        let reply = replyObject(incoming, parts: answeredParts, attendee: addresses, answer: answer.participation, comment: comment, stamp: stamp)
        return AnsweredInvitation(result: result, reply: reply, uid: uid, summary: head.summary, organizer: organizer, attendee: you)
    }

    /// The METHOD:REPLY for `parts` of `incoming` (RFC 5546 §3.2.3): per component its UID,
    /// RECURRENCE-ID (for an occurrence), SEQUENCE, DTSTAMP, ORGANIZER, the one ATTENDEE that
    /// answers (the user, PARTSTAT set, RSVP gone), DTSTART and DTEND or DURATION and SUMMARY
    /// as the invitation has them (for programs that show a reply without the event), and
    /// COMMENT when given; the VTIMEZONEs those lines name.
    static func replyObject(_ incoming: CalendarData, parts: [CalendarComponent], attendee addresses: Set<String>,
                            answer: Participation, comment: String?, stamp: Int) -> [UInt8] {
        var events: [String] = []
        var zoneNames: [String] = []
        for part in parts {
            let own = incoming.layout.ownLines(of: part.span).map(\.line)
            func copied(_ name: String) -> String? { own.first { $0.name == name }?.string }
            events += ["BEGIN:" + part.name, "UID:" + part.uid]
            for name in ["RECURRENCE-ID"] { if let line = copied(name) { events.append(line) } }
            events += ["SEQUENCE:\(max(0, part.version.sequence))", "DTSTAMP:" + ICalText.dateTime(stamp, utc: true)]
            if let line = copied("ORGANIZER") { events.append(line) }
            if let line = own.first(where: { $0.name == "ATTENDEE" && addresses.contains(CalendarAddress.key($0.value)) }),
               var text = ContentLineText(line.string) {
                text.set("PARTSTAT", to: answer.rawValue)
                text.set("RSVP", to: nil)
                events.append(text.text)
            }
            for name in ["DTSTART", "DTEND", "DURATION", "SUMMARY"] { if let line = copied(name) { events.append(line) } }
            if let comment, !comment.isEmpty {
                let clean = String(String.UnicodeScalarView(comment.unicodeScalars.filter {
                    $0 == "\n" || $0 == "\t" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
                }))
                events.append("COMMENT:" + ICalText.escaped(clean))
            }
            events.append("END:" + part.name)
            for line in own where ["RECURRENCE-ID", "DTSTART", "DTEND"].contains(line.name) {
                if let zone = line.parameter("TZID")?.trimmingSpaces, !zoneNames.contains(zone) { zoneNames.append(zone) }
            }
        }
        var out = CalendarEdit.component(["BEGIN:VCALENDAR", "PRODID:" + CalendarEdit.productID, "VERSION:2.0", "METHOD:REPLY"], end: .crlf)
        for name in zoneNames {
            if let span = incoming.zone(name), let range = incoming.layout.range(of: span) {
                out += CalendarPatch.reEnded(incoming.layout.data[range], .crlf)
            }
        }
        out += CalendarEdit.component(events + ["END:VCALENDAR"], end: .crlf)
        return out
    }

    /// A calendar of `components` of `source` (with all its VTIMEZONEs), each own line that
    /// `edit` returns text for replaced by that text: an incoming object changed before it is
    /// merged. `edit` is given the line's index in `source.layout` and the line.
    static func rebuilt(_ source: CalendarData, components: [CalendarComponent],
                        edit: (Int, ICalLayout.Line) -> String?) -> CalendarData {
        var out = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:\(CalendarEdit.productID)\r\n".utf8)
        for zone in source.zones {
            if let range = source.layout.range(of: zone.span) { out += CalendarPatch.reEnded(source.layout.data[range], .crlf) }
        }
        for component in components {
            out += componentBytes(component.span, in: source.layout, end: .crlf, edit: edit)
        }
        out += Array("END:VCALENDAR\r\n".utf8)
        return CalendarData.read(out, name: source.name)
    }

    /// The bytes of `span` of `layout` in `end` line ends, each of its own lines (not its
    /// VALARMs') for which `edit` returns text replaced by that text, folded; `edit` returning
    /// "" removes the line.
    static func componentBytes(_ span: ICalLayout.Span, in layout: ICalLayout, end: ICalText.LineEnd,
                               edit: (Int, ICalLayout.Line) -> String?) -> [UInt8] {
        guard let last = span.end else { return [] }
        let own = Set(layout.ownLines(of: span).map(\.index))
        var out: [UInt8] = []
        for index in span.begin...last {
            let line = layout.lines[index]
            if own.contains(index), let replacement = edit(index, line) {
                if !replacement.isEmpty { out += ICalText.folded(replacement, end: end) }
            } else {
                out += CalendarPatch.reEnded(layout.data[line.range], end)
            }
        }
        return out
    }
}
