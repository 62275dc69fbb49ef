import InfCalModel

/// The colour a calendar's events are shown in: one of the terminal's 256 colours, or a
/// 24-bit colour shown as itself where the terminal can (COLORTERM) and as the nearest of 256
/// otherwise.
public enum CalendarColor: Equatable, Hashable, Sendable {
    /// An index into the terminal's palette: 0-15 the terminal's own colours, 16-255 xterm's.
    case indexed(UInt8)
    /// Red, green and blue.
    case rgb(UInt8, UInt8, UInt8)

    /// The terminal's sixteen named colours, in palette order.
    public static let terminalNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// A colour as the config file writes it: a name (`red`, `bright-blue`, or a CSS colour
    /// such as `teal`), a palette index 0-255, or `#rrggbb`; nil when it is none of these.
    public init?(setting text: String) {
        let word = text.trimmingSpaces.lowercased()
        if let index = Self.terminalNames.firstIndex(of: word) {
            self = .indexed(UInt8(index))
        } else if word.hasPrefix("bright-"), let index = Self.terminalNames.firstIndex(of: String(word.dropFirst(7))) {
            self = .indexed(UInt8(index + 8))
        } else if !word.isEmpty, word.count <= 3, word.allSatisfy({ $0.isASCII && $0.isNumber }), let index = UInt8(word) {
            self = .indexed(index)
        } else if let color = Self(property: word) {
            self = color
        } else {
            return nil
        }
    }

    /// A colour as a calendar writes it: RFC 7986's COLOR (a CSS colour name) or
    /// X-APPLE-CALENDAR-COLOR (`#rrggbb`, or `#rrggbbaa` with the alpha ignored); nil when it
    /// is neither.
    public init?(property text: String) {
        let word = text.trimmingSpaces.lowercased()
        if word.hasPrefix("#") {
            let digits = Array(word.dropFirst().utf8)
            guard digits.count == 6 || digits.count == 8 else { return nil }
            var parts: [UInt8] = []
            for start in stride(from: 0, to: 6, by: 2) {
                guard let value = UInt8(String(decoding: digits[start..<(start + 2)], as: UTF8.self), radix: 16) else { return nil }
                parts.append(value)
            }
            self = .rgb(parts[0], parts[1], parts[2])
        } else if let value = CSSColors.value(of: word) {
            self = .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xff), UInt8(value & 0xff))
        } else {
            return nil
        }
    }
}
