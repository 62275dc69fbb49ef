#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalEvents

/// Writing calendars so that nothing is lost: an advisory lock held for the whole
/// read-modify-write, a new file written beside the old one, flushed to the disk and renamed
/// over it, and the directory flushed, so that a crash at any moment leaves the old file or
/// the new one, complete.
extension Platform {
    /// A step of a write that failed, with errno, or a write refused, with the reason.
    public struct WriteFailure: Error, CustomStringConvertible {
        public let path: String
        public let step: String
        public let code: Int32
        /// Why the write was refused, said instead of errno's text; nil for a failure.
        public let reason: String?

        /// The failure of `step` on `path` with errno `code`.
        public init(path: String, step: String, code: Int32) {
            (self.path, self.step, self.code, reason) = (path, step, code, nil)
        }

        /// `step` on `path` refused for `reason` (before anything was written).
        public init(path: String, step: String, reason: String) {
            (self.path, self.step, code, self.reason) = (path, step, EPERM, reason)
        }

        public var description: String { "cannot \(step) '\(path)': \(reason ?? Platform.describe(errno: code))" }
    }

    /// The version of the file at `path` now, with its status change time: what a write
    /// compares before it replaces the file. nil when there is none.
    public static func fileVersion(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var version = identity(info)
        version.changed = Int(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int(info.st_ctim.tv_nsec)
        return version
    }

    /// The mode bits of the file at `path`; nil when there is none.
    public static func fileMode(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode)
    }

