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

/// The file-system calls of the parsed-event cache: identities, reading in part, atomic writes, and
/// the listing and pruning of the cache directory.
extension Platform {
    // MARK: Identities

    /// The identity `stat` gives. Device and inode numbers are unsigned 64-bit values, which
    /// some file systems fill to the top bit: their bits are kept, never converted with a check
    /// that would trap.
    static func identity(_ info: stat) -> FileIdentity {
        FileIdentity(device: Int(truncatingIfNeeded: info.st_dev), inode: Int(truncatingIfNeeded: info.st_ino),
                     size: Int(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The identity of what `path` names (through symbolic links, as reading it goes), and
    /// whether it is a directory; nil when it cannot be looked at.
    public static func identity(of path: String) -> (identity: FileIdentity, isDirectory: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (identity(info), (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// Whether every entry of `key` (paths below `root`, "" for `root` itself) still has the
    /// identity it had: one stat(2) each, relative to `root` opened once.
    public static func identitiesMatch(_ key: [CacheKeyEntry], under root: String) -> Bool {
        let directory = open(root, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        defer { if directory >= 0 { close(directory) } }
        var info = stat()
        for entry in key {
            let found: Int32
            if entry.path.isEmpty {
                found = stat(root, &info)
            } else if directory >= 0 {
                found = fstatat(directory, entry.path, &info, 0)
            } else {
                found = stat(root + "/" + entry.path, &info)
            }
            guard found == 0, identity(info) == entry.identity,
                  ((info.st_mode & S_IFMT) == S_IFDIR) == entry.isDirectory else { return false }
        }
        return true
    }

    /// The directories below `root` (paths relative to it, `root` itself first as ""), with
    /// their identities: adding, removing or renaming a file changes its directory's.
    public static func directoryTree(_ root: String) -> [CacheKeyEntry] {
        var result: [CacheKeyEntry] = []
        var pending = [""]
        while let relative = pending.popLast(), result.count < 100_000 {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let (found, isDirectory) = identity(of: path), isDirectory,
                  let stream = opendir(path) else { continue }
            result.append(CacheKeyEntry(path: relative, isDirectory: true, identity: found))
            var children: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != "..", entry.pointee.d_type == UInt8(DT_DIR) || entry.pointee.d_type == UInt8(DT_UNKNOWN)
                        || entry.pointee.d_type == UInt8(DT_LNK) else { continue }
                children.append(relative.isEmpty ? name : relative + "/" + name)
            }
            closedir(stream)
            pending += children.sorted().reversed()
        }
        return result
    }

    /// The absolute form of `path` with symbolic links resolved (realpath(3)), or `path` made
    /// absolute against the working directory when it cannot be resolved.
    public static func absolutePath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd + "/" + path
    }

    // MARK: Reading a cache

    /// A file read on demand into a region of its own size: `bytes` lies at the file's offsets,
    /// but holds the file's bytes only in the pages `load` has read (the rest is zero and costs
    /// no memory). A mapping of the file would need no copy, but the kernel maps a page cache's
    /// large folios whole on a fault, so that touching a few records of a large cache counts
    /// megabytes of it in the process's memory; reading copies only the pages a run decodes.
    public final class CacheFile {
        public let bytes: UnsafeRawBufferPointer
        public let identity: FileIdentity
        private let fd: Int32
        private var present: [Bool]
        static let pageShift = 12
        /// Pages between two wanted runs that are read through rather than left out (one read
        /// call costs more than a few pages' copy).
        static let bridge = 4

        fileprivate init(bytes: UnsafeRawBufferPointer, identity: FileIdentity, fd: Int32) {
            self.bytes = bytes
            self.identity = identity
            self.fd = fd
            present = [Bool](repeating: false, count: (bytes.count + (1 << Self.pageShift) - 1) >> Self.pageShift)
        }

        deinit {
            close(fd)
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        }

        /// Reads the pages of `spans` (offsets in the file, ascending for the fewest reads)
        /// that are not read yet; false when a span lies outside the file or a read fails or
        /// comes up short (the file changed under it): the caller treats the cache as unusable.
        public func load(_ spans: UnsafeBufferPointer<CacheSpan>) -> Bool {
            // Runs of pages to read, first..<end each (spans, not ranges: see `CacheSpan`).
            var runs: [CacheSpan] = []
            for span in spans where span.start < span.end {
                guard span.start >= 0, span.end <= bytes.count else { return false }
                for page in (span.start >> Self.pageShift)...((span.end - 1) >> Self.pageShift) where !present[page] {
                    if let last = runs.last, last.start <= page, page < last.end { continue }
                    if let last = runs.last, page >= last.end, page - last.end <= Self.bridge {
                        runs[runs.count - 1] = CacheSpan(last.start, page + 1)
                    } else {
                        runs.append(CacheSpan(page, page + 1))
                    }
                }
            }
            guard let base = bytes.baseAddress else { return runs.isEmpty }
            for run in runs {
                var offset = run.start << Self.pageShift
                let end = min(run.end << Self.pageShift, bytes.count)
                while offset < end {
                    let count = pread(fd, UnsafeMutableRawPointer(mutating: base + offset), end - offset, off_t(offset))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                for page in run.start..<run.end { present[page] = true }
            }
            return true
        }
    }

    /// Waits, at most `timeout` seconds, while a `NewFile` of `path` is being written (its
    /// temporary file beside it, locked by its writer), and returns whether one was: then
    /// `path` may be there now. A temporary file a killed writer left holds no lock and is
    /// not waited for.
    public static func waitForNewFile(of path: String, timeout: Double) -> Bool {
        let directory = PathText.directory(of: path)
        let prefix = "." + (path.split(separator: "/").last.map(String.init) ?? path) + ".infcal-"
        let deadline = monotonicSeconds() + timeout
        var waited = false
        for name in entries(of: directory) where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let fd = open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            while flock(fd, LOCK_SH | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline else { return waited }
                waited = true
                usleep(1_000)
            }
        }
        return waited
    }

    /// The regular file at `path`, open for `CacheFile.load` (nothing of it read yet); nil when
    /// it is missing, empty, not a regular file or too large to hold.
    public static func cacheFile(_ path: String) -> CacheFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              info.st_size < Int(Int32.max) else {
            close(fd)
            return nil
        }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else {
            close(fd)
            return nil
        }
        return CacheFile(bytes: UnsafeRawBufferPointer(start: base, count: size), identity: identity(info), fd: fd)
    }

    // MARK: Writing

    /// Sets the modification time of `path` to now (the cache's mark of a recent use).
    public static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    // MARK: Writing in the background

    /// Whether the machine has more than one processor online: work handed to another thread
    /// can then run beside this one.
    public static var hasSecondProcessor: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 }

    /// Work handed to the thread that runs it.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// The thread of the last work `inBackground` started, until it is joined. Only the main
    /// thread starts and joins work.
    nonisolated(unsafe) private static var pending: pthread_t?

    /// Runs `work` on a thread of its own, once the work started before has ended, while the
    /// caller goes on; `exit` waits for it. When no thread can be made, `work` runs here.
    public static func inBackground(_ work: @escaping @Sendable () -> Void) {
        finishBackgroundWork()
        pending = startThread(work)
    }

    /// Starts `work` on a new thread and returns it, or runs `work` here and returns nil when
    /// no thread can be made. The thread blocks every signal, so that signals still reach the
    /// main thread, whose reads and polls they are meant to interrupt.
    private static func startThread(_ work: @escaping () -> Void) -> pthread_t? {
        var (all, saved) = (sigset_t(), sigset_t())
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &saved)
        let box = Unmanaged.passRetained(Work(work))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            if let raw { Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().run() }
            return nil
        }, box.toOpaque())
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        guard started == 0 else {
            box.release()
            work()
            return nil
        }
        return thread
    }

