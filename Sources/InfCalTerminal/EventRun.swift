import Foundation
import InfCalKit

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

    /// Reads every source, through `cache` when there is one: a source whose cache is current
    /// gives the events that can occur in `window` (display wall-clock civil seconds; nil:
    /// all) without being read; any other is read and its cache written.
    /// - throws: `Unreadable` for the first missing or unreadable one.
    static func read(_ sources: [String], cache: EventCache? = nil, window: Range<Int>? = nil) throws(Unreadable) -> [SourceFile] {
        var result: [SourceFile] = []
        for source in sources {
            let cache = source == "-" ? nil : cache
            if let cached = cache?.load(source, window: window) {
                result += cached
                continue
            }
            let paths = try files(of: source)
            // Identities before the bytes: a change while reading makes the cache stale, not wrong.
            let key = cache?.key(of: source, paths: paths)
            var read: [SourceFile] = []
            for path in paths {
                switch Platform.readFile(path) {
                case .success(let bytes):
                    read.append(SourceFile(name: path == "-" ? "(standard input)" : path, file: EventReader.read(bytes)))
                case .failure(let error):
                    throw Unreadable(path: path, reason: Platform.describe(errno: error.code))
                }
            }
            if let cache, let key { cache.store(source, key: key, files: read) }
            result += read
        }
        return result
    }

    /// Months a run may show for its events to be decoded for those months alone; a longer
    /// run decodes them all.
    static let windowedMonths = 1200

    /// The span of display wall-clock civil seconds in which the events a run of
    /// `configuration` shows can lie (its months, or those of the agenda `plan`, with the
    /// weeks a grid or a page shows around them), or nil when the run is endless, paged or long.
    static func window(_ configuration: Configuration, plan: AgendaPlan?) -> Range<Int>? {
        let days = plan.map { configuration.agendaDays(from: $0.startDay, months: $0.months, backward: $0.backward, limit: windowedMonths) }
            ?? configuration.shownDays(limit: windowedMonths)
        guard let days else { return nil }
        let reach = 14
        let (low, lowOverflow) = (days.lowerBound - reach + CivilTime.dayNumberOffset).multipliedReportingOverflow(by: CivilTime.secondsPerDay)
        let (high, highOverflow) = (days.upperBound + reach + CivilTime.dayNumberOffset).multipliedReportingOverflow(by: CivilTime.secondsPerDay)
        return lowOverflow || highOverflow ? nil : low..<high
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

    /// How the event part of a run ends.
    enum Outcome {
        /// The run ends with this status (an error, or the agenda printed).
        case finished(Int32)
        /// The months are printed next, with these events (nil: the run reads none).
        case months(EventStore?)
    }

    /// Reads the events of `settings`, reports what was skipped on standard error, and prints
    /// the agenda when there is one (as JSON Lines with `--json`).
    static func run(_ settings: EventSettings, configuration: Configuration, environment: RunEnvironment,
                    output: ByteSink) throws -> Outcome {
        guard settings.needsEvents else { return .months(nil) }
        let files: [SourceFile]
        do {
            let cache = EventCache(environment: environment, enabled: settings.usesCache, reportsFailures: settings.strict)
            files = try read(settings.sources, cache: cache, window: cache == nil ? nil : window(configuration, plan: settings.agenda))
        } catch {
            return .finished(InfCal.fail("cannot read events from '\(error.path)': \(error.reason)", status: ExitStatus.noInput))
        }
        let (lines, problems) = warnings(files)
        for line in lines { _ = InfCal.fail(line, status: 0) }
        if settings.strict, problems > 0 {
            return .finished(InfCal.fail("--strict: \(problems) event\(problems == 1 ? "" : "s") or file\(problems == 1 ? "" : "s") could not be read",
                                         status: ExitStatus.dataError))
        }
        let store = EventStore(events: files.flatMap(\.file.events), display: environment.displayZone,
                               sources: files.flatMap { file in file.file.events.map { _ in file.name } })
        // The process's exit reclaims the events at once; released one by one as the run
        // returns, they would cost more than decoding them did.
        InfCal.keptUntilExit.append(store)
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
            try AgendaPrinter(locale: configuration.locale, width: plan.width)
                .print(months, store: store, plan: plan, bounds: configuration.bounds, to: output)
        }
        return .finished(ExitStatus.success)
    }
}
