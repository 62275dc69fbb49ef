import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// `infcal check`: every calendar a run would read, looked over, nothing written.
public struct CheckRun: Sendable {
    /// The calendars, as every other run reads them: the config file's, then `--events`
    /// (else INFCAL_EVENTS's) and the default calendar (`EventSettings.sources`).
    public let sources: [CalendarSource]
    /// `--json`: one JSON object a finding, one a line.
    public let json: Bool

    /// The run `raw` (the options after `check`) asks for in `environment`, with the config
    /// file `readConfig` reads.
    /// - throws: `UsageError` for an operand (it takes none), `ConfigError` for the config file.
    static func resolve(_ raw: RawOptions, environment: RunEnvironment,
                        readConfig: (String, Int) -> ConfigRead) throws -> CheckRun {
        if let extra = raw.positionals.first { throw UsageError.unexpectedArgument(extra) }
        // As for add, edit and delete: the config file is the one infcal looks for.
        let config = try RunPlan.loadConfig(RawOptions(), environment: environment, read: readConfig).config
        let given = raw.occurrences.filter { $0.key == .events }.compactMap(\.value)
        return CheckRun(sources: EventSettings.sources(calendars: config.calendars, given: given, environment: environment),
                        json: raw.has(.checkJSON))
    }

    /// What `infcal check --help` says after its options.
    static let helpNotes = """
        It reads every calendar infcal shows: the config file's [events NAME]
        sections (subscriptions and CalDAV calendars from their cached copies; it
        fetches nothing), --events PATH (else INFCAL_EVENTS) and the default
        calendar. It lists, one line each as FILE:LINE: kind: message, under a
        line for each calendar: duplicate UIDs (in a file, across a calendar's
        files, and, as a warning, across calendars; an override is no duplicate),
        events without UID or DTSTART, events and lines the reader skipped, rules
        that never recur, EXDATEs that leave nothing, TZIDs nothing knows, files
        that are not iCalendar, too large, unreadable or not regular files, and
        temporary files of killed writes. It writes nothing, the cache neither.
        Exit status: 0 no errors (warnings may be listed), 65 errors found,
        64 usage, 66 a calendar missing or unreadable, 78 a bad config file.

        """
}

extension OptionSpec {
    /// The options of `check` besides `--events` and `--help` of the main table.
    public static let checkOptions: [OptionSpec] = [
        OptionSpec(key: .checkJSON, long: "json", short: nil, value: .none,
                   summary: "print each finding as a JSON object, one a line (calendar, file, line, kind, severity, message, uid)",
                   expected: ""),
    ]
}