    /// A value being computed on a thread of its own (`computeInBackground`).
    public final class Computation<Value: Sendable> {
        fileprivate var thread: pthread_t?
        /// Set by the computing thread before it ends, read only after it is joined.
        fileprivate var value: Value?

        /// The value, once the thread has ended; nil only when asked again.
        public func result() -> Value? {
            if let thread {
                pthread_join(thread, nil)
                self.thread = nil
            }
            defer { value = nil }
            return value
        }
    }

    /// Computes `work` on a thread of its own while the caller goes on, which takes the value
    /// with `result()` (the work and what it holds belong to that thread until then). When no
    /// thread can be made, `work` runs here.
    public static func computeInBackground<Value: Sendable>(_ work: sending @escaping () -> Value) -> Computation<Value> {
        let computation = Computation<Value>()
        computation.thread = startThread { computation.value = work() }
        return computation
    }

    /// Waits for the work `inBackground` started last, if it has not ended.
    public static func finishBackgroundWork() {
        guard let thread = pending else { return }
        pending = nil
        pthread_join(thread, nil)
    }

    // MARK: The cache directory

    /// The regular files of `directory`: name, size and modification time.
    public static func files(in directory: String) -> [(name: String, size: Int, modified: Int)] {
        var result: [(name: String, size: Int, modified: Int)] = []
        var info = stat()
        for name in entries(of: directory) {
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            result.append((name, Int(info.st_size), Int(info.st_mtim.tv_sec)))
        }
        return result
    }

    /// Removes the file at `path`; whether it is gone.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }
}
