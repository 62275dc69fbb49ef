import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalRemote

/// `infcal add`, `edit` and `delete`: the calendar chosen, locked, read, changed surgically
/// in memory and written atomically; read again first when it changed since it was read.
enum WriteRun {
    /// A failure with its exit status and message.
    struct Failure: Error {
        let status: Int32
        let message: String
    }

    /// A calendar infcal may write: an .ics file or a directory of them (a vdir), or a
    /// CalDAV calendar (`remote`), whose copy in the cache is such a directory.
    struct Target {
        let path: String
        let isDirectory: Bool
        /// `readonly = yes` in the config file.
        var readonly = false
        var remote: RemoteWrite.Collection?

        init(path: String, isDirectory: Bool, readonly: Bool = false) {
            self.path = path
            self.isDirectory = isDirectory
            self.readonly = readonly
        }

        init(_ remote: RemoteWrite.Collection) {
            path = remote.directory
            isDirectory = true
            self.remote = remote
        }

        /// The calendar as messages name it.
        var label: String { remote?.shown ?? path }

        /// The file flock(2) is held on: the directory itself, or a lock file beside the
        /// file the calendar's links lead to (the calendar's own inode is replaced by every
        /// write).
        var lockPath: String { Platform.lockPath(of: path, isDirectory: isDirectory) }
    }

    /// Does `run`, prints the line that says what it did, and gives the exit status.
    static func run(_ run: ChangeRun, environment: RunEnvironment, output: FileOutput) -> Int32 {
        do {
            try output.write(try perform(run, environment: environment) + "\n")
            return ExitStatus.success
        } catch Platform.WriteError.closed {
            return ExitStatus.success
        } catch {
            let failure = Self.failure(error)
            return InfCal.fail(failure.message, status: failure.status)
        }
    }

