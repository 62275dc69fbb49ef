import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// iMIP (RFC 6047): the calendar parts found in messages as Outlook, Google, Thunderbird and
/// Apple Mail send them (multipart nested, base64, quoted-printable, 7bit and 8bit, attached
/// messages); the REPLY message composed, read back by Python's email package and icalendar
/// (Tests/Oracles/imip_oracle.py); outside text kept out of the headers' structure.
@Suite struct MailMessageTests {
    /// `bytes` with CRLF made LF: a quoted-printable part is decoded with the line ends its
    /// encoder chose.
    static func lf(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test(arguments: [
        ("mail/outlook-request.eml", ["text/calendar REQUEST -"], "outlook-request.ics"),
        ("mail/google-request.eml", ["text/calendar REQUEST -", "application/ics - invite.ics"], "google-request.ics"),
        ("mail/thunderbird-request.eml", ["text/calendar REQUEST -", "application/ics - invite.ics"], "thunderbird-request.ics"),
        ("mail/thunderbird-reply.eml", ["text/calendar REPLY -"], "thunderbird-reply.ics"),
        ("mail/apple-request.eml", ["text/calendar REQUEST meeting.ics"], "apple-request.ics"),
        ("mail/apple-forwarded.eml", ["text/calendar REQUEST meeting.ics"], "apple-request.ics"),
    ])
    func theCalendarPartsAreFound(message: String, parts: [String], calendar: String) {
        let found = MailMessage.calendarParts(in: InvitationFixtures.bytes(message))
        #expect(found.map { "\($0.mediaType) \($0.method ?? "-") \($0.fileName ?? "-")" } == parts)
        for part in found { #expect(Self.lf(part.bytes) == Self.lf(InvitationFixtures.bytes(calendar)), "\(message)") }
    }

    /// The same parts, types and methods as the email package finds.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func theEmailPackageFindsTheSameParts() throws {
        for name in InvitationFixtures.messages {
            let path = InvitationFixtures.directory.appendingPathComponent(name).path
            let result = try #require(PythonOracle.run(script: "imip_oracle.py", ["mail", path]))
            #expect(result.status == 0, "\(name)")
            let theirs = result.output.split(separator: "\n").filter { $0.hasPrefix("PART text/calendar") || $0.hasPrefix("PART application/ics") }
                .map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") }
            let ours = MailMessage.calendarParts(in: InvitationFixtures.bytes(name)).map { "\($0.mediaType) \($0.method ?? "-")" }
            #expect(ours == theirs, "\(name)")
            let subject = result.output.split(separator: "\n").first { $0.hasPrefix("HEADER Subject: ") }?.dropFirst("HEADER Subject: ".count)
            #expect(MailMessage.header("subject", of: InvitationFixtures.bytes(name)) == subject.map(String.init), "\(name)")
        }
    }

    @Test func headersAreDecoded() {
        #expect(MailMessage.header("Subject", of: InvitationFixtures.bytes("mail/google-request.eml"))
                == "Invitation: Lunch with Eve @ Fri Mar 14, 2025 12:30pm – 2pm (CET) (ana@example.org)")
        #expect(MailMessage.header("from", of: InvitationFixtures.bytes("mail/thunderbird-reply.eml")) == "Gül Yılmaz <gul@weber.example.net>")
        #expect(MailMessage.header("Message-ID", of: InvitationFixtures.bytes("mail/outlook-request.eml"))
                == "<AM0PR02MB1234D0F4E3E8A58A@AM0PR02MB1234.eurprd02.prod.outlook.com>")
        #expect(MailMessage.header("X-None", of: InvitationFixtures.bytes("mail/outlook-request.eml")) == nil)
        #expect(MailHeaders.decoded("=?ISO-8859-1?Q?Caf=E9?= =?UTF-8?B?IE7DtnJk?= (x)") == "Café Nörd (x)")
        #expect(MailHeaders.decoded("=?utf-8?q?broken") == "=?utf-8?q?broken")
    }

    // MARK: Composing

    static func draft(name: String? = "Ana Lima", subject: String = "Accepted: Q1 review — Budget 2025",
                      text: String = "Ana Lima has accepted: Q1 review.\nWhen: Tue 11 Mar 2025 17:00–18:00 (Berlin)\n") throws -> MailMessage.Draft {
        let answered = try Invitation.answer(InvitationFixtures.data("outlook-request.ics"), .accept, comment: "Gerne!",
                                             addresses: InvitationTests.ana, stamp: InvitationTests.now, into: [])
        return MailMessage.Draft(from: try #require(MailAddress(name: name, address: "ana@example.org")),
                                 to: try #require(MailAddress(name: answered.organizer.name, address: answered.organizer.address)),
                                 subject: subject, date: InvitationTests.now, offset: 3600, messageID: "infcal.1234@example.org",
                                 inReplyTo: "AM0PR02MB1234D0F4E3E8A58A@AM0PR02MB1234.eurprd02.prod.outlook.com",
                                 text: text + String(repeating: "long line ", count: 20) + "\n", calendar: answered.reply, method: .reply)
    }

    /// The REPLY message: headers, multipart/alternative of text and calendar, CRLF lines of
    /// at most 78 characters; infcal's own reader finds the calendar part again, byte for byte.
    @Test func theReplyMessageIsWellFormed() throws {
        let draft = try Self.draft()
        let message = MailMessage.compose(draft)
        let text = String(decoding: message, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 && !$0.contains("\n") && !$0.contains("\r") })
        #expect(text.hasPrefix("From: Ana Lima <ana@example.org>\r\nTo: Carla Rossi <carla.rossi@corp.example.com>\r\nSubject: =?UTF-8?B?"))
        #expect(lines.contains("Date: Wed, 5 Mar 2025 11:00:00 +0100"))
        #expect(lines.contains("Message-ID: <infcal.1234@example.org>"))
        // A Message-ID too long for the field's line goes on the next, folded.
        #expect(text.contains("In-Reply-To:\r\n <AM0PR02MB1234D0F4E3E8A58A@AM0PR02MB1234.eurprd02.prod.outlook.com>\r\n"))
        #expect(lines.contains("MIME-Version: 1.0"))
        #expect(lines.contains("Content-Type: text/calendar; method=REPLY; charset=UTF-8"))
        let parts = MailMessage.calendarParts(in: message)
        #expect(parts == [MailCalendarPart(mediaType: "text/calendar", method: "REPLY", fileName: nil, bytes: draft.calendar)])
        #expect(MailMessage.header("Subject", of: message) == "Accepted: Q1 review — Budget 2025")
    }

    /// Python's email package reads the message without a defect, the headers decoded as
    /// written, the text as given, and icalendar reads the calendar part as the REPLY.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func theEmailPackageReadsTheReply() throws {
        let draft = try Self.draft(name: "Ana Lima-Ştefan, \"home\"")
        let message = MailMessage.compose(draft)
        let result = try #require(PythonOracle.withFile(message, suffix: ".eml") { PythonOracle.run(script: "imip_oracle.py", ["mail", $0]) })
        #expect(result.status == 0)
        let facts = result.output.split(separator: "\n").map(String.init)
        #expect(facts.contains("HEADER From: \"Ana Lima-Ştefan, \\\"home\\\"\" <ana@example.org>"))
        #expect(facts.contains("HEADER To: Carla Rossi <carla.rossi@corp.example.com>"))
        #expect(facts.contains("HEADER Subject: Accepted: Q1 review — Budget 2025"))
        #expect(facts.contains("HEADER Date: Wed, 05 Mar 2025 11:00:00 +0100"))
        #expect(facts.contains("HEADER Message-ID: <infcal.1234@example.org>"))
        #expect(facts.contains("DEFECTS 0") && facts.contains("CRLF True"))
        #expect(facts.contains { $0.hasPrefix("LONGEST ") && (Int($0.dropFirst(8)) ?? 99) <= 78 })
        #expect(facts.contains("MULTIPART multipart/alternative"))
        #expect(facts.contains("PART text/plain - utf-8 quoted-printable"))
        #expect(facts.contains("PART text/calendar REPLY utf-8 base64"))
        let expectedText = draft.text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(facts.contains("TEXT " + Self.pythonRepr(expectedText)), "\(facts.filter { $0.hasPrefix("TEXT") })")
        #expect(facts.contains("METHOD REPLY"))
        #expect(facts.contains("ATTENDEE mailto:ana@example.org PARTSTAT=ACCEPTED RSVP=-"))
        #expect(facts.contains("COMMENT 'Gerne!'"))
    }

    /// Python's repr of a str of printable characters, \r and \n (single quotes).
    static func pythonRepr(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n") + "'"
    }

    /// The object a message carries, once though Google and Thunderbird attach it twice; the
    /// reply's message made from the answer.
    @Test func theInvitationAndItsReplyMessage() throws {
        for name in InvitationFixtures.messages {
            let part = try #require(MailMessage.invitation(in: InvitationFixtures.bytes(name)), "\(name)")
            #expect(part.mediaType == "text/calendar" && part.method != nil, "\(name)")
        }
        #expect(MailMessage.invitation(in: Array("Content-Type: text/plain\r\n\r\nhello".utf8)) == nil)
        let incoming = CalendarData.read(try #require(MailMessage.invitation(in: InvitationFixtures.bytes("mail/google-request.eml"))).bytes,
                                         name: "mail")
        let answered = try Invitation.answer(incoming, .decline, addresses: InvitationTests.ana, stamp: InvitationTests.now, into: [])
        let ana = try #require(MailAddress(name: "Ana Lima", address: "ana@example.org"))
        let draft = try #require(MailMessage.Draft.reply(answered, comment: "Away that week.", from: ana, date: InvitationTests.now, offset: 0,
                                                         messageID: "r1@example.org"))
        #expect(draft.to == MailAddress(name: "Eve Martin", address: "eve.martin@gmail.com"))
        #expect(draft.subject == "Declined: Lunch with Eve")
        #expect(draft.text == "Ana Lima has declined the invitation: Lunch with Eve\n\nAway that week.\n")
        #expect(draft.method == .reply && draft.calendar == answered.reply)
    }

    /// Outside text never ends a header: line breaks and control characters in a name or a
    /// subject become spaces; an address with them (or with spaces, brackets, no @) is refused.
    @Test func noHeaderCanBeInjected() throws {
        #expect(MailAddress(name: nil, address: "ana@example.org\r\nBcc: eve@evil.example") == nil)
        #expect(MailAddress(name: nil, address: "ana @example.org") == nil)
        #expect(MailAddress(name: nil, address: "<ana@example.org>") == nil)
        #expect(MailAddress(name: nil, address: "ana.example.org") == nil)
        #expect(MailAddress(name: nil, address: "ana@exämple.org") == nil)
        #expect(MailAddress(name: "Ana\r\nBcc: eve@evil.example", address: "ana@example.org")?.header
                == "\"Ana Bcc: eve@evil.example\" <ana@example.org>")
        let message = MailMessage.compose(try Self.draft(name: "Ana\nBcc: eve@evil.example", subject: "Hi\r\nBcc: eve@evil.example\r\n\r\nbody"))
        let header = String(decoding: message, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        #expect(!header.components(separatedBy: "\r\n").contains { $0.hasPrefix("Bcc:") })
        #expect(MailMessage.header("Subject", of: message) == "Hi Bcc: eve@evil.example body")
        #expect(MailMessage.header("Bcc", of: message) == nil)
    }

    @Test func encodingsByTheLetter() {
        // RFC 2045 §6.7: `=` encoded, a space before a line break encoded, soft breaks under 77.
        #expect(String(decoding: MailMessage.quotedPrintable(Array("a=b \nc\té".utf8)), as: UTF8.self) == "a=3Db=20\r\nc\t=C3=A9\r\n")
        let long = MailMessage.quotedPrintable(Array(String(repeating: "x", count: 200).utf8))
        #expect(String(decoding: long, as: UTF8.self).components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 76 })
        #expect(MIMEDecoding.quotedPrintable(long) == Array(String(repeating: "x", count: 200).utf8 + [0x0D, 0x0A]))
        // RFC 2047: words of at most 75 characters, never a UTF-8 character cut.
        let words = MailHeaders.encodedWords(String(repeating: "Grüße ", count: 20))
        #expect(words.allSatisfy { $0.utf8.count <= 75 })
        #expect(MailHeaders.decoded(words.joined(separator: " ")) == MailHeaders.cleaned(String(repeating: "Grüße ", count: 20)))
        #expect(MailHeaders.date(InvitationFixtures.utc("20250330T003000Z"), offset: -12600) == "Sat, 29 Mar 2025 21:00:00 -0330")
    }

    /// Messages no mail client sends: nesting deeper than any, no boundary, broken encodings,
    /// a multipart never closed. Nothing traps; what can be found is.
    @Test func hostileMessagesAreReadSafely() {
        var deep = ""
        for level in 0..<200 { deep += "Content-Type: multipart/mixed; boundary=\"b\(level)\"\r\n\r\n--b\(level)\r\n" }
        deep += "Content-Type: text/calendar; method=REQUEST\r\n\r\nBEGIN:VCALENDAR\r\n"
        #expect(MailMessage.calendarParts(in: Array(deep.utf8)).isEmpty)
        let cases = [
            "Content-Type: multipart/mixed\r\n\r\n--x\r\n\r\n",
            "Content-Type: text/calendar\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!",
            "Content-Type: text/calendar\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nBEGIN=\r\n:VCAL=4",
            "Content-Type: multipart/mixed; boundary=z\r\n\r\n--z\r\nContent-Type: application/ics\r\n\r\nBEGIN:VCALENDAR",
            "Content-Type: text/calendar; charset=\"iso-8859-1\"; method=\"publish\"\r\n\r\nSUMMARY:Cafe",
            "no header at all",
            "",
        ]
        let found = cases.map { MailMessage.calendarParts(in: Array($0.utf8)).map { "\($0.mediaType) \($0.method ?? "-") \(Self.lf($0.bytes))" } }
        #expect(found[0].isEmpty)
        #expect(found[2] == ["text/calendar - BEGIN:VCAL=4"])
        #expect(found[3] == ["application/ics - BEGIN:VCALENDAR"])
        #expect(found[4] == ["text/calendar PUBLISH SUMMARY:Cafe"])
        #expect(found[5].isEmpty && found[6].isEmpty)
        // Latin-1 bytes in a part that says so come out as UTF-8.
        let latin = Array("Content-Type: text/calendar; charset=ISO-8859-1\r\n\r\nSUMMARY:Caf".utf8) + [0xE9]
        #expect(MailMessage.calendarParts(in: latin).map { String(decoding: $0.bytes, as: UTF8.self) } == ["SUMMARY:Café"])
    }
}
