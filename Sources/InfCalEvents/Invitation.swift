import Foundation
import InfCalModel

/// What an invitation (an iTIP object, RFC 5546) says about one event, as `infcal invite`
/// shows it: what, who, when (in the user's zone and as the organizer wrote it), where, the
/// attendees with their answers, the user's own answer, and what in the user's calendars it
/// overlaps.
public struct InvitationSummary: Sendable {
    public let method: ITIPMethod
    public let uid: String
    /// The RECURRENCE-ID as written, when the object is about one occurrence only.
    public let recurrenceID: String?
    public let summary: String
    public let location: String
    public let description: String
    public let organizer: Participant?
    public let attendees: [Participant]
    /// The attendee with one of the user's addresses; nil when the invitation does not name
    /// the user (then it can be stored, not answered).
    public let you: Participant?
    public let sequence: Int
    public let status: EventStatus?
    /// DTSTART and the end (DTEND, else DTSTART plus DURATION) as written.
    public let start: ICalTime?
    public let end: ICalTime?
    /// The start and end as instants (UTC civil seconds); a date or a floating time is taken on
    /// the display zone's wall clock. Nil without a DTSTART that reads.
    public let startUTC: Int?
    public let endUTC: Int?
    /// The start and end on the display zone's wall clock (civil seconds).
    public let startShown: Int?
    public let endShown: Int?
    /// The RRULE as written, if the event repeats.
    public let rule: String?
    /// COMMENT (an attendee's, in a REPLY or COUNTER), escapes read.
    public let comment: String?
    /// The occurrences of the user's calendars (of other events) that overlap the first
    /// instances (`Invitation.overlapLimit` of them, within `Invitation.overlapSpan`).
    public let overlaps: [Occurrence]
}

/// An invitation's answer (PARTSTAT, RFC 5545 §3.2.12) from the user.
public enum InvitationAnswer: String, Sendable, CaseIterable {
    case accept, tentative, decline

    /// The PARTSTAT the answer sets.
    public var participation: Participation {
        switch self {
        case .accept: return .accepted
        case .tentative: return .tentative
        case .decline: return .declined
        }
    }
}

/// Reading invitations and answering them: pure functions over bytes (the invitation, the
/// user's calendar), which the command line feeds and whose results it writes and sends.
public enum Invitation {
    public typealias Refusal = CalendarEdit.Refusal

    /// How many instances of a repeating invitation are checked for overlaps.
    public static let overlapLimit = 10
    /// How far from its start they are looked for: a year.
    public static let overlapSpan = 366 * CivilTime.secondsPerDay

    // MARK: What it says

    /// One summary per event (UID) of `incoming`: its master's, else its first component's.
    /// `addresses` (`CalendarAddress.keys`) find the user among the attendees; `store` (the
    /// user's calendars, shown in `display`), when given, what it overlaps.
    public static func summaries(of incoming: CalendarData, addresses: Set<String>, display: DisplayZone,
                                 store: EventStore? = nil) -> [InvitationSummary] {
        let zones = ZoneLookup(incoming.layout.data)
        let shownInstances = EventReader.read(incoming.layout.data).events
        return incoming.uids.compactMap { uid -> InvitationSummary? in
            let parts = CalendarImport.newest(incoming.components(uid: uid).filter(\.isIntact))
            guard let head = parts.first(where: { $0.recurrenceID == nil }) ?? parts.first else { return nil }
            let own = incoming.layout.ownLines(of: head.span).map(\.line)
            func text(_ name: String) -> String { own.first { $0.name == name }.map { ICalText.unescaped($0.value) } ?? "" }
            let start = head.start
            var end: ICalTime?
            if let line = own.first(where: { $0.name == "DTEND" }) {
                end = line.time
            } else if let start, let duration = own.first(where: { $0.name == "DURATION" }).flatMap({ ICalTime.parseDuration($0.value) }) {
                end = ICalTime(seconds: start.seconds + duration, form: start.form)
            } else if let start {
                end = ICalTime(seconds: start.seconds + (start.isDate ? CivilTime.secondsPerDay : 0), form: start.form)
            }
            let startUTC = start.map { zones.utc($0, display: display) }
            var endUTC = end.map { zones.utc($0, display: display) }
            if let startUTC, let value = endUTC, value < startUTC { endUTC = startUTC }
            var overlaps: [Occurrence] = []
            if let store {
                overlaps = overlapping(uid: uid, of: shownInstances, store: store, display: display, fallback: startUTC.map { ($0, endUTC ?? $0) })
            }
            let comment = own.first { $0.name == "COMMENT" }.map { ICalText.unescaped($0.value) }
            return InvitationSummary(method: incoming.method ?? .publish, uid: uid, recurrenceID: head.recurrenceID,
                                     summary: head.summary, location: text("LOCATION"), description: text("DESCRIPTION"),
                                     organizer: head.organizer, attendees: head.attendees,
                                     you: head.attendees.first { addresses.contains($0.key) },
                                     sequence: head.version.sequence, status: head.status, start: start, end: end,
                                     startUTC: startUTC, endUTC: endUTC,
                                     startShown: startUTC.map { $0 + display.offset($0) }, endShown: endUTC.map { $0 + display.offset($0) },
                                     rule: own.first { $0.name == "RRULE" }?.value.trimmingSpaces, comment: comment, overlaps: overlaps)
        }
    }

