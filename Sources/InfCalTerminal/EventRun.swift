import Foundation
import InfCalKit
import InfCalRemote

/// Reading the event sources of a run and printing the agenda: the part of the run that
/// touches files for events.
enum EventRun {
    /// A source that cannot be read: the path and why.
    struct Unreadable: Error {
        let path: String
        let reason: String
    }

    /// One source file and what reading it gave.
    struct SourceFile {
        let name: String
        let file: EventFile
        /// The index of the calendar it belongs to in the sources read.
        let calendar: Int
    }

    /// The `.ics` files `source` names: itself, or those below it (sorted) for a directory.
    static func files(of source: String) throws(Unreadable) -> [String] {
        guard source != "-", Platform.isDirectory(source) else { return [source] }
        guard let walker = FileManager.default.enumerator(atPath: source) else {
            throw Unreadable(path: source, reason: "cannot list the directory")
        }
        var found: [String] = []
        while let entry = walker.nextObject() as? String {
            if entry.lowercased().hasSuffix(".ics") {
                let path = source.hasSuffix("/") ? source + entry : source + "/" + entry
                if !Platform.isDirectory(path) { found.append(path) }
            }
        }
        return found.sorted()
    }

    /// Reads every source on the disk. A subscription is read from its cached copy, which
    /// this does not find yet: it is skipped.
    /// - throws: `Unreadable` for the first missing or unreadable one.
    /// The sources of `skipping` are not read.
    static func read(_ sources: [CalendarSource], skipping: Set<Int> = []) throws(Unreadable) -> [SourceFile] {
        var result: [SourceFile] = []
        for (index, source) in sources.enumerated() where !skipping.contains(index) {
            guard let sourcePath = source.path else { continue }
            for path in try files(of: sourcePath) {
                switch Platform.readFile(path) {
                case .success(let bytes):
                    result.append(SourceFile(name: path == "-" ? "(standard input)" : path, file: EventReader.read(bytes),
                                             calendar: index))
                case .failure(let error):
                    throw Unreadable(path: path, reason: Platform.describe(errno: error.code))
                }
            }
        }
        return result
    }

    /// The warnings for `files`, one line each (without "infcal: "), and how many problems
    /// `--strict` counts (skipped events, files with no calendar data).
    static func warnings(_ files: [SourceFile]) -> (lines: [String], problems: Int) {
        var lines: [String] = []
        var problems = 0
        for source in files {
            let file = source.file
            if !file.hasCalendarData {
                lines.append("\(source.name): no iCalendar data (no BEGIN:VCALENDAR or BEGIN:VEVENT)")
                problems += 1
            }
            if let first = file.skipped.first {
                let more = file.skipped.count - 1
                lines.append("\(source.name):\(first.line): \(first.reason)"
                             + (more > 0 ? " (and \(more) more event\(more == 1 ? "" : "s") skipped in this file)" : ""))
                problems += file.skipped.count
            }
            for note in file.notes { lines.append("\(source.name):\(note.line): \(note.message)") }
        }
        return (lines, problems)
    }

    /// The store of the events of `files`, each tagged with its calendar of `sources`: the
    /// configured name and colour, else the colour the calendar's first file gives itself.
    static func makeStore(_ files: [SourceFile], sources: [CalendarSource], display: DisplayZone) -> EventStore {
        let calendars = sources.indices.map { index in
            EventCalendar(name: sources[index].name,
                          color: sources[index].color ?? files.first { $0.calendar == index && $0.file.calendarColor != nil }?.file.calendarColor)
        }
        var events: [Event] = []
        var names: [String] = []
        var calendarOfEvent: [Int] = []
        for file in files {
            events += file.file.events
            names += repeatElement(file.name, count: file.file.events.count)
            calendarOfEvent += repeatElement(file.calendar, count: file.file.events.count)
        }
        return EventStore(events: events, display: display, sources: names, calendars: calendars, calendarOfEvent: calendarOfEvent)
    }

    /// How the event part of a run ends.
    enum Outcome {
        /// The run ends with this status (an error, or the agenda printed).
        case finished(Int32)
        /// The months are printed next, with these events (nil: the run reads none).
        case months(EventStore?)
    }

