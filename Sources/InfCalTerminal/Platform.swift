#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    public static func environment(_ names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    // MARK: Files

    /// A failed system call's errno.
    public struct SystemError: Error {
        public let code: Int32
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
