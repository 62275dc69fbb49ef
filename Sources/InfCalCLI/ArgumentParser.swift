import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The options as typed, before anything is resolved: which options, in order, with their values.
struct RawOptions: Equatable {
    /// One option occurrence.
    struct Occurrence: Equatable {
        let key: OptionKey
        /// The option as the user spelled it (`-m` or `--monday`), for messages.
        let spelling: String
        let value: String?
        /// The config file's line, for an option the config file gives.
        var line: Int? = nil
    }

    var occurrences: [Occurrence] = []
    /// The words that are not options or their values: `[[DAY] MONTH] YEAR`, as cal takes them.
    var positionals: [String] = []
    /// The options turned off by `--no-OPTION` after their last occurrence: the config file's
    /// values of them are not used.
    var negated: Set<OptionKey> = []

    /// The last occurrence of `key` (later options override earlier ones).
    func last(_ key: OptionKey) -> Occurrence? {
        occurrences.last { $0.key == key }
    }

    /// Whether `key` was given at all.
    func has(_ key: OptionKey) -> Bool { last(key) != nil }
}

/// Splits the argument list into options, values and positional words, following the table in
/// `OptionSpec.all`, as getopt_long does.
///
/// Long options take values as `--from 2024-01` or `--from=2024-01`; short ones as `-c 3` or
/// `-c3`, and short flags bundle (`-mc3` is `-m -c 3`, `-yj` is `-y -j`). An optional value is
/// taken only when it is one (`-y2024`, `-w iso`), so `-w3` is `-w -3` and `-w 2024` leaves the
/// year to the positional words. `--` ends the options; the words after it are positional.
enum ArgumentParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> RawOptions {
        try parse(arguments, table: OptionSpec.all)
    }

    /// Splits `arguments` by the options of `table` (a subcommand's, say).
    static func parse(_ arguments: [String], table: [OptionSpec]) throws(UsageError) -> RawOptions {
        var raw = RawOptions()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let following = index + 1 < arguments.count ? arguments[index + 1] : nil
            if word == "--" {
                raw.positionals += arguments[(index + 1)...]
                break
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let equals = body.firstIndex(of: "=")
                let name = body[..<(equals ?? body.endIndex)]
                let inline = equals.map { String(body[body.index(after: $0)...]) }
                guard let spec = table.first(where: { $0.long == name }) else {
                    // `--no-monday`: the option is off again, from the config file or earlier.
                    if name.hasPrefix("no-"), let spec = table.first(where: { $0.long == name.dropFirst(3) && $0.isConfigKey }) {
                        if let inline { throw .unexpectedValue(option: "--" + name, value: inline) }
                        raw.occurrences.removeAll { $0.key == spec.key }
                        raw.negated.insert(spec.key)
                        index += 1
                        continue
                    }
                    let keys = table.filter(\.isConfigKey).map(\.long)
                    let offOption = name.hasPrefix("no-") ? closest(to: String(name.dropFirst(3)), among: keys).map { "--no-" + $0 } : nil
                    throw .unknownOption("--" + name, suggestion: offOption ?? suggestion(for: String(name), in: table))
                }
                let value = try takeValue(spec, spelling: spec.flag, inline: inline, following: following) { index += 1 }
                raw.occurrences.append(.init(key: spec.key, spelling: spec.flag, value: value))
                raw.negated.remove(spec.key)
            } else if word.hasPrefix("-"), word.count > 1 {
                try parseBundle(word, following: following, table: table, into: &raw) { index += 1 }
            } else {
                raw.positionals.append(word)
            }
            index += 1
        }
        return raw
    }

    /// Reads the short options bundled in `word` (`-yj`, `-c3`, `-mw`).
    private static func parseBundle(_ word: String, following: String?, table: [OptionSpec], into raw: inout RawOptions,
                                    consume: () -> Void) throws(UsageError) {
        var letters = Substring(word.dropFirst())
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let spec = table.first(where: { $0.short == letter }) else {
                // `-forward`: the user may have meant the long option.
                throw .unknownOption("-" + String(letter), suggestion: suggestion(for: String(word.dropFirst()), in: table))
            }
            let spelling = "-" + String(letter)
            var inline = letters.isEmpty ? nil : String(letters)
            switch spec.value {
            case .none:
                raw.occurrences.append(.init(key: spec.key, spelling: spelling, value: nil))
                continue
            case .optional(_, let accepts):
                // The rest is the value when it is one, or when it cannot be more options
                // (`-wfoo` is a bad value, `-wj` is `-w -j`).
                if let rest = inline, !accepts(rest), let next = rest.first, table.contains(where: { $0.short == next }) {
                    inline = nil
                    raw.occurrences.append(.init(key: spec.key, spelling: spelling, value: nil))
                    continue
                }
            case .required:
                break
            }
            letters = ""
            let value = try takeValue(spec, spelling: spelling, inline: inline, following: inline == nil ? following : nil, consume: consume)
            raw.occurrences.append(.init(key: spec.key, spelling: spelling, value: value))
        }
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
            // A number is left to the positional DAY MONTH YEAR (`-w 2024`), an option to itself
            // (`--forward --from ...`, `-w -3`); another word is a bad value (`--forward 5x`,
            // `--color yes`, `-w -42`).
            if OptionSpec.isNumber(following) { return nil }
            if !following.hasPrefix("-") || following == "-" || (OptionSpec.isCount(following) && !isShortBundle(following)) {
                throw .invalidValue(option: spelling, value: following, expected: spec.expected)
            }
            return nil
        }
    }

    /// Whether `word` is short options only (`-3`, `-1w`).
    static func isShortBundle(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && word.dropFirst().allSatisfy { letter in OptionSpec.all.contains { $0.short == letter } }
    }

    // MARK: Did you mean

    /// The long option closest to `name`, if any is close enough to be a likely typo.
    static func suggestion(for name: String, in table: [OptionSpec] = OptionSpec.all) -> String? {
        closest(to: name, among: table.map(\.long)).map { "--" + $0 }
    }

    /// The word of `candidates` closest to `name` (one it begins, else the nearest by edit
    /// distance), if any is close enough to be a likely typo: options, config keys, calendars.
    static func closest(to name: String, among candidates: [String]) -> String? {
        if let prefixed = candidates.first(where: { $0.hasPrefix(name) && !name.isEmpty }) { return prefixed }
        let scored = candidates.map { ($0, editDistance($0, name)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(1, min(3, name.count / 3)) else { return nil }
        return best
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