    /// Reads the events of `settings`, reports what was skipped on standard error, and prints
    /// the agenda when there is one (as JSON Lines with `--json`). Subscriptions and CalDAV
    /// calendars that are due are fetched first, unless `fetchLater` (the pager fetches them
    /// while it shows the copies there are).
    static func run(_ settings: EventSettings, configuration: Configuration, environment: RunEnvironment,
                    output: ByteSink, fetchLater: Bool = false) throws -> Outcome {
        guard settings.needsEvents else { return .months(nil) }
        let cache = RemoteCalendars.cache()
        var fetched = RemoteCalendars.Report()
        if !fetchLater {
            fetched = RemoteCalendars.fetch(RemoteCalendars.due(settings.sources, fetching: settings.fetching, cache: cache),
                                            cache: cache, showProgress: Platform.isTerminal(2))
            for line in fetched.lines { InfCal.fail(line, status: 0) }
        }
        let (sources, hidden) = localSources(settings, cache: cache)
        let files: [SourceFile]
        do {
            // The pager can show a hidden calendar again, so it reads them all.
            files = try read(sources, skipping: configuration.mode == .paged ? [] : hidden)
        } catch {
            return .finished(InfCal.fail("cannot read events from '\(error.path)': \(error.reason)", status: ExitStatus.noInput))
        }
        let (lines, fileProblems) = warnings(files)
        for line in lines { _ = InfCal.fail(line, status: 0) }
        if settings.strict, fileProblems + fetched.failures > 0 {
            let counts = [(fileProblems, "event\(fileProblems == 1 ? "" : "s") or file\(fileProblems == 1 ? "" : "s") could not be read"),
                          (fetched.failures, "calendar\(fetched.failures == 1 ? "" : "s") could not be fetched")]
            let text = counts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: "; ")
            return .finished(InfCal.fail("--strict: " + text, status: ExitStatus.dataError))
        }
        let store = makeStore(files, sources: sources, display: environment.displayZone)
        store.hidden = hidden
        guard let plan = settings.agenda else { return .months(store) }
        let calendar = configuration.calendar
        guard let start = calendar.month(containing: plan.startDay) else { return .finished(ExitStatus.success) }
        let index = MonthIndex(calendar: calendar, start: start, bounds: configuration.bounds)
        let months: AnySequence<Month>
        if plan.backward {
            months = plan.months.map { AnySequence(index.backward.prefix($0)) } ?? AnySequence(index.backward)
        } else {
            months = plan.months.map { AnySequence(index.forward.prefix($0)) } ?? AnySequence(index.forward)
        }
        if configuration.json {
            try JSONLinesPrinter.printAgenda(months, store: store, plan: plan, bounds: configuration.bounds, to: output)
        } else {
            var printer = AgendaPrinter(locale: configuration.locale, width: plan.width)
            printer.calendarWidth = store.calendarWidth
            printer.colors = configuration.color ? configuration.trueColor : nil
            try printer.print(months, store: store, plan: plan, bounds: configuration.bounds, to: output)
        }
        return .finished(ExitStatus.success)
    }

    /// The store of `settings`' calendars as their copies are now, for the pager to show
    /// after a fetch; warnings are not repeated. Nil when a source cannot be read any more.
    static func reread(_ settings: EventSettings, environment: RunEnvironment) -> EventStore? {
        let (sources, hidden) = localSources(settings, cache: RemoteCalendars.cache())
        guard let files = try? read(sources) else { return nil }
        let store = makeStore(files, sources: sources, display: environment.displayZone)
        store.hidden = hidden
        return store
    }

    /// The sources of `settings` as they are read, URL sources replaced by their cached
    /// copies, and the ones of them `--only` and `--hide` leave out.
    static func localSources(_ settings: EventSettings, cache: RemoteCache?) -> (sources: [CalendarSource], hidden: Set<Int>) {
        let (sources, origins) = RemoteCalendars.localSources(settings.sources, cache: cache)
        return (sources, Set(sources.indices.filter { index in
            let origin = origins[index]
            guard !settings.hidden.contains(origin) else { return true }
            guard let account = settings.sources[origin].name, let name = sources[index].name, name != account else { return false }
            return settings.hides(calendar: name, of: account)
        }))
    }
}
