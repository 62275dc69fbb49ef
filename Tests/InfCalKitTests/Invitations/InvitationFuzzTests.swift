import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Nothing in an invitation, a calendar or a mail message may make import, the invitations
/// or the MIME reader trap or hang: the fixtures mutated at random (fixed seeds), cut short at
/// every few bytes, and what comes out is still something the reader reads.
@Suite struct InvitationFuzzTests {
    static let stored = (try? CalendarImport.merge(InvitationFixtures.data("outlook-series-request.ics"), into: []).bytes) ?? []
    static let me = CalendarAddress.keys(["ana@example.org", "frank@weber.example.net"])

    /// Runs everything on `bytes` as an incoming object, and into it as a calendar.
    static func exercise(_ bytes: [UInt8]) {
        let incoming = CalendarData.read(bytes, name: "fuzz.ics")
        for target in [[], stored, bytes] {
            if let result = try? CalendarImport.merge(incoming, into: target) {
                _ = EventReader.read(result.bytes)
                #expect(result.decisions.count == incoming.uids.count)
            }
            _ = try? Invitation.apply(incoming, addresses: me, into: target)
            if let answered = try? Invitation.answer(incoming, .accept, comment: "x\r\ny", addresses: me, stamp: 0, into: target) {
                #expect(CalendarData.read(answered.reply, name: "").findings.isEmpty)
            }
        }
        _ = try? CalendarImport.merge(incoming, intoItems: [ImportItem(name: "a.ics", bytes: bytes)])
        _ = Invitation.summaries(of: incoming, addresses: me, display: .utc,
                                 store: EventStore(events: EventReader.read(stored).events, display: .utc))
        _ = MailMessage.calendarParts(in: bytes)
        _ = MailMessage.header("subject", of: bytes)
    }

    @Test func mutatedInvitationsAndMessages() {
        var random = SplitMix64(state: 35)
        let specials = Array(";:,=\"\\\r\n -+0123456789TZ\t".utf8)
        let originals = InvitationFixtures.calendars.map(InvitationFixtures.bytes) + InvitationFixtures.messages.map(InvitationFixtures.bytes)
        for original in originals {
            for _ in 0..<25 {
                Self.exercise(random.mutated(original, specials: specials))
            }
        }
    }

    @Test func cutShort() {
        for name in ["google-series-request.ics", "outlook-cancel-occurrence.ics", "thunderbird-reply.ics", "mail/google-request.eml"] {
            let bytes = InvitationFixtures.bytes(name)
            for end in Swift.stride(from: 0, through: bytes.count, by: 37) { Self.exercise(Array(bytes[0..<end])) }
        }
    }
}
