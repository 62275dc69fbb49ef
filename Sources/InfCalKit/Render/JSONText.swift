/// JSON values written straight into a byte buffer: strings escaped as RFC 8259 requires,
/// numbers, and ISO 8601 dates and times of the proleptic Gregorian calendar.
public enum JSONText {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string: quotes, backslashes and control characters (U+0000 to
    /// U+001F) escaped, everything else (non-BMP characters included) as plain UTF-8.
    public static func appendString(_ text: String, to out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    out.append(Array("u00".utf8))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
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

    /// The ISO 8601 year: four digits from 0000 to 9999 (astronomical numbering, 0000 is 1 BC),
    /// otherwise the expanded form with a sign and at least four digits: -0001, -4712, +10000.
    public static func isoYear(_ year: Int) -> String {
        let digits = String(year.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if year < 0 { return "-" + padded }
        return year > 9999 ? "+" + padded : padded
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    /// The ISO 8601 date of a civil day (days from 1970-01-01, proleptic Gregorian): 2024-04-02.
    public static func isoDate(civilDay: Int) -> String {
        let date = CivilTime.date(ofDay: civilDay)
        return isoYear(date.year) + "-" + two(date.month) + "-" + two(date.day)
    }

    /// The ISO 8601 date of a grid day number.
    public static func isoDate(dayNumber: Int) -> String {
        isoDate(civilDay: dayNumber + CivilTime.dayNumberOffset)
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
        return isoDate(civilDay: CivilTime.day(ofSeconds: wall)) + "T" + two(time / 3600) + ":" + two(time / 60 % 60)
            + ":" + two(time % 60) + suffix
    }
}
