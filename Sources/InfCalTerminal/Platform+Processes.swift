#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls that start other programs: the network helper and a `password-command`.
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

    /// The first line `command` writes, run by `/bin/sh -c` with standard input from /dev/null
    /// and standard error ours, within `timeout` seconds; nil when it fails, writes nothing, or
    /// takes longer (then it is killed).
    public static func firstLine(ofCommand command: String, timeout: Double) -> String? {
        guard let child = startChild("/bin/sh", ["-c", command]) else { return nil }
        _ = close(child.input)
        defer { _ = close(child.output) }
        var bytes: [UInt8] = []
        let end = monotonicSeconds() + timeout
        reading: while !bytes.contains(10) {
            let left = end - monotonicSeconds()
            guard left > 0 else {
                _ = kill(child.pid, SIGKILL)
                waitChild(child.pid)
                return nil
            }
            var entry = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, Int32(left * 1000) + 1) <= 0 { continue }
            switch readAvailable(child.output) {
            case .bytes(let chunk): bytes += chunk
            case .interrupted: continue
            case .endOfFile, .failed: break reading
            }
        }
        // Not a word more is read; a command that goes on writing ends by SIGPIPE.
        _ = close(child.output)
        let status = waitChild(child.pid)
        let line = bytes.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return status == 0 || status == 128 + SIGPIPE ? (text.isEmpty ? nil : text) : nil
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
