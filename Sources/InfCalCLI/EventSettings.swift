import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// What a run does with events: where they come from, whether a bad one is an error, and the
/// agenda to print, if any. Resolved from the options, the environment and the configuration.
public struct EventSettings: Equatable, Sendable {
    /// The calendars to read, in order: the config file's, then `--events` (else
    /// `INFCAL_EVENTS`) as unnamed sources.
    public var sources: [CalendarSource]
    /// Whether any source was named, by the config file, `--events` or `INFCAL_EVENTS` alike
    /// (they are read in every view, so that a missing file is reported).
    public var sourcesGiven: Bool
    /// `--strict`.
    public var strict: Bool
    /// The calendars `--only` names (nil: no `--only`) and those `--hide` names.
    public var only: [String]?
    public var hide: [String] = []

    /// Whether `--only` and `--hide` leave `source` out. A source without a name (`--events`)
    /// is always shown; a calendar discovered on a server, `work/tasks`, goes with `work`
    /// unless it is named itself.
    public func hides(_ source: CalendarSource) -> Bool {
        guard let name = source.name else { return false }
        let account = name.split(separator: "/", maxSplits: 1).first.map(String.init) ?? name
        func names(_ list: [String]) -> Bool { list.contains(name) || list.contains(account) }
        if let only, !names(only) { return true }
        return names(hide)
    }
    /// When subscriptions and CalDAV calendars are fetched: `--refresh`, `--offline`, else when due.
    public var fetching: Fetching = .whenDue

    /// When a run fetches its calendars from the network.
    public enum Fetching: Equatable, Sendable {
        /// When a copy is older than its calendar's `refresh`.
        case whenDue
        /// Every one now (`--refresh`).
        case now
        /// Never (`--offline`).
        case never
    }
    /// The agenda, when `--agenda` is given.
    public var agenda: AgendaPlan?
    /// `--search`: only the events it matches are shown, in every view.
    public var search: EventMatcher?
    /// Whether the parsed-event cache is used (not with `--no-cache`).
    public var usesCache = true
    /// The days (grid day numbers) whose events the run shows, so that a cached calendar
    /// decodes only the events that can occur in them; nil: all (an endless, long or paged run).
    public var window: Range<Int>?
    /// Whether the events are read for the pager: every calendar (a hidden one can be shown
    /// again), with locations and descriptions (its day view shows them), the fetch left to
    /// run while it shows the copies there are, and the cache written on a thread of its own.
    public var interactive = false

    /// The zone the events are shown in (`--zone`): their times, and the days they fall on.
    public var zone: ZoneChoice = .local

    /// Whether events must be read for this run.
    public var needsEvents: Bool { agenda != nil || sourcesGiven || strict }
}


extension EventSettings {
    /// The calendars a run reads: `calendars` (the config file's), then the paths `given` by
    /// `--events`, else INFCAL_EVENTS's; and, when no `--events` is given, the default calendar
    /// (what `infcal add` wrote where nothing else was named) when it exists and is not among them.
    static func sources(calendars: [CalendarSource], given: [String], environment: RunEnvironment) -> [CalendarSource] {
        // INFCAL_EVENTS stands for --events when none is given.
        let paths = given.isEmpty ? environment.eventsVariablePaths : given
        var sources = calendars + paths.map(CalendarSource.unnamed(path:))
        if given.isEmpty, environment.defaultCalendarExists, let path = environment.defaultCalendarPath,
           !sources.contains(where: { $0.path == path }) {
            sources.append(.unnamed(path: path))
        }
        return sources
    }
}

