#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// glibc's prlimit(2), which its headers declare only with _GNU_SOURCE, so Swift does not see it.
@_silgen_name("prlimit")
private func systemPrlimit(_ pid: pid_t, _ resource: Int32, _ new: UnsafePointer<rlimit>?, _ old: UnsafeMutablePointer<rlimit>?) -> Int32

/// Starting a program and waiting for it: the one launcher behind the end-to-end tests, the
/// pseudo-terminal sessions and the benchmark. libc only (posix_spawn), so that the benchmark
/// measures the child and not a launcher's own start-up.
public enum ChildProcess {
    /// What one of the child's descriptors is made before its program starts, in order.
    public enum Redirection: Sendable {
        /// `fd` opens `path` with `flags` (and `mode` when it creates the file).
        case open(fd: Int32, path: String, flags: Int32, mode: mode_t = 0)
        /// `fd` becomes a copy of `source` (as the child has it at that point).
        case duplicate(fd: Int32, from: Int32)

        /// stdin from /dev/null.
        public static let inputFromNull = Redirection.open(fd: 0, path: "/dev/null", flags: O_RDONLY)
        /// `fd` writes to `path`, which is created or truncated.
        public static func output(_ fd: Int32, toFile path: String) -> Redirection {
            .open(fd: fd, path: path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        }
    }

    /// How a child ended.
    public enum Exit: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The status as a shell reports it: the exit status, or 128 + the signal number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): return status
            case .signalled(let signal): return 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): return "exit status \(status)"
            case .signalled(let signal): return "signal \(signal)"
            }
        }

        /// The end a `waitpid` status reports, or nil when it reports a stop or a continue.
        public init?(waitStatus status: Int32) {
            // WIFEXITED, WEXITSTATUS and WTERMSIG, which Swift does not import.
            let signal = status & 0x7F
            if signal == 0 {
                self = .exited((status >> 8) & 0xFF)
            } else if signal != 0x7F, status & 0xFFFF != 0xFFFF {
                self = .signalled(signal)
            } else {
                return nil
            }
        }
    }

    /// A child that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `POSIX_SPAWN_SETSID` from glibc's spawn.h (since glibc 2.26; a macro, so not imported):
    /// the child calls setsid() before its file actions run, so the terminal it opens first
    /// becomes its controlling terminal.
    static let spawnSetsid: Int16 = 0x80

    /// Starts `path` with `arguments` (without the program name) and exactly `environment`, or
    /// this process's environment when it is nil, after `redirections`. Signal actions are the
    /// defaults and no signal is blocked, whatever this process does; with `newSession` the
    /// child leads a session of its own.
    /// - returns: the process id.
    /// - throws: `Failure` when the process could not be started.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String: String]?,
                             redirections: [Redirection], newSession: Bool = false) throws(Failure) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        let flags = (newSession ? spawnSetsid : 0) | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        guard posix_spawnattr_setflags(&attributes, flags) == 0 else {
            throw Failure(description: "posix_spawn cannot start a new session here (glibc older than 2.26?)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for redirection in redirections {
            switch redirection {
            case let .open(fd, path, flags, mode): posix_spawn_file_actions_addopen(&actions, fd, path, flags, mode)
            case let .duplicate(fd, source): posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid = pid_t()
        let result = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Waits for `pid` to end.
    public static func wait(_ pid: pid_t) -> Exit {
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) < 0 {
                if errno == EINTR { continue }
                return .exited(-1)
            }
            if let exit = Exit(waitStatus: status) { return exit }
        }
    }

    /// How `pid` ended, if it has, without waiting.
    public static func reap(_ pid: pid_t) -> Exit? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return Exit(waitStatus: status)
    }

    /// Waits up to `deadline` seconds for `pid` to end.
    /// - returns: how it ended, or nil when it still runs.
    public static func wait(_ pid: pid_t, deadline: Double) -> Exit? {
        let end = now() + deadline
        while now() < end {
            if let exit = reap(pid) { return exit }
            usleep(2_000)
        }
        return reap(pid)
    }

    /// What a finished child wrote.
    public struct Captured: Sendable {
        public let exit: Exit
        public let standardOutput: [UInt8]
        public let standardError: [UInt8]
        /// Whether the deadline passed and the child was killed.
        public let timedOut: Bool
    }

    /// Limits the address space of the running process `pid` to `bytes` (RLIMIT_AS, by
    /// prlimit(2)): an allocation past it fails, and the process ends as it ends then.
    /// - returns: whether the limit was set.
    @discardableResult
    public static func limitMemory(of pid: pid_t, to bytes: Int) -> Bool {
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        return systemPrlimit(pid, Int32(RLIMIT_AS.rawValue), &limit, nil) == 0
    }

    /// Runs `path` with `arguments` and `environment` (as `spawn` takes them) to the end, stdin
    /// from /dev/null, and collects its standard output (unless `output` sends it elsewhere)
    /// and error; kills it (SIGKILL) when `deadline` seconds pass first. With `memoryLimit`,
    /// its address space is limited to that many bytes as soon as it has started (its start-up
    /// is far below any limit worth setting).
    /// - throws: `Failure` when no pipe can be made or the child cannot start.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]?,
                           output: Redirection? = nil, deadline: Double, memoryLimit: Int? = nil) throws(Failure) -> Captured {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
        guard pipe(&err) == 0 else {
            (out).forEach { _ = close($0) }
            throw Failure(description: "pipe: errno \(errno)")
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(path, arguments, environment: environment,
                            redirections: [.inputFromNull, output ?? .duplicate(fd: 1, from: out[1]), .duplicate(fd: 2, from: err[1])])
        } catch {
            (out + err).forEach { _ = close($0) }
            throw error
        }
        if let memoryLimit { limitMemory(of: pid, to: memoryLimit) }
        _ = close(out[1])
        _ = close(err[1])
        // Both pipes are read as the child runs, so a large output cannot block it.
        var collected: [Int32: [UInt8]] = [out[0]: [], err[0]: []]
        var open = [out[0], err[0]]
        let end = now() + deadline
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            let left = end - now()
            if left <= 0 {
                timedOut = true
                _ = kill(pid, SIGKILL)
                break
            }
            var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Int32(min(left, 1) * 1000) + 1)
            if ready < 0, errno != EINTR { break }
            for entry in entries where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[entry.fd, default: []] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        _ = close(out[0])
        _ = close(err[0])
        return Captured(exit: wait(pid), standardOutput: collected[out[0]] ?? [], standardError: collected[err[0]] ?? [],
                        timedOut: timedOut)
    }

    /// Monotonic time in seconds.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