    /// The user's occurrences (not of `uid`) that overlap the first instances of the event
    /// `uid` among `events` (as the reader reads the invitation), or the span `fallback` when
    /// the reader shows none (a cancelled event).
    private static func overlapping(uid: String, of events: [Event], store: EventStore, display: DisplayZone,
                                    fallback: (Int, Int)?) -> [Occurrence] {
        var spans: [(Int, Int)] = []
        let own = events.filter { $0.uid == uid }
        if !own.isEmpty, let first = own.map({ $0.zone?.utc(ofLocal: $0.start.seconds) ?? $0.start.seconds }).min() {
            let instances = EventStore(events: own, display: display)
            let from = first + display.offset(first) - CivilTime.secondsPerDay
            let days = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: from))
            for occurrence in instances.occurrences(startingOn: days..<(days + overlapSpan / CivilTime.secondsPerDay)).prefix(overlapLimit) {
                let start = occurrence.start - (occurrence.startOffset ?? display.offset(occurrence.start))
                let end = occurrence.end - (occurrence.endOffset ?? display.offset(occurrence.end))
                spans.append((start, end))
            }
        }
        if spans.isEmpty, let fallback { spans = [fallback] }
        var found: [Occurrence] = []
        for (start, end) in spans {
            for occurrence in store.occurrences(overlappingUTC: start, to: end) where occurrence.uid != uid {
                if !found.contains(where: { $0.event == occurrence.event && $0.start == occurrence.start }) { found.append(occurrence) }
            }
        }
        return found
    }
}

/// The zones of an iCalendar text, as its reader finds them (IANA, Windows names and display
/// names, its own VTIMEZONEs), to turn its times into instants.
struct ZoneLookup {
    private let resolver: ZoneResolver

    init(_ data: [UInt8]) {
        let document = ICalDocument.parse(data)
        var definitions: [String: Component] = [:]
        func collect(_ components: [Component]) {
            for component in components {
                if component.name == "VTIMEZONE", let id = component.first("TZID") {
                    definitions[document.textValue(id).trimmingSpaces] = definitions[document.textValue(id).trimmingSpaces] ?? component
                } else if component.name == "VCALENDAR" {
                    collect(component.children)
                }
            }
        }
        collect(document.components)
        resolver = ZoneResolver(document: document, definitions: definitions)
    }

    /// The instant (UTC civil seconds) of `time`; a date or floating time on `display`'s wall
    /// clock, a TZID no one knows as UTC (as the reader reads it).
    func utc(_ time: ICalTime, display: DisplayZone) -> Int {
        switch time.form {
        case .utc: return time.seconds
        case .zoned(let name): return (resolver.zone(named: name) ?? .utc).utc(ofLocal: time.seconds)
        case .date, .floating: return CivilTime.utc(ofLocal: time.seconds, offset: display.offset)
        }
    }
}
