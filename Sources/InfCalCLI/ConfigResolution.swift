import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// Joining the config file's options to the command line's, and resolving the two.
extension ConfigFile {
    /// The options of a run: the file's first, each unless the command line `raw` gives the
    /// same option, turns it off (`--no-OPTION`) or gives one it cannot be used with (`--sunday`
    /// over `monday = yes`, `-1` over `paged = yes`), then the command line's.
    func merged(into raw: RawOptions) -> RawOptions {
        var result = raw
        let given = Set(raw.occurrences.map(\.key))
        let kept = options.filter { option in
            !given.contains(option.key) && !raw.negated.contains(option.key) && !OptionConflict.any(option, against: raw)
        }
        result.occurrences = kept + raw.occurrences
        return result
    }

    /// The line of the last option of the file spelled `spelling`, if any.
    func line(of spelling: String) -> Int? {
        options.last { $0.spelling == spelling }?.line
    }

    /// Checks that no two options of the file conflict.
    /// - throws: `ConfigError` at the later of the two.
    func checkConflicts(file: String) throws(ConfigError) {
        var raw = RawOptions()
        raw.occurrences = options
        do {
            try OptionConflict.check(raw)
        } catch {
            guard case let .conflict(first, second) = error else { return }
            // Named at the later of the two lines, which is where the user looks first.
            let (one, other) = (line(of: first) ?? 0, line(of: second) ?? 0)
            let (later, earlier) = one >= other ? (first, second) : (second, first)
            throw ConfigError(file: file, line: max(one, other), message: "\(later) cannot be used together with \(earlier)")
        }
    }
}

extension Configuration {
    /// What a run resolves to: the configuration and its events.
    struct Run {
        let configuration: Configuration
        let events: EventSettings
    }

    /// Resolves the command line `raw` with the config file `config` (read from `file`) and
    /// its calendars. An option of the file that this run cannot take (`paged = yes` into a
    /// pipe) is left out; a bad value in the file is the file's error.
    /// - throws: `ConfigError` for the file's mistakes, `UsageError` for the command line's.
    static func resolve(_ raw: RawOptions, config: ConfigFile, file: String,
                               environment: RunEnvironment) throws -> Run {
        try config.checkConflicts(file: file)
        var merged = config.merged(into: raw)
        // Each round leaves out one option of the file, so this ends.
        while true {
            do {
                return try Configuration.resolveRun(merged, environment: environment, calendars: config.calendars)
            } catch {
                let (spellings, dropsQuietly) = blamed(error)
                let fromFile = spellings.filter { config.line(of: $0) != nil }
                guard let spelling = fromFile.first, let line = config.line(of: spelling) else { throw error }
                // A value the file got wrong is its error; a situation that does not admit an
                // option of the file (no terminal, another option given) just leaves it out.
                if dropsQuietly || fromFile.count < spellings.count {
                    merged.occurrences.removeAll { $0.spelling == spelling }
                    continue
                }
                throw ConfigError(file: file, line: line, message: configMessage(error, spelling: spelling))
            }
        }
    }

    /// The spellings `error` names, and whether it is about the situation rather than a value.
    static func blamed(_ error: UsageError) -> ([String], Bool) {
        switch error {
        case let .invalidValue(option, _, _), let .missingValue(option, _), let .unexpectedValue(option, _):
            return ([option], false)
        case let .unavailable(option, _):
            return ([option], true)
        case let .conflict(first, second):
            return ([first, second], false)
        case .unknownOption, .unexpectedArgument:
            return ([], false)
        }
    }

    /// The file's message for `error` about the key `spelling`: `key 'locale': expected ...`.
    static func configMessage(_ error: UsageError, spelling: String) -> String {
        switch error {
        case let .invalidValue(_, value, expected): return "\(spelling): expected \(expected), not '\(value)'"
        case let .missingValue(_, expected): return "\(spelling): expected \(expected)"
        default: return error.description
        }
    }
}
