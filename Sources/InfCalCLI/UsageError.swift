import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

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
    /// A word past the positional `DAY MONTH YEAR`.
    case unexpectedArgument(String)
    /// An option that needs something the situation does not give (a terminal, say).
    case unavailable(option: String, reason: String)

    /// The one line printed after "infcal: ". What the user typed is echoed inert: control and
    /// other non-printing characters escaped, long values cut (see `echo`).
    public var description: String {
        switch self {
        case let .unknownOption(option, suggestion):
            return "unknown option '\(Self.echo(option))'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case let .missingValue(option, expected):
            return "missing value for \(Self.echo(option)): expected \(Self.echo(expected, limit: Self.longEchoLimit))"
        case let .invalidValue(option, value, expected):
            return "invalid value '\(Self.echo(value))' for \(Self.echo(option)): expected \(Self.echo(expected, limit: Self.longEchoLimit))"
        case let .unexpectedValue(option, value):
            return "\(Self.echo(option)) takes no value, but was given '\(Self.echo(value))'"
        case let .conflict(first, second):
            return "\(Self.echo(first)) cannot be used together with \(Self.echo(second))"
        case let .unexpectedArgument(argument):
            return "unexpected argument '\(Self.echo(argument))' (infcal takes options and at most DAY MONTH YEAR; try --help)"
        case let .unavailable(option, reason):
            return "\(Self.echo(option)) is not available: \(Self.echo(reason, limit: Self.longEchoLimit))"
        }
    }

    /// The most characters a value is echoed with, "…" included.
    public static let echoLimit = InertText.echoLimit
    /// The most characters of an explanation, which may quote values too.
    static let longEchoLimit = 400

    /// What the user typed, echoed inert: `InertText.echo`, the one escaping of every message.
    public static func echo(_ text: String, limit: Int = echoLimit) -> String {
        InertText.echo(text, limit: limit)
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
    /// A calendar infcal may not write: read-only, or a subscription (EX_NOPERM).
    public static let noPermission: Int32 = 77
    /// A config file that is missing (when named), unreadable or wrong (EX_CONFIG).
    public static let config: Int32 = 78
}
