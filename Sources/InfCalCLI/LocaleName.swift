import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// A locale name as the environment (`de_DE.UTF-8@euro`) or `--locale` (`sr-Latn-RS`,
/// `en_US@calendar=hebrew`) writes it, checked before ICU sees it and made Foundation's.
///
/// ICU crashes on some malformed names (a 12-letter language, a 200-character region, a
/// non-ASCII name), so nothing reaches it that this grammar does not accept:
/// `language[_Script][_REGION][_VARIANT...][.codeset][@modifier]`, in ASCII, at most
/// `maximumLength` bytes, where the language has 2 to 8 letters, the script 4 letters, the
/// region 2 letters or 3 digits, a variant 5 to 8 letters or digits (4 starting with a digit),
/// the codeset up to 32 letters, digits, `-` and `_`, and the modifier either a glibc modifier
/// (up to 16 letters or digits: `euro`, `latin`) or ICU keywords (`calendar=hebrew;numbers=arab`).
/// Subtags may be joined by `_` or `-`; letter case is free, as in POSIX (`en_us.utf8`, `c`).
public enum LocaleName {
    /// What a well-formed name means.
    public enum Meaning: Equatable, Sendable {
        /// C or POSIX (any case, any codeset): English with US conventions.
        case posix
        /// A locale, as Foundation names it: `de_DE`, `sr_Latn_RS`, `en_US@calendar=hebrew`.
        case identifier(String)
    }

    /// The longest name accepted, in bytes.
    public static let maximumLength = 100

    /// glibc modifiers that choose a script: `sr_RS@latin` is `sr_Latn_RS`.
    static let scriptModifiers = ["latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "iqtelif": "Latn"]
    /// glibc modifiers that name a variant ICU knows: `ca_ES@valencia` is `ca_ES_VALENCIA`.
    static let variantModifiers = ["valencia": "VALENCIA"]

    /// Whether `text` is a name this grammar accepts (see `LocaleName`).
    public static func isWellFormed(_ text: String) -> Bool {
        parse(text) != nil
    }

    /// The meaning of `text`.
    /// - returns: nil when `text` is malformed (empty, too long, not ASCII, an empty or
    ///   oversized part, an odd modifier).
    public static func parse(_ text: String) -> Meaning? {
        guard !text.isEmpty, text.utf8.count <= maximumLength, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var rest = Substring(text)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") {
            let codeset = rest[rest.index(after: dot)...]
            guard (1...32).contains(codeset.count), codeset.allSatisfy({ isAlphanumeric($0) || $0 == "-" || $0 == "_" }) else { return nil }
            rest = rest[..<dot]
        }
        var keywords = ""
        var script: String?
        var variants: [String] = []
        if let modifier {
            if modifier.contains("=") {
                guard let checked = checkedKeywords(modifier) else { return nil }
                keywords = "@" + checked
            } else {
                guard (1...16).contains(modifier.count), modifier.allSatisfy(isAlphanumeric) else { return nil }
                script = scriptModifiers[modifier.lowercased()]
                variants += variantModifiers[modifier.lowercased()].map { [$0] } ?? []
            }
        }
        let lowered = rest.lowercased()
        if lowered == "c" || lowered == "posix" { return .posix }

        let subtags = rest.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }
        guard let language = subtags.first, (2...8).contains(language.count), language.allSatisfy(isLetter),
              subtags.count <= 5 else { return nil }
        var written: String?
        var region: String?
        var ownVariants: [String] = []
        for subtag in subtags.dropFirst() {
            let letters = subtag.allSatisfy(isLetter), digits = subtag.allSatisfy(isDigit)
            if written == nil, region == nil, ownVariants.isEmpty, subtag.count == 4, letters {
                written = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil, ownVariants.isEmpty, (subtag.count == 2 && letters) || (subtag.count == 3 && digits) {
                region = subtag.uppercased()
            } else if subtag.allSatisfy(isAlphanumeric),
                      (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first.map(isDigit) == true) {
                ownVariants.append(subtag.uppercased())
            } else {
                return nil
            }
        }
        // A script written in the name beats one a modifier implies.
        script = written ?? script
        var identifier = language.lowercased()
        if let script { identifier += "_" + script }
        if let region { identifier += "_" + region }
        for variant in ownVariants + variants {
            // A variant needs a region slot: `ca__VALENCIA` is how ICU writes one without a region.
            identifier += (region == nil ? "__" : "_") + variant
        }
        return .identifier(identifier + keywords)
    }

    /// ICU keywords `key=value;key=value`, keys lowercased; nil when one is malformed.
    private static func checkedKeywords(_ text: Substring) -> String? {
        var parts: [String] = []
        for keyword in text.split(separator: ";", omittingEmptySubsequences: false) {
            let pair = keyword.split(separator: "=", omittingEmptySubsequences: false)
            guard pair.count == 2, (1...16).contains(pair[0].count), pair[0].allSatisfy(isAlphanumeric),
                  (1...32).contains(pair[1].count), pair[1].allSatisfy({ isAlphanumeric($0) || $0 == "-" || $0 == "_" }) else { return nil }
            parts.append(pair[0].lowercased() + "=" + pair[1].lowercased())
        }
        return parts.joined(separator: ";")
    }

    private static func isLetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        isLetter(character) || isDigit(character)
    }
}
