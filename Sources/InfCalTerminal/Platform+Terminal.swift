#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls of the pager: the controlling terminal, its modes, waiting for keys and
/// signals. Like `Platform.swift`, the only place they live.
extension Platform {
    // MARK: The controlling terminal

    /// Opens the controlling terminal (/dev/tty), where keys come from even when standard input
    /// is redirected, as less does.
    /// - returns: the descriptor, or nil when the process has no controlling terminal.
    public static func openControllingTerminal() -> Int32? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// Whether the controlling terminal can be opened (opens and closes it).
    public static func controllingTerminalIsAvailable() -> Bool {
        guard let fd = openControllingTerminal() else { return false }
        closeDescriptor(fd)
        return true
    }

    /// Closes `fd`, ignoring errors.
    public static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    // MARK: Terminal modes

    /// A terminal's settings (a termios struct), held opaquely so callers need no libc.
    public struct TerminalModes {
        fileprivate var value: termios
    }

    /// The settings of the terminal on `fd`, or nil when it is not a terminal.
    public static func terminalModes(_ fd: Int32) -> TerminalModes? {
        var value = termios()
        guard tcgetattr(fd, &value) == 0 else { return nil }
        return TerminalModes(value: value)
    }

    /// Applies `modes` to the terminal on `fd` once its pending output is written.
    /// - returns: false when the terminal refused (it hung up, say).
    @discardableResult
    public static func setTerminalModes(_ fd: Int32, _ modes: TerminalModes) -> Bool {
        var value = modes.value
        while tcsetattr(fd, TCSADRAIN, &value) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// `saved` changed for the pager: keys arrive one at a time (no line editing), unechoed,
    /// and Ctrl-V is not special. ISIG stays on, so Ctrl-C and Ctrl-Z still send SIGINT and
    /// SIGTSTP, which the pager handles; output processing stays as it was.
    public static func pagerModes(from saved: TerminalModes) -> TerminalModes {
        var value = saved.value
        value.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | IEXTEN)
        value.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR)
        withUnsafeMutableBytes(of: &value.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return TerminalModes(value: value)
    }

    // MARK: Waiting and reading

    /// What a read gave.
    public enum ReadResult {
        case bytes([UInt8])
        /// The other end is gone (a terminal that hung up).
        case endOfFile
        /// A signal came first; nothing was read.
        case interrupted
        case failed(Int32)
    }

    /// Reads what is there on `fd`, at most `limit` bytes.
    public static func readAvailable(_ fd: Int32, limit: Int = 4096) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, limit) }
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .endOfFile }
        let error = errno
        if error == EINTR || error == EAGAIN || error == EWOULDBLOCK { return .interrupted }
        // A terminal that hung up answers EIO.
        return error == EIO ? .endOfFile : .failed(error)
    }

    /// Waits until one of `fds` has input (or hung up), `timeout` milliseconds pass (negative:
    /// no limit), or a signal arrives.
    /// - returns: the descriptors that are ready; empty after a timeout or a signal.
    /// - throws: `WriteError.failed` with errno when poll itself fails.
    public static func waitForInput(_ fds: [Int32], timeout: Int) throws -> [Int32] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = poll(&entries, nfds_t(entries.count), Int32(clamping: timeout))
        if result < 0 {
            if errno == EINTR { return [] }
            throw WriteError.failed(errno)
        }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }

    // MARK: Signals

    /// A signal the pager handles, by its number.
    public struct Signal: Hashable, Sendable {
        public let number: Int32
        public static let interrupt = Signal(number: SIGINT)
        public static let quit = Signal(number: SIGQUIT)
        public static let terminate = Signal(number: SIGTERM)
        public static let hangUp = Signal(number: SIGHUP)
        public static let terminalStop = Signal(number: SIGTSTP)
        public static let `continue` = Signal(number: SIGCONT)
        public static let windowChange = Signal(number: SIGWINCH)
    }

    /// The write end of the self-pipe the signal handler writes to.
    nonisolated(unsafe) private static var signalPipeWriteEnd: Int32 = -1

    /// Catches `signals`: each one that arrives writes its number, as one byte, to a pipe whose
    /// read end this returns, so that a poll on it wakes up. The handler does nothing else (it
    /// only makes a write(2), which is async-signal-safe), and is installed without SA_RESTART,
    /// so a blocking call returns EINTR as well.
    /// - returns: the pipe's read end (non-blocking), or nil when no pipe could be made.
    public static func catchSignals(_ signals: [Signal]) -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = ends[1]
        for signal in signals { install(signal.number, handler: signalToPipe) }
        return ends[0]
    }

    /// Puts `signals` back to their default action and closes the signal pipe `readEnd`.
    public static func releaseSignals(_ signals: [Signal], readEnd: Int32) {
        for signal in signals { install(signal.number, handler: SIG_DFL) }
        closeDescriptor(readEnd)
        closeDescriptor(signalPipeWriteEnd)
        signalPipeWriteEnd = -1
    }

    /// The signals that arrived since the last call, read from the pipe `readEnd`, in order.
    public static func drainSignals(_ readEnd: Int32) -> [Signal] {
        var signals: [Signal] = []
        while case .bytes(let bytes) = readAvailable(readEnd, limit: 64) {
            signals += bytes.map { Signal(number: Int32($0)) }
        }
        return signals
    }

    /// Runs `body` (restoring the terminal) with SIGTTOU ignored, as less does around its
    /// `raw_mode(0)`: after Ctrl-Z the shell may already have taken the terminal back, and a
    /// background process that sets the terminal's modes is stopped by SIGTTOU, half way,
    /// then stopped again by its own SIGTSTP after `fg`.
    public static func ignoringTerminalOutputStops(_ body: () -> Void) {
        install(SIGTTOU, handler: SIG_IGN)
        body()
        install(SIGTTOU, handler: SIG_DFL)
    }

    /// Stops the process as Ctrl-Z would have (the caller restored the terminal first) and
    /// returns once it is continued, with `signal`'s handler back in place. The whole process
    /// group is stopped, as curses' `tstp` and less do (kill(0, SIGTSTP)): when infcal is not
    /// its group's leader (`sh -c 'infcal --paged; true'`) a shell knows the job stopped only
    /// once every process of it has, so stopping infcal alone would leave the job neither
    /// running nor seen stopped, and `fg` nothing to continue.
    public static func stopProcess(resumingCatch signal: Signal) {
        install(SIGTSTP, handler: SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        if kill(0, SIGTSTP) != 0 { _ = raise(SIGTSTP) }
        install(signal.number, handler: signalToPipe)
    }

    /// Ends the process by `signal`, with its default action, so that the parent sees how it
    /// ended (a shell stops a script on SIGINT); exits with 128 + the number if it survives.
    /// A cache still being written is finished first, as `exit` does.
    public static func die(by signal: Signal) -> Never {
        finishBackgroundWork()
        install(signal.number, handler: SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal.number)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        _ = raise(signal.number)
        Glibc.exit(128 + signal.number)
    }

    private static let signalToPipe: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(Platform.signalPipeWriteEnd, &byte, 1)
        errno = saved
    }

    /// Installs `handler` for `number` with sigaction: no SA_RESTART, nothing blocked beyond
    /// the signal itself.
    private static func install(_ number: Int32, handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        _ = sigaction(number, &action, nil)
    }
}
