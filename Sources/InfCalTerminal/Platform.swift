#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalKit

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
        /// ENODEV: `readRegularFile`'s "not a regular file".
        public var isNotRegular: Bool { code == ENODEV }
    }

    /// The bytes of the file at `path` (or of standard input for `-`), or the errno that
    /// stopped the reading. A directory is EISDIR.
    public static func readFile(_ path: String) -> Result<[UInt8], SystemError> {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return .failure(SystemError(code: EISDIR)) }
        var bytes: [UInt8] = []
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(code: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them and one more (so that
    /// a larger file is seen to be larger), or the errno that stopped the reading: EISDIR for
    /// a directory, ENODEV for anything else that is not a regular file (a FIFO, a device),
    /// which is opened without waiting for a writer and not read.
    public static func readRegularFile(_ path: String, limit: Int) -> Result<[UInt8], SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(SystemError(code: errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(SystemError(code: EISDIR)) }
        if (info.st_mode & S_IFMT) != S_IFREG { return .failure(SystemError(code: ENODEV)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(code: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
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

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
