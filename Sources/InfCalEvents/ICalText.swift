import InfCalModel

/// Writing iCalendar text as RFC 5545 §3.1 and §3.3.11 say: TEXT values escaped, content lines
/// folded at 75 octets (never inside a UTF-8 character), and a file's own line ends.
public enum ICalText {
    /// How a file ends its lines.
    public enum LineEnd: Sendable, Equatable {
        case lf, crlf

        public var bytes: [UInt8] { self == .lf ? [0x0A] : [0x0D, 0x0A] }
    }

    /// The line end to write into `data`: LF when every line of it ends in a bare LF (and it
    /// has at least one), else CRLF, as RFC 5545 asks.
    public static func lineEnd(of data: [UInt8]) -> LineEnd {
        var sawLF = false
        var previous: UInt8 = 0
        for byte in data {
            if byte == 0x0A {
                if previous == 0x0D { return .crlf }
                sawLF = true
            } else if previous == 0x0D {
                return .crlf // a bare CR
            }
            previous = byte
        }
        return sawLF ? .lf : .crlf
    }

    /// `text` as a TEXT value: `\`, `;` and `,` escaped, a line break (LF, CR or CRLF) as `\n`.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One content line, folded: at most 75 octets a physical line (the leading space of a
    /// continuation counted), breaks only between UTF-8 characters, each line ended by `end`.
    public static func folded(_ line: String, end: LineEnd) -> [UInt8] {
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var cut = start + limit
            // Back to the first byte of a character: continuation bytes are 10xxxxxx.
            while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            if cut == start { cut = start + limit } // no character boundary: cannot happen in UTF-8
            out += bytes[start..<cut]
            out += end.bytes
            out.append(0x20)
            start = cut
            limit = 74
        }
        out += bytes[start...]
        out += end.bytes
        return out
    }

    /// `NAME;P=V:value` for a property whose value is already in its written form; parameter
    /// values holding `:`, `;` or `,` are quoted.
    public static func property(_ name: String, _ parameters: [(String, String)] = [], _ value: String) -> String {
        var line = name
        for (parameter, parameterValue) in parameters {
            let needsQuotes = parameterValue.contains { $0 == ":" || $0 == ";" || $0 == "," }
            line += ";" + parameter + "=" + (needsQuotes ? "\"" + parameterValue + "\"" : parameterValue)
        }
        return line + ":" + value
    }

    /// The first character of `text` that a text value may not hold (a control character other
    /// than tab, and line breaks unless `allowsLineBreaks`), or nil when there is none.
    public static func forbiddenCharacter(in text: String, allowsLineBreaks: Bool) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            if scalar == "\t" { return false }
            if allowsLineBreaks, scalar == "\n" || scalar == "\r" { return false }
            return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
    }

    // MARK: Date and time values

    /// `YYYYMMDD` of a civil day (years 0 to 9999; others have no form in RFC 5545).
    public static func date(ofDay civil: Int) -> String {
        let date = CivilTime.date(ofDay: civil)
        return pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2)
    }

    /// `YYYYMMDDTHHMMSS` of civil seconds, with `Z` when `utc`.
    public static func dateTime(_ seconds: Int, utc: Bool) -> String {
        let day = CivilTime.day(ofSeconds: seconds)
        let within = seconds - day * CivilTime.secondsPerDay
        return date(ofDay: day) + "T" + pad(within / 3600, 2) + pad(within / 60 % 60, 2) + pad(within % 60, 2) + (utc ? "Z" : "")
    }

    /// The value of `time` as written in a property (a date, floating, UTC or zoned date-time).
    public static func value(of time: ICalTime) -> String {
        switch time.form {
        case .date: return date(ofDay: CivilTime.day(ofSeconds: time.seconds))
        case .utc: return dateTime(time.seconds, utc: true)
        case .floating, .zoned: return dateTime(time.seconds, utc: false)
        }
    }

    /// The parameters a property holding `time` needs: VALUE=DATE or TZID.
    public static func parameters(of time: ICalTime) -> [(String, String)] {
        switch time.form {
        case .date: return [("VALUE", "DATE")]
        case .zoned(let name): return [("TZID", name)]
        case .utc, .floating: return []
        }
    }

    /// A DURATION value of `seconds` (not negative): `P2D`, `PT1H30M`, `P1DT2H`.
    public static func duration(_ seconds: Int) -> String {
        var rest = max(0, seconds)
        let days = rest / CivilTime.secondsPerDay
        rest -= days * CivilTime.secondsPerDay
        let text = "P" + (days > 0 ? "\(days)D" : "")
        return rest > 0 || days == 0 ? text + timePart(rest) : text
    }

    /// The part of a DURATION value from T of `seconds` (not negative): `T2H30M`, `T36H`, `T0S`.
    static func timePart(_ seconds: Int) -> String {
        var text = "T"
        if seconds / 3600 > 0 { text += "\(seconds / 3600)H" }
        if seconds / 60 % 60 > 0 { text += "\(seconds / 60 % 60)M" }
        if seconds % 60 > 0 || seconds == 0 { text += "\(seconds % 60)S" }
        return text
    }

    static func pad(_ value: Int, _ count: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, count - digits.count)) + digits
    }
}
