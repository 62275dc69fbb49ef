import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// What one run of infcal does, resolved once from the arguments, the config file and the
/// environment (`RunPlan.resolve`): a case a kind of run, each carrying everything its runner
/// needs and nothing of the options as typed. The program makes one `switch` on it; a new kind
/// of run is one more case here, one more arm there.
public enum RunPlan {
    /// Text to print, and nothing else: `--help`, `--version`, `--completions SHELL`,
    /// `infcal add --help`.
    case answer(String)
    /// `--calendar list`: the calendars this platform computes, no events read.
    case listCalendars(CalendarListRun)
    /// Months printed: compact grids, `--wall` pages or JSON Lines, with their events.
    case months(MonthsRun)
    /// `--agenda`: the events listed, one line each (or as JSON Lines).
    case agenda(AgendaRun)
    /// `--week`: weeks by the hour, printed (or as JSON objects).
    case week(WeekRun)
    /// The interactive pager, with its day view and its writes.
    case pager(PagerRun)
    /// `infcal add`, `edit` or `delete`: one change to a calendar.
    case change(ChangeRun)
    /// `infcal check`: every calendar looked over, nothing written.
    case check(CheckRun)
}

/// `--calendar list`.
public struct CalendarListRun: Sendable {
    let today: Int
    let locale: Locale?

    /// The lines to print: each usable calendar's name and today's month in it.
    public func lines() -> [String] {
        CalendarList.lines(today: today, locale: locale)
    }
}

/// Months printed one after another (see `ShownMonths`), and how.
public struct MonthsRun {
    /// How the months are put out.
    public enum Form: Equatable, Sendable {
        /// Compact grids, as cal prints them, with the events below each row of months.
        case grids
        /// Month pages (`--wall`).
        case wall
        /// Months as JSON Lines (`--json`).
        case json
    }

    /// The look of the months (internal: the runner prints through `print`).
    let configuration: Configuration
    public let form: Form
    /// The events to read before printing (none when `events.needsEvents` is false).
    public let events: EventSettings
    /// The width lines of events are cut to: at a terminal its width; nil into a pipe or a file.
    let cutWidth: Int?

    /// The months the run shows.
    public var months: ShownMonths { configuration.shown }

    /// Prints the months to `sink`, with the events of `store` when the run read some.
    public func print(events store: EventStore?, to sink: ByteSink) throws {
        let shown = months
        switch form {
        case .json:
            var printer = JSONLinesPrinter(renderer: configuration.makeRenderer(), locale: configuration.locale, store: store)
            printer.listedFrom = shown.firstListedDay
            try printer.print(shown.months(), to: sink)
        case .wall, .grids:
            if form == .wall, var pages = configuration.makePagePrinter() {
                pages.events = store
                try pages.print(shown.months(), to: sink)
                return
            }
            var printer = configuration.makePrinter()
            if let store {
                printer.events = StreamEvents(store: store, marksDays: configuration.color, locale: configuration.locale,
                                              trueColor: configuration.trueColor)
                // Forward, what is under way on the first day listed is listed with that day's month.
                printer.events?.listedFrom = shown.firstListedDay
                // At a terminal the lines are cut to its width; into a pipe or a file they are whole.
                printer.events?.width = cutWidth
            }
            try printer.print(shown.months(), to: sink)
        }
    }
}

/// `--agenda`: the occurrences of the events listed month by month.
public struct AgendaRun {
    let configuration: Configuration
    /// Which occurrences, from which day, in which direction, how wide.
    public let plan: AgendaPlan
    /// As JSON Lines (`--agenda --json`).
    public let json: Bool
    /// The months the list walks.
    public let months: ShownMonths
    /// The events to list.
    public let events: EventSettings

    /// Prints the agenda of `store` to `sink`.
    public func print(_ store: EventStore, to sink: ByteSink) throws {
        // A count of months is walked month by month; a list without one skips the months no
        // event can reach and ends when none can start any more.
        if let eventful = months.eventfulMonths(events: store) {
            try print(eventful, store: store, to: sink)
        } else {
            try print(months.months(), store: store, to: sink)
        }
    }

