import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI

/// `infcal check`: reads every calendar of the run as every other run reads them (a
/// subscription's or CalDAV calendar's cached copy, never the network), has `CalendarCheck`
/// look them over, and prints its report. It writes nothing: no parsed-event cache, no fetched
/// copy, and the temporary files of killed writes are listed, not removed.
enum CheckRunner {
    /// Runs `run`, printing to `output`; the exit status: 0 when no finding is an error, 65
    /// when one is, 66 for a calendar that is missing or cannot be read (as every run says).
    static func run(_ run: CheckRun, output: FileOutput) throws -> Int32 {
        guard !run.sources.isEmpty else {
            return InfCal.fail("check: no calendars to check: configure one ([events NAME]), give --events PATH or set INFCAL_EVENTS",
                               status: ExitStatus.noInput)
        }
        let cache = RemoteCalendars.cache()
        var calendars: [CheckedCalendar] = []
        for source in run.sources {
            let local = RemoteCalendars.localCopies(of: source, cache: cache)
            if case .url(let url) = source.location, local.isEmpty {
                var calendar = CheckedCalendar(name: source.name ?? url, location: url, files: [])
                calendar.isNotFetched = true
                calendars.append(calendar)
                continue
            }
            for copy in local {
                guard let path = copy.path else { continue }
                do {
                    calendars.append(try check(path, name: copy.name))
                } catch {
                    return InfCal.fail("cannot read events from '\(InertText.path(error.path))': \(error.reason)", status: ExitStatus.noInput)
                }
            }
        }
        let findings = CalendarCheck.findingsByCalendar(calendars)
        let report = CheckReport(calendars: zip(calendars, findings).map { calendar, found in
            CheckReport.Calendar(name: calendar.name, location: calendar.location, files: calendar.files.count, findings: found)
        })
        try output.write(run.json ? report.jsonLines() : report.text())
        return report.failed ? ExitStatus.dataError : ExitStatus.success
    }

    /// The calendar at `source` (a file, a directory, `-`), named `name` (nil: its path): each
    /// of its files read as `EventRun` reads them, and the temporary files killed writes left
    /// where writes into it make theirs (beside each file, links followed, and in a directory
    /// calendar's directory).
    /// - throws: `EventRun.Unreadable` when the source itself is missing or cannot be read.
    static func check(_ source: String, name: String?) throws(EventRun.Unreadable) -> CheckedCalendar {
        let paths = try EventRun.files(of: source)
        var files: [CheckedFile] = []
        for path in paths {
            switch EventRun.readFile(path, of: source) {
            case .bytes(let bytes):
                files.append(CheckedFile(name: EventRun.shownName(path), bytes: bytes))
            case .skipped(let error):
                files.append(CheckedFile(name: EventRun.shownName(path), failure: kind(of: error),
                                         reason: EventRun.reason(error, path: path) + "; infcal skips it"))
            case .unreadable(let error):
                throw error
            }
        }
        let location = EventRun.shownName(source)
        var calendar = CheckedCalendar(name: name ?? location, location: location, files: files)
        guard source != "-" else { return calendar }
        if Platform.isDirectory(source) {
            calendar.isEmptyDirectory = paths.isEmpty
            var directories: Set<String> = [source]
            for path in paths { directories.insert(PathText.directory(of: (try? Platform.followingLinks(path)) ?? path)) }
            calendar.leftovers = directories.sorted().flatMap { Platform.leftoverTemporaryFiles(in: $0) }
        } else {
            let followed = (try? Platform.followingLinks(source)) ?? source
            calendar.leftovers = Platform.leftoverTemporaryFiles(in: PathText.directory(of: followed), of: Platform.lastComponent(of: followed))
        }
        return calendar
    }

    /// The kind of finding a file that could not be read is.
    static func kind(of error: Platform.SystemError) -> CheckFinding.Kind {
        switch error.code {
        case Platform.ReadLimit.tooLarge: return .tooLarge
        case Platform.ReadLimit.notRegular, Platform.ReadLimit.noWriter: return .specialFile
        default: return .unreadable
        }
    }
}