    /// `error` as the message and exit status a failed write gives.
    static func failure(_ error: Error) -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let failure as Platform.WriteFailure:
            return Failure(status: ExitStatus.failure, message: failure.description + "; the calendar is as it was")
        case let usage as UsageError: return Failure(status: ExitStatus.usage, message: usage.description)
        default: return Failure(status: ExitStatus.failure, message: "\(error)")
        }
    }

    /// Does `run` as the pager's day view asks for it: done, and said in a line (or why not).
    static func attempt(_ run: ChangeRun, environment: RunEnvironment) -> Result<String, Failure> {
        do {
            return .success(try perform(run, environment: environment))
        } catch {
            return .failure(failure(error))
        }
    }

    /// The one writer: does the change of `run` in the calendars of its `writes` and gives the
    /// line that says what it did.
    static func perform(_ run: ChangeRun, environment: RunEnvironment) throws -> String {
        let calendars = run.writes.calendars
        // The pager under --zone reads and writes times in that zone, as it shows them.
        var local = environment
        if case .named(let name) = run.writes.zone { local.variables["TZ"] = name }
        let zoneName = local.writingZoneName(localtimeLink: Platform.linkTarget("/etc/localtime"))
        let zone = WritingZone(zone: zoneName.flatMap { TimeZone(identifier: $0) },
                               offset: run.writes.zone.display(local: environment.displayZone).offset)
        let stamp = Platform.secondsNow()
        switch run.change {
        case .add(let request):
            let target = try addTarget(run.target, calendars: calendars, environment: environment)
            let event = request.event(zone: zone)
            let uid = UUID().uuidString.lowercased()
            try add(event, uid: uid, stamp: stamp, zone: zone, to: target)
            return agendaLine(event, uid: uid, zone: zone, locale: run.writes.locale)
        case let .edit(typed, scope, fields):
            let (path, uid) = try update(typed, target: run.target, calendars: calendars, searchPaths: run.writes.searchPaths) { uid, data throws(CalendarEdit.Refusal) in
                try EventWrite.editing(uid, occurrence: scope.day, changes: fields, stamp: stamp, zone: zone, in: data)
            }
            return "changed \(InertText.uid(uid)) in \(InertText.path(path))"
        case let .delete(typed, scope):
            let (path, uid) = try update(typed, target: run.target, calendars: calendars, searchPaths: run.writes.searchPaths) { uid, data throws(CalendarEdit.Refusal) in
                try EventWrite.deleting(uid, occurrence: scope.day, stamp: stamp, in: data)
            }
            return (scope == .series ? "deleted \(InertText.uid(uid)) from " : "deleted one occurrence of \(InertText.uid(uid)) in ") + InertText.path(path)
        }
    }

    // MARK: Which calendar

    /// The calendar `--to` names: a configured calendar by name, an existing file or
    /// directory, or a new .ics file in an existing directory (`creating`).
    static func named(_ name: String, calendars: [CalendarSource], creating: Bool) throws(Failure) -> Target {
        if let configured = calendars.first(where: { $0.name == name }) { return try target(of: configured) }
        // A calendar discovered on a CalDAV server: `NAME/CALENDAR`.
        for source in calendars where source.path == nil {
            guard let account = source.name, name.hasPrefix(account + "/") else { continue }
            if let found = try RemoteWrite.collections(of: source, fetchingFirst: true).first(where: { $0.name == name }) {
                return Target(found)
            }
        }
        if name.contains("://") {
            throw Failure(status: ExitStatus.noPermission, message: "--to \(InertText.path(name)): a calendar by URL is a subscription, which infcal does not write")
        }
        let readonly = calendars.contains { $0.readonly && $0.path == name }
        let kind = try place(name).kind
        if kind == .directory { return Target(path: name, isDirectory: true, readonly: readonly) }
        if kind == .file || Platform.exists(name) { return Target(path: name, isDirectory: false, readonly: readonly) }
        if creating, name.lowercased().hasSuffix(".ics"), Platform.isDirectory(PathText.directory(of: name)) {
            return Target(path: name, isDirectory: false, readonly: readonly)
        }
        let names = calendars.compactMap(\.name)
        throw Failure(status: ExitStatus.noInput,
                      message: "--to \(InertText.path(name)): no such calendar (a configured name"
                          + (names.isEmpty ? "" : " such as " + names.prefix(5).map(InertText.path).joined(separator: ", ")) + ", an .ics file, or a directory)"
                          + (creating ? "; a new file must end in .ics in an existing directory" : ""))
    }

    /// The calendar a configured source is on the disk.
    static func target(of source: CalendarSource) throws(Failure) -> Target {
        let label = source.name.map { "the calendar '\(InertText.path($0))'" } ?? "the calendar"
        if source.readonly { throw Failure(status: ExitStatus.noPermission, message: "\(label) is readonly = yes; nothing was written") }
        guard let path = source.path else {
            let collections = try RemoteWrite.collections(of: source, fetchingFirst: true)
            guard collections.count == 1, let only = collections.first else {
                throw Failure(status: collections.isEmpty ? ExitStatus.failure : ExitStatus.usage,
                              message: collections.isEmpty ? "\(label) has no calendar on the server; nothing was written"
                                  : "\(label) holds several calendars (\(collections.map { InertText.path($0.shown) }.joined(separator: ", "))): name one with --to")
            }
            return Target(only)
        }
        return Target(path: path, isDirectory: try place(path).kind == .directory)
    }

    /// `path` as a write finds it (`Platform.writePlace`), or the refusal to write there (a
    /// FIFO, a socket, a device, a file of several hard links): exit 1, before anything is
    /// opened or made beside it.
    static func place(_ path: String) throws(Failure) -> Platform.WritePlace {
        do {
            return try Platform.writePlace(path)
        } catch {
            throw Failure(status: ExitStatus.failure, message: error.description + "; nothing was written")
        }
    }

    /// Where `add` writes: `--to`, else the default calendar (made on first use).
    static func addTarget(_ name: String?, calendars: [CalendarSource], environment: RunEnvironment) throws -> Target {
        if let name { return try named(name, calendars: calendars, creating: true) }
        if let configured = calendars.first(where: \.isDefault) { return try target(of: configured) }
        guard let path = environment.defaultCalendarPath else {
            throw Failure(status: ExitStatus.failure, message: "no calendar to add to: HOME and XDG_DATA_HOME are unset; name one with --to")
        }
        if let error = Platform.makeDirectories(PathText.directory(of: path)) as Platform.SystemError? {
            throw Platform.WriteFailure(path: PathText.directory(of: path), step: "create the directory", code: error.code)
        }
        return Target(path: path, isDirectory: false)
    }

    /// The calendars `edit` and `delete` look for a UID in: `--to`, else the configured
    /// calendars on the disk (read-only ones too, to say so), then those of `searchPaths` that
    /// exist (the default calendar, the files and directories of INFCAL_EVENTS, the pager's).
    static func writable(_ name: String?, calendars: [CalendarSource], searchPaths: [String]) throws(Failure) -> [Target] {
        if let name { return [try named(name, calendars: calendars, creating: false)] }
        var targets: [Target] = []
        for source in calendars {
            if source.path == nil {
                // A CalDAV calendar's copy, as it is (an event not in it is not found).
                var readable = source
                readable.readonly = false
                let remote = (try? RemoteWrite.collections(of: readable, fetchingFirst: false)) ?? []
                targets += remote.map { collection in
                    var target = Target(collection)
                    target.readonly = source.readonly
                    return target
                }
                continue
            }
            guard let path = source.path, Platform.exists(path) else { continue }
            targets.append(Target(path: path, isDirectory: Platform.isDirectory(path), readonly: source.readonly))
        }
        var paths: [String] = []
        for entry in searchPaths where entry != "-" && !paths.contains(entry) && Platform.exists(entry) { paths.append(entry) }
        paths.removeAll { path in targets.contains { $0.path == path } }
        return targets + paths.map { Target(path: $0, isDirectory: Platform.isDirectory($0)) }
    }

    static func checkWritable(_ path: String) throws(Failure) {
        if Platform.exists(path), !Platform.isWritable(path) {
            throw Failure(status: ExitStatus.noPermission, message: "\(InertText.path(path)) is read-only; nothing was written")
        }
    }

    // MARK: Writing

    static func add(_ event: NewEvent, uid: String, stamp: Int, zone: WritingZone, to target: Target) throws {
        if target.readonly { throw Failure(status: ExitStatus.noPermission, message: "\(InertText.path(target.label)) is readonly = yes; nothing was written") }
        if let remote = target.remote {
            let bytes = try refusing(remote.shown) { () throws(CalendarEdit.Refusal) in
                try EventWrite.adding(event, uid: uid, stamp: stamp, zone: zone, to: [])
            }
            try RemoteWrite.send(bytes, file: RemoteCache.fileName(uid + ".ics"), uid: uid, in: remote, isNew: true)
            return
        }
        if target.isDirectory {
            // A vdir: one new file, named from the UID, never over another.
            let path = PathText.join(target.path, uid + ".ics")
            try checkWritable(target.path)
            let bytes = try refusing(path) { () throws(CalendarEdit.Refusal) in
                try EventWrite.adding(event, uid: uid, stamp: stamp, zone: zone, to: [])
            }
            try Platform.withLock(on: target.lockPath) {
                try Platform.writeCalendar(bytes, to: path, replacing: false, mode: 0o644)
            }
            return
        }
        try checkWritable(target.path)
        _ = try rewrite(target, creating: true) { data throws(CalendarEdit.Refusal) in
            try EventWrite.adding(event, uid: uid, stamp: stamp, zone: zone, to: data)
        }
    }

    /// Finds the UID `typed` names (`InertText.uidCandidates`: as `--agenda --uid` prints
    /// it, escapes undone, else as typed) in the writable calendars and changes the one file
    /// that holds it.
    /// - returns: the path of the file changed, and the UID found.
    static func update(_ typed: String, target: String?, calendars configured: [CalendarSource], searchPaths: [String],
                       _ change: @escaping (String, [UInt8]) throws(CalendarEdit.Refusal) -> [UInt8]?) throws -> (String, String) {
        let calendars = try writable(target, calendars: configured, searchPaths: searchPaths)
        var uid = typed
        var holders: [(Target, String)] = []
        for candidate in InertText.uidCandidates(typed) where holders.isEmpty {
            uid = candidate
            for calendar in calendars {
                let files = calendar.isDirectory ? ((try? EventRun.files(of: calendar.path)) ?? []) : [calendar.path]
                // Regular files only: a FIFO is neither read (its writer's bytes are not ours
                // to take) nor waited for.
                for file in files {
                    guard case .success(let data) = Platform.readBounded(path: file, limit: InputLimits.fileBytes, regularOnly: true),
                          !ICalLayout(data).components(uid: candidate).isEmpty else { continue }
                    holders.append((calendar, file))
                }
            }
        }
        let shown = InertText.uid(uid)
        guard var (calendar, file) = holders.first else {
            let searched = calendars.map { InertText.path($0.path) }.joined(separator: ", ")
            throw Failure(status: ExitStatus.failure,
                          message: "no event with UID '\(InertText.uid(InertText.uidCandidates(typed)[0]))' in a writable calendar"
                              + (searched.isEmpty ? " (there is none yet: infcal add makes one)" : " (searched \(searched))"))
        }
        if holders.allSatisfy(\.0.readonly) {
            throw Failure(status: ExitStatus.noPermission, message: "the event \(shown) is in \(InertText.path(calendar.label)), which is readonly = yes; nothing was written")
        }
        holders.removeAll(where: \.0.readonly)
        let places = Set(holders.map(\.0.label))
        if places.count > 1 {
            throw Failure(status: ExitStatus.usage,
                          message: "the UID '\(shown)' is in several calendars (\(places.sorted().map(InertText.path).joined(separator: ", "))): name one with --to")
        }
        (calendar, file) = holders[0]
        let found = uid
        if let remote = calendar.remote {
            try sendChange(found, file: file, in: remote) { data throws(CalendarEdit.Refusal) in try change(found, data) }
            return (remote.name, found)
        }
        try checkWritable(file)
        let changed = try rewrite(Target(path: file, isDirectory: false), lock: calendar.lockPath, creating: false, removesEmpty: calendar.isDirectory) { data throws(CalendarEdit.Refusal) in
            try change(found, data)
        }
        guard changed else {
            throw Failure(status: ExitStatus.failure, message: "the event \(shown) went from \(InertText.path(file)) while infcal read it")
        }
        return (file, found)
    }

    /// The change of an event of a CalDAV calendar: its bytes in the copy changed as a file's
    /// are, then sent (removed when no component is left), guarded by the copy's ETag.
    static func sendChange(_ uid: String, file: String, in remote: RemoteWrite.Collection,
                           _ change: ([UInt8]) throws(CalendarEdit.Refusal) -> [UInt8]?) throws {
        let data: [UInt8]
        switch Platform.readFile(file) {
        case .success(let bytes): data = bytes
        case .failure(let error):
            throw Failure(status: ExitStatus.noInput, message: "cannot read '\(InertText.path(file))': \(Platform.describe(errno: error.code))")
        }
        guard let new = try refusing(remote.name, { () throws(CalendarEdit.Refusal) in try change(data) }) else {
            throw Failure(status: ExitStatus.failure, message: "the event \(InertText.uid(uid)) went from \(InertText.path(remote.shown)) while infcal read it")
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let keeps = ICalLayout(new).hasItems
        try RemoteWrite.send(keeps ? new : nil, file: name, uid: uid, in: remote, isNew: false)
    }

    /// The read-modify-write of one file under the lock: read, change, and write unless the
    /// file changed meanwhile (then read it again). A vdir item left without events is removed
    /// (`removesEmpty`).
    /// - returns: false when `change` found nothing to change.
    static func rewrite(_ target: Target, lock: String? = nil, creating: Bool, removesEmpty: Bool = false,
                        _ change: ([UInt8]) throws(CalendarEdit.Refusal) -> [UInt8]?) throws -> Bool {
        // Looked at before the lock file is made beside it: a FIFO or a device is refused here.
        _ = try place(target.path)
        return try Platform.withLock(on: lock ?? target.lockPath) {
            for _ in 0..<20 {
                let before = Platform.fileVersion(target.path)
                var data: [UInt8] = []
                if before != nil || !creating {
                    switch Platform.readFile(target.path) {
                    case .success(let bytes): data = bytes
                    case .failure(let error):
                        throw Failure(status: ExitStatus.noInput, message: "cannot read '\(InertText.path(target.path))': \(Platform.describe(errno: error.code))")
                    }
                }
                guard let new = try refusing(target.path, { () throws(CalendarEdit.Refusal) in try change(data) }) else { return false }
                // Another program (one that takes no lock) wrote it meanwhile: start again.
                guard Platform.fileVersion(target.path) == before else { continue }
                if removesEmpty, !ICalLayout(new).hasItems {
                    try Platform.removeDurably(target.path)
                } else {
                    try Platform.writeCalendar(new, to: target.path)
                }
                return true
            }
            throw Failure(status: ExitStatus.failure, message: "\(InertText.path(target.path)) kept changing while infcal wrote it; nothing was written")
        }
    }

    static func refusing<T>(_ path: String, _ body: () throws(CalendarEdit.Refusal) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            throw Failure(status: ExitStatus.failure, message: "\(InertText.path(path)): \(error.message); nothing was written")
        }
    }

    // MARK: Output

    /// The event as the agenda prints its first occurrence, a tab, and its UID.
    static func agendaLine(_ event: NewEvent, uid: String, zone: WritingZone, locale: Locale?) -> String {
        func shown(_ time: ICalTime) -> Int {
            switch time.form {
            case .date, .floating, .zoned: return time.seconds
            case .utc: return time.seconds + zone.offset(time.seconds)
            }
        }
        var occurrence = Occurrence(summary: event.summary, calendarName: nil, isAllDay: event.start.isDate,
                                    start: shown(event.start), end: shown(event.end))
        occurrence.uid = uid
        var printer = AgendaPrinter(locale: locale, width: nil)
        printer.showsUID = true
        return printer.line(occurrence)
    }
}
