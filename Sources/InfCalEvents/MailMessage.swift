import Foundation
import InfCalModel

/// A calendar part found in a mail message: its media type, its `method` parameter, its file
/// name, and its content decoded (transfer encoding undone, text made UTF-8).
public struct MailCalendarPart: Sendable, Equatable {
    /// `text/calendar`, `application/ics`, ... (lower case).
    public let mediaType: String
    /// The `method` parameter of its Content-Type (RFC 6047 §2.4), upper-cased, if any.
    public let method: String?
    /// The file name (Content-Disposition's `filename`, else Content-Type's `name`), if any.
    public let fileName: String?
    public let bytes: [UInt8]
}

/// Reading mail messages (RFC 5322, MIME: RFC 2045, 2046, 2231) as far as iMIP (RFC 6047)
/// needs: the header fields, and the calendar parts however deep in multiparts they lie.
/// Never traps on what a message holds; nesting and the number of parts are bounded.
public enum MailMessage {
    /// How deep multiparts and attached messages are followed.
    public static let depthLimit = 16
    /// The most parts read from one message.
    public static let partLimit = 1000

    /// The calendar parts of `message`, in order: every `text/calendar` part, and every
    /// attachment that is `application/ics`, `text/x-vcalendar`, or has a `.ics` file name.
    public static func calendarParts(in message: [UInt8]) -> [MailCalendarPart] {
        var found: [MailCalendarPart] = []
        var budget = partLimit
        collect(message[...], depth: 0, budget: &budget, into: &found)
        return found
    }

    /// The value of header field `name` (any case) of `message`, unfolded and decoded
    /// (`MailHeaders.decoded`); nil when it has none.
    public static func header(_ name: String, of message: [UInt8]) -> String? {
        let (fields, _) = split(message[...])
        return fields.first { $0.name == name.lowercased() }.map { MailHeaders.decoded($0.value) }
    }

    // MARK: Entities

    /// A header field: its name lower-cased, its value unfolded (not decoded).
    struct Field {
        let name: String
        let value: String
    }