extension ConfigurationResolver {
    /// The names `--only` (nil when it is not given) and `--hide` give.
    /// - throws: `UsageError.invalidValue` for a name no calendar has (a configured one, or
    ///   one discovered below it, `work/tasks`), with did-you-mean.
    func chosenCalendars(sources: [CalendarSource]) throws(UsageError) -> (only: [String]?, hide: [String]) {
        let names = sources.compactMap(\.name)
        func chosen(_ key: OptionKey) throws(UsageError) -> [String]? {
            let occurrences = raw.occurrences.filter { $0.key == key }
            guard !occurrences.isEmpty else { return nil }
            var result: [String] = []
            for occurrence in occurrences {
                for part in (occurrence.value ?? "").split(separator: ",", omittingEmptySubsequences: false) {
                    let name = part.trimmingSpaces
                    let account = name.split(separator: "/", maxSplits: 1).first.map(String.init) ?? name
                    guard names.contains(name) || (name.contains("/") && names.contains(account)) else {
                        let expected = names.isEmpty ? "the name of a configured calendar, and none is configured"
                            : "a configured calendar (\(names.joined(separator: ", ")))"
                            + (ArgumentParser.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? "")
                        throw .invalidValue(option: occurrence.spelling, value: name, expected: expected)
                    }
                    result.append(name)
                }
            }
            return result
        }
        return (try chosen(.only), try chosen(.hide) ?? [])
    }

    /// The event settings of the run `configuration` resolves to; `calendars` are the config
    /// file's. Conflicts (`--agenda` with `--paged`, `--days` with `--json`) are
    /// `OptionConflict.all`'s, checked before.
    /// - throws: `UsageError` for `--agenda`, `--search`, `--uid` or `--days` where they cannot be used.
    func events(for configuration: Configuration, calendars: [CalendarSource]) throws(UsageError) -> EventSettings {
        let sources = EventSettings.sources(calendars: calendars, given: raw.occurrences.filter { $0.key == .events }.compactMap(\.value),
                                            environment: environment)
        var settings = EventSettings(sources: sources, sourcesGiven: !sources.isEmpty, strict: raw.has(.strict), agenda: nil)
        (settings.only, settings.hide) = try chosenCalendars(sources: sources)
        if let search = raw.last(.search) {
            guard let matcher = EventMatcher(search.value ?? "") else {
                throw .invalidValue(option: search.spelling, value: search.value ?? "", expected: OptionSpec.spec(.search).expected)
            }
            if sources.isEmpty {
                throw .unavailable(option: search.spelling, reason: Self.noEvents)
            }
            settings.search = matcher
        }
        settings.usesCache = !raw.has(.noCache)
        settings.zone = configuration.zone
        settings.fetching = raw.has(.refresh) ? .now : raw.has(.offline) ? .never : .whenDue
        guard let agenda = raw.last(.agenda) else {
            if let uid = raw.last(.uid) { throw .unavailable(option: uid.spelling, reason: "it shows UIDs in the lines of --agenda (--json has them always)") }
            if let days = raw.last(.days) { throw .unavailable(option: days.spelling, reason: "it groups the lines of --agenda under day headings") }
            return settings
        }
        if sources.isEmpty {
            throw .unavailable(option: agenda.spelling, reason: Self.noEvents)
        }
        var months: Int?
        var backward = false
        switch configuration.mode {
        case .forward(let count): months = count
        case .backward(let count): (months, backward) = (count, true)
        default: months = nil
        }
        let bounds = configuration.bounds
        // At a terminal a list with no end would scroll past for ever: a year unless bounded.
        let bounded = backward ? bounds.since != nil : bounds.until != nil
        if months == nil, environment.stdoutIsTerminal, !bounded { months = AgendaPlan.terminalMonths }
        // The day the list starts: --from's day (its first for forward, its last for backward),
        // else where the grids start: --since forward, --until backward, else today; read
        // with the reform of --reform, as the grids read it.
        var startDay = (backward ? bounds.until : bounds.since) ?? configuration.today
        if let from = configuration.fromPeriod { startDay = backward ? from.upperBound : from.lowerBound }
        let showsUID = raw.has(.uid)
        settings.agenda = AgendaPlan(backward: backward, startDay: startDay, months: months,
                                     width: showsUID ? nil : environment.cutWidth)
        settings.agenda?.showsUID = showsUID
        settings.agenda?.byDay = raw.has(.days)
        return settings
    }

    /// Why `--agenda` and `--search` have nothing to work on.
    static let noEvents = "no events: give --events PATH, set INFCAL_EVENTS, configure a calendar or add one with infcal add"
}