    /// Whether something (a file, a directory, a link) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether this process may write the file at `path` (access(2) with W_OK).
    public static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// Runs `body` holding an exclusive flock(2) on `path` (opened, created if missing, as a
    /// lock file; a directory is locked itself), waiting for other holders.
    public static func withLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        var fd: Int32
        repeat {
            // Not through a link, and without waiting: a FIFO put where the lock file goes
            // would hold the open until a reader came.
            fd = isDirectory(path) ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                : open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw WriteFailure(path: path, step: "open the lock", code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WriteFailure(path: path, step: "open the lock", code: errno) }
        guard [S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT) else { throw WriteFailure(path: path, step: "lock", reason: notWritable(info)) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw WriteFailure(path: path, step: "lock", code: errno) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// The directory part of `path`, as `PathText.directory` gives it (for the network helper,
    /// which reads paths through `Platform` only).
    public static func directory(of path: String) -> String {
        PathText.directory(of: path)
    }

    /// Writes `bytes` to a new file beside `path`, flushes it, renames it over `path` (or,
    /// with `replacing` false, links it to `path`, failing if something is there), and
    /// flushes the directory. A symbolic link at `path` is written through: the file it leads
    /// to is replaced, in its own directory, and the link stays (`NewFile`). Only a regular
    /// file of one name is replaced: anything else there (a FIFO, a device, a file with
    /// several hard links) is refused and left as it is. The new file gets `mode` (else the old file's, else 0644 less
    /// the umask). The old file is untouched when any step fails. Without `durable` nothing is
    /// flushed: for caches, whose every read checks lengths and checksums, so that a file torn
    /// by a crash is rebuilt, never trusted, and a rebuild costs no disk flush.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, replacing: Bool = true, mode: UInt32? = nil,
                                       durable: Bool = true) throws {
        try writeAtomically(to: path, replacing: replacing, mode: mode, durable: durable) { fd in
            try bytes.withUnsafeBytes { try writeAll(fd, $0) }
        }
    }

    /// Writes the file at `path` as `writeAtomically(_:to:replacing:mode:durable:)` does, its
    /// bytes written by `fill` to the new file's descriptor (in order, or at offsets with
    /// `writeAll(_:_:at:)`), so that they need not be gathered in memory first.
    public static func writeAtomically(to path: String, replacing: Bool = true, mode: UInt32? = nil, durable: Bool = true,
                                       fill: (Int32) throws -> Void) throws {
        let file = try NewFile(beside: path, mode: mode)
        defer { file.discard() }
        do {
            try fill(file.descriptor)
        } catch WriteError.failed(let code) {
            throw WriteFailure(path: path, step: "write", code: code)
        }
        try file.commit(replacing: replacing, durable: durable)
    }

    /// The new file of an atomic write: made beside the file it is to become, written through
    /// `descriptor`, then renamed (or linked) into place by `commit`, or removed by `discard`.
    /// It may be made by one process and committed by another that `detach` started. Its
    /// name, `.NAME.infcal-PID-N.tmp`, and the lock its writer holds on it tell a file a
    /// killed writer left (`leftoverTemporaryFiles(in:)`) from one being written.
    public final class NewFile {
        /// The file it is to become: the path it was made for, its symbolic links followed.
        public let path: String
        /// Its own name until then, beside `path`.
        public let temporary: String
        /// Open for writing until `commit`, `discard` or `handOn`; -1 after.
        public private(set) var descriptor: Int32
        /// Whether the new file is in place, removed, or left to another process.
        private var settled = false

        /// Creates the new file beside `path` (beside the file its links lead to) with `mode`
        /// (else the mode of the file at `path`, else 0644 less the umask).
        public init(beside named: String, mode: UInt32? = nil) throws {
            let path = try Platform.followingLinks(named)
            let directory = Platform.directory(of: path)
            let name = Platform.lastComponent(of: path)
            var temporary = ""
            var fd: Int32 = -1
            for attempt in 0..<100 {
                temporary = directory + "/." + name + ".infcal-\(getpid())-\(attempt).tmp"
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if fd >= 0 || (errno != EEXIST && errno != EINTR) { break }
            }
            guard fd >= 0 else { throw WriteFailure(path: temporary, step: "create", code: errno) }
            // Held until the file is in place or removed, by whichever process writes it:
            // another may wait for it (`waitForNewFile(of:timeout:)`).
            _ = flock(fd, LOCK_EX | LOCK_NB)
            (self.path, self.temporary, descriptor) = (path, temporary, fd)
            if let permissions = mode ?? fileMode(path), fchmod(fd, mode_t(permissions & 0o7777)) != 0 {
                let code = errno
                discard()
                throw WriteFailure(path: temporary, step: "set the mode of", code: code)
            }
        }

        /// Flushes the file (with `durable`), renames it over `path` (or, with `replacing`
        /// false, links it to `path`, failing if something is there), and flushes the
        /// directory (with `durable`). On a failure the new file is removed; `path` is as it was.
        public func commit(replacing: Bool = true, durable: Bool = true) throws {
            guard !settled else { return }
            do {
                guard !durable || fsync(descriptor) == 0 else { throw WriteFailure(path: path, step: "flush (fsync)", code: errno) }
                let closed = close(descriptor)
                descriptor = -1
                guard closed == 0 else { throw WriteFailure(path: path, step: "write (close)", code: errno) }
                if replacing {
                    try Platform.checkReplaceable(path)
                    guard rename(temporary, path) == 0 else { throw WriteFailure(path: path, step: "rename the new file onto", code: errno) }
                } else {
                    guard link(temporary, path) == 0 else { throw WriteFailure(path: path, step: "create", code: errno) }
                    unlink(temporary)
                }
            } catch {
                discard()
                throw error
            }
            settled = true
            if durable { try syncDirectory(Platform.directory(of: path)) }
        }

        /// Closes and removes the new file, unless it is in place or left to another process.
        public func discard() {
            guard !settled else { return }
            settled = true
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            unlink(temporary)
        }

        /// Closes this process's descriptor and leaves the new file to the process that goes
        /// on writing it (`detach`'s, which holds a descriptor of its own).
        public func handOn() {
            guard !settled else { return }
            settled = true
            close(descriptor)
            descriptor = -1
        }

        deinit { discard() }
    }

    /// Throws unless what is at `path` may be replaced by rename(2): nothing, or a regular
    /// file of one name (looked at again just before the rename, whatever was checked before).
    static func checkReplaceable(_ path: String) throws(WriteFailure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw WriteFailure(path: path, step: "replace", reason: notWritable(info)) }
        try refuseHardLinks(path, links: Int(info.st_nlink))
    }

    /// Writes all of `bytes` to `fd` at file offset `offset` (pwrite(2), again after a short write).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = pwrite(fd, base + done, bytes.count - done, off_t(offset + done))
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError.failed(errno)
            }
            guard written > 0 else { throw WriteError.failed(EIO) }
            done += written
        }
    }

    /// Removes the file at `path` and flushes its directory.
    public static func removeDurably(_ path: String) throws {
        guard unlink(path) == 0 else { throw WriteFailure(path: path, step: "remove", code: errno) }
        try syncDirectory(directory(of: path))
    }

    /// fsync(2) of a directory, so that a rename or unlink in it survives a crash.
    static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw WriteFailure(path: path, step: "open the directory", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else { throw WriteFailure(path: path, step: "flush (fsync) the directory", code: errno) }
    }

    // MARK: Zone

    /// Where /etc/localtime points, if it is a link (`/usr/share/zoneinfo/Europe/Berlin`).
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
