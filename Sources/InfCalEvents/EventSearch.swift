import Foundation
import InfCalModel

/// What `--search` and the pager's `/` look for: a text found in an event's summary, location
/// or description, whatever the case, the accents and the width of the letters.
///
/// Both sides are folded as Foundation folds for a case-, diacritic- and width-insensitive
/// comparison (full case folding: `ß` is `ss`, `İ` is `i`; `ä` is `a`, `é` written in one or two
/// code points is `e`; `Ａ` is `a`), then compared byte for byte as UTF-8, which only matches at
/// character boundaries. Searching is what browsers' find does by default: "zahnarztin" finds
/// "Zahnärztin", "DENTIST" finds "dentist". The dotless `ı` stays a letter of its own.
public struct EventMatcher: Sendable, Equatable {
    /// The text as typed.
    public let text: String
    /// The folded text, as UTF-8.
    let needle: [UInt8]

    /// A matcher for `text`, or nil when it is empty once folded (nothing to look for).
    public init?(_ text: String) {
        let folded = Self.fold(text)
        guard !folded.isEmpty else { return nil }
        self.text = text
        needle = Array(folded.utf8)
    }

    /// `text` folded for comparison: ASCII lowercased directly (what Foundation's folding
    /// gives for it, at a fraction of the cost), anything else by Foundation.
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self) }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `haystack` holds the text.
    public func matches(_ haystack: String) -> Bool {
        guard !haystack.isEmpty else { return false }
        let folded = Self.fold(haystack)
        return folded.utf8.withContiguousStorageIfAvailable { Self.contains($0, needle) }
            ?? Self.contains(Array(folded.utf8), needle)
    }

    /// Whether the summary, the location or the description of `event` holds the text.
    public func matches(_ event: Event) -> Bool {
        matches(event.summary) || matches(event.details.location) || matches(event.details.description)
    }

    private static func contains<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ needle: [UInt8]) -> Bool where Bytes.Index == Int {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var start = bytes.startIndex
        let last = bytes.endIndex - needle.count
        while start <= last {
            if bytes[start] == first {
                var offset = 1
                while offset < needle.count, bytes[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
