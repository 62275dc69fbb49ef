#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// renameat2(2), which the Glibc module does not show (glibc 2.28 and later have it).
@_silgen_name("renameat2")
private func renameat2(_ oldDirectory: Int32, _ oldPath: UnsafePointer<CChar>, _ newDirectory: Int32,
                       _ newPath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32

/// The libc calls that put a directory in place in one step: a CalDAV collection's copy is
/// built aside (its unchanged files hard-linked, its new ones written), then exchanged with the
/// old one, so that a reader or a crash sees the old copy or the new, never half of each.
/// Like `Platform.swift`, the only place they live.
extension Platform {
    /// RENAME_EXCHANGE of renameat2(2).
    private static let exchangeFlag: UInt32 = 1 << 1

    /// Makes the directory `path` (mode 0700), which must not exist.
    public static func makeDirectory(_ path: String) throws(WriteFailure) {
        guard mkdir(path, 0o700) == 0 else { throw WriteFailure(path: path, step: "create the directory", code: errno) }
    }

    /// Hard-links the file `source` as `target` (which must not exist).
    public static func hardLink(_ source: String, as target: String) throws(WriteFailure) {
        guard link(source, target) == 0 else { throw WriteFailure(path: target, step: "link", code: errno) }
    }

    /// Writes `bytes` to the new file `path` (mode 0600; it must not exist) and flushes it.
    public static func writeNewFile(_ bytes: [UInt8], to path: String) throws(WriteFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteFailure(path: path, step: "create", code: errno) }
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0) }
        } catch WriteError.failed(let code) {
            close(fd)
            throw WriteFailure(path: path, step: "write", code: code)
        } catch {
            close(fd)
            throw WriteFailure(path: path, step: "write", code: EIO)
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw WriteFailure(path: path, step: "flush (fsync)", code: code)
        }
        guard close(fd) == 0 else { throw WriteFailure(path: path, step: "write (close)", code: errno) }
    }

    /// Flushes the directory `path` (its entries) to the disk.
    public static func flushDirectory(_ path: String) throws(WriteFailure) {
        do {
            try syncDirectory(path)
        } catch let failure as WriteFailure {
            throw failure
        } catch {
            throw WriteFailure(path: path, step: "flush", code: EIO)
        }
    }

    /// Puts the directory `new` in place of `old` in one step: when `old` exists the two are
    /// exchanged (renameat2 RENAME_EXCHANGE), so that `new`'s path then holds the old
    /// directory, for the caller to remove; else `new` is renamed to `old`. Where the file
    /// system cannot exchange, `old` is renamed aside to `new` + `.old` first (a crash between
    /// the two renames leaves it there, and no copy at `old`: the next fetch downloads it
    /// again). The parent directory is flushed.
    /// - returns: the path that now holds the old directory, or nil when there was none.
    public static func exchangeDirectory(_ new: String, into old: String) throws(WriteFailure) -> String? {
        if !isDirectory(old) {
            guard rename(new, old) == 0 else { throw WriteFailure(path: old, step: "rename the new copy onto", code: errno) }
            try flushDirectory(directory(of: old))
            return nil
        }
        if renameat2(AT_FDCWD, new, AT_FDCWD, old, exchangeFlag) == 0 {
            try flushDirectory(directory(of: old))
            return new
        }
        guard errno == EINVAL || errno == ENOSYS || errno == ENOTSUP else {
            throw WriteFailure(path: old, step: "exchange the new copy with", code: errno)
        }
        let aside = new + ".old"
        guard rename(old, aside) == 0 else { throw WriteFailure(path: old, step: "rename aside", code: errno) }
        guard rename(new, old) == 0 else {
            let code = errno
            _ = rename(aside, old)
            throw WriteFailure(path: old, step: "rename the new copy onto", code: code)
        }
        try flushDirectory(directory(of: old))
        return aside
    }

    /// Runs `body` holding an exclusive flock(2) on `path` (created if missing, mode 0600),
    /// waiting for it at most `timeout` seconds.
    /// - returns: what `body` returns, or nil when the lock was not had in time.
    public static func withLock<T>(on path: String, timeout: Double, _ body: () throws -> T) throws -> T? {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteFailure(path: path, step: "open the lock", code: errno) }
        defer { close(fd) }
        let end = monotonicSeconds() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw WriteFailure(path: path, step: "lock", code: errno) }
            guard monotonicSeconds() < end else { return nil }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
