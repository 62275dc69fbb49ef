import Foundation
import InfCalModel

extension MailMessage {
    /// What an iMIP message (RFC 6047) is made of; the text is outside text, cleaned where
    /// it goes into a header.
    public struct Draft: Sendable {
        public var from: MailAddress
        public var to: MailAddress
        public var subject: String
        /// The instant it is sent (UTC civil seconds) and the sender's offset from UTC then.
        public var date: Int
        public var offset: Int
        /// The Message-ID without its angle brackets: `local@domain`; what is not allowed in
        /// one (spaces, control characters, `<>`) is left out.
        public var messageID: String
        /// The Message-ID of the invitation answered (In-Reply-To, References), if known.
        public var inReplyTo: String?
        /// The text part: what the message says to a person.
        public var text: String
        /// The iCalendar object (CRLF line ends) and its METHOD.
        public var calendar: [UInt8]
        public var method: ITIPMethod

        /// A message as the fields say (`reply(_:comment:from:date:offset:messageID:inReplyTo:)`
        /// makes one for an answered invitation).
        public init(from: MailAddress, to: MailAddress, subject: String, date: Int, offset: Int, messageID: String,
                    inReplyTo: String? = nil, text: String, calendar: [UInt8], method: ITIPMethod) {
            self.from = from
            self.to = to
            self.subject = subject
            self.date = date
            self.offset = offset
            self.messageID = messageID
            self.inReplyTo = inReplyTo
            self.text = text
            self.calendar = calendar
            self.method = method
        }
    }

    /// The message of `draft` (RFC 6047 §2, the form of its §4.2 example): From, To, Subject,
    /// Date, Message-ID, MIME-Version, then `multipart/alternative` of a `text/plain` part
    /// (UTF-8, quoted-printable) and the `text/calendar; method=...; charset=UTF-8` part
    /// (base64, which keeps its CRLF line ends and UTF-8 bytes through any mail system); every
    /// line ends CRLF and is at most 78 characters. Header text is cleaned of control
    /// characters and encoded (RFC 2047) when not ASCII: nothing in it can start a header.
    public static func compose(_ draft: Draft) -> [UInt8] {
        let id = messageIDText(draft.messageID)
        // A boundary no part can hold: base64 and quoted-printable never write "=_".
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 + draft.calendar { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        let boundary = "=_infcal_" + String(hash, radix: 16)
        var out: [UInt8] = []
        out += MailHeaders.fold("From:", draft.from.headerWords)
        out += MailHeaders.fold("To:", draft.to.headerWords)
        out += MailHeaders.field("Subject", draft.subject)
        out += MailHeaders.field("Date", MailHeaders.date(draft.date, offset: draft.offset))
        out += MailHeaders.fold("Message-ID:", ["<\(id)>"])
        if let reply = draft.inReplyTo.map(messageIDText), !reply.isEmpty {
            out += MailHeaders.fold("In-Reply-To:", ["<\(reply)>"])
            out += MailHeaders.fold("References:", ["<\(reply)>"])
        }
        out += Array("MIME-Version: 1.0\r\n".utf8)
        out += Array("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n\r\n".utf8)
        out += Array("This is a message in MIME format.\r\n".utf8)
        out += Array("--\(boundary)\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n".utf8)
        out += quotedPrintable(Array(draft.text.utf8))
        // The line break before a delimiter is the delimiter's (RFC 2046 §5.1.1): one more, so
        // that the text keeps its last.
        out += Array("\r\n--\(boundary)\r\n".utf8)
        out += Array("Content-Type: text/calendar; method=\(methodToken(draft.method)); charset=UTF-8\r\n".utf8)
        out += Array("Content-Transfer-Encoding: base64\r\n\r\n".utf8)
        out += base64Lines(draft.calendar)
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// The Message-ID's text without what one cannot hold.
    private static func messageIDText(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">" && $0 != "\"" }
            .map(Character.init))
    }

