#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls that start other programs: the network helper and the outside commands
/// (`password-command`, `token-command`), bounded in time.
/// Like `Platform.swift`, the only place they live.
extension Platform {
    /// A started child and the pipes to its standard input and from its standard output.
    public struct Child: Sendable {
        public let pid: Int32
        /// Writes to the child's standard input.
        public let input: Int32
        /// Reads the child's standard output.
        public let output: Int32
    }

    /// Starts `path` with `arguments` (without the program name) in this process's
    /// environment, its standard input and output pipes to us and its standard error
    /// `errorToNull` ? /dev/null : ours. The pipe ends we keep are close-on-exec, so a second
    /// child does not hold the first one's pipes open.
    /// - returns: the child, or nil when it could not be started.
    public static func startChild(_ path: String, _ arguments: [String], errorToNull: Bool = false) -> Child? {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else {
            toChild.forEach { _ = close($0) }
            return nil
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        if errorToNull { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with SIGPIPE at its default whatever we ignore, and nothing blocked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        _ = close(toChild[0])
        _ = close(fromChild[1])
        guard result == 0 else {
            _ = close(toChild[1])
            _ = close(fromChild[0])
            return nil
        }
        return Child(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// Waits for `pid` to end and returns its exit status (128 + the signal when a signal ended it).
    @discardableResult
    public static func waitChild(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Ends the child `pid` (SIGTERM), as when infcal stops waiting for it.
    public static func terminateChild(_ pid: Int32) {
        _ = kill(pid, SIGTERM)
    }

    // MARK: Outside commands, bounded

    /// How an outside command (`password-command`, `token-command`) ended.
    public enum CommandOutcome: Equatable, Sendable {
        /// It ended with `status` (128 + the signal when a signal ended it), having written
        /// `line` first (nil when it wrote no line break before ending or closing its output).
        case finished(status: Int32, line: String?)
        /// It was still running at its deadline: its process group was ended (SIGTERM and
        /// SIGCONT, then SIGKILL after a short grace).
        case timedOut
        /// It could not be started (the errno).
        case notStarted(Int32)
    }

    /// SIGPIPE's number: the status of a command that went on writing after its first line
    /// is 128 plus it.
    public static let brokenPipeSignal = SIGPIPE

    /// The longest first line `runBounded` keeps (a long token fits).
    public static let longestCommandLine = 64 << 10
    /// Seconds between SIGTERM and SIGKILL when a command outlives its deadline.
    static let commandGrace = 1.0

    /// Runs `arguments` (a program, found on PATH unless it holds a `/`, and its arguments; no
    /// shell) in a process group of its own (POSIX_SPAWN_SETPGROUP), with standard input from
    /// /dev/null, standard output read here and standard error ours, this process's
    /// environment and `environment` laid over it, and every signal at its default. Its first
    /// line of output is kept (then no more is read: a command that goes on writing ends by
    /// SIGPIPE). Unless it ends within `timeout` seconds, its whole process group is sent
    /// SIGTERM and SIGCONT (a stopped command wakes to end), then SIGKILL after a second, so
    /// that no command, however it ignores signals or stops itself, keeps this process waiting.
    public static func runBounded(_ arguments: [String], timeout: Double, environment: [String: String] = [:]) -> CommandOutcome {
        guard let program = arguments.first, !program.isEmpty else { return .notStarted(ENOENT) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .notStarted(errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { variables.append(text) }
            index += 1
        }
        variables += environment.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        _ = close(ends[1])
        guard result == 0 else {
            _ = close(ends[0])
            return .notStarted(result)
        }
        var output = ends[0]
        defer { if output >= 0 { _ = close(output) } }
        var bytes: [UInt8] = []
        var status: Int32?
        let end = monotonicSeconds() + timeout
        while status == nil {
            status = reaped(pid)
            if status != nil { break }
            let left = end - monotonicSeconds()
            guard left > 0 else {
                endGroup(pid)
                return .timedOut
            }
            let wait = Int32(min(left, 0.05) * 1000) + 1
            guard output >= 0 else {
                var pause = timespec(tv_sec: 0, tv_nsec: Int(wait) * 1_000_000)
                nanosleep(&pause, nil)
                continue
            }
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, wait) > 0 else { continue }
            switch readAvailable(output) {
            case .bytes(let chunk):
                bytes += chunk.prefix(longestCommandLine - bytes.count)
                if bytes.contains(10) || bytes.count >= longestCommandLine {
                    // Not a word more is read.
                    _ = close(output)
                    output = -1
                }
            case .interrupted: continue
            case .endOfFile, .failed:
                _ = close(output)
                output = -1
            }
        }
        // What it wrote before it ended is in the pipe still (a child it left may hold the
        // pipe open: nothing is waited for).
        while output >= 0, !bytes.contains(10), bytes.count < longestCommandLine {
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0, case .bytes(let chunk) = readAvailable(output) else { break }
            bytes += chunk.prefix(longestCommandLine - bytes.count)
        }
        guard let status else { return .timedOut }
        let cut = bytes.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false)
        guard bytes.contains(10), var line = cut.first.map({ String(decoding: $0, as: UTF8.self) }) else {
            return .finished(status: status, line: nil)
        }
        if line.hasSuffix("\r") { line.removeLast() }
        return .finished(status: status, line: line)
    }

    /// The exit status of the child `pid` if it has ended (it is then reaped), else nil.
    private static func reaped(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 && errno != EINTR ? -1 : nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Ends the process group `pid` leads: SIGTERM and SIGCONT, then after at most
    /// `commandGrace` seconds SIGKILL to whatever of the group is left; the leader is reaped
    /// (waited for at most another second: a process in uninterruptible sleep is left).
    private static func endGroup(_ pid: pid_t) {
        _ = kill(-pid, SIGTERM)
        _ = kill(-pid, SIGCONT)
        var gone = false
        let graceEnd = monotonicSeconds() + commandGrace
        while !gone, monotonicSeconds() < graceEnd {
            if reaped(pid) != nil { gone = true; break }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
        _ = kill(-pid, SIGKILL)
        let reapEnd = monotonicSeconds() + 1
        while !gone, monotonicSeconds() < reapEnd {
            if reaped(pid) != nil { gone = true; break }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Ends the process with `status` at once (_exit(2)): nothing flushed, no destructor run,
    /// whatever other threads are doing; for the helper after its last answer is written.
    public static func exitAtOnce(_ status: Int32) -> Never {
        _exit(status)
    }

    /// A pipe, both ends close-on-exec; nil when none can be made.
    public static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// The path of this process's own executable (/proc/self/exe), or nil.
    public static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is a regular file this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// The value of the environment variable `name`, or nil.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension Platform {
    // MARK: Work left to a process of its own

    /// The processes `detach` started that may not have ended yet: reaped on the next
    /// `detach`, so that a long run (the pager) does not gather them.
    nonisolated(unsafe) private static var detached: [pid_t] = []

    /// Runs `work` in a copy of this process (fork(2)) that goes on after this one ends, and
    /// returns whether it could. The copy leaves the terminal's session, its standard streams
    /// are /dev/null (a reader of this process's output sees its end when this process ends),
    /// it keeps no other descriptor but those of `keeping`, signals reach it as they would any
    /// program, and it ends when `work` returns, without flushing or running what exit runs.
    /// Only a process with one thread is copied (a copy keeps only the calling thread, and a
    /// lock another thread held would stay held in it): with more, or when fork fails, nothing
    /// is started and false is returned; likewise when a descriptor to keep is a standard
    /// one (a run started with one of them closed), which the copy's /dev/null would replace.
    public static func detach(keeping: [Int32], _ work: () -> Void) -> Bool {
        detached.removeAll { waitpid($0, nil, WNOHANG) != 0 }
        guard keeping.allSatisfy({ $0 > 2 }), threadCount() == 1 else { return false }
        let pid = fork()
        guard pid >= 0 else { return false }
        guard pid == 0 else {
            detached.append(pid)
            return true
        }
        setsid()
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            for fd: Int32 in 0...2 { dup2(null, fd) }
        }
        var highest: Int32 = 2
        for fd in keeping.sorted() {
            if fd > highest + 1 { closeDescriptors(highest + 1, fd - 1) }
            highest = max(highest, fd)
        }
        closeDescriptors(highest + 1, Int32.max)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGWINCH, SIGCHLD] {
            signal(number, SIG_DFL)
        }
        work()
        _exit(0)
    }

    /// Closes the open descriptors from `first` to `last` (those /proc/self/fd lists).
    private static func closeDescriptors(_ first: Int32, _ last: Int32) {
        guard first <= last else { return }
        for fd in entries(of: "/proc/self/fd").compactMap({ Int32($0) }) where fd >= first && fd <= last { close(fd) }
    }

    /// How many threads this process has (the entries of /proc/self/task); 0 when unknown.
    static func threadCount() -> Int { entries(of: "/proc/self/task").count }

    /// The names in `directory` but "." and "..", read in full before the caller acts on them
    /// (at most a million).
    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream), names.count < 1_000_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
