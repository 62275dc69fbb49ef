/// A mistake in the command line. Each case becomes one line of text, in one place, and the
/// process exits with `ExitStatus.usage`.
public enum UsageError: Error, Equatable, CustomStringConvertible {
    /// An option nobody defined; `suggestion` is the closest real one.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value came last, or before another option.
    case missingValue(option: String, expected: String)
    /// A value that does not parse, or falls outside what the option takes.
    case invalidValue(option: String, value: String, expected: String)
    /// A flag that takes no value was given one (`--monday=yes`).
    case unexpectedValue(option: String, value: String)
    /// Two options that cannot be used together.
    case conflict(String, String)
    /// A word that is not an option and not an option's value.
    case unexpectedArgument(String)
    /// An option that needs something the situation does not give (a terminal, say).
    case unavailable(option: String, reason: String)

    /// The one line printed after "infcal: ".
    public var description: String {
        switch self {
        case let .unknownOption(option, suggestion):
            return "unknown option '\(option)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case let .missingValue(option, expected):
            return "missing value for \(option): expected \(expected)"
        case let .invalidValue(option, value, expected):
            return "invalid value '\(value)' for \(option): expected \(expected)"
        case let .unexpectedValue(option, value):
            return "\(option) takes no value, but was given '\(value)'"
        case let .conflict(first, second):
            return "\(first) cannot be used together with \(second)"
        case let .unexpectedArgument(argument):
            return "unexpected argument '\(argument)' (infcal takes only options; try --help)"
        case let .unavailable(option, reason):
            return "\(option) is not available: \(reason)"
        }
    }
}

/// The process exit statuses.
public enum ExitStatus {
    /// Success; also the end of output when the reader went away.
    public static let success: Int32 = 0
    /// A runtime failure, such as a write error.
    public static let failure: Int32 = 1
    /// A usage error (EX_USAGE from sysexits.h).
    public static let usage: Int32 = 64
    /// Events that cannot be read, with `--strict` (EX_DATAERR).
    public static let dataError: Int32 = 65
    /// An events file that is missing or cannot be read (EX_NOINPUT).
    public static let noInput: Int32 = 66
}