    /// METHOD as a MIME token (letters only: the methods are).
    private static func methodToken(_ method: ITIPMethod) -> String {
        let token = method.value.filter { $0.isLetter && $0.isASCII }
        return token.isEmpty ? "PUBLISH" : token
    }

    /// `bytes` in base64, lines of 76 characters ended CRLF.
    static func base64Lines(_ bytes: [UInt8]) -> [UInt8] {
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        var out: [UInt8] = []
        var index = 0
        while index < encoded.count {
            let end = min(index + 76, encoded.count)
            out += encoded[index..<end]
            out += [0x0D, 0x0A]
            index = end
        }
        return out
    }

    /// `bytes` (text whose line breaks are LF or CRLF) in quoted-printable (RFC 2045 §6.7):
    /// line breaks as CRLF, `=` and bytes outside printable ASCII as `=XX`, a space or tab
    /// at a line's end encoded, lines of at most 76 characters through soft line breaks.
    static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        var lineLength = 0
        func put(_ piece: [UInt8]) {
            if lineLength + piece.count > 75 {
                out += [0x3D, 0x0D, 0x0A]
                lineLength = 0
            }
            out += piece
            lineLength += piece.count
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 1
                continue
            }
            if byte == 0x0A {
                out += [0x0D, 0x0A]
                lineLength = 0
                index += 1
                continue
            }
            let atLineEnd = index + 1 == bytes.count || bytes[index + 1] == 0x0A || bytes[index + 1] == 0x0D
            let plain = (byte >= 0x21 && byte <= 0x7E && byte != 0x3D) || ((byte == 0x20 || byte == 0x09) && !atLineEnd)
            put(plain ? [byte] : [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            index += 1
        }
        if lineLength > 0 || out.isEmpty { out += [0x0D, 0x0A] }
        return out
    }
}

extension MailMessage.Draft {
    /// The iMIP message that takes `answered`'s REPLY from `from` to the organizer: To the
    /// organizer (their CN as the name), Subject `Accepted: SUMMARY` (`Tentative:`,
    /// `Declined:`, as mail clients write them), a text saying who answered what, with the
    /// comment. Nil when the organizer's address is no mail address (not `mailto:`, or not a
    /// plain `local@domain`): such a reply cannot go by mail.
    public static func reply(_ answered: AnsweredInvitation, comment: String? = nil, from: MailAddress, date: Int, offset: Int,
                             messageID: String, inReplyTo: String? = nil) -> MailMessage.Draft? {
        guard let to = MailAddress(name: answered.organizer.name, address: answered.organizer.address) else { return nil }
        let verb: (subject: String, text: String)
        switch answered.attendee.answer {
        case .accepted: verb = ("Accepted", "accepted")
        case .tentative: verb = ("Tentative", "tentatively accepted")
        case .declined: verb = ("Declined", "declined")
        case .needsAction, .delegated: verb = ("Answer", "answered")
        }
        let who = from.name ?? from.address
        var text = "\(who) has \(verb.text) the invitation: \(answered.summary)\n"
        if let comment, !comment.isEmpty { text += "\n" + comment + "\n" }
        return MailMessage.Draft(from: from, to: to, subject: verb.subject + ": " + answered.summary, date: date, offset: offset,
                                 messageID: messageID, inReplyTo: inReplyTo, text: text, calendar: answered.reply, method: .reply)
    }
}

extension MailMessage {
    /// The iCalendar object an iMIP message carries: its `text/calendar` part with a `method`
    /// parameter (RFC 6047 §2.4), else its first `text/calendar` part, else its first calendar
    /// attachment (Google and Thunderbird attach the same object again as `invite.ics`). Nil
    /// when the message has none.
    public static func invitation(in message: [UInt8]) -> MailCalendarPart? {
        let parts = calendarParts(in: message)
        return parts.first { $0.mediaType == "text/calendar" && $0.method != nil }
            ?? parts.first { $0.mediaType == "text/calendar" } ?? parts.first
    }
}
