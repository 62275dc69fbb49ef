import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The parsed-event cache on disk: one file a source (a calendar file, or a directory of them
/// as one), in `$XDG_CACHE_HOME/infcal` (default `~/.cache/infcal`), holding what reading it
/// gave (`EventCacheFormat`). A cache is used only when it is intact, of this format version
/// and byte order, built from this source, and every file and directory it was built from has
/// the same device, inode, size and modification time; anything else is read afresh and the
/// cache written again. A cache that cannot be written (a read-only or full disk) costs only
/// speed, and says so only with `--strict`.
struct EventCache {
    /// The directory the caches live in.
    let directory: String
    /// Whether a cache that cannot be written is reported (on standard error, not an error).
    let reportsFailures: Bool
    /// Whether new caches are written as the run ends, by a copy of the process that goes on
    /// after it (`store(_:)`): for a run that prints and ends, whose output and end then wait
    /// for none of it; the pager writes them while it goes on.
    let writesAtExit: Bool

    /// The most the cache directory holds: when a write takes it over, the caches used least
    /// recently go first (the modification time marks a use; see `load`).
    static let sizeLimit = 256 << 20
    /// A source changed this close to now (seconds) is not cached: a file system's clock
    /// ticks coarsely, and a change within the same tick after reading would keep the same
    /// identity.
    static let settlingTime = 2
    /// A cache used this long ago (seconds) has its modification time renewed when used again.
    static let renewal = 3600

    /// The cache of a run with `environment`, or nil when caching is off (`--no-cache`) or
    /// there is no home for it (neither XDG_CACHE_HOME, absolute, nor HOME is set).
    init?(environment: RunEnvironment, enabled: Bool, reportsFailures: Bool, writesAtExit: Bool = false) {
        guard enabled else { return nil }
        if let base = environment.variable("XDG_CACHE_HOME"), base.hasPrefix("/") {
            directory = base + "/infcal"
        } else if let home = environment.variable("HOME"), home.hasPrefix("/") {
            directory = home + "/.cache/infcal"
        } else {
            return nil
        }
        self.reportsFailures = reportsFailures
        self.writesAtExit = writesAtExit
    }

    /// The cache file of the source at absolute path `source`.
    func path(of source: String) -> String {
        // FNV-1a of the path: a name of fixed length; the cache itself records the whole path.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in source.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return directory + "/events-" + String(repeating: "0", count: 16 - hex.count) + hex + ".cache"
    }

    /// The files of `source` from its cache, with the events that can occur in `window`
    /// (display wall-clock civil seconds; nil: all), as files of calendar number `calendar`,
    /// their locations and descriptions left empty unless `details`; nil when there is no
    /// usable cache.
    func load(_ source: String, calendar: Int, window: Range<Int>?, details: Bool = true) -> [EventRun.SourceFile]? {
        let absolute = Platform.absolutePath(source)
        let file = path(of: absolute)
        if let files = load(source, absolute: absolute, file: file, calendar: calendar, window: window, details: details) { return files }
        // A run just before this one may be writing this cache (the process it left it to):
        // waiting for it costs less than reading the source again.
        guard Platform.waitForNewFile(of: file, timeout: Self.writerWait) else { return nil }
        return load(source, absolute: absolute, file: file, calendar: calendar, window: window, details: details)
    }

    /// The fewest events whose caches a run leaves to a copy of itself (`writeLeftBehind`).
    static let detachedEvents = 2_000

    /// The longest a run waits for another process writing the cache it needs (seconds).
    static let writerWait = 5.0

    /// The files of `source` (at `absolute`) from its cache `file`, as `load(_:calendar:window:details:)`.
    private func load(_ source: String, absolute: String, file: String, calendar: Int, window: Range<Int>?,
                      details: Bool) -> [EventRun.SourceFile]? {
        guard let cached = Platform.cacheFile(file), let contents = EventCacheFormat.open(cached.bytes, load: cached.load),
              contents.source == absolute, Platform.identitiesMatch(contents.key, under: absolute),
              let files = EventCacheFormat.decode(contents, window: window, details: details) else { return nil }
        if cached.identity.seconds < Platform.secondsNow() - Self.renewal { Platform.touch(file) }
        return files.map { EventRun.SourceFile(name: Self.name(source, $0.name), file: $0.file, calendar: calendar) }
    }

    /// What a cache of `source` is checked against, taken before its files are read: the
    /// directories below it (for a directory) and `paths`, its files; nil when one cannot be
    /// looked at or lies outside it.
    func key(of source: String, paths: [String]) -> [CacheKeyEntry]? {
        guard let (identity, isDirectory) = Platform.identity(of: source) else { return nil }
        guard isDirectory else { return [CacheKeyEntry(path: "", isDirectory: false, identity: identity)] }
        var key = Platform.directoryTree(source)
        guard key.first?.path == "" else { return nil }
        key.reserveCapacity(key.count + paths.count)
        for path in paths {
            guard let relative = Self.relative(path, to: source), !relative.isEmpty,
                  let (found, isDirectory) = Platform.identity(of: path), !isDirectory else { return nil }
            key.append(CacheKeyEntry(path: relative, isDirectory: false, identity: found))
        }
        return key
    }

    /// A source read afresh whose cache is to be written: its path, what the cache is to be
    /// checked against (`key(of:paths:)`, taken before its files were read), and what reading
    /// its files gave.
    struct Fresh {
        let source: String
        let key: [CacheKeyEntry]
        let files: [EventRun.SourceFile]
    }

    /// Writes the caches of `sources`; a failure costs only speed (and is reported with
    /// `--strict`). A source changed in the last `settlingTime` seconds is left out. With
    /// `writesAtExit` (and no failure to report), they are written as the run ends
    /// (`writeLeftBehind`); otherwise each while the run goes on (`store(_:years:)`).
    func store(_ sources: [Fresh]) {
        let now = Platform.secondsNow()
        var entries: [Entry] = []
        for fresh in sources {
            guard !fresh.key.contains(where: { $0.identity.seconds >= now - Self.settlingTime }) else { continue }
            var named: [(name: String, file: EventFile)] = []
            named.reserveCapacity(fresh.files.count)
            for file in fresh.files {
                guard let relative = Self.relative(file.name, to: fresh.source) else { break }
                named.append((relative, file.file))
            }
            guard named.count == fresh.files.count else { continue }
            entries.append(Entry(absolute: Platform.absolutePath(fresh.source), key: fresh.key, files: named))
        }
        guard !entries.isEmpty else { return }
        let year = CivilTime.date(ofDay: CivilTime.day(ofSeconds: now)).year
        let years = EventCacheFormat.occurrenceYears(around: year)
        if writesAtExit, !reportsFailures {
            Platform.atExit { [self] in writeLeftBehind(entries, years: years) }
        } else {
            for entry in entries { store(entry, years: years) }
        }
    }

    /// A source's cache to be written: the source's absolute path, its key, and its files by
    /// their names below it.
    struct Entry {
        let absolute: String
        let key: [CacheKeyEntry]
        let files: [(name: String, file: EventFile)]
    }

    /// Writes the caches of `entries` (of the occurrences of `years`) as the run ends, its
    /// output written: by a copy of the process that goes on after it (`Platform.detach`), so
    /// that the run's end waits for none of it (as git leaves `gc --auto` to a detached
    /// process). Their new files are made first, here, so that a cache being written is seen
    /// as such (its temporary file) from before the run ends until it is in place. When no
    /// copy can be started, or the caches are small (fewer than `detachedEvents` events),
    /// they are written here.
    private func writeLeftBehind(_ entries: [Entry], years: Range<Int>) {
        guard Platform.makeDirectories(directory) == nil else { return }
        var files: [(entry: Entry, file: Platform.NewFile)] = []
        for entry in entries {
            guard let file = try? Platform.NewFile(beside: path(of: entry.absolute), mode: 0o600) else { continue }
            files.append((entry, file))
        }
        guard !files.isEmpty else { return }
        let write = { [self] in
            for (entry, file) in files {
                let layout = EventCacheFormat.layout(source: entry.absolute, key: entry.key, files: entry.files, occurrenceYears: years)
                try? Self.write(layout, into: file)
            }
            prune()
        }
        // A small cache is written at once, as its writing costs less than the copy: the run
        // ends with it in place.
        let events = entries.reduce(0) { sum, entry in entry.files.reduce(sum) { $0 + $1.file.events.count } }
        if events >= Self.detachedEvents, Platform.detach(keeping: files.map(\.file.descriptor), write) {
            for (_, file) in files { file.handOn() }
        } else {
            write()
        }
    }

    /// Writes the cache of `entry` (of the occurrences of `years`) while the run goes on.
    /// What looks at the events is done here; the rest (the details, the index, the writing
    /// of the file) goes on on another thread, unless a failure is to be reported, where it
    /// would be.
    private func store(_ entry: Entry, years: Range<Int>) {
        let layout: CacheLayout
        // The table of occurrences, the longest part, and the zones' changes of offset are
        // built on another thread, from copies, while this one makes the records; on a single
        // processor that would only add the copies.
        if Platform.hasSecondProcessor, let work = EventCacheFormat.sideWork(of: entry.files, years: years) {
            let side = Platform.computeInBackground { EventCacheFormat.results(of: work) }
            layout = EventCacheFormat.layout(source: entry.absolute, key: entry.key, files: entry.files) { side.result() ?? .nothing }
        } else {
            layout = EventCacheFormat.layout(source: entry.absolute, key: entry.key, files: entry.files, occurrenceYears: years)
        }
        let file = path(of: entry.absolute)
        let write: @Sendable () -> Void = { [self] in self.write(layout, to: file) }
        if reportsFailures { write() } else { Platform.inBackground(write) }
    }

    /// Writes the cache `layout` to `file`, then prunes the directory.
    private func write(_ layout: CacheLayout, to file: String) {
        do {
            if let error = Platform.makeDirectories(directory) {
                throw Platform.WriteFailure(path: directory, step: "create the directory", code: error.code)
            }
            try Self.write(layout, into: Platform.NewFile(beside: file, mode: 0o600))
        } catch {
            if reportsFailures { InfCal.fail("cannot write the event cache: \(error); events are read afresh", status: 0) }
            return
        }
        prune()
    }

    /// Encodes `layout` straight into the new file `file`, piece by piece (the cache is never
    /// whole in memory), and puts it in place; on a failure it is removed.
    private static func write(_ layout: CacheLayout, into file: Platform.NewFile) throws {
        defer { file.discard() }
        guard try EventCacheFormat.encode(layout, into: { try Platform.writeAll(file.descriptor, $0, at: $1) }) else { throw LayoutFailure() }
        try file.commit(durable: false)
    }

    /// A cache whose records came out other than their planned places: not written.
    struct LayoutFailure: Error, CustomStringConvertible {
        var description: String { "its records came out other than planned" }
    }

    /// Keeps the directory under `sizeLimit`, least recently used caches out first, and
    /// removes temporary files that a killed writer left (an hour old).
    func prune() {
        let now = Platform.secondsNow()
        var caches: [(name: String, size: Int, modified: Int)] = []
        for entry in Platform.files(in: directory) {
            if entry.name.hasSuffix(".tmp") {
                if entry.modified < now - 3600 { Platform.remove(directory + "/" + entry.name) }
            } else if entry.name.hasPrefix("events-"), entry.name.hasSuffix(".cache") {
                caches.append(entry)
            }
        }
        var total = caches.reduce(0) { $0 + $1.size }
        guard total > Self.sizeLimit else { return }
        for entry in caches.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) where total > Self.sizeLimit {
            if Platform.remove(directory + "/" + entry.name) { total -= entry.size }
        }
    }

    /// `path` below `source` ("" for `source` itself), or nil when it is not below it.
    static func relative(_ path: String, to source: String) -> String? {
        PathText.relative(path, to: source)
    }

    /// The name of the file `relative` below `source`, as reading the source names it.
    static func name(_ source: String, _ relative: String) -> String {
        if relative.isEmpty { return source }
        return PathText.join(source, relative)
    }
}