    /// Prints the agenda of `store` over `walk` to `sink`.
    private func print(_ walk: some Sequence<Month>, store: EventStore, to sink: ByteSink) throws {
        let also = configuration.also.map { AlsoCalendar(calendar: $0, locale: configuration.locale) }
        if json {
            try JSONLinesPrinter.printAgenda(walk, store: store, plan: plan, bounds: configuration.bounds, also: also, to: sink)
        } else {
            var printer = AgendaPrinter(locale: configuration.locale, width: plan.width)
            printer.arrow = configuration.page.box == .ascii ? "->" : "→"
            printer.calendarWidth = store.calendarWidth
            printer.colors = configuration.color ? configuration.trueColor : nil
            printer.also = also
            try printer.print(walk, store: store, plan: plan, bounds: configuration.bounds, to: sink)
        }
    }
}

/// The interactive pager.
public struct PagerRun {
    /// The state on the first month and the view that draws it.
    public let settings: PagerSettings
    /// The events it shows (read whole: see `EventSettings.interactive`).
    public let events: EventSettings
    /// Where the day view's writes go.
    public let writes: WriteSettings
}

/// One change to the calendars: `infcal add`, `edit` or `delete`, or a key of the pager's day view.
public struct ChangeRun: Sendable {
    /// What to change.
    public let change: EventChange
    /// The calendar `--to` names; nil: the default calendar, or wherever the UID is.
    public let target: String?
    /// Where it writes and what it says.
    public let writes: WriteSettings

    /// `change` in `target`, written as `writes` say.
    public init(change: EventChange, target: String? = nil, writes: WriteSettings) {
        self.change = change
        self.target = target
        self.writes = writes
    }
}

/// Where writes go and what they say, resolved with the run: the same for the command line's
/// `add`, `edit` and `delete` and the pager's keys.
public struct WriteSettings: Sendable {
    /// The config file's calendars: names for `--to`, the default calendar, and where `edit`
    /// and `delete` look for a UID first.
    public var calendars: [CalendarSource]
    /// The files and directories besides them where `edit` and `delete` look for a UID (those
    /// that exist): the default calendar, INFCAL_EVENTS's, and the pager's `--events`.
    public var searchPaths: [String]
    /// The locale of the line `add` prints.
    public var locale: Locale?
    /// The zone the times typed are read in and new events written in: the pager's under
    /// `--zone`; the local one (TZ's) otherwise.
    public var zone: ZoneChoice = .local
}

/// What reading the config file gave: its bytes, or why there are none.
public enum ConfigRead: Sendable {
    case bytes([UInt8])
    /// The file cannot be read: `reason` in words; `isMissing` when it does not exist, which
    /// is no error where infcal only looks for one.
    case failed(reason: String, isMissing: Bool)
}

extension RunPlan {
    /// Months a run may show for its events to be decoded for those months alone; a longer
    /// run decodes them all.
    public static let windowedMonths = 1200

    /// The plan of the run `arguments` (without the program's name) ask for in `environment`,
    /// with the config file `readConfig` reads (at most `limit` bytes from a path).
    /// - throws: `UsageError` for the command line's mistakes (exit 64), `ConfigError` for the
    ///   config file's (exit 78); nothing has been printed then.
    public static func resolve(_ arguments: [String], environment: RunEnvironment,
                               readConfig: (_ path: String, _ limit: Int) -> ConfigRead) throws -> RunPlan {
        if let first = arguments.first, let subcommand = Subcommand.named(first) {
            let raw = try ArgumentParser.parse(Array(arguments.dropFirst()), table: subcommand.specs)
            if raw.has(.help) { return .answer(subcommand.helpText) }
            if subcommand.name == .check { return .check(try CheckRun.resolve(raw, environment: environment, readConfig: readConfig)) }
            let resolver = ConfigurationResolver(raw: raw, environment: environment, gregorian: MonthCalendar(.gregorian))
            let locale = try resolver.locale()
            let command = try EventCommand(subcommand, raw: raw, today: try resolver.today(), locale: locale)
            // A subcommand takes no --config: the config file is the one infcal looks for.
            let config = try loadConfig(RawOptions(), environment: environment, read: readConfig).config
            return .change(ChangeRun(change: command.change, target: command.target,
                                     writes: writeSettings(config.calendars, also: [], locale: locale, environment: environment)))
        }
        let raw = try ArgumentParser.parse(arguments)
        if let answer = try answer(raw) { return .answer(answer) }
        let (file, config) = try loadConfig(raw, environment: environment, read: readConfig)
        let run = try Configuration.resolve(raw, config: config, file: file, environment: environment)
        return plan(run, calendars: config.calendars, environment: environment)
    }

