import InfCalModel
import InfCalEvents

/// JSON values written straight into a byte buffer: strings escaped as RFC 8259 requires,
/// numbers, and ISO 8601 dates and times of the proleptic Gregorian calendar.
public enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string: quotes, backslashes, control characters (C0, DEL and
    /// C1: U+0000 to U+001F, U+007F to U+009F) and the bidirectional embedding, override and
    /// isolate controls (U+202A to U+202E, U+2066 to U+2069) escaped, so that a JSON line shown
    /// on a terminal cannot drive it; everything else (non-BMP characters included) as plain UTF-8.
    public static func appendString(_ text: String, to out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                // The length of the sequence to escape here, and the code point it spells.
                var length = 0
                var scalar = UInt32(byte)
                if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    length = 1
                } else if byte == 0xC2, index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
                    (length, scalar) = (2, UInt32(bytes[index + 1]))
                } else if byte == 0xE2, index + 2 < count,
                          (bytes[index + 1] == 0x80 && (0xAA...0xAE).contains(bytes[index + 2]))
                          || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2])) {
                    (length, scalar) = (3, 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F))
                }
                guard length > 0 else {
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += length
                runStart = index
                out.append(UInt8(ascii: "\\"))
                switch scalar {
                case 0x22, 0x5C: out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    out.append(UInt8(ascii: "u"))
                    for shift in [12, 8, 4, 0] { out.append(hex[Int((scalar >> UInt32(shift)) & 0xF)]) }
                }
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string (for tests and small values).
    public static func string(_ text: String) -> String {
        let buffer = ByteBuffer(capacity: text.utf8.count + 2)
        appendString(text, to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Appends an integer.
    public static func appendNumber(_ value: Int, to out: ByteBuffer) {
        out.append(String(value))
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    /// The ISO 8601 date and time of `seconds` (civil seconds of a wall clock), with the
    /// offset `offset` (seconds east of UTC) when given: 2024-04-02T09:00:00+02:00. An offset
    /// that is not whole minutes (local mean time before zones) cannot be written in ISO 8601:
    /// the time is then given in UTC, with Z.
    public static func isoDateTime(_ seconds: Int, offset: Int?) -> String {
        var wall = seconds
        var suffix = ""
        if let offset {
            if offset % 60 != 0 {
                wall = seconds - offset
                suffix = "Z"
            } else {
                let minutes = abs(offset) / 60
                suffix = (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
            }
        }
        let time = CivilTime.floorMod(wall, CivilTime.secondsPerDay)
        return ISODate.text(civilDay: CivilTime.day(ofSeconds: wall)) + "T" + two(time / 3600) + ":" + two(time / 60 % 60)
            + ":" + two(time % 60) + suffix
    }
}
