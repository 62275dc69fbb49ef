#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls behind the caches: directories and the wall clock (atomic replacement is
/// `writeAtomically`, in Platform+Writes). Like `Platform.swift`, the only place they live.
extension Platform {
    // MARK: Atomic files

    /// Makes the directory `path` and those above it that are missing (mode 0700: a cache of
    /// someone's calendars is theirs alone).
    /// - returns: nil when it exists afterwards, else the errno.
    @discardableResult
    public static func makeDirectories(_ path: String) -> SystemError? {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { return SystemError(code: errno) }
        }
        return isDirectory(path) ? nil : SystemError(code: ENOTDIR)
    }

    /// The names in the directory `path` (without `.` and `..`), sorted; empty when it cannot be read.
    public static func entryNames(_ path: String) -> [String] {
        ((try? directoryEntries(path).get()) ?? []).map(\.name).sorted()
    }

    /// Removes the directory `path` and everything in it (files and directories only).
    public static func removeTree(_ path: String) {
        for name in entryNames(path) {
            let inner = path + "/" + name
            if isDirectory(inner) { removeTree(inner) } else { _ = unlink(inner) }
        }
        _ = rmdir(path)
    }

    // MARK: The wall clock

    /// Seconds since 1970 now.
    public static func secondsNow() -> Int {
        Int(Glibc.time(nil))
    }

    /// `seconds` since 1970 as local time, `YYYY-MM-DD HH:MM`, as the C library reads TZ.
    public static func localMinute(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "?" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// Monotonic seconds, for how long something takes.
    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
