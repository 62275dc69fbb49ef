#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalEvents

/// glibc's timerfd_create(2) and timerfd_settime(2), which its Swift module does not declare
/// (sys/timerfd.h).
@_silgen_name("timerfd_create") private func timerfdCreate(_ clock: Int32, _ flags: Int32) -> Int32
@_silgen_name("timerfd_settime")
private func timerfdSetTime(_ fd: Int32, _ flags: Int32, _ new: UnsafePointer<itimerspec>, _ old: UnsafeMutablePointer<itimerspec>?) -> Int32

/// The libc calls of a process that waits for alarms (`infcal remind --watch`): a timer on the
/// wall clock that notices when the clock is set, the changes of calendar files, and one wait
/// for either or a signal, with no wakeup in between. Like `Platform.swift`, the only place
/// they live.
extension Platform {
    // MARK: A timer on the wall clock

    /// The wall clock now, as the timer reads it (clock_gettime(2), CLOCK_REALTIME): seconds
    /// since 1970 and nanoseconds. time(2) (`secondsNow`) reads a coarser clock, which can
    /// still say the second before the one a timer just fired at.
    public static func wallClock() -> (seconds: Int, nanoseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int(now.tv_sec), Int(now.tv_nsec))
    }

    /// A timer that fires at an instant of the wall clock (CLOCK_REALTIME, an absolute time),
    /// and says so when the clock is set while it waits (TFD_TIMER_CANCEL_ON_SET): a change of
    /// the time by hand or by NTP, and the jump when the machine resumes from suspend. Its
    /// `descriptor` is for a poll (`Watch`); it becomes readable at either.
    public final class WallClockTimer {
        /// The timerfd; readable when the timer fired or the clock was set.
        public let descriptor: Int32

        /// What the timer says once its descriptor is readable (or not).
        public enum Outcome: Equatable, Sendable {
            /// The instant it was set for has come.
            case fired
            /// The wall clock was set (or the machine resumed) before that: look at the clock
            /// again, and set the timer again.
            case clockChanged
            /// Neither (nothing to read).
            case nothing
        }

        private static let absoluteTime: Int32 = 1 << 0 // TFD_TIMER_ABSTIME
        private static let cancelOnSet: Int32 = 1 << 1 // TFD_TIMER_CANCEL_ON_SET

        /// A disarmed timer, or the errno of timerfd_create.
        public init() throws {
            let fd = timerfdCreate(CLOCK_REALTIME, Int32(O_CLOEXEC | O_NONBLOCK))
            guard fd >= 0 else { throw SystemError(code: errno) }
            descriptor = fd
        }

        deinit { close(descriptor) }

        /// Sets the timer to fire at `seconds` (since 1970, UTC) and `nanoseconds`; an instant
        /// already past fires at once. Any earlier setting is replaced. Once it fired, read
        /// the time with `wallClock()`, which is never before the instant.
        /// - throws: `SystemError` with the errno of timerfd_settime.
        public func arm(at seconds: Int, nanoseconds: Int = 0) throws {
            // 0 would disarm: the first instant after the epoch stands for it (long past anyway).
            let instant = seconds <= 0 && nanoseconds <= 0 ? timespec(tv_sec: 0, tv_nsec: 1) : timespec(tv_sec: seconds, tv_nsec: nanoseconds)
            var setting = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0), it_value: instant)
            guard timerfdSetTime(descriptor, Self.absoluteTime | Self.cancelOnSet, &setting, nil) == 0 else {
                throw SystemError(code: errno)
            }
        }

        /// Stops the timer: it fires no more until armed again.
        public func disarm() throws {
            var setting = itimerspec()
            guard timerfdSetTime(descriptor, 0, &setting, nil) == 0 else { throw SystemError(code: errno) }
        }

        /// Reads what the descriptor holds (without waiting): it fired, the clock was set
        /// (read(2) fails with ECANCELED), or nothing yet.
        public func outcome() -> Outcome {
            var expirations: UInt64 = 0
            while true {
                let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
                if count == MemoryLayout<UInt64>.size { return expirations > 0 ? .fired : .nothing }
                if count < 0, errno == EINTR { continue }
                return count < 0 && errno == ECANCELED ? .clockChanged : .nothing
            }
        }
    }

    // MARK: Changes of calendar files

    /// The changes to calendar files and directories, through inotify. A calendar file is
    /// replaced by a rename (an atomic write, a sync tool), which a watch on the file itself
    /// would not follow: its directory is watched, and its name looked for. A directory (a
    /// vdir) is watched for any change in it.
    public final class FileWatcher {
        /// The inotify descriptor; readable when a change came.
        public let descriptor: Int32
        /// Each watch: its directory, and the names in it that matter with the path reported
        /// for each (nil: anything in it, reported as the directory).
        private var watched: [Int32: (directory: String, names: [String: String]?)] = [:]

        /// The changes that matter to a calendar: a file written and closed, made, moved in
        /// or out, removed, or its times changed (`touch`); the directory itself moved or removed.
        private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                                         | IN_DELETE_SELF | IN_MOVE_SELF)

        /// A watcher of nothing yet, or the errno of inotify_init1.
        public init() throws {
            let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard fd >= 0 else { throw SystemError(code: errno) }
            descriptor = fd
        }

        deinit { close(descriptor) }

        /// Watches each of `files` (through its directory, and, for a symbolic link, its
        /// target's too) and each of `directories` (anything in it).
        /// - returns: the paths that cannot be watched, each with the errno (a directory that
        ///   is not there, too many watches).
        @discardableResult
        public func watch(files: [String] = [], directories: [String] = []) -> [(path: String, error: SystemError)] {
            var failed: [(path: String, error: SystemError)] = []
            func add(_ directory: String, name: String?, for path: String) {
                let wd = inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR))
                guard wd >= 0 else {
                    failed.append((path, SystemError(code: errno)))
                    return
                }
                let known = watched[wd]
                var names: [String: String]?
                if let name {
                    // A directory watched whole stays so; else one more name.
                    names = known == nil ? [name: path] : known?.names?.merging([name: path]) { first, _ in first }
                }
                watched[wd] = (known?.directory ?? directory, names)
            }
            for file in files {
                add(Platform.directory(of: file), name: Self.lastComponent(file), for: file)
                if let target = Self.resolved(file), target != file {
                    add(Platform.directory(of: target), name: Self.lastComponent(target), for: file)
                }
            }
            for directory in directories { add(directory, name: nil, for: directory) }
            return failed
        }

        /// The watched paths changed since the last call, read from what the kernel queued
        /// (without waiting): a file's path as given to `watch` (for a link, whether the link
        /// or its target changed), or a directory's path; `overflowed` when the kernel dropped changes (then anything may
        /// have changed). A directory removed or moved away is reported, and no longer watched.
        public func changes() -> (paths: Set<String>, overflowed: Bool) {
            var paths = Set<String>()
            var overflowed = false
            let size = 64 << 10
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
            defer { buffer.deallocate() }
            while true {
                let count = read(descriptor, buffer, size)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let length = Int(event.len)
                    guard offset + header + length <= count else { break }
                    let name = length > 0 ? String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self)) : ""
                    offset += header + length
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
                    guard let entry = watched[event.wd] else { continue }
                    if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        // The directory itself went: every name in it changed.
                        if let names = entry.names { paths.formUnion(names.values) } else { paths.insert(entry.directory) }
                        if event.mask & UInt32(IN_IGNORED) != 0 { watched[event.wd] = nil }
                        continue
                    }
                    if let names = entry.names {
                        if let path = names[name] { paths.insert(path) }
                    } else {
                        paths.insert(entry.directory)
                    }
                }
            }
            return (paths, overflowed)
        }

        private static func lastComponent(_ path: String) -> String {
            var trimmed = Substring(path)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            return trimmed.split(separator: "/").last.map(String.init) ?? String(trimmed)
        }

        /// The path a symbolic link at `path` leads to (realpath(3)); nil when it is none or
        /// leads nowhere.
        private static func resolved(_ path: String) -> String? {
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        }
    }

    // MARK: One wait

    /// What woke a wait (`waitForWatch`): the timer's outcome (nil when it did not wake it),
    /// the watched paths changed, whether changes were dropped, and the signals that came.
    public struct Wake: Sendable {
        public var timer: WallClockTimer.Outcome?
        public var changed: Set<String> = []
        public var overflowed = false
        public var signals: [Signal] = []
    }

    /// Waits, with no timeout and so no wakeup of its own, until the timer fires or the clock
    /// is set, a watched file changes, or a signal caught by `catchSignals` arrives on
    /// `signalPipe`; each is optional. Reads what woke it.
    /// - throws: `WriteError.failed` with errno when poll itself fails.
    public static func waitForWatch(timer: WallClockTimer?, files: FileWatcher?, signalPipe: Int32?) throws -> Wake {
        let descriptors = [timer?.descriptor, files?.descriptor, signalPipe].compactMap { $0 }
        var wake = Wake()
        while true {
            let ready = try waitForInput(descriptors, timeout: -1)
            if let timer, ready.contains(timer.descriptor) {
                let outcome = timer.outcome()
                if outcome != .nothing { wake.timer = outcome }
            }
            if let files, ready.contains(files.descriptor) {
                let found = files.changes()
                wake.changed = found.paths
                wake.overflowed = found.overflowed
            }
            if let signalPipe, ready.contains(signalPipe) { wake.signals = drainSignals(signalPipe) }
            // An interruption, or a change to a name nobody watches: wait on.
            if wake.timer != nil || !wake.changed.isEmpty || wake.overflowed || !wake.signals.isEmpty { return wake }
        }
    }

    // MARK: What was delivered

    /// Where the record of delivered alarms lives: `$XDG_STATE_HOME/infcal/`, else
    /// `~/.local/state/infcal/` (an XDG_STATE_HOME that is not an absolute path is ignored, as
    /// the XDG base directory specification says); nil when neither HOME nor it is set.
    public static func stateDirectory() -> String? {
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/infcal" }
        guard let home = variable("HOME"), !home.isEmpty else { return nil }
        return PathText.join(home, ".local/state/infcal")
    }

    /// The file of delivered alarms in `directory`.
    public static func deliveredAlarmsFile(in directory: String) -> String {
        directory + "/delivered-alarms"
    }

    /// Why the record of delivered alarms could not be used.
    public enum DeliveredAlarmsError: Error, CustomStringConvertible {
        /// It cannot be read, locked or written.
        case system(WriteFailure)
        /// Its bytes are not such a record (damaged, or of another version): left as it is.
        case damaged(String)

        public var description: String {
            switch self {
            case .system(let failure): return failure.description
            case .damaged(let path): return "'\(path)' is not a record of delivered alarms infcal can read; left as it is"
            }
        }
    }

    /// Runs `body` on the record of delivered alarms at `path`, holding a lock (`path.lock`)
    /// from before it is read until what `body` left is written (atomically, mode 0600, its
    /// directory made 0700 if missing), so that a watcher and a one-shot run never both
    /// deliver a firing. A missing record is a first run's (`DeliveredAlarms.firstRun(now:)`);
    /// firings older than `DeliveredAlarms.keptFor` are pruned before it is written.
    /// - throws: `DeliveredAlarmsError` (then nothing was written), or what `body` throws.
    public static func updateDeliveredAlarms<T>(at path: String, now: Int, _ body: (inout DeliveredAlarms) throws -> T) throws -> T {
        if let error = makeDirectories(directory(of: path)) {
            throw DeliveredAlarmsError.system(WriteFailure(path: directory(of: path), step: "make the directory", code: error.code))
        }
        do {
            return try withLock(on: path + ".lock") {
                var state = try readDeliveredAlarms(at: path) ?? .firstRun(now: now)
                let result = try body(&state)
                state.prune(now: now)
                try writeAtomically(Array(state.text.utf8), to: path, mode: 0o600)
                return result
            }
        } catch let failure as WriteFailure {
            throw DeliveredAlarmsError.system(failure)
        }
    }

    /// The record of delivered alarms at `path` as it is now, read under its lock; nil when
    /// there is none yet.
    /// - throws: `DeliveredAlarmsError`.
    public static func deliveredAlarms(at path: String) throws -> DeliveredAlarms? {
        guard isDirectory(directory(of: path)) else { return nil }
        do {
            return try withLock(on: path + ".lock") { try readDeliveredAlarms(at: path) }
        } catch let failure as WriteFailure {
            throw DeliveredAlarmsError.system(failure)
        }
    }

    /// The record at `path`, read (the caller holds its lock); nil when there is none.
    private static func readDeliveredAlarms(at path: String) throws -> DeliveredAlarms? {
        switch readBounded(path: path, limit: 16 << 20, regularOnly: true) {
        case .success(let bytes):
            guard let read = DeliveredAlarms(parsing: bytes) else { throw DeliveredAlarmsError.damaged(path) }
            return read
        case .failure(let error) where error.isMissing:
            return nil
        case .failure(let error):
            throw DeliveredAlarmsError.system(WriteFailure(path: path, step: "read", code: error.code))
        }
    }
}
