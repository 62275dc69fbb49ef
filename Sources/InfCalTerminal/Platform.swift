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

    /// Today's Gregorian date in the local zone, by localtime_r(3): it reads TZ as POSIX says
    /// (also rules such as `<+14>-14`, which Foundation's TimeZone.current ignores), and it
    /// costs a fraction of Foundation's zone and calendar at start-up.
    /// - returns: nil when the clock cannot be read or converted.
    public static func localDate() -> (year: Int, month: Int, day: Int)? {
        var now = time(nil)
        var parts = tm()
        guard now != -1, localtime_r(&now, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// The variables among `names` that are set, by getenv(3): cheaper at start-up than
    /// building the whole environment as a dictionary.
    public static func environment(_ names: [String]) -> [RunEnvironment.Variable] {
        names.compactMap { name in getenv(name).map { RunEnvironment.Variable(name: name, value: String(cString: $0)) } }
    }

    // MARK: Exit codes

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