    /// The text of `--help`, `--version` or `--completions SHELL`, which answer before anything
    /// else is resolved (other options' values do not matter then); nil for every other run.
    /// - throws: `UsageError` for a shell infcal writes no script for.
    static func answer(_ raw: RawOptions) throws(UsageError) -> String? {
        if raw.has(.help) { return HelpText.text }
        if raw.has(.version) { return HelpText.version + "\n" }
        guard let option = raw.last(.completions) else { return nil }
        let shell = option.value ?? ""
        guard OptionSpec.shells.contains(shell) else {
            throw .invalidValue(option: option.spelling, value: shell, expected: OptionSpec.spec(.completions).expected)
        }
        return Completions.script(for: shell)
    }

    /// The config file of `raw`'s run and what it says; an empty file's contents when there
    /// is none (no file where infcal looks by default, or `--no-config`).
    /// - throws: `ConfigError` for a named file that is missing, a file that cannot be read,
    ///   is no regular file, or says something wrong.
    static func loadConfig(_ raw: RawOptions, environment: RunEnvironment,
                           read: (String, Int) -> ConfigRead) throws(ConfigError) -> (file: String, config: ConfigFile) {
        guard let (path, explicit) = ConfigFile.location(raw, environment: environment) else { return ("", ConfigFile()) }
        switch read(path, ConfigParser.sizeLimit) {
        case .bytes(let bytes):
            return (path, try ConfigParser.parse(bytes, file: path, home: environment.variable("HOME"),
                                                 directory: PathText.directory(of: path)))
        case .failed(_, let isMissing) where isMissing && !explicit:
            return (path, ConfigFile())
        case .failed(let reason, _):
            throw ConfigError(file: path, line: nil, message: reason)
        }
    }

    /// The plan of a resolved run: what it puts out, decided here and nowhere else.
    static func plan(_ run: Configuration.Run, calendars: [CalendarSource], environment: RunEnvironment) -> RunPlan {
        let configuration = run.configuration
        var events = run.events
        if configuration.mode == .listCalendars {
            return .listCalendars(CalendarListRun(today: configuration.today, locale: configuration.locale))
        }
        if let agenda = events.agenda {
            let walk: ShownMonths.Walk = agenda.months.map { agenda.backward ? .backward(count: $0) : .forward(count: $0) }
                ?? .eventful(backward: agenda.backward)
            let months = ShownMonths(calendar: configuration.calendar, start: configuration.calendar.month(containing: agenda.startDay),
                                     bounds: configuration.bounds, walk: walk)
            events.window = months.days(limit: windowedMonths)
            return .agenda(AgendaRun(configuration: configuration, plan: agenda, json: configuration.json, months: months, events: events))
        }
        if let weeks = configuration.weeks {
            events.window = weeks.days(limit: windowedMonths * 4)
            return .week(WeekRun(configuration: configuration, weeks: weeks, events: events, json: configuration.json,
                                 zoneLabel: configuration.zone.label(in: environment)))
        }
        if configuration.mode == .paged {
            events.interactive = true
            // The day view's edits look in the files and directories of --events too.
            let given = events.sources.filter { $0.name == nil }.compactMap(\.path)
            var writes = writeSettings(calendars, also: given, locale: configuration.locale, environment: environment)
            writes.zone = configuration.zone
            return .pager(PagerRun(settings: configuration.pagerSettings(environment: environment), events: events, writes: writes))
        }
        events.window = configuration.shown.days(limit: windowedMonths)
        let form: MonthsRun.Form = configuration.json ? .json : configuration.page.wallWidth == nil ? .grids : .wall
        return .months(MonthsRun(configuration: configuration, form: form, events: events, cutWidth: environment.cutWidth))
    }

    /// Where writes go: `calendars`, then the default calendar, INFCAL_EVENTS's paths and `also`.
    static func writeSettings(_ calendars: [CalendarSource], also: [String], locale: Locale?, environment: RunEnvironment) -> WriteSettings {
        let paths = (environment.defaultCalendarPath.map { [$0] } ?? []) + environment.eventsVariablePaths + also
        return WriteSettings(calendars: calendars, searchPaths: paths, locale: locale)
    }
}
