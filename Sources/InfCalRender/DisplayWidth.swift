import InfCalModel
import InfCalEvents

/// Display width in terminal cells, as wcwidth(3) counts it in a UTF-8 locale.
///
/// Written out because `wcwidth` is not visible through the Glibc module and answers -1 for
/// non-ASCII text unless a UTF-8 LC_CTYPE was selected first; this library has no libc access.
/// A test checks it against glibc's wcwidth for every character of every locale's names.
public enum DisplayWidth {
    /// The cells `scalar` takes: 0 for combining marks and format characters, 2 for East Asian
    /// wide and fullwidth characters, 1 otherwise.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return value == 0x00AD ? 1 : 0
        default:
            break
        }
        // Hangul jamo vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// The cells `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// Whether `text` is printable ASCII, the common case: one cell, and one character, a byte.
    private static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            return true
        }
        return ascii == true
    }

    /// The cells the grapheme cluster `character` takes. An emoji sequence (joined by U+200D,
    /// a flag's two regional indicators, an emoji with a skin tone) is drawn as one wide
    /// picture, two cells, as terminals and Python's `wcwidth.wcswidth` count it, not as the
    /// sum of its parts; any other cluster is the sum of its scalars (a letter and its marks).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var width = 0
        var isEmojiSequence = false
        var count = 0
        for scalar in scalars {
            count += 1
            let value = scalar.value
            if value == 0x200D || (0x1F1E6...0x1F1FF).contains(value) || (0x1F3FB...0x1F3FF).contains(value) { isEmojiSequence = true }
            width += of(scalar)
        }
        return count > 1 && isEmojiSequence ? 2 : width
    }

    /// The longest prefix of `text` that fits in `width` cells (whole characters only).
    public static func prefix(of text: String, fitting width: Int) -> String {
        if isPrintableASCII(text) { return String(decoding: text.utf8.prefix(max(0, width)), as: UTF8.self) }
        var used = 0
        var end = text.startIndex
        for character in text {
            let cells = of(character)
            if used + cells > width { break }
            used += cells
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// `text` whole if it fits in `width` cells, else its longest prefix that leaves a cell
    /// for `…`, then `…` (spaces before the `…` dropped); empty for a width below 1.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var cut = prefix(of: text, fitting: width - 1)
        while cut.last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, as glibc's C.UTF-8 has them.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18CFF,
        0x18D00...0x18D08, 0x1AFF0...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B,
        0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E,
        0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
        0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4,
        0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// `text` broken at spaces into lines of at most `width` cells. With an `indent`, the text's
    /// first `indent` cells (a key column) stay as they are and the rest is wrapped in the room
    /// beside them, later lines starting with `indent` spaces; where that leaves less than half
    /// the width, the keys take a line and the rest is wrapped below them, indented by four.
    /// A word wider than a line is cut.
    public static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let head = prefix(of: text, fitting: indent)
        let columns = indent > 0 && of(head) == indent
        guard of(text) > width || (columns && indent * 2 > width), width > 0 else {
            return [prefix(of: text, fitting: max(0, width))]
        }
        if columns {
            let rest = String(text.dropFirst(head.count))
            guard indent * 2 <= width else {
                // Too narrow for the columns: the keys on a line, what they do below them.
                let keys = String(head.reversed().drop { $0 == " " }.reversed())
                return wrap(keys, width: width, indent: 0) + wrap(rest, width: max(1, width - 4), indent: 0).map { "    " + $0 }
            }
            let lines = wrap(rest, width: width - indent, indent: 0)
            return lines.enumerated().map { ($0.offset == 0 ? head : String(repeating: " ", count: indent)) + $0.element }
        }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let word = prefix(of: String(word), fitting: width)
            if !line.isEmpty, of(line) + 1 + of(word) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