    /// The header fields and the body of an entity (a message or a part): the header ends at
    /// the first empty line (CRLF or LF line ends).
    static func split(_ entity: ArraySlice<UInt8>) -> ([Field], ArraySlice<UInt8>) {
        var fields: [Field] = []
        var index = entity.startIndex
        var current: (name: String, value: [UInt8])?
        while index < entity.endIndex {
            var end = index
            while end < entity.endIndex, entity[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > index, entity[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let next = min(end + 1, entity.endIndex)
            if lineEnd == index {
                index = next
                break // the empty line: the body follows
            }
            let line = entity[index..<lineEnd]
            if line.first == 0x20 || line.first == 0x09, current != nil {
                current?.value += line
            } else {
                if let open = current { fields.append(Field(name: open.name, value: String(decoding: open.value, as: UTF8.self).trimmingSpaces)) }
                if let colon = line.firstIndex(of: 0x3A) {
                    current = (String(decoding: entity[index..<colon], as: UTF8.self).trimmingSpaces.lowercased(), Array(line[(colon + 1)...]))
                } else {
                    current = nil // no header line: left out
                }
            }
            index = next
        }
        if let open = current { fields.append(Field(name: open.name, value: String(decoding: open.value, as: UTF8.self).trimmingSpaces)) }
        return (fields, entity[index...])
    }

    /// A Content-Type or Content-Disposition value: its first token (lower case) and its
    /// parameters (names lower case; quoted strings read; RFC 2231 continuations and
    /// charset'language'percent-encoded values joined and decoded).
    static func parameters(_ value: String) -> (token: String, parameters: [String: String]) {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        let token = (pieces.first ?? "").trimmingSpaces.lowercased()
        var plain: [String: String] = [:]
        var continued: [String: [(Int, String, Bool)]] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = piece[..<equals].trimmingSpaces.lowercased()
            var text = piece[piece.index(after: equals)...].trimmingSpaces
            if text.count >= 2, text.first == "\"", text.last == "\"" { text = String(text.dropFirst().dropLast()) }
            let extended = name.hasSuffix("*")
            if extended { name.removeLast() }
            if let star = name.lastIndex(of: "*"), let number = Int(name[name.index(after: star)...]) {
                continued[String(name[..<star]), default: []].append((number, text, extended))
            } else if extended {
                plain[name] = rfc2231(text, first: true)
            } else if plain[name] == nil {
                plain[name] = text
            }
        }
        for (name, parts) in continued where plain[name] == nil {
            plain[name] = parts.sorted { $0.0 < $1.0 }.enumerated().map { place, part in
                part.2 ? rfc2231(part.1, first: place == 0) : part.1
            }.joined()
        }
        return (token, plain)
    }

    /// An RFC 2231 extended value: `charset'language'` (on the first piece) and %XX escapes.
    private static func rfc2231(_ text: String, first: Bool) -> String {
        var body = Substring(text)
        var charset = "utf-8"
        if first {
            let parts = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
            if parts.count == 3 {
                charset = parts[0].lowercased()
                body = parts[2]
            }
        }
        let utf8 = Array(body.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == 0x25, index + 2 < utf8.count, let value = MIMEDecoding.hexPair(utf8[index + 1], utf8[index + 2]) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return MIMEDecoding.text(bytes, charset: charset)
    }

    /// Walks `entity`, adding its calendar parts to `found`.
    private static func collect(_ entity: ArraySlice<UInt8>, depth: Int, budget: inout Int, into found: inout [MailCalendarPart]) {
        guard depth <= depthLimit, budget > 0 else { return }
        budget -= 1
        let (fields, body) = split(entity)
        func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
        let (type, typeParameters) = parameters(field("content-type") ?? "text/plain")
        let disposition = field("content-disposition").map(parameters)
        if type.hasPrefix("multipart/") {
            guard let boundary = typeParameters["boundary"], !boundary.isEmpty else { return }
            for part in parts(of: body, boundary: boundary) {
                collect(part, depth: depth + 1, budget: &budget, into: &found)
                if budget <= 0 { return }
            }
            return
        }
        let encoding = (field("content-transfer-encoding") ?? "7bit").trimmingSpaces.lowercased()
        var content: [UInt8]
        switch encoding {
        case "base64": content = MIMEDecoding.base64(Array(body)) ?? []
        case "quoted-printable": content = MIMEDecoding.quotedPrintable(Array(body))
        default: content = Array(body)
        }
        if type == "message/rfc822" || type == "message/global" {
            collect(content[...], depth: depth + 1, budget: &budget, into: &found)
            return
        }
        let fileName = (disposition?.parameters["filename"] ?? typeParameters["name"]).map(MailHeaders.decoded)
        let isCalendar = type == "text/calendar" || type == "application/ics" || type == "text/x-vcalendar"
            || (fileName?.lowercased().hasSuffix(".ics") ?? false)
        guard isCalendar else { return }
        if let charset = typeParameters["charset"]?.lowercased(), !["utf-8", "utf8", "us-ascii"].contains(charset) {
            content = Array(MIMEDecoding.text(content, charset: charset).utf8)
        }
        found.append(MailCalendarPart(mediaType: type, method: typeParameters["method"]?.trimmingSpaces.uppercased(), fileName: fileName,
                                      bytes: content))
    }

    /// The parts of a multipart body (RFC 2046 §5.1.1): what lies between the lines
    /// `--boundary`, up to `--boundary--` (or the end); the line break before each delimiter
    /// belongs to it.
    static func parts(of body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let delimiter = Array(("--" + boundary).utf8)
        var result: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var index = body.startIndex
        while index < body.endIndex {
            var end = index
            while end < body.endIndex, body[end] != 0x0A { end += 1 }
            let next = min(end + 1, body.endIndex)
            let line = body[index..<end]
            if line.starts(with: delimiter) {
                let rest = line.dropFirst(delimiter.count)
                let closing = rest.starts(with: [0x2D, 0x2D])
                let tail = closing ? rest.dropFirst(2) : rest
                if tail.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    if let start = partStart {
                        // The CRLF (or LF) before the delimiter is not the part's.
                        var stop = index
                        if stop > start, body[stop - 1] == 0x0A { stop -= 1 }
                        if stop > start, body[stop - 1] == 0x0D { stop -= 1 }
                        result.append(body[start..<max(start, stop)])
                    }
                    if closing { return result }
                    partStart = next
                }
            }
            index = next
        }
        if let start = partStart, start < body.endIndex { result.append(body[start...]) }
        return result
    }
}

/// Undoing MIME's transfer encodings and charsets.
enum MIMEDecoding {
    /// The value of two hex digits, or nil.
    static func hexPair(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x41...0x46: return byte - 0x41 + 10
            case 0x61...0x66: return byte - 0x61 + 10
            default: return nil
            }
        }
        guard let a = digit(high), let b = digit(low) else { return nil }
        return a << 4 | b
    }

    /// Base64 decoded, characters outside its alphabet (line breaks) skipped; nil when what is
    /// left is not base64.
    static func base64(_ bytes: [UInt8]) -> [UInt8]? {
        var clean = bytes.filter { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2F }
        // Padding as needed (some writers leave it out).
        while clean.count % 4 != 0 { clean.append(0x3D) }
        return Data(base64Encoded: Data(clean)).map { Array($0) }
    }

    /// Quoted-printable decoded (RFC 2045 §6.7): `=XX`, soft line breaks `=` at a line's end;
    /// a malformed `=` is kept as it is.
    static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x3D else {
                out.append(byte)
                index += 1
                continue
            }
            // A soft line break: `=`, spaces, then CRLF or LF.
            var after = index + 1
            while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            if after < bytes.count, bytes[after] == 0x0A { index = after + 1; continue }
            if after + 1 < bytes.count, bytes[after] == 0x0D, bytes[after + 1] == 0x0A { index = after + 2; continue }
            if after == bytes.count { index = after; continue }
            if index + 2 < bytes.count, let value = hexPair(bytes[index + 1], bytes[index + 2]) {
                out.append(value)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// `bytes` in `charset` as text: UTF-8 (invalid sequences replaced), US-ASCII, ISO-8859-1
    /// (Latin-1), Windows-1252 and UTF-16 as Foundation reads them; any other charset is taken
    /// as UTF-8.
    static func text(_ bytes: [UInt8], charset: String) -> String {
        let encoding: String.Encoding?
        switch charset.lowercased() {
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": encoding = .isoLatin1
        case "windows-1252", "cp1252": encoding = .windowsCP1252
        case "utf-16": encoding = .utf16
        default: encoding = nil
        }
        if let encoding, let text = String(bytes: bytes, encoding: encoding) { return text }
        return String(decoding: bytes, as: UTF8.self)
    }
}
