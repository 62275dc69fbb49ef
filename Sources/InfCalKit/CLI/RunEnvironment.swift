import Foundation

/// What the world around the process says, gathered by the terminal layer so that resolving the
/// configuration stays a pure function that tests can feed.
public struct RunEnvironment: Sendable {
    /// The environment variables infcal reads (`RunEnvironment.variableNames`), where set.
    public var variables: [String: String]
    /// The names of the variables infcal reads: the locale's, LC_CTYPE, TERM, NO_COLOR, COLUMNS and INFCAL_EVENTS.
    public static let variableNames = LocaleSetting.variables + ["LC_CTYPE", "TERM", "NO_COLOR", "COLUMNS", "INFCAL_EVENTS"]
    /// Whether standard output is a terminal.
    public var stdoutIsTerminal: Bool
    /// The terminal's width in columns, when standard output is one.
    public var terminalWidth: Int?
    /// Today's date where the user is (Gregorian year, month, day in the local zone); the
    /// `--today` option overrides it.
    public var localToday: (year: Int, month: Int, day: Int)
    /// Whether a terminal to read keys from (/dev/tty) can be opened, as the pager needs.
    public var keyboardIsAvailable: Bool
    /// The zone events are shown in (TZ, as for today).
    public var displayZone: DisplayZone = .utc

    public init(variables: [String: String], stdoutIsTerminal: Bool, terminalWidth: Int?,
                localToday: (year: Int, month: Int, day: Int), keyboardIsAvailable: Bool = false) {
        self.variables = variables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.terminalWidth = terminalWidth
        self.localToday = localToday
        self.keyboardIsAvailable = keyboardIsAvailable
    }

    /// The width `--columns auto` fits months into: the terminal's, else COLUMNS, else `fallback`.
    public func width(fallback: Int) -> Int {
        terminalWidth ?? variables["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? fallback
    }

    /// Whether the terminal shows colour: standard output is a terminal, TERM is set and not
    /// dumb, and NO_COLOR is unset or empty.
    public var showsColor: Bool {
        let term = variables["TERM"] ?? ""
        let noColor = variables["NO_COLOR"] ?? ""
        return stdoutIsTerminal && !term.isEmpty && term != "dumb" && noColor.isEmpty
    }

    /// Why the pager cannot run here, or nil when it can: it needs standard output to be a
    /// terminal that moves its cursor (TERM set and not dumb) and a terminal for keys.
    public var pagerUnavailability: String? {
        let term = variables["TERM"] ?? ""
        if !stdoutIsTerminal { return "standard output is not a terminal" }
        if term.isEmpty || term == "dumb" { return "TERM is \(term.isEmpty ? "unset" : "dumb"), so the terminal cannot move its cursor" }
        if !keyboardIsAvailable { return "no terminal to read keys from (/dev/tty cannot be opened)" }
        return nil
    }
}
