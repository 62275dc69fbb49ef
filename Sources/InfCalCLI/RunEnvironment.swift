import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// What the world around the process says, gathered by the terminal layer so that resolving the
/// configuration stays a pure function that tests can feed.
public struct RunEnvironment: Sendable {
    /// One environment variable and its value.
    public struct Variable: Sendable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The environment variables infcal reads (`RunEnvironment.variableNames`) that are set.
    /// An array, not a dictionary: a dictionary's first use costs a run-time conformance lookup
    /// at start-up, and there are at most six.
    public var setVariables: [Variable]

    /// The set variables as a dictionary.
    public var variables: [String: String] {
        get { Dictionary(setVariables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }) }
        set { setVariables = newValue.map { Variable(name: $0.key, value: $0.value) } }
    }

    /// The value of the variable `name`, when it is set.
    public func variable(_ name: String) -> String? {
        setVariables.last { $0.name == name }?.value
    }
    /// The names of the variables infcal reads: the locale's, LC_CTYPE, TERM, NO_COLOR,
    /// COLORTERM, COLUMNS, INFCAL_EVENTS, those that find the config file and the caches, and
    /// for the calendar infcal writes to TZ and XDG_DATA_HOME.
    public static let variableNames = LocaleSetting.variables
        + ["LC_CTYPE", "TERM", "NO_COLOR", "COLORTERM", "COLUMNS", "INFCAL_EVENTS", "INFCAL_CONFIG", "XDG_CONFIG_HOME",
           "XDG_CACHE_HOME", "HOME", "TZ", "XDG_DATA_HOME"]
    /// Whether the file at `defaultCalendarPath` exists (the terminal layer looks).
    public var defaultCalendarExists = false

    /// Whether the terminal shows 24-bit colour, as COLORTERM says (`truecolor` or `24bit`).
    public var showsTrueColor: Bool {
        let value = (variable("COLORTERM") ?? "").lowercased()
        return value == "truecolor" || value == "24bit"
    }
    /// Whether standard output is a terminal.
    public var stdoutIsTerminal: Bool
    /// The terminal's width in columns, when standard output is one.
    public var terminalWidth: Int?
    /// Today's date where the user is (Gregorian year, month, day in the local zone); the
    /// `--today` option overrides it.
    public var localToday: (year: Int, month: Int, day: Int)
    /// The current instant (UTC civil seconds), from which today is worked out in a zone
    /// `--zone` names; nil: today is `localToday` wherever times are shown.
    public var now: Int?
    /// Whether a terminal to read keys from (/dev/tty) can be opened, as the pager needs.
    public var keyboardIsAvailable: Bool
    /// The zone events are shown in (TZ, as for today).
    public var displayZone: DisplayZone = .utc

    public init(variables: [String: String], stdoutIsTerminal: Bool, terminalWidth: Int?,
                localToday: (year: Int, month: Int, day: Int), keyboardIsAvailable: Bool = false) {
        self.init(setVariables: variables.map { Variable(name: $0.key, value: $0.value) }, stdoutIsTerminal: stdoutIsTerminal,
                  terminalWidth: terminalWidth, localToday: localToday, keyboardIsAvailable: keyboardIsAvailable)
    }

    public init(setVariables: [Variable], stdoutIsTerminal: Bool, terminalWidth: Int?,
                localToday: (year: Int, month: Int, day: Int), keyboardIsAvailable: Bool = false) {
        self.setVariables = setVariables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.terminalWidth = terminalWidth
        self.localToday = localToday
        self.keyboardIsAvailable = keyboardIsAvailable
    }

    /// The calendar events are added to when no other is named: `$XDG_DATA_HOME/infcal/calendar.ics`
    /// (an absolute XDG_DATA_HOME only, as the XDG base directory specification says), else
    /// `$HOME/.local/share/infcal/calendar.ics`; nil when neither is set.
    public var defaultCalendarPath: String? {
        if let data = variable("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/infcal/calendar.ics" }
        if let home = variable("HOME"), !home.isEmpty { return PathText.join(home, ".local/share/infcal/calendar.ics") }
        return nil
    }

    /// The files and directories INFCAL_EVENTS names (empty entries left out): what a run
    /// reads when no `--events` is given, and where `edit` and `delete` look for a UID.
    public var eventsVariablePaths: [String] {
        (variable("INFCAL_EVENTS") ?? "").split(separator: ":").map(String.init)
    }

    /// The IANA zone name new times are written in: TZ's (without a leading `:` or a
    /// zoneinfo path), else the zone `/etc/localtime` links to (`localtimeLink`); nil for UTC,
    /// for a POSIX rule such as `EST5EDT,M3.2.0,M11.1.0` and for a name Foundation does not know.
    public func writingZoneName(localtimeLink: String?) -> String? {
        var name: String
        if let tz = variable("TZ") {
            name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        } else if let link = localtimeLink {
            name = link
        } else {
            return nil
        }
        if let range = name.range(of: "zoneinfo/") { name = String(name[range.upperBound...]) }
        let universal = ["", "UTC", "UTC0", "Etc/UTC", "GMT", "GMT0", "Etc/GMT", "UCT", "Etc/UCT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal"]
        guard !universal.contains(name), !name.contains(","), TimeZone(identifier: name) != nil else { return nil }
        return name
    }

    // The output's widths, all decided here: months side by side fit the terminal, lines are
    // cut to it, and `--wall` pages are printed as wide as COLUMNS asks first (a page is often
    // printed for another screen or for paper).

    /// The width `--columns auto` fits months into: the terminal's, else COLUMNS, else `fallback`.
    public func width(fallback: Int) -> Int {
        terminalWidth ?? columnsVariable ?? fallback
    }

    /// The width lines of events are cut to: at a terminal its width (COLUMNS when it does not
    /// say, else 80); nil into a pipe or a file, where lines are whole.
    public var cutWidth: Int? {
        stdoutIsTerminal ? width(fallback: 80) : nil
    }

    /// The width of `--wall` pages without `--width`: COLUMNS, else the terminal's, else `fallback`.
    public func pageWidth(fallback: Int) -> Int {
        columnsVariable ?? terminalWidth ?? fallback
    }

    /// COLUMNS, when it is a positive number.
    private var columnsVariable: Int? {
        variable("COLUMNS").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether the terminal shows colour: standard output is a terminal, TERM is set and not
    /// dumb, and NO_COLOR is unset or empty.
    public var showsColor: Bool {
        let term = variable("TERM") ?? ""
        let noColor = variable("NO_COLOR") ?? ""
        return stdoutIsTerminal && !term.isEmpty && term != "dumb" && noColor.isEmpty
    }

    /// Why the pager cannot run here, or nil when it can: it needs standard output to be a
    /// terminal that moves its cursor (TERM set and not dumb) and a terminal for keys.
    public var pagerUnavailability: String? {
        let term = variable("TERM") ?? ""
        if !stdoutIsTerminal { return "standard output is not a terminal" }
        if term.isEmpty || term == "dumb" { return "TERM is \(term.isEmpty ? "unset" : "dumb"), so the terminal cannot move its cursor" }
        if !keyboardIsAvailable { return "no terminal to read keys from (/dev/tty cannot be opened)" }
        return nil
    }
}
