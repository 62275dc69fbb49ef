import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// The scheduling part of the event model (RFC 5545 §3.8.4.1 ATTENDEE, §3.8.4.3 ORGANIZER,
/// §3.2.12 PARTSTAT, §3.2.16 ROLE, §3.2.17 RSVP, §3.8.1.11 STATUS) as the reader, the store and
/// the cache carry it, on the invitation fixtures (the values are the fixtures' own lines).
@Suite struct SchedulingModelTests {
    static let ana: Set<String> = CalendarAddress.keys(["ANA@example.org"])
    static let bo: Set<String> = CalendarAddress.keys(["mailto:bo.berg@corp.example.com"])

    @Test func theReaderKeepsOrganizerAttendeesAndStatus() throws {
        let google = EventReader.read(InvitationFixtures.bytes("google-series-request.ics"))
        let master = try #require(google.events.first { $0.summary == "Stand-up" })
        #expect(master.status == .confirmed)
        #expect(master.details.organizer == Participant(address: "eve.martin@gmail.com", name: "Eve Martin"))
        #expect(master.details.attendees.map(\.address) == ["eve.martin@gmail.com", "ana@example.org", "bo.berg@corp.example.com"])
        #expect(master.details.attendees.map(\.answer) == [.accepted, .needsAction, .declined])
        #expect(master.details.attendees.allSatisfy { $0.role == .required && $0.wantsReply })
        #expect(master.declinedBy == ["bo.berg@corp.example.com"])
        #expect(master.isDeclined(byAnyOf: Self.bo))
        #expect(!master.isDeclined(byAnyOf: Self.ana))
        // The override carries its own attendees: Bo is not among them.
        let late = try #require(google.events.first { $0.summary == "Stand-up (late start)" })
        #expect(late.declinedBy.isEmpty && late.details.attendees.count == 2)

        // Thunderbird folds inside the address; Apple quotes CN; a role and RSVP as written.
        let thunderbird = try #require(EventReader.read(InvitationFixtures.bytes("thunderbird-request.ics")).events.first)
        #expect(thunderbird.details.organizer?.address == "frank@weber.example.net")
        #expect(thunderbird.details.attendees.last == Participant(address: "gul@weber.example.net", name: "Gül Yılmaz",
                                                                   answer: .tentative, role: .optional, wantsReply: true))
        #expect(thunderbird.details.attendees.first?.role == .chair)
        #expect(thunderbird.status == nil)
        let apple = try #require(EventReader.read(InvitationFixtures.bytes("apple-request.ics")).events.first)
        #expect(apple.details.organizer?.name == "Hana Sato")
        #expect(apple.details.attendee(amongAddresses: Self.ana)?.answer == .needsAction)
        // Outlook 2003 writes MAILTO in capitals.
        let legacy = try #require(EventReader.read(InvitationFixtures.bytes("outlook-legacy-no-vtimezone.ics")).events.first)
        #expect(legacy.details.attendees.first?.address == "ana@example.org")
    }

    /// Values a property may not have, or that are not known, read as RFC 5545 says.
    @Test func unknownValuesReadAsTheirDefaults() {
        #expect(Participation(parameter: "X-MAYBE") == .needsAction)          // §3.2.12
        #expect(Participation(parameter: "completed") == .needsAction)        // a VTODO's value
        #expect(Participation(parameter: " accepted ") == .accepted)
        #expect(ParticipantRole(parameter: "X-OBSERVER") == .required)        // §3.2.16
        #expect(EventStatus(value: "needs-action") == nil)                    // §3.8.1.11: a VTODO's
        #expect(ITIPMethod(value: "request") == .request)
        #expect(ITIPMethod(value: "X-FOO") == .other("X-FOO"))
        #expect(CalendarAddress.key(" MailTo:Ana@Example.ORG ") == "ana@example.org")
        #expect(Participant(value: "mailto:", parameter: { _ in nil }) == nil)
    }

    /// STATUS:CANCELLED removes the event, or the one occurrence an override names.
    @Test func cancelledEventsAndOccurrencesAreNotShown() throws {
        #expect(EventReader.read(InvitationFixtures.bytes("google-cancel.ics")).events.isEmpty)
        let series = String(decoding: InvitationFixtures.bytes("outlook-series-request.ics"), as: UTF8.self)
        let cancel = String(decoding: InvitationFixtures.bytes("outlook-cancel-occurrence.ics"), as: UTF8.self)
        let override = try #require(cancel.range(of: "BEGIN:VEVENT").map { cancel[$0.lowerBound...] }?
            .range(of: "END:VEVENT\r\n").map { range in String(cancel[cancel.range(of: "BEGIN:VEVENT")!.lowerBound..<range.upperBound]) })
        let both = series.replacingOccurrences(of: "END:VCALENDAR", with: override + "END:VCALENDAR")
        let store = EventStore(events: EventReader.read(Array(both.utf8)).events, display: .utc)
        let starts = store.occurrences(startingOn: EventFixture.day(2025, 3, 1)..<EventFixture.day(2025, 5, 1)).map { InvitationFixtures.text($0.start) }
        #expect(starts == ["20250318T090000Z", "20250325T090000Z", "20250401T080000Z", "20250408T080000Z", "20250422T080000Z"])
    }

    /// The store says which occurrences the user declined, and hides them when asked.
    @Test func theStoreFlagsAndHidesDeclinedEvents() {
        let store = EventStore(events: EventReader.read(InvitationFixtures.bytes("google-series-request.ics")).events, display: .utc)
        let days = EventFixture.day(2025, 3, 1)..<EventFixture.day(2025, 5, 1)
        #expect(store.occurrences(startingOn: days).allSatisfy { !$0.isDeclined })
        store.ownAddresses = Self.bo
        let flagged = store.occurrences(startingOn: days)
        #expect(flagged.filter(\.isDeclined).count == 7 && flagged.count == 8)
        store.hidesDeclined = true
        #expect(store.occurrences(startingOn: days).map(\.summary) == ["Stand-up (late start)"])
        #expect(store.occurrencesByDay(days).values.joined().allSatisfy { !$0.isDeclined })
        var count = 0
        _ = store.withStarts(startingOn: days) { count = $0.count; return true }
        #expect(count == 1)
        store.ownAddresses = Self.ana
        #expect(store.occurrences(startingOn: days).count == 8)
    }

    /// The cache carries it all: the status and who declined in every event's record, the
    /// organizer and attendees in its details (read only when details are asked for).
    @Test func theCacheCarriesTheScheduling() throws {
        for name in InvitationFixtures.calendars {
            let bytes = InvitationFixtures.bytes(name)
            let fresh = EventReader.read(bytes).events
            let cached = try #require(EventCacheFormatTests.decoded(EventCacheFormatTests.encoded(bytes, name: name), window: nil))
                .flatMap(\.file.events)
            #expect(cached.count == fresh.count, "\(name)")
            for (a, b) in zip(fresh.sorted { $0.line < $1.line }, cached.sorted { $0.line < $1.line }) {
                #expect(a.details == b.details, "\(name)")
                #expect(a.status == b.status && a.declinedBy == b.declinedBy, "\(name)")
            }
            let plain = EventCacheFormatTests.encoded(bytes, name: name).withUnsafeBytes { raw in
                EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: nil, details: false) }
            }
            for (a, b) in zip(fresh.sorted { $0.line < $1.line }, (plain ?? []).flatMap(\.file.events).sorted { $0.line < $1.line }) {
                #expect(b.details.isEmpty && a.declinedBy == b.declinedBy && a.status == b.status, "\(name)")
            }
        }
    }
}
