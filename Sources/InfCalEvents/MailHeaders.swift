import Foundation
import InfCalModel

/// A mail address as a header names it: an optional display name and the address.
public struct MailAddress: Sendable, Equatable {
    public let name: String?
    public let address: String

    /// `address` (an addr-spec, RFC 5322 §3.4.1: `local@domain`, no spaces, no control
    /// characters, none of `<>()[]\,;:"`, one `@` with text either side, ASCII) with `name`
    /// (any text: control characters become spaces). Nil when `address` is not such an address:
    /// nothing outside may smuggle a header in through it.
    public init?(name: String?, address: String) {
        let trimmed = address.trimmingSpaces
        let bytes = Array(trimmed.utf8)
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, bytes.count <= 254,
              bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !Array("<>()[]\\,;:\"".utf8).contains($0) }) else { return nil }
        self.address = trimmed
        let cleaned = name.map { MailHeaders.cleaned($0) }.flatMap { $0.isEmpty ? nil : $0 }
        self.name = cleaned
    }

    /// The address for a From or To header: `name <address>`, the name quoted when it needs
    /// it, or encoded (RFC 2047) when it is not ASCII.
    public var header: String { headerWords.joined(separator: " ") }

    /// `header` in the words a header may be folded between.
    var headerWords: [String] {
        guard let name else { return [address] }
        let shown: [String]
        if name.unicodeScalars.allSatisfy({ $0.value < 0x80 }) {
            let plain = name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == " " || ("0"..."9").contains($0) }
            shown = plain ? name.split(separator: " ").map(String.init)
                : ["\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""]
        } else {
            shown = MailHeaders.encodedWords(name)
        }
        return shown + ["<" + address + ">"]
    }
}

/// Header fields as RFC 5322 and RFC 2047 write and read them.
public enum MailHeaders {
    /// `text` with every control character (CR and LF among them) a space, and runs of spaces
    /// one: outside text put into a header can never end it or start another.
    public static func cleaned(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == " "
                || scalar.properties.isWhitespace
            if isSpace {
                if !lastWasSpace { out.unicodeScalars.append(" ") }
            } else {
                out.unicodeScalars.append(scalar)
            }
            lastWasSpace = isSpace
        }
        return out.trimmingSpaces
    }

    /// `text` (cleaned) as RFC 2047 encoded-words (`=?UTF-8?B?...?=`), each at most 75
    /// characters and never splitting a UTF-8 character.
    public static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        // 42 bytes make 56 characters of base64, a word of 68: it fits a line after
        // "Subject: " (RFC 2047 allows 75).
        for character in cleaned(text) {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 42 {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words
    }

    /// One header field, `Name: value`, folded before 78 characters a line (at spaces; encoded
    /// words are separate words), lines ended CRLF. `value` is cleaned; written as encoded
    /// words when it is not all printable ASCII.
    public static func field(_ name: String, _ value: String) -> [UInt8] {
        let clean = cleaned(value)
        let words: [String]
        if clean.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            words = clean.split(separator: " ").map(String.init)
        } else {
            words = encodedWords(clean)
        }
        return fold(name + ":", words)
    }

    /// `start` and `words` joined by spaces, folded before 78 characters a line (a word longer
    /// than a line, such as a long Message-ID, stands alone on its line).
    static func fold(_ start: String, _ words: [String]) -> [UInt8] {
        var out = start
        var lineLength = start.utf8.count
        for word in words {
            if lineLength + 1 + word.utf8.count > 78, lineLength > 1 {
                out += "\r\n"
                lineLength = 0
            }
            out += " " + word
            lineLength += 1 + word.utf8.count
        }
        return Array((out + "\r\n").utf8)
    }

    /// A Date header's value (RFC 5322 §3.3) of the instant `utc` (UTC civil seconds) in a zone
    /// `offset` seconds from UTC: `Tue, 11 Mar 2025 17:00:00 +0100`.
    public static func date(_ utc: Int, offset: Int) -> String {
        let local = utc + offset
        let day = CivilTime.day(ofSeconds: local)
        let date = CivilTime.date(ofDay: day)
        let within = local - day * CivilTime.secondsPerDay
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let magnitude = abs(offset) / 60
        return weekdays[CivilTime.weekday(ofDay: day)] + ", \(date.day) " + months[date.month - 1] + " " + ICalText.pad(date.year, 4)
            + " " + ICalText.pad(within / 3600, 2) + ":" + ICalText.pad(within / 60 % 60, 2) + ":" + ICalText.pad(within % 60, 2)
            + " " + (offset < 0 ? "-" : "+") + ICalText.pad(magnitude / 60, 2) + ICalText.pad(magnitude % 60, 2)
    }

    /// A header value as read: RFC 2047 encoded-words decoded (B and Q, UTF-8, US-ASCII,
    /// ISO-8859-1 and Windows-1252; the space between two of them dropped), control
    /// characters made spaces.
    public static func decoded(_ value: String) -> String {
        // Words and the runs of spaces between them, in order.
        var tokens: [(text: String, isSpace: Bool)] = []
        for character in value {
            let isSpace = character == " " || character == "\t"
            if let last = tokens.last, last.isSpace == isSpace {
                tokens[tokens.count - 1].text.append(character)
            } else {
                tokens.append((String(character), isSpace))
            }
        }
        let words = tokens.map { $0.isSpace ? nil : decodedWord($0.text) }
        var out = ""
        for (index, token) in tokens.enumerated() {
            if token.isSpace {
                // RFC 2047 §6.2: the space between two encoded-words is not part of the text.
                let between = index > 0 && index + 1 < tokens.count && words[index - 1] != nil && words[index + 1] != nil
                if !between { out += token.text }
            } else {
                out += words[index] ?? token.text
            }
        }
        return cleaned(out)
    }

    /// One encoded-word decoded, or nil when `word` is none.
    private static func decodedWord(_ word: String) -> String? {
        guard word.hasPrefix("=?"), word.hasSuffix("?="), word.count > 6 else { return nil }
        let inner = word.dropFirst(2).dropLast(2)
        let parts = inner.split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].split(separator: "*").first.map { $0.lowercased() } ?? ""
        var bytes: [UInt8]
        switch parts[1].uppercased() {
        case "B":
            guard let data = MIMEDecoding.base64(Array(parts[2].utf8)) else { return nil }
            bytes = data
        case "Q":
            bytes = MIMEDecoding.quotedPrintable(Array(parts[2].replacingOccurrences(of: "_", with: " ").utf8))
        default:
            return nil
        }
        return MIMEDecoding.text(bytes, charset: charset)
    }
}
