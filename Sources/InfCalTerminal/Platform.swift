#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// All libc access of infcal, in one place.
public enum Platform {
    // MARK: Terminal facts

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The width and height of the terminal on `fd`, or nil when it is not one or will not say.
    public static func windowSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    // MARK: Writing

    /// Why a write stopped.
    public enum WriteError: Error, Equatable {
        /// The reader went away (EPIPE): a normal end of output.
        case closed
        /// Any other failure, with errno.
        case failed(Int32)
    }

    /// Writes all of `bytes` to `fd`, retrying after interruptions and short writes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN || error == EWOULDBLOCK {
                    // A non-blocking descriptor handed to us: wait until it takes more.
                    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, -1)
                    continue
                }
                throw error == EPIPE ? WriteError.closed : WriteError.failed(error)
            }
            offset += written
        }
    }

    /// The text of an errno value, as strerror gives it.
    public static func describe(errno value: Int32) -> String {
        String(cString: strerror(value))
    }

    // MARK: Signals

    /// Makes writes to a closed pipe fail with EPIPE instead of killing the process, so that the
    /// end of the reader is seen, and reported as a normal end, where the write happens.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    // MARK: Environment

    /// The variables among `names` that are set, by getenv(3): cheaper at start-up than
    /// building the whole environment as a dictionary.
    public static func environment(_ names: [String]) -> [RunEnvironment.Variable] {
        names.compactMap { name in getenv(name).map { RunEnvironment.Variable(name: name, value: String(cString: $0)) } }
    }

    /// Sets each of `names` whose value `isAcceptable` refuses to `replacement`, by setenv(3),
    /// so that libraries that read the environment themselves (ICU reads its default locale
    /// from LC_ALL, LC_MESSAGES and LANG) see the replacement too. Call it before they start.
    public static func replaceEnvironment(_ names: [String], unless isAcceptable: (String) -> Bool, with replacement: String) {
        for name in names {
            if let value = getenv(name), !isAcceptable(String(cString: value)) { setenv(name, replacement, 1) }
        }
    }

    /// Removes each of `names` whose value `isAcceptable` refuses (given the value and the
    /// name), by unsetenv(3), and then starts this program again in its place with the same
    /// arguments. Foundation's time zone code reads a copy of the environment made when it was
    /// loaded, before `main`, so only a new process sees the variable unset.
    /// - returns: whether a variable was removed (the new start failed, when this returns true).
    @discardableResult
    public static func restartWithout(_ names: [String], unless isAcceptable: (String, String) -> Bool) -> Bool {
        var removed = false
        for name in names {
            if let value = getenv(name), !isAcceptable(String(cString: value), name) {
                unsetenv(name)
                removed = true
            }
        }
        if removed { execv("/proc/self/exe", CommandLine.unsafeArgv) }
        return removed
    }

    // MARK: Local time

    /// The local date at `seconds` since 1970 (default: now), as the C library sees it: `TZ` in
    /// every form it accepts (zone names, `:name`, POSIX rules such as `<+14>-14` or
    /// `EST5EDT,M3.2.0,M11.1.0`), as `date` does; Foundation's `TimeZone.current` ignores rules.
    /// - returns: nil when the C library cannot break the time down.
    public static func localDate(at seconds: Int? = nil) -> (year: Int, month: Int, day: Int)? {
        tzset()
        var time = time_t(seconds ?? Int(Glibc.time(nil)))
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// The first second of the local day after the one `seconds` (since 1970) falls in, as the
    /// C library counts days (a midnight that a clock change skips becomes the next time there
    /// is); nil when it cannot say.
    public static func nextLocalDay(after seconds: Int) -> Int? {
        tzset()
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        parts.tm_mday += 1
        (parts.tm_hour, parts.tm_min, parts.tm_sec, parts.tm_isdst) = (0, 0, 0, -1)
        let next = mktime(&parts)
        return next == -1 || next <= time ? nil : Int(next)
    }

    // MARK: Files

    /// A failed system call's errno.
    public struct SystemError: Error {
        public let code: Int32

        /// ENOENT: nothing at the path.
        public var isMissing: Bool { code == ENOENT }
        /// EISDIR: a directory where a file was wanted.
        public var isDirectory: Bool { code == EISDIR }
        /// `readBounded`'s "not a regular file".
        public var isNotRegular: Bool { code == ReadLimit.notRegular }
        /// `readBounded`'s "more bytes than the limit".
        public var isTooLarge: Bool { code == ReadLimit.tooLarge }
    }

    /// The bytes of the file at `path` (or of standard input for `-`), at most
    /// `InputLimits.fileBytes` of them (`readBounded`).
    public static func readFile(_ path: String) -> Result<[UInt8], SystemError> {
        readBounded(path: path, limit: InputLimits.fileBytes)
    }

    /// The bytes of the file at `path` (or of standard input for `-`), at most `limit` of them,
    /// read incrementally, or the errno that stopped the reading: EISDIR for a directory,
    /// EFBIG for more than `limit` bytes (a regular file's size is known before reading, so a
    /// sparse file costs nothing; a device or a pipe is read to one byte past `limit`); with
    /// `regularOnly`, ENODEV for anything that is not a regular file (a FIFO, a socket, a
    /// device), which is opened without waiting for a writer and not read. A FIFO named
    /// without `regularOnly` is read once a writer comes (`--events <(curl ...)`), and is
    /// ETIMEDOUT when none comes within `writerWait` seconds.
    public static func readBounded(path: String, limit: Int, regularOnly: Bool = false,
                                   writerWait: Int32 = 10) -> Result<[UInt8], SystemError> {
        if regularOnly {
            // Looked at before it is opened: opening a device can do things (rewind a tape).
            var info = stat()
            guard stat(path, &info) == 0 else { return .failure(SystemError(code: errno)) }
            if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(SystemError(code: EISDIR)) }
            if (info.st_mode & S_IFMT) != S_IFREG { return .failure(SystemError(code: ENODEV)) }
        }
        // Non-blocking, so that opening a FIFO does not wait for a writer.
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(SystemError(code: errno)) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { return .failure(SystemError(code: EISDIR)) }
        if regularOnly, kind != S_IFREG { return .failure(SystemError(code: ENODEV)) }
        if kind == S_IFREG, info.st_size > limit { return .failure(SystemError(code: EFBIG)) }
        if kind == S_IFIFO, fd != 0 {
            // Wait (boundedly) for a writer's first bytes or its end; then read as usual.
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var ready: Int32 = -1
            while ready < 0 {
                ready = poll(&entry, 1, writerWait * 1000)
                if ready < 0, errno != EINTR { return .failure(SystemError(code: errno)) }
            }
            if ready == 0 { return .failure(SystemError(code: ETIMEDOUT)) }
        }
        if fd != 0 {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
        var bytes: [UInt8] = []
        if kind == S_IFREG, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // Standard input handed over non-blocking: wait until it has more.
                    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&entry, 1, -1)
                    continue
                }
                return .failure(SystemError(code: errno))
            }
            if count == 0 { break }
            if bytes.count + count > limit { return .failure(SystemError(code: EFBIG)) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
    }

    /// The errno values `readBounded` gives for its own reasons.
    public enum ReadLimit {
        /// More bytes than the limit.
        public static let tooLarge = EFBIG
        /// Not a regular file, where only those are read.
        public static let notRegular = ENODEV
        /// A FIFO nobody wrote to in time.
        public static let noWriter = ETIMEDOUT
    }

    /// What kind of file `path` is, following symbolic links: "a FIFO", "a socket", "a
    /// character device", "a block device", "a directory", "a regular file"; nil with the
    /// errno when stat(2) fails (ELOOP for a looping link, ENOENT for a dangling one).
    public static func fileKind(_ path: String) -> Result<String, SystemError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(SystemError(code: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return .success("a FIFO")
        case S_IFSOCK: return .success("a socket")
        case S_IFCHR: return .success("a character device")
        case S_IFBLK: return .success("a block device")
        case S_IFDIR: return .success("a directory")
        default: return .success("a regular file")
        }
    }

    /// The names in the directory at `path` (without `.` and `..`), each with whether it is
    /// itself a directory (not following symbolic links, so that a link cannot make a walk
    /// loop), or the errno of opendir(3).
    public static func directoryEntries(_ path: String) -> Result<[(name: String, isDirectory: Bool)], SystemError> {
        guard let directory = opendir(path) else { return .failure(SystemError(code: errno)) }
        defer { closedir(directory) }
        var entries: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.baseAddress.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            }
            if name == "." || name == ".." { continue }
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                let full = PathText.join(path, name)
                isDirectory = lstat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            entries.append((name, isDirectory))
        }
        return .success(entries)
    }

    /// Whether `path` names a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    // MARK: Time zone

    /// The local zone's offset from UTC at `seconds` after the epoch, as localtime_r(3) gives
    /// it: TZ read as POSIX defines it (`<+14>-14` included).
    public static func localOffset(atUTC seconds: Int) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// Reads TZ once, before `localOffset` is used.
    public static func readTimeZone() {
        tzset()
    }

    // MARK: Exit codes

    /// Work for the end of the run (`atExit`), in the order it was given.
    nonisolated(unsafe) private static var exitWork: [() -> Void] = []

    /// Has `work` done as the process ends by `exit` (not by a signal), its output written:
    /// the new event caches, left to a copy of the process (`detach`).
    public static func atExit(_ work: @escaping () -> Void) {
        exitWork.append(work)
    }

    /// Ends the process with `status`, once the work left to a thread (a cache being
    /// written) has ended and the work for the end (`atExit`) is done.
    public static func exit(_ status: Int32) -> Never {
        finishBackgroundWork()
        let work = exitWork
        exitWork = []
        // The output is flushed first, so that a copy of the process the work makes holds none.
        if !work.isEmpty { fflush(nil) }
        for item in work { item() }
        Glibc.exit(status)
    }
}
