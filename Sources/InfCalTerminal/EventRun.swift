import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
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
        /// Why a file found in a directory was not read (a warning; the rest is read).
        var failure: String? = nil
    }

    /// The `.ics` files `source` names: itself, or those below it (sorted) for a directory.
    /// Below a directory every name ending in `.ics` that is not itself a directory is listed
    /// (what it is, `read` finds out); subdirectories are walked, not links to them, so a
    /// link cannot make the walk loop; one that cannot be listed is listed itself, and
    /// `read` warns about it.
    /// - throws: `Unreadable` when `source` is a directory that cannot be listed.
    static func files(of source: String) throws(Unreadable) -> [String] {
        guard source != "-", Platform.isDirectory(source) else { return [source] }
        var found: [String] = []
        func walk(_ directory: String, depth: Int) throws(Unreadable) {
            let entries: [(name: String, isDirectory: Bool)]
            switch Platform.directoryEntries(directory) {
            case .success(let listed): entries = listed
            case .failure(let error):
                guard depth > 0 else { throw Unreadable(path: directory, reason: Platform.describe(errno: error.code)) }
                found.append(directory)
                return
            }
            for entry in entries {
                let path = PathText.join(directory, entry.name)
                if entry.isDirectory {
                    if depth < InputLimits.directoryDepth { try walk(path, depth: depth + 1) }
                } else if entry.name.lowercased().hasSuffix(".ics") {
                    found.append(path)
                }
            }
        }
        try walk(source, depth: 0)
        return found.sorted()
    }

    /// Why `path` could not be read, in words: the limit, the kind of file, or errno's text.
    static func reason(_ error: Platform.SystemError, path: String) -> String {
        switch error.code {
        case Platform.ReadLimit.tooLarge: return "larger than \(InputLimits.fileBytes >> 20) MiB, the most infcal reads from a file"
        case Platform.ReadLimit.notRegular:
            let kind = (try? Platform.fileKind(path).get()) ?? "not a regular file"
            return "\(kind), not a regular file"
        case EISDIR:
            // A subdirectory `files` could not list.
            if case .failure(let listing) = Platform.directoryEntries(path) {
                return "a directory that cannot be listed: " + Platform.describe(errno: listing.code)
            }
            return Platform.describe(errno: error.code)
        case Platform.ReadLimit.noWriter: return "a FIFO that no program wrote to within \(InputLimits.writerWait) s"
        default: return Platform.describe(errno: error.code)
        }
    }

    /// Reads every source, through `cache` when there is one: a source whose cache is current
    /// gives the events that can occur in `window` (display wall-clock civil seconds; nil:
    /// all) without being read; any other is read and its cache written (unless a file of it
    /// could not be read, so that its warning comes again). A file named by a source is read
    /// whatever it is (a FIFO too); one found in a directory only when it is a regular file or
    /// a link to one, and one that cannot be read there is a `failure` (warned about), not the
    /// end of the run. A file over `InputLimits.fileBytes` is a failure wherever it is. A
    /// subscription is read from its cached copy, which this does not find yet: it is skipped.
    /// The sources of `skipping` (indices) are not read. Without `details`, events from a
    /// cache come without their locations and descriptions (for a run that shows neither).
    /// - throws: `Unreadable` for the first missing or unreadable source.
    static func read(_ sources: [CalendarSource], skipping: Set<Int> = [], cache: EventCache? = nil,
                     window: Range<Int>? = nil, details: Bool = true) throws(Unreadable) -> [SourceFile] {
        var result: [SourceFile] = []
        var fresh: [EventCache.Fresh] = []
        var bytesRead = 0
        for (index, calendarSource) in sources.enumerated() where !skipping.contains(index) {
            guard let source = calendarSource.path else { continue }
            // Only a regular file or a directory keeps its bytes for the next run; a FIFO or a
            // device is read afresh every time.
            let kind = try? Platform.fileKind(source).get()
            let cache = kind == "a regular file" || kind == "a directory" ? cache : nil
            if let cached = cache?.load(source, calendar: index, window: window, details: details) {
                result += cached
                continue
            }
            let paths = try files(of: source)
            // Identities before the bytes: a change while reading makes the cache stale, not wrong.
            let key = cache?.key(of: source, paths: paths)
            var read: [SourceFile] = []
            for path in paths {
                switch readFile(path, of: source) {
                case .bytes(let bytes):
                    bytesRead += bytes.count
                    if bytesRead >= Self.largeReading { Platform.growHeapInHugePages() }
                    read.append(SourceFile(name: shownName(path), file: EventReader.read(bytes), calendar: index))
                case .skipped(let error):
                    read.append(SourceFile(name: shownName(path), file: EventFile(), calendar: index,
                                           failure: reason(error, path: path) + "; skipped"))
                case .unreadable(let error):
                    throw error
                }
            }
            if cache != nil, let key, !read.contains(where: { $0.failure != nil }) { fresh.append(EventCache.Fresh(source: source, key: key, files: read)) }
            result += read
        }
        // The new caches are stored once every source is read, together: a run that prints and
        // ends leaves them all to one copy of itself.
        if let cache, !fresh.isEmpty { cache.store(fresh) }
        return result
    }

    /// What reading one file of a source gave.
    enum FileRead {
        case bytes([UInt8])
        /// A file the run goes on without (one found in a directory, or one too large), and why.
        case skipped(Platform.SystemError)
        /// The file the source names itself, which cannot be read: the run ends.
        case unreadable(Unreadable)
    }

    /// Reads `path`, one of the files of `source` (`files(of:)`): a file named by the source is
    /// read whatever it is (a FIFO too, waiting `InputLimits.writerWait` seconds for a writer);
    /// one found in a directory only when it is a regular file or a link to one. A file over
    /// `InputLimits.fileBytes` is skipped wherever it is.
    static func readFile(_ path: String, of source: String) -> FileRead {
        let found = path != source
        switch Platform.readBounded(path: path, limit: InputLimits.fileBytes, regularOnly: found, writerWait: InputLimits.writerWait) {
        case .success(let bytes): return .bytes(bytes)
        case .failure(let error) where found || error.code == Platform.ReadLimit.tooLarge: return .skipped(error)
        case .failure(let error): return .unreadable(Unreadable(path: path, reason: reason(error, path: path)))
        }
    }

    /// `path` as messages name it: standard input for `-`.
    static func shownName(_ path: String) -> String {
        path == "-" ? "(standard input)" : path
    }

    /// Once this many bytes (of one file or of many) are read afresh, the objects reading makes
    /// are enough for the heap to be readied for them (`Platform.growHeapInHugePages`).
    static let largeReading = 2 << 20

    /// The span of display wall-clock civil seconds of the days `days` (grid day numbers), in
    /// which the events a run shows can lie; nil for none (all: the run is endless, paged or
    /// long). A grid, a `--wall` page and a JSON month leave the days of the months around
    /// blank, so no day outside is shown; an event that starts before and lasts into them is
    /// found by its span, and the zones' offsets by the decoder's own margin
    /// (`EventCacheFormat.selectionMargin`).
    static func window(_ days: Range<Int>?) -> Range<Int>? {
        guard let days else { return nil }
        let (low, lowOverflow) = (days.lowerBound + CivilTime.dayNumberOffset).multipliedReportingOverflow(by: CivilTime.secondsPerDay)
        let (high, highOverflow) = (days.upperBound + CivilTime.dayNumberOffset).multipliedReportingOverflow(by: CivilTime.secondsPerDay)
        return lowOverflow || highOverflow ? nil : low..<high
    }

    /// The directories among `sources` (not in `skipping`) that hold no `.ics` file at all: a
    /// mistyped path or a calendar not synced yet, which would otherwise show nothing in
    /// silence. Only a source that gave no file is listed again.
    static func emptyDirectories(_ sources: [CalendarSource], read files: [SourceFile], skipping: Set<Int>) -> [String] {
        let gave = Set(files.map(\.calendar))
        return sources.indices.compactMap { index in
            guard !skipping.contains(index), !gave.contains(index), let path = sources[index].path, path != "-",
                  Platform.isDirectory(path), (try? EventRun.files(of: path))?.isEmpty == true else { return nil }
            return path
        }
    }

    /// The warnings for `files`, one line each (without "infcal: "), and how many problems
    /// `--strict` counts (skipped events, files with no calendar data or not read, structural
    /// errors read past).
    static func warnings(_ files: [SourceFile]) -> (lines: [String], problems: Int) {
        var lines: [String] = []
        var problems = 0
        for source in files {
            let file = source.file
            if let failure = source.failure {
                lines.append("\(InertText.path(source.name)): \(failure)")
                problems += 1
                continue
            }
            if !file.hasCalendarData {
                lines.append("\(InertText.path(source.name)): " + EventFile.noCalendarData)
                problems += 1
            }
            if let first = file.skipped.first {
                let more = file.skipped.count - 1
                lines.append("\(InertText.path(source.name)):\(first.line): \(first.reason)"
                             + (more > 0 ? " (and \(more) more event\(more == 1 ? "" : "s") skipped in this file)" : ""))
                problems += file.skipped.count
            }
            for problem in file.problems { lines.append("\(InertText.path(source.name)):\(problem.line): \(problem.message)") }
            problems += file.problems.count
            for note in file.notes { lines.append("\(InertText.path(source.name)):\(note.line): \(note.message)") }
        }
        return (lines, problems)
    }

    /// The store of the events of `files`, each tagged with its calendar of `sources`: the
    /// configured name and colour, else the colour the calendar's first file gives itself.
    /// With `search`, only the events it matches are in the store, so that every view shows
    /// those alone.
    static func makeStore(_ files: [SourceFile], sources: [CalendarSource], display: DisplayZone,
                          search: EventMatcher? = nil) -> EventStore {
        let calendars = sources.indices.map { index in
            EventCalendar(name: sources[index].name,
                          color: sources[index].color ?? files.first { $0.calendar == index && $0.file.calendarColor != nil }?.file.calendarColor)
        }
        var events: [Event] = []
        var names: [String] = []
        var calendarOfEvent: [Int] = []
        // The instances caches' tables give, in the range they all cover.
        var preset: PresetInstances?
        for file in files {
            if let own = file.file.preset {
                let moved = own.moved(by: events.count)
                preset = preset.map { PresetInstances.joined($0, moved) } ?? moved
            }
            events += file.file.events
            names += repeatElement(file.name, count: file.file.events.count)
            calendarOfEvent += repeatElement(file.calendar, count: file.file.events.count)
        }
        let store = EventStore(events: events, display: display, sources: names, calendars: calendars, calendarOfEvent: calendarOfEvent,
                               preset: preset)
        return search.map { store.restricted(to: $0) } ?? store
    }

    /// How the event part of a run ends.
    enum Outcome {
        /// The run ends with this status (an error).
        case finished(Int32)
        /// The run's output follows, with these events (nil: the run reads none).
        case months(EventStore?)
    }

    /// Reads the events of `settings` and reports what was skipped on standard error.
    /// Subscriptions and CalDAV calendars that are due are fetched first, unless the events
    /// are read for the pager (`interactive`), which fetches them while it shows the copies
    /// there are.
    static func run(_ settings: EventSettings, environment: RunEnvironment) -> Outcome {
        guard settings.needsEvents else { return .months(nil) }
        let cache = RemoteCalendars.cache()
        var fetched = RemoteCalendars.Report()
        if !settings.interactive {
            fetched = RemoteCalendars.fetch(RemoteCalendars.due(settings.sources, fetching: settings.fetching, cache: cache),
                                            cache: cache, showProgress: Platform.isTerminal(2))
            for line in fetched.lines { InfCal.fail(line, status: 0) }
        }
        let sources = RemoteCalendars.localSources(settings.sources, cache: cache)
        let files: [SourceFile]
        // The pager can show a hidden calendar again, so it reads them all.
        let skipping = settings.interactive ? [] : Set(sources.indices.filter { settings.hides(sources[$0]) })
        do {
            let eventCache = EventCache(environment: environment, enabled: settings.usesCache, reportsFailures: settings.strict,
                                        writesAtExit: !settings.interactive)
            // Only the pager's day view shows locations and descriptions, and only --search
            // matches them.
            files = try read(sources, skipping: skipping, cache: eventCache,
                             window: eventCache == nil ? nil : window(settings.window),
                             details: settings.interactive || settings.search != nil)
        } catch {
            return .finished(InfCal.fail("cannot read events from '\(InertText.path(error.path))': \(error.reason)", status: ExitStatus.noInput))
        }
        let (lines, fileProblems) = warnings(files)
        for line in lines { _ = InfCal.fail(line, status: 0) }
        for path in emptyDirectories(sources, read: files, skipping: skipping) {
            _ = InfCal.fail("\(InertText.path(path)): no .ics file in this directory", status: 0)
        }
        let problems = fileProblems + fetched.failures
        if settings.strict, problems > 0 {
            return .finished(InfCal.fail("--strict: \(problems) event\(problems == 1 ? "" : "s"), file\(problems == 1 ? "" : "s") or fetch\(problems == 1 ? "" : "es") failed",
                                         status: ExitStatus.dataError))
        }
        let store = makeStore(files, sources: sources, display: settings.zone.display(local: environment.displayZone), search: settings.search)
        store.hidden = Set(sources.indices.filter { settings.hides(sources[$0]) })
        // The process's exit reclaims the events at once; released one by one as the run
        // returns, they would cost more than decoding them did.
        InfCal.keptUntilExit.append(store)
        return .months(store)
    }

    /// The store of `settings`' calendars as their copies are now, for the pager to show
    /// after a fetch; warnings are not repeated. Nil when a source cannot be read any more.
    static func reread(_ settings: EventSettings, environment: RunEnvironment) -> EventStore? {
        let sources = RemoteCalendars.localSources(settings.sources, cache: RemoteCalendars.cache())
        guard let files = try? read(sources) else { return nil }
        let store = makeStore(files, sources: sources, display: settings.zone.display(local: environment.displayZone), search: settings.search)
        store.hidden = Set(sources.indices.filter { settings.hides(sources[$0]) })
        return store
    }
}
