/// The options as typed, before anything is resolved: which options, in order, with their values.
public struct RawOptions: Equatable {
    /// One option occurrence.
    public struct Occurrence: Equatable {
        public let key: OptionKey
        /// The option as the user spelled it (`-m` or `--monday`), for messages.
        public let spelling: String
        public let value: String?
    }

    public var occurrences: [Occurrence] = []

    /// The last occurrence of `key` (later options override earlier ones).
    public func last(_ key: OptionKey) -> Occurrence? {
        occurrences.last { $0.key == key }
    }

    /// Whether `key` was given at all.
    public func has(_ key: OptionKey) -> Bool { last(key) != nil }
}

/// Splits the argument list into options and values, following the table in `OptionSpec.all`.
///
/// Long options take values as `--from 2024-01` or `--from=2024-01`; short ones as `-c 3` or
/// `-c3`, and short flags bundle (`-ms` is not useful, but `-mc3` is `-m -c 3`). `--` ends the
/// options; infcal takes no other arguments, so anything after it is an error too.
public enum ArgumentParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> RawOptions {
        var raw = RawOptions()
        var index = 0
        func next() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                if let extra = next() { throw .unexpectedArgument(extra) }
                break
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let equals = body.firstIndex(of: "=")
                let name = body[..<(equals ?? body.endIndex)]
                let inline = equals.map { String(body[body.index(after: $0)...]) }
                guard let spec = OptionSpec.all.first(where: { $0.long == name }) else {
                    throw .unknownOption("--" + name, suggestion: suggestion(for: String(name)))
                }
                let value = try takeValue(spec, spelling: spec.flag, inline: inline, following: index + 1 < arguments.count ? arguments[index + 1] : nil) {
                    index += 1
                }
                raw.occurrences.append(.init(key: spec.key, spelling: spec.flag, value: value))
            } else if word.hasPrefix("-"), word.count > 1 {
                var letters = Substring(word.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let spec = OptionSpec.all.first(where: { $0.short == letter }) else {
                        // `-forward`: the user may have meant the long option.
                        throw .unknownOption("-" + String(letter), suggestion: suggestion(for: String(word.dropFirst())))
                    }
                    let spelling = "-" + String(letter)
                    if case .none = spec.value {
                        raw.occurrences.append(.init(key: spec.key, spelling: spelling, value: nil))
                        continue
                    }
                    // The rest of the word is the value (`-c3`); else the next word is.
                    let inline = letters.isEmpty ? nil : String(letters)
                    letters = ""
                    let value = try takeValue(spec, spelling: spelling, inline: inline, following: index + 1 < arguments.count ? arguments[index + 1] : nil) {
                        index += 1
                    }
                    raw.occurrences.append(.init(key: spec.key, spelling: spelling, value: value))
                }
            } else {
                throw .unexpectedArgument(word)
            }
            index += 1
        }
        return raw
    }

    /// The value of `spec`: the inline one, or the following word when the option takes it
    /// (`consume` is called when the following word is used).
    private static func takeValue(_ spec: OptionSpec, spelling: String, inline: String?, following: String?,
                                  consume: () -> Void) throws(UsageError) -> String? {
        switch spec.value {
        case .none:
            if let inline { throw .unexpectedValue(option: spelling, value: inline) }
            return nil
        case .required:
            if let inline { return inline }
            // As getopt does, the next word is the value whatever it looks like: `--from -3` is
            // three months ago, and `--from --forward` is reported as a bad date.
            guard let following else { throw .missingValue(option: spelling, expected: spec.expected) }
            consume()
            return following
        case .optional(_, let accepts):
            if let inline { return inline }
            guard let following else { return nil }
            if accepts(following) {
                consume()
                return following
            }
            // infcal takes no other arguments, so a word that is not an option is a bad value
            // (`--forward 5x`, `--color yes`); an option (`--forward --from ...`) is not.
            if !following.hasPrefix("-") || following == "-" || OptionSpec.isCount(following) {
                throw .invalidValue(option: spelling, value: following, expected: spec.expected)
            }
            return nil
        }
    }

    // MARK: Did you mean

    /// The long option closest to `name`, if any is close enough to be a likely typo.
    static func suggestion(for name: String) -> String? {
        let candidates = OptionSpec.all.map(\.long)
        if let prefixed = candidates.first(where: { $0.hasPrefix(name) && !name.isEmpty }) { return "--" + prefixed }
        let scored = candidates.map { ($0, editDistance($0, name)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(1, min(3, name.count / 3)) else { return nil }
        return "--" + best
    }

    /// Levenshtein distance between `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
