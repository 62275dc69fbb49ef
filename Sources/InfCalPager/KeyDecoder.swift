import InfCalModel
import InfCalEvents
import InfCalRender

/// Turns the bytes a terminal sends into keys.
///
/// Arrows, Home, End, PageUp and PageDown arrive as escape sequences in two forms, CSI
/// (`ESC [ C`, `ESC [ 5 ~`, `ESC [ 1 ; 5 C`) and SS3 (`ESC O C`), and a read may end in the
/// middle of one: the decoder keeps an unfinished sequence (or UTF-8 character) until the next
/// `feed`. A lone Esc looks like the start of a sequence, so it stays pending too; the caller
/// tells the two apart by time: when no byte has followed within `escapeTimeout` milliseconds
/// it calls `flush()`, which hands the Esc over as `Key.escape`.
public struct KeyDecoder: Sendable {
    /// Bytes of an unfinished sequence, carried to the next `feed`.
    private var pending: [UInt8] = []

    /// How long (ms) to wait after a pending Esc for the rest of a sequence before calling `flush()`.
    public static let escapeTimeout = 50
    /// The longest CSI sequence accepted; a longer one is dropped as `Key.unknown`.
    static let maximumSequenceLength = 16

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished sequence are waiting: the caller then waits at most
    /// `escapeTimeout` ms for more and calls `flush()` if none come.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was pending and returns the keys they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var position = 0
        while position < pending.count {
            guard let (key, length) = decode(at: position) else { break }
            keys.append(key)
            position += length
        }
        pending.removeFirst(position)
        return keys
    }

    /// Gives up waiting for the rest of a pending sequence: a pending Esc becomes `Key.escape`
    /// (and whatever followed it is decoded afresh), an unfinished UTF-8 character `Key.unknown`.
    /// Returns no keys when nothing was pending.
    public mutating func flush() -> [Key] {
        guard let first = pending.first else { return [] }
        let rest = pending.dropFirst()
        pending = []
        return [first == 0x1B ? .escape : .unknown] + feed(rest)
    }

    // MARK: Decoding

    /// The key that starts at `position` and its length in bytes, or nil if the bytes there
    /// are the unfinished start of one.
    private func decode(at position: Int) -> (Key, Int)? {
        let byte = pending[position]
        switch byte {
        case 0x1B: return decodeEscape(at: position)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x03: return (.interrupt, 1)
        case 0x20...0x7E: return (.character(Character(UnicodeScalar(byte))), 1)
        case 0x00...0x1F: return (.control(byte), 1)
        default: return decodeUTF8(at: position)
        }
    }

    /// A sequence starting with Esc at `position`, nil while it is unfinished.
    private func decodeEscape(at position: Int) -> (Key, Int)? {
        guard position + 1 < pending.count else { return nil }
        switch pending[position + 1] {
        case UInt8(ascii: "["):
            return decodeCSI(at: position)
        case UInt8(ascii: "O"):
            guard position + 2 < pending.count else { return nil }
            return (Self.key(final: pending[position + 2], parameter: nil), 3)
        case 0x1B:
            // Esc Esc: the first is an Esc of its own, the second may start a sequence.
            return (.escape, 1)
        case let byte where byte >= 0xC2 && byte <= 0xF4:
            // Alt with a non-ASCII character: Esc and the whole character, no key infcal uses.
            guard let (_, length) = decodeUTF8(at: position + 1) else { return nil }
            return (.unknown, 1 + length)
        default:
            // Esc followed at once by another key is that key typed with Alt (the terminal
            // sends both in one write): no key infcal uses, and never a quit. A lone Esc stays
            // pending until `flush()`.
            return (.unknown, 2)
        }
    }

    /// `ESC [ parameters intermediates final`, as ECMA-48 defines control sequences.
    private func decodeCSI(at position: Int) -> (Key, Int)? {
        var end = position + 2
        while end < pending.count {
            let byte = pending[end]
            switch byte {
            case 0x20...0x3F:
                end += 1
                if end - position > Self.maximumSequenceLength { return (.unknown, end - position) }
            case 0x40...0x7E:
                let parameters = pending[(position + 2)..<end]
                if parameters.first == UInt8(ascii: "<") {
                    return (Self.mouseKey(parameters.dropFirst(), final: byte), end - position + 1)
                }
                if byte == UInt8(ascii: "M"), parameters.isEmpty {
                    // A terminal without SGR reports (mode 1006) sends `ESC [ M` and three
                    // bytes: button + 32, column + 32, row + 32. Taken whole, so they are no keys.
                    guard end + 3 < pending.count else { return nil }
                    let button = Int(pending[end + 1]) - 32
                    return (Self.mouseKey(Array(String(button).utf8)[...], final: byte), end - position + 4)
                }
                let first = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first
                let number = first.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                return (Self.key(final: byte, parameter: number), end - position + 1)
            default:
                // Not part of a sequence: drop what came before it, decode it afresh.
                return (.unknown, end - position)
            }
        }
        return nil
    }

    /// The key a sequence's final byte (with its first numeric parameter) stands for.
    private static func key(final: UInt8, parameter: Int?) -> Key {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameter {
            case 1, 7: return .home
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            default: return .unknown
            }
        default: return .unknown
        }
    }

    /// An SGR mouse report (`ESC [ < button ; column ; row M`, xterm mode 1006): the wheel's
    /// two directions are keys, and a press of the left button a click at its cell; every
    /// other mouse event is `Key.unknown`.
    private static func mouseKey(_ parameters: ArraySlice<UInt8>, final: UInt8) -> Key {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard final == UInt8(ascii: "M"), let first = fields.first,
              let button = Int(String(decoding: first, as: UTF8.self)) else { return .unknown }
        // Bits 6 and up say wheel; the low two bits which way; 4, 8 and 16 are Shift, Alt, Ctrl.
        switch button & ~0b11100 {
        case 64: return .wheelUp
        case 65: return .wheelDown
        case 0:
            guard fields.count == 3, let column = Int(String(decoding: fields[1], as: UTF8.self)),
                  let row = Int(String(decoding: fields[2], as: UTF8.self)), column > 0, row > 0 else { return .unknown }
            return .click(ScreenPosition(row: row - 1, column: column - 1))
        default: return .unknown
        }
    }

    /// A UTF-8 character starting at `position`, nil while it is unfinished; an invalid byte
    /// is `Key.unknown`.
    private func decodeUTF8(at position: Int) -> (Key, Int)? {
        let lead = pending[position]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.unknown, 1)
        }
        var available = 1
        while available < length, position + available < pending.count {
            guard pending[position + available] & 0xC0 == 0x80 else { return (.unknown, available) }
            available += 1
        }
        guard available == length else { return nil }
        let text = String(validating: pending[position..<(position + length)], as: UTF8.self)
        guard let character = text?.first else { return (.unknown, length) }
        return (.character(character), length)
    }
}
