#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalProcess

/// All libc access of the benchmark: starting processes, waiting for them, clocks, files.
enum Processes {
    /// What one finished process did.
    struct Outcome {
        /// Wall-clock time from just before the spawn to just after the wait, in seconds.
        let seconds: Double
        /// The exit status, or 128 + the signal number when a signal ended the process.
        let status: Int32
    }

    /// Where a child's standard streams go.
    enum Streams {
        /// stdin from /dev/null, stdout to /dev/null, stderr to `stderrPath` (truncated).
        case devNull(stderrPath: String)
        /// stdin from /dev/null, stdout to `stdoutPath` (truncated), stderr to /dev/null.
        case file(stdoutPath: String)
        /// stdin from /dev/null, stdout and stderr to the benchmark's stderr (for the build's messages).
        case toStandardError
    }

    /// The environment of every process measured: the locale and the zone pinned, so that every
    /// tool formats the same way whatever the machine says.
    static func environment() -> [String: String] {
        var variables = ["LC_ALL": "C", "TZ": "UTC", "XDG_CACHE_HOME": cacheHome]
        for name in ["PATH", "HOME"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    /// The parsed-event cache of every process measured: the benchmark's own directory, never
    /// the user's, emptied where a measure needs a cold cache.
    static let cacheHome = temporaryPath("cache")

    /// Monotonic time in seconds.
    static func now() -> Double { ChildProcess.now() }

    /// The full path of `name`, searched in PATH as a shell would, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Starts `path` with `arguments` (without the program name) and `streams`, in the pinned
    /// `environment()`, or in the benchmark's own environment when `inherit` is true.
    /// - returns: the process id.
    /// - throws: `BenchError.spawn` when the process could not be started.
    static func spawn(_ path: String, _ arguments: [String], streams: Streams, inherit: Bool = false) throws -> pid_t {
        let redirections: [ChildProcess.Redirection]
        switch streams {
        case .devNull(let stderrPath):
            redirections = [.inputFromNull, .open(fd: 1, path: "/dev/null", flags: O_WRONLY), .output(2, toFile: stderrPath)]
        case .file(let stdoutPath):
            redirections = [.inputFromNull, .output(1, toFile: stdoutPath), .open(fd: 2, path: "/dev/null", flags: O_WRONLY)]
        case .toStandardError:
            redirections = [.inputFromNull, .duplicate(fd: 1, from: 2)]
        }
        do {
            return try ChildProcess.spawn(path, arguments, environment: inherit ? nil : environment(), redirections: redirections)
        } catch {
            throw BenchError.spawn(path, error.description)
        }
    }

    /// Waits for `pid` to end.
    /// - returns: its exit status, 128 + the signal number when a signal ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        ChildProcess.wait(pid).shellStatus
    }

    /// Runs `path` with `arguments` to the end, output to /dev/null, and times it.
    static func run(_ path: String, _ arguments: [String], stderrPath: String) throws -> Outcome {
        let start = now()
        let pid = try spawn(path, arguments, streams: .devNull(stderrPath: stderrPath))
        let status = wait(pid)
        return Outcome(seconds: now() - start, status: status)
    }

    /// Waits (untimed, at most 20 s) until no event cache is being written into `cacheHome`:
    /// infcal leaves a cache to a process of its own, which goes on after the run ends; no
    /// run is to be timed beside it. Returns when the caches were written (none is left).
    @discardableResult
    static func waitForCacheWriters() -> Bool {
        let directory = cacheHome + "/infcal"
        func writing() -> Bool {
            guard let stream = opendir(directory) else { return false }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".tmp") { return true }
            }
            return false
        }
        let deadline = now() + 20
        while writing(), now() < deadline { usleep(1_000) }
        return !writing()
    }

    /// The peak resident set size of `path` run with `arguments`, in KiB, as GNU time (at
    /// `time`) reports it, or nil when the run or time failed.
    ///
    /// Not `ru_maxrss` of our own wait4: a child started by posix_spawn (vfork) or fork inherits
    /// the starting process's high-water mark at exec, so every child would show at least the
    /// benchmark's own RSS (18 MiB, more than infcal's). GNU time is small, and its child's peak
    /// is the command's own (with time's 1 MiB as the floor).
    static func peakKiB(_ path: String, _ arguments: [String], time: String) -> Int? {
        let file = temporaryPath("rss")
        defer { unlink(file) }
        guard let pid = try? spawn(time, ["-f", "%M", "-o", file, path] + arguments, streams: .devNull(stderrPath: "/dev/null")),
              wait(pid) == 0
        else { return nil }
        return Int(readFile(file).split(separator: "\n").last ?? "")
    }

    /// Runs `path` with `arguments` to the end and returns its standard output.
    static func output(_ path: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let file = temporaryPath("out")
        defer { unlink(file) }
        let pid = try spawn(path, arguments, streams: .file(stdoutPath: file))
        let status = wait(pid)
        return (status, readFile(file))
    }

    /// The text of the file at `path` (empty when it cannot be read).
    static func readFile(_ path: String) -> String {
        guard let stream = fopen(path, "r") else { return "" }
        defer { fclose(stream) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A fresh path in the temporary directory, for a file the caller removes.
    static func temporaryPath(_ tag: String) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(directory)/infcal-bench-\(getpid())-\(tag)"
    }

    /// Sets the modification time of each of `paths` to `secondsAgo` seconds before now.
    static func setModified(_ paths: [String], secondsAgo: Int) {
        let then = time(nil) - secondsAgo
        var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
        for path in paths { _ = utimensat(AT_FDCWD, path, &times, 0) }
    }

    /// The path of the running executable.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is a regular file.
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }

    /// The machine: kernel, architecture, online processors.
    static func machine() -> String {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine)), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs"
    }
}

/// Why the benchmark could not go on.
enum BenchError: Error, CustomStringConvertible {
    case spawn(String, String)
    case build(Int32)
    case noPackage
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case let .spawn(_, reason): return reason
        case let .build(status): return "the release build failed (exit status \(status))"
        case .noPackage: return "cannot find the infcal package (Package.swift) from the benchmark's location or the current directory; pass --infcal PATH"
        case let .usage(message): return message
        case let .failed(message): return message
        }
    }
}
