/// Text from outside infcal (files, file names, paths, the environment, a server, what is
/// typed at a prompt) made inert before it reaches a terminal, in the two ways the outputs need:
/// escaped and cut in messages (`echo`), blanked in views (`forView`).
public enum InertText {
    /// The most characters a value is echoed with, "…" included.
    public static let echoLimit = 80

    /// `text` made safe to print in one line: newline, tab and carriage return become `\n`,
    /// `\t`, `\r`; other control characters `\x1b`, `\x7f` (C1 controls and other
    /// non-printing characters, such as bidirectional overrides and unassigned code points,
    /// `\u{202e}`); and the result is cut after `limit` characters, ending in "…". A cut never
    /// falls inside a character (a grapheme cluster) or an escape. Text already echoed comes
    /// back unchanged (when it fits `limit`).
    public static func echo(_ text: String, limit: Int = echoLimit) -> String {
        var result = ""
        var count = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let piece = character.unicodeScalars.contains(where: isNonPrinting)
                ? character.unicodeScalars.map(escaped).joined() : String(character)
            // Room for "…" is kept unless this piece ends the text.
            if count + piece.count > (next == text.endIndex ? limit : limit - 1) { return result + "…" }
            result += piece
            count += piece.count
            index = next
        }
        return result
    }

    /// The most characters a path or a name from outside (a calendar's file, a server's
    /// name) is echoed with in a message, "…" included: room for a long path.
    public static let pathLimit = 400

    /// A path or a name from outside in a message: `echo` with room for a long path
    /// (`pathLimit`). The messages of reads and writes quote paths and names through here.
    public static func path(_ text: String) -> String {
        echo(text, limit: pathLimit)
    }

    // MARK: UIDs

    /// A UID as infcal prints it (`--agenda --uid`, what `add`, `edit` and `delete` say):
    /// each non-printing character escaped as `echo` escapes it (`\t`, `\x1b`, `\u{202e}`),
    /// a backslash doubled, never cut, so that the line shows every character and
    /// `uidCandidates` gives the UID back exactly. A UID of printing characters without a
    /// backslash (a UUID, `lunch@example.org`) is printed as it is.
    public static func uid(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || isNonPrinting($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            result += scalar == "\\" ? "\\\\" : escaped(scalar)
        }
        return result
    }

    /// The UIDs a UID typed for `edit` or `delete` may name, in the order to look for them:
    /// the printed form (`uid`) read back, its escapes undone, then the text as typed (a UID
    /// copied from a file, whose backslashes are its own). One when the text holds no
    /// backslash, or no valid escape.
    public static func uidCandidates(_ typed: String) -> [String] {
        guard typed.contains("\\"), let read = unescapedUID(typed), read != typed else { return [typed] }
        return [read, typed]
    }

    /// `text` with the escapes of `uid` undone: `\\`, `\n`, `\t`, `\r`, `\xHH` and
    /// `\u{H…}`; nil when a backslash starts anything else (then the text is no printed UID).
    public static func unescapedUID(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var rest = Substring(text).unicodeScalars[...]
        while let first = rest.first {
            rest = rest.dropFirst()
            guard first == "\\" else {
                scalars.append(first)
                continue
            }
            guard let kind = rest.first else { return nil }
            rest = rest.dropFirst()
            switch kind {
            case "\\": scalars.append("\\")
            case "n": scalars.append("\n")
            case "t": scalars.append("\t")
            case "r": scalars.append("\r")
            case "x":
                let digits = String(String.UnicodeScalarView(rest.prefix(2)))
                guard digits.count == 2, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
                rest = rest.dropFirst(2)
            case "u":
                guard rest.first == "{", let close = rest.firstIndex(of: "}") else { return nil }
                let digits = String(String.UnicodeScalarView(rest[rest.index(after: rest.startIndex)..<close]))
                guard (1...6).contains(digits.count), let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
                rest = rest[rest.index(after: close)...]
            default: return nil
            }
        }
        return String(scalars)
    }

    /// `text` for a view: control characters (C0, DEL, C1), which could drive the terminal,
    /// made spaces; bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069), which would reorder the rest of the line, left out.
    public static func forView(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isBidiControl($0) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isBidiControl(scalar) { scalars.append(isControl(scalar) ? " " : scalar) }
        return String(scalars)
    }

    /// C0 controls, DEL and C1 controls.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The bidirectional embedding, override and isolate controls, U+202A–U+202E and
    /// U+2066–U+2069 (not the marks U+200E and U+200F, which reorder nothing around them).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    private static func isNonPrinting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        guard isNonPrinting(scalar) else { return String(scalar) }
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            let hex = String(scalar.value, radix: 16)
            return scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
        }
    }
}
