#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls behind the cache of fetched calendars: atomic replacement, directories,
/// the wall clock. Like `Platform.swift`, the only place they live.
extension Platform {
    // MARK: Atomic files

    /// Replaces the file at `path` with `bytes` so that a crash or a full disk at any point
    /// leaves the old contents or the new, never a mixture: a temporary file beside it is
    /// written and fsynced, renamed over `path`, and the directory fsynced.
    /// - returns: nil on success, else the errno that stopped it (the old file is untouched).
    @discardableResult
    public static func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) -> SystemError? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return SystemError(code: errno) }
        var failure: Int32?
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0) }
        } catch WriteError.failed(let code) {
            failure = code
        } catch {
            failure = EPIPE
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            return SystemError(code: failure)
        }
        let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            _ = close(directoryFD)
        }
        return nil
    }

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
    public static func directoryNames(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes the file `path`; nothing when it is not there.
    public static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Removes the directory `path` and everything in it (files and directories only).
    public static func removeTree(_ path: String) {
        for name in directoryNames(path) {
            let inner = path + "/" + name
            if isDirectory(inner) { removeTree(inner) } else { _ = unlink(inner) }
        }
        _ = rmdir(path)
    }

    // `exists` is in Platform+Writes.swift (lstat: a dangling link counts as something).

    // MARK: The wall clock

    // `secondsNow` is in Platform+Cache.swift.

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
