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

/// glibc's mallopt(3), which its module does not declare (malloc.h).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
/// glibc's malloc_usable_size(3), likewise.
@_silgen_name("malloc_usable_size") private func usableSize(_ block: UnsafeMutableRawPointer?) -> Int

extension Platform {
    // MARK: The heap of a large reading

    /// Whether the heap was made ready for a large reading (`growHeapInHugePages`).
    nonisolated(unsafe) private static var heapReady = false

    /// Readies the heap for a reading that makes hundreds of megabytes of small objects (a
    /// large calendar parsed afresh): the heap grows by a quarter of a gigabyte at once
    /// (address space only) and that part is advised to transparent huge pages, so that it
    /// faults in 2 MiB pages instead of 4 KiB ones (a fault's entry and exit, dear in a VM,
    /// then come once for 512 pages); blocks of up to 32 MiB come from it too, not from
    /// mappings of their own.
    /// Once a process; where the kernel has no huge pages, only the growth remains.
    public static func growHeapInHugePages() {
        guard !heapReady else { return }
        heapReady = true
        let pad: Int32 = 256 << 20
        let huge = 2 << 20
        _ = mallopt(-2, pad) // M_TOP_PAD: what each growth of the heap adds
        _ = mallopt(-3, 32 << 20) // M_MMAP_THRESHOLD
        let before = Int(bitPattern: sbrk(0))
        // A block larger than what the heap has free makes it grow (by the pad too) now; its
        // size asked of glibc, so that the compiler does not drop the unused block.
        let block = malloc(16 << 20)
        guard usableSize(block) > 0 else { return }
        free(block)
        let after = Int(bitPattern: sbrk(0))
        let start = (before + huge - 1) / huge * huge
        guard before > 0, after - start >= huge, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(base, (after - start) / huge * huge, MADV_HUGEPAGE)
    }
}
