import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Invitations (RFC 5546) as the mail clients of the fixtures send them: what is shown, the
/// answer stored and the METHOD:REPLY made (§3.2.3, read back by Python's icalendar), an
/// update keeping or asking again for the answer (§3.2.2), a CANCEL of the event and of one
/// occurrence (§3.2.5), an attendee's REPLY to the organizer, a COUNTER shown and not applied
/// (§3.2.7).
@Suite struct InvitationTests {
    static let ana = CalendarAddress.keys(["ana@example.org"])
    static let frank = CalendarAddress.keys(["frank@weber.example.net"])
    static let berlin = DisplayZone(TimeZone(identifier: "Europe/Berlin") ?? .gmt)
    /// 2025-03-05 10:00:00 UTC: when the tests answer.
    static let now = InvitationFixtures.utc("20250305T100000Z")

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The unfolded lines of `bytes` named `name`.
    static func lines(_ name: String, in bytes: [UInt8]) -> [String] {
        ICalLayout(bytes).lines.map(\.string).filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }
    }

    /// What icalendar reads of a calendar object (`imip_oracle.py calendar`).
    static func oracle(_ bytes: [UInt8]) throws -> [String] {
        let result = try #require(PythonOracle.withFile(bytes) { PythonOracle.run(script: "imip_oracle.py", ["calendar", $0]) })
        #expect(result.status == 0)
        return result.output.split(separator: "\n").map(String.init)
    }

    // MARK: What is shown

    @Test func anOutlookInvitationIsSummarised() throws {
        let mine = Array(CalendarImportTests.crlf("""
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:dentist
        DTSTART:20250311T163000Z
        DTEND:20250311T173000Z
        SUMMARY:Dentist
        END:VEVENT
        BEGIN:VEVENT
        UID:trip
        DTSTART;VALUE=DATE:20250311
        SUMMARY:Trip to Bern
        END:VEVENT
        BEGIN:VEVENT
        UID:later
        DTSTART:20250311T170000Z
        DTEND:20250311T180000Z
        SUMMARY:Right after
        END:VEVENT
        END:VCALENDAR

        """).utf8)
        let store = EventStore(events: EventReader.read(mine).events, display: Self.berlin)
        let summaries = Invitation.summaries(of: InvitationFixtures.data("outlook-request.ics"), addresses: Self.ana, display: Self.berlin, store: store)
        let summary = try #require(summaries.first)
        #expect(summaries.count == 1)
        #expect(summary.method == .request && summary.summary == "Q1 review" && summary.location == "Room 4.12 (Berlin)")
        #expect(summary.organizer?.name == "Carla Rossi")
        #expect(summary.attendees.map(\.name) == ["Ana Lima", "Bo Berg", "Dev Patel"])
        #expect(summary.you?.answer == .needsAction && summary.you?.wantsReply == true)
        // 17:00 as the organizer wrote it in Berlin, 16:00 UTC, 17:00 on the user's (Berlin) clock.
        #expect(summary.start == ICalTime(seconds: InvitationFixtures.utc("20250311T170000Z"),
                                          form: .zoned("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna")))
        #expect(summary.startUTC.map(InvitationFixtures.text) == "20250311T160000Z")
        #expect(summary.endUTC.map(InvitationFixtures.text) == "20250311T170000Z")
        #expect(summary.startShown.map(InvitationFixtures.text) == "20250311T170000Z")
        #expect(summary.description.hasPrefix("Quarterly figures, then the plan for Q2.\n"))
        // The dentist (16:30-17:30 UTC) and the all-day trip overlap it; 17:00 UTC starts as it ends.
        #expect(summary.overlaps.map(\.summary) == ["Trip to Bern", "Dentist"])
        // Not named: no "you".
        #expect(Invitation.summaries(of: InvitationFixtures.data("outlook-request.ics"), addresses: [], display: .utc).first?.you == nil)
    }

    /// A series overlaps what any of its first instances overlaps; a COUNTER shows the time
    /// proposed and the attendee's comment.
    @Test func seriesAndCounters() throws {
        let mine = EventFixture.calendar(["DTSTART:20250408T081500Z", "DTEND:20250408T090000Z"])
        let store = EventStore(events: EventReader.read(mine).events, display: .utc)
        let series = try #require(Invitation.summaries(of: InvitationFixtures.data("outlook-series-request.ics"), addresses: Self.ana,
                                                        display: .utc, store: store).first)
        #expect(series.rule == "FREQ=WEEKLY;COUNT=6;INTERVAL=1;BYDAY=TU;WKST=MO")
        #expect(series.overlaps.map(\.summary) == ["Test"])
        let counter = try #require(Invitation.summaries(of: InvitationFixtures.data("outlook-counter.ics"), addresses: Self.ana, display: .utc).first)
        #expect(counter.method == .counter && counter.comment == "Could we meet an hour later?\n")
        #expect(counter.startUTC.map(InvitationFixtures.text) == "20250311T170000Z")
        #expect(counter.attendees.map(\.answer) == [.tentative])
    }

    /// Each component's DTSTART and RECURRENCE-ID as invitations read them (cancellations and
    /// replies too, which the views never show), against icalendar.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func componentTimesAgreeWithIcalendar() throws {
        for name in InvitationFixtures.calendars {
            let path = InvitationFixtures.directory.appendingPathComponent(name).path
            let result = try #require(PythonOracle.run(script: "ical_times.py", [path]))
            let rows = result.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            let data = InvitationFixtures.data(name)
            let zones = ZoneLookup(data.layout.data)
            #expect(rows.count == data.components.count, "\(name)")
            for (component, row) in zip(data.components, rows) where row.count == 6 {
                #expect(component.uid == row[0], "\(name)")
                let start = component.start.map { InvitationFixtures.text(zones.utc($0, display: .utc)) } ?? "-"
                #expect(start == (row[2].hasPrefix("?") ? "20250311T160000Z" : row[2]), "\(name) DTSTART")
                #expect(String(component.version.sequence) == row[5] && (component.status?.rawValue ?? "-") == row[4], "\(name)")
                #expect(component.recurrenceTime.map { InvitationFixtures.text(zones.utc($0, display: .utc)) } ?? "-" == row[1], "\(name) RECURRENCE-ID")
            }
        }
    }

    // MARK: Answering

    /// Accepting stores the event with the user's PARTSTAT (nothing else of it changed) and
    /// makes the REPLY RFC 5546 §3.2.3 asks for.
    @Test func acceptingStoresAndReplies() throws {
        let incoming = InvitationFixtures.data("outlook-request.ics")
        let answered = try Invitation.answer(incoming, .accept, comment: "See you there.\nAna", addresses: Self.ana, stamp: Self.now, into: [])
        #expect(answered.result.decisions.map(\.outcome) == [.added])
        #expect(answered.attendee.answer == .accepted && answered.organizer.address == "carla.rossi@corp.example.com")
        let stored = answered.result.bytes
        #expect(Self.lines("ATTENDEE", in: stored) == [
            "ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE;CN=Ana Lima:mailto:ana@example.org",
            "ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Bo Berg:mailto:Bo.Berg@corp.example.com",
            "ATTENDEE;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Dev Patel:mailto:dev@corp.example.com",
        ])
        #expect(!Self.text(stored).contains("METHOD"))
        let event = try #require(EventReader.read(stored).events.first)
        #expect(event.details.attendee(amongAddresses: Self.ana)?.answer == .accepted)

        let reply = answered.reply
        #expect(Self.lines("METHOD", in: reply) == ["METHOD:REPLY"])
        #expect(Self.lines("ATTENDEE", in: reply) == ["ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Ana Lima:mailto:ana@example.org"])
        #expect(Self.lines("ORGANIZER", in: reply) == ["ORGANIZER;CN=Carla Rossi:mailto:carla.rossi@corp.example.com"])
        #expect(Self.lines("SEQUENCE", in: reply) == ["SEQUENCE:0"])
        #expect(Self.lines("DTSTAMP", in: reply) == ["DTSTAMP:20250305T100000Z"])
        #expect(Self.lines("RECURRENCE-ID", in: reply).isEmpty)
        #expect(Self.lines("COMMENT", in: reply) == ["COMMENT:See you there.\\nAna"])
        #expect(Self.lines("UID", in: reply) == Self.lines("UID", in: incoming.layout.data))
        // The zone DTSTART names comes with it; every line folded, CRLF.
        #expect(Self.text(reply).contains("TZID:(UTC+01:00) Amsterdam\\, Berlin"))
        #expect(Self.text(reply).split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") })
        #expect(EventReader.read(reply).notes.isEmpty)
    }

    /// icalendar reads the reply with exactly the fields §3.2.3 requires, and the same times.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func icalendarReadsTheReply() throws {
        for name in ["outlook-request.ics", "google-request.ics", "thunderbird-request.ics", "apple-request.ics", "nextcloud-request.ics",
                     "outlook-series-request.ics"] {
            let answered = try Invitation.answer(InvitationFixtures.data(name), .tentative, comment: "Maybe; late, \"perhaps\"",
                                                 addresses: Self.ana, stamp: Self.now, into: [])
            let facts = try Self.oracle(answered.reply)
            #expect(facts.first == "METHOD REPLY", "\(name)")
            #expect(facts.filter { $0.hasPrefix("ATTENDEE ") } == ["ATTENDEE mailto:ana@example.org PARTSTAT=TENTATIVE RSVP=-"], "\(name)")
            #expect(facts.filter { $0.hasPrefix("ORGANIZER ") }.count == 1, "\(name)")
            #expect(facts.contains("DTSTAMP 20250305T100000Z") && facts.contains("UID \(answered.uid)"), "\(name)")
            #expect(facts.contains("COMMENT 'Maybe; late, \"perhaps\"'"), "\(name)")
            #expect(facts.filter { $0 == "COMPONENT VEVENT" }.count == 1, "\(name)")
            let request = try Self.oracle(InvitationFixtures.bytes(name))
            #expect(facts.first { $0.hasPrefix("DTSTART ") } == request.first { $0.hasPrefix("DTSTART ") }, "\(name)")
            #expect(facts.first { $0.hasPrefix("SEQUENCE ") } == request.first { $0.hasPrefix("SEQUENCE ") }, "\(name)")
        }
    }

    /// Declining stores the event too, marked: the store flags it for the user.
    @Test func decliningStoresItMarked() throws {
        let answered = try Invitation.answer(InvitationFixtures.data("thunderbird-request.ics"), .decline, addresses: Self.ana,
                                             stamp: Self.now, into: CalendarImportTests.calendar([]))
        let store = EventStore(events: EventReader.read(answered.result.bytes).events, display: .utc)
        store.ownAddresses = Self.ana
        let days = EventFixture.day(2025, 3, 31)..<EventFixture.day(2025, 4, 1)
        #expect(store.occurrences(startingOn: days).map(\.isDeclined) == [true])
        store.hidesDeclined = true
        #expect(store.occurrences(startingOn: days).isEmpty)
    }

    /// An invitation to one occurrence is answered for that occurrence: the reply carries its
    /// RECURRENCE-ID.
    @Test func answeringOneOccurrence() throws {
        var text = Self.text(InvitationFixtures.bytes("google-series-request.ics"))
        // Only the override: Google's invitation to one changed instance.
        let master = try #require(text.range(of: "BEGIN:VEVENT")).lowerBound
        let override = try #require(text.range(of: "BEGIN:VEVENT", range: text.index(after: master)..<text.endIndex)).lowerBound
        text.removeSubrange(master..<override)
        let answered = try Invitation.answer(CalendarData.read(Array(text.utf8), name: "one"), .accept, addresses: Self.ana, stamp: Self.now, into: [])
        #expect(Self.lines("RECURRENCE-ID", in: answered.reply) == ["RECURRENCE-ID;TZID=Europe/Berlin:20250402T090000"])
        #expect(Self.text(answered.reply).contains("BEGIN:VTIMEZONE"))
    }

    @Test func whatCannotBeAnswered() throws {
        let request = InvitationFixtures.data("google-request.ics")
        #expect(throws: CalendarEdit.Refusal.self) { try Invitation.answer(InvitationFixtures.data("google-cancel.ics"), .accept, addresses: Self.ana, stamp: Self.now, into: []) }
        #expect(throws: CalendarEdit.Refusal("the invitation does not name you among its attendees (your addresses: zoe@example.org); it can be stored without an answer")) {
            try Invitation.answer(request, .accept, addresses: ["zoe@example.org"], stamp: Self.now, into: [])
        }
        let newer = try CalendarImport.merge(InvitationFixtures.data("google-update.ics"), into: [])
        #expect(throws: CalendarEdit.Refusal("the calendar holds a newer version of this invitation (SEQUENCE 1); answer that one")) {
            try Invitation.answer(request, .accept, addresses: Self.ana, stamp: Self.now, into: newer.bytes)
        }
        // Answering again changes the answer in place.
        let first = try Invitation.answer(request, .accept, addresses: Self.ana, stamp: Self.now, into: [])
        let second = try Invitation.answer(request, .decline, addresses: Self.ana, stamp: Self.now, into: first.result.bytes)
        #expect(second.result.decisions.map(\.outcome) == [.updated])
        #expect(Self.lines("ATTENDEE", in: second.result.bytes).filter { $0.contains("ana@") }.map { $0.contains("PARTSTAT=DECLINED") } == [true])
        #expect(Self.text(second.result.bytes).components(separatedBy: "BEGIN:VEVENT").count == 2)
    }

    // MARK: Updates, cancellations, replies, counters

    /// A newer REQUEST keeps the user's answer when only its text changed, and asks again
    /// (NEEDS-ACTION) when its time changed.
    @Test func anUpdateKeepsTheAnswerUnlessTheTimeMoved() throws {
        let accepted = try Invitation.answer(InvitationFixtures.data("google-request.ics"), .accept, addresses: Self.ana, stamp: Self.now, into: [])
        // Google's update moves the lunch from 11:30 to 12:00 UTC.
        let moved = try Invitation.apply(InvitationFixtures.data("google-update.ics"), addresses: Self.ana, into: accepted.result.bytes)
        #expect(moved.outcomes.map(\.outcome) == [.updated(answerKept: false)])
        #expect(Self.lines("ATTENDEE", in: moved.bytes).filter { $0.contains("ana@") }.map { $0.contains("PARTSTAT=NEEDS-ACTION") } == [true])
        // The same lunch, another place, a higher SEQUENCE: the answer stays.
        let text = Self.text(InvitationFixtures.bytes("google-request.ics")).replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
            .replacingOccurrences(of: "LOCATION:Café Nord", with: "LOCATION:Café Süd")
        let placed = try Invitation.apply(CalendarData.read(Array(text.utf8), name: "u"), addresses: Self.ana, into: accepted.result.bytes)
        #expect(placed.outcomes.map(\.outcome) == [.updated(answerKept: true)])
        #expect(Self.lines("ATTENDEE", in: placed.bytes).filter { $0.contains("ana@") }.map { $0.contains("PARTSTAT=ACCEPTED") } == [true])
        #expect(Self.text(placed.bytes).contains("Café Süd"))
        // The same again: nothing; an older one: kept.
        #expect(try Invitation.apply(CalendarData.read(Array(text.utf8), name: "u"), addresses: Self.ana, into: placed.bytes).changed == false)
        let old = try Invitation.apply(InvitationFixtures.data("google-request.ics"), addresses: Self.ana, into: placed.bytes)
        #expect(old.outcomes.map(\.outcome) == [.keptNewer] && !old.changed)
        // A REQUEST not stored yet is stored unanswered.
        let fresh = try Invitation.apply(InvitationFixtures.data("nextcloud-request.ics"), addresses: Self.ana, into: [])
        #expect(fresh.outcomes.map(\.outcome) == [.stored])
    }

    /// CANCEL of the whole event: every component STATUS:CANCELLED, with the CANCEL's
    /// SEQUENCE and DTSTAMP; the views show nothing of it.
    @Test func aCancelledEventDisappears() throws {
        let stored = try Invitation.answer(InvitationFixtures.data("google-request.ics"), .accept, addresses: Self.ana, stamp: Self.now, into: [])
        let cancelled = try Invitation.apply(InvitationFixtures.data("google-cancel.ics"), addresses: Self.ana, into: stored.result.bytes)
        #expect(cancelled.outcomes.map(\.outcome) == [.cancelled(occurrence: nil)])
        #expect(Self.lines("STATUS", in: cancelled.bytes) == ["STATUS:CANCELLED"])
        #expect(Self.lines("SEQUENCE", in: cancelled.bytes) == ["SEQUENCE:2"])
        #expect(Self.lines("DTSTAMP", in: cancelled.bytes) == ["DTSTAMP:20250306T180000Z"])
        #expect(EventReader.read(cancelled.bytes).events.isEmpty)
        #expect(try Invitation.apply(InvitationFixtures.data("google-cancel.ics"), addresses: Self.ana, into: cancelled.bytes).changed == false)
        let nothing = try Invitation.apply(InvitationFixtures.data("google-cancel.ics"), addresses: Self.ana, into: [])
        #expect(nothing.outcomes.map(\.outcome) == [.notApplied("the calendar has no event 5k3o2p9q8r7s6t5u4v3w2x1y0z@google.com to cancel")])
    }

    /// CANCEL of one occurrence: an override made for it from the master (its time, the
    /// master's length), STATUS:CANCELLED; that instance alone disappears.
    @Test func aCancelledOccurrenceDisappears() throws {
        let stored = try Invitation.answer(InvitationFixtures.data("outlook-series-request.ics"), .accept, addresses: Self.ana, stamp: Self.now, into: [])
        let cancelled = try Invitation.apply(InvitationFixtures.data("outlook-cancel-occurrence.ics"), addresses: Self.ana, into: stored.result.bytes)
        #expect(cancelled.outcomes.map(\.outcome) == [.cancelled(occurrence: "20250415T100000")])
        #expect(Self.lines("RECURRENCE-ID", in: cancelled.bytes) == ["RECURRENCE-ID;TZID=W. Europe Standard Time:20250415T100000"])
        #expect(Self.lines("DTSTART", in: cancelled.bytes).contains("DTSTART;TZID=W. Europe Standard Time:20250415T100000"))
        #expect(Self.lines("DURATION", in: cancelled.bytes) == ["DURATION:PT30M"])
        #expect(Self.lines("STATUS", in: cancelled.bytes) == ["STATUS:CONFIRMED", "STATUS:CANCELLED"])
        #expect(Self.lines("RRULE", in: cancelled.bytes).filter { $0.hasPrefix("RRULE:FREQ=WEEKLY") }.count == 1)
        let store = EventStore(events: EventReader.read(cancelled.bytes).events, display: .utc)
        let starts = store.occurrences(startingOn: EventFixture.day(2025, 3, 1)..<EventFixture.day(2025, 5, 1)).map { InvitationFixtures.text($0.start) }
        #expect(starts == ["20250318T090000Z", "20250325T090000Z", "20250401T080000Z", "20250408T080000Z", "20250422T080000Z"])
        // Again: the override is there, cancelled: nothing changes.
        #expect(try Invitation.apply(InvitationFixtures.data("outlook-cancel-occurrence.ics"), addresses: Self.ana, into: cancelled.bytes).changed == false)
    }

    /// An attendee's REPLY sets their PARTSTAT in the event the user organised; a reply to an
    /// event the user did not organise, or to an older version, changes nothing.
    @Test func repliesAreRecordedByTheOrganizer() throws {
        let organised = try CalendarImport.merge(InvitationFixtures.data("thunderbird-request.ics"), into: [])
        let replied = try Invitation.apply(InvitationFixtures.data("thunderbird-reply.ics"), addresses: Self.frank, into: organised.bytes)
        #expect(replied.outcomes.map(\.outcome) == [.answerRecorded(attendee: "gul@weber.example.net", answer: .declined)])
        #expect(Self.lines("ATTENDEE", in: replied.bytes).last == "ATTENDEE;CN=Gül Yılmaz;PARTSTAT=DECLINED;ROLE=OPT-PARTICIPANT:mailto:gul@weber.example.net")
        #expect(Self.lines("ATTENDEE", in: replied.bytes).dropLast() == Self.lines("ATTENDEE", in: organised.bytes).dropLast())
        let notMine = try Invitation.apply(InvitationFixtures.data("thunderbird-reply.ics"), addresses: Self.ana, into: organised.bytes)
        #expect(!notMine.changed)
        let newer = Self.text(organised.bytes).replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:3")
        let stale = try Invitation.apply(InvitationFixtures.data("thunderbird-reply.ics"), addresses: Self.frank, into: Array(newer.utf8))
        #expect(stale.outcomes.map(\.outcome) == [.notApplied("the reply answers an older version of 8f1b6c2e-4d3a-4e7b-9c1d-2a3b4c5d6e7f (SEQUENCE 0)")])
    }

    /// A COUNTER, a REFRESH: shown, nothing stored.
    @Test func countersAreNotApplied() throws {
        let stored = try CalendarImport.merge(InvitationFixtures.data("outlook-request.ics"), into: [])
        let counter = try Invitation.apply(InvitationFixtures.data("outlook-counter.ics"), addresses: Self.ana, into: stored.bytes)
        #expect(!counter.changed && counter.bytes == stored.bytes)
        #expect(counter.outcomes.map(\.outcome) == [.notApplied("a COUNTER proposes a change to the organizer; it is shown, not applied")])
    }
}
