#if canImport(Glibc)
import Glibc
#endif
import InfCalProcess

/// The functions of a pseudo-terminal's master side. glibc has them (`stdlib.h`), but the
/// Swift Glibc module leaves them out (they need `_XOPEN_SOURCE`), so they are looked up at
/// run time in the process's own symbols.
enum PTYFunctions {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias Grant = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// posix_openpt, grantpt, unlockpt and ptsname, or nil if any is missing.
    static let resolved: (open: OpenPT, grant: Grant, unlock: Grant, name: Name)? = {
        guard let handle = dlopen(nil, RTLD_NOW),
              let open = dlsym(handle, "posix_openpt"), let grant = dlsym(handle, "grantpt"),
              let unlock = dlsym(handle, "unlockpt"), let name = dlsym(handle, "ptsname")
        else { return nil }
        return (unsafeBitCast(open, to: OpenPT.self), unsafeBitCast(grant, to: Grant.self),
                unsafeBitCast(unlock, to: Grant.self), unsafeBitCast(name, to: Name.self))
    }()
}

/// A terminal's settings, compared field by field (a termios struct without its padding).
public struct TerminalAttributes: Equatable, Sendable, CustomStringConvertible {
    public let inputFlags: UInt32
    public let outputFlags: UInt32
    public let controlFlags: UInt32
    public let localFlags: UInt32
    public let lineDiscipline: UInt8
    public let controlCharacters: [UInt8]
    public let inputSpeed: UInt32
    public let outputSpeed: UInt32

    init(_ value: termios) {
        inputFlags = value.c_iflag
        outputFlags = value.c_oflag
        controlFlags = value.c_cflag
        localFlags = value.c_lflag
        lineDiscipline = value.c_line
        var cc = value.c_cc
        controlCharacters = withUnsafeBytes(of: &cc) { Array($0) }
        inputSpeed = value.c_ispeed
        outputSpeed = value.c_ospeed
    }

    /// Whether the terminal is in canonical mode (line editing) with echo, as a shell leaves it.
    public var isCookedWithEcho: Bool {
        localFlags & UInt32(ICANON) != 0 && localFlags & UInt32(ECHO) != 0
    }

    public var description: String {
        "iflag \(String(inputFlags, radix: 8)) oflag \(String(outputFlags, radix: 8)) cflag \(String(controlFlags, radix: 8)) lflag \(String(localFlags, radix: 8)) cc \(controlCharacters)"
    }
}

/// A program run under a fresh pseudo-terminal, as a user at a terminal would run it: the
/// terminal is its controlling terminal and its standard input, output and error. Keys go in
/// with `send`, what it draws comes out in `screen` (and raw in `output`).
///
/// Every wait has a deadline, and the child is killed when the session ends, so nothing that
/// drives it can hang. Not thread-safe: use one session from one task.
public final class PseudoTerminalSession {
    /// How the child ended.
    public typealias Exit = ChildProcess.Exit

    /// A failure to set the session up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The environment tests and benchmarks pin: a fixed zone and locale, an xterm.
    public static let pinnedEnvironment: [String: String] = [
        "PATH": "/usr/bin:/bin", "TZ": "UTC", "LC_ALL": "C", "TERM": "xterm",
    ]

    /// The child's process id.
    public let pid: pid_t
    /// The master side, where the test reads and writes.
    private let master: Int32
    /// The slave side, kept open here to read its settings and so that it never hangs up.
    private let slave: Int32
    /// The screen as the child drew it.
    public private(set) var screen: TerminalScreen
    /// Every byte the child wrote to the terminal.
    public private(set) var output: [UInt8] = []
    /// How the child ended, once it has.
    public private(set) var exit: Exit?
    /// The terminal's settings just before the child started: what it must leave behind.
    public let initialAttributes: TerminalAttributes?

    /// Starts `executable` with `arguments` and exactly `environment` under a new terminal of
    /// `columns` x `rows`. With `controllingTerminal` false the child has none (it cannot open
    /// /dev/tty); with `stdinFromNull` its standard input is /dev/null.
    /// - throws: `Failure` when no pseudo-terminal can be made or the child cannot start.
    public init(executable: String, arguments: [String], environment: [String: String] = pinnedEnvironment,
                columns: Int = 80, rows: Int = 24, controllingTerminal: Bool = true, stdinFromNull: Bool = false) throws {
        guard let pty = PTYFunctions.resolved else { throw Failure(description: "posix_openpt and friends are missing") }
        let master = pty.open(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(description: "posix_openpt: errno \(errno)") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        guard pty.grant(master) == 0, pty.unlock(master) == 0, let namePointer = pty.name(master) else {
            _ = close(master)
            throw Failure(description: "grantpt/unlockpt/ptsname: errno \(errno)")
        }
        let slavePath = String(cString: namePointer)
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            _ = close(master)
            throw Failure(description: "open \(slavePath): errno \(errno)")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        let ttyFlags = O_RDWR | (controllingTerminal ? 0 : O_NOCTTY)
        let redirections: [ChildProcess.Redirection] = stdinFromNull
            ? [.open(fd: 1, path: slavePath, flags: ttyFlags), .duplicate(fd: 2, from: 1), .inputFromNull]
            : [.open(fd: 0, path: slavePath, flags: ttyFlags), .duplicate(fd: 1, from: 0), .duplicate(fd: 2, from: 0)]
        var initial = termios()
        initialAttributes = tcgetattr(slave, &initial) == 0 ? TerminalAttributes(initial) : nil
        // A new session: the first terminal the child opens without O_NOCTTY becomes its
        // controlling terminal.
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(executable, arguments, environment: environment, redirections: redirections, newSession: true)
        } catch {
            _ = close(master); _ = close(slave)
            throw Failure(description: error.description)
        }
        self.pid = pid
        self.master = master
        self.slave = slave
        screen = TerminalScreen(columns: columns, rows: rows)
    }

    deinit {
        if exit == nil {
            _ = kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        _ = close(master)
        _ = close(slave)
    }

    // MARK: Talking to the child

    /// Types `bytes` into the terminal.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { _ = pump(timeout: 0.01); continue }
                throw Failure(description: "write to the terminal: errno \(errno)")
            }
            offset += written
        }
    }

    /// Types `text` into the terminal.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Resizes the terminal; the kernel sends SIGWINCH to the child, as a terminal emulator's
    /// resize does.
    public func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        screen.resize(columns: columns, rows: rows)
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// The terminal's settings now, or nil if it will not say.
    public func attributes() -> TerminalAttributes? {
        var value = termios()
        guard tcgetattr(slave, &value) == 0 else { return nil }
        return TerminalAttributes(value)
    }

    /// Sets the terminal's settings (as a shell does when a job stops).
    public func setAttributes(_ attributes: TerminalAttributes) {
        var value = termios()
        guard tcgetattr(slave, &value) == 0 else { return }
        value.c_iflag = attributes.inputFlags
        value.c_oflag = attributes.outputFlags
        value.c_cflag = attributes.controlFlags
        value.c_lflag = attributes.localFlags
        withUnsafeMutableBytes(of: &value.c_cc) { cc in
            for (index, byte) in attributes.controlCharacters.enumerated() where index < cc.count { cc[index] = byte }
        }
        _ = tcsetattr(slave, TCSANOW, &value)
    }

    // MARK: Waiting

    /// How long a wait waits unless told: long, because a wait ends as soon as what it waits
    /// for holds, and on a loaded machine (a full test run on two cores) a program may take
    /// many seconds to draw; only a test that fails pays for it.
    public static let defaultTimeout: Double = 60

    /// Reads output until what the child wrote after the first `mark` bytes of `output`
    /// holds `pieces` in that order, or `timeout` seconds pass. Unlike the screen, which
    /// may still show text from before, this sees only what came after the mark.
    /// - returns: whether it did.
    @discardableResult
    public func waitForOutput(after mark: Int, _ pieces: [String], timeout: Double = defaultTimeout) -> Bool {
        waitFor(timeout: timeout) { _ in
            var rest = self.output[min(mark, self.output.count)...]
            for piece in pieces {
                guard let found = rest.firstRange(of: Array(piece.utf8)) else { return false }
                rest = rest[found.upperBound...]
            }
            return true
        }
    }

    /// Reads what the child wrote within `timeout` seconds (returning as soon as something came).
    /// - returns: how many bytes were read.
    @discardableResult
    public func pump(timeout: Double) -> Int {
        var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(max(0, timeout * 1000).rounded(.up))) > 0 else { return 0 }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            output += buffer[0..<count]
            screen.feed(buffer[0..<count])
            total += count
            var more = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&more, 1, 0) > 0 else { break }
        }
        return total
    }

    /// Reads output until `condition` holds for the screen, or `timeout` seconds pass.
    /// - returns: whether the condition held.
    @discardableResult
    public func waitFor(timeout: Double = defaultTimeout, _ condition: (TerminalScreen) -> Bool) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while !condition(screen) {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return false }
            pump(timeout: min(0.05, Double(left.components.attoseconds) / 1e18 + Double(left.components.seconds)))
            if exit == nil { _ = reap() }
        }
        return true
    }

    /// Reads output until the screen shows `text`, or `timeout` seconds pass.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = defaultTimeout) -> Bool {
        waitFor(timeout: timeout) { $0.contains(text) }
    }

    /// Reads output until the child ends, or `timeout` seconds pass.
    /// - returns: how it ended, or nil if it still runs.
    @discardableResult
    public func waitForExit(timeout: Double = defaultTimeout) -> Exit? {
        let end = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while exit == nil, ContinuousClock.now < end {
            pump(timeout: 0.01)
            _ = reap()
        }
        pump(timeout: 0)
        return exit
    }

    /// Whether the child is stopped (SIGSTOP, SIGTSTP), waiting up to `timeout` seconds.
    public func waitForStop(timeout: Double = defaultTimeout) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < end {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid, status & 0xFF == 0x7F { return true }
            pump(timeout: 0.01)
        }
        return false
    }

    /// Collects the child's status if it has ended.
    private func reap() -> Exit? {
        if let end = ChildProcess.reap(pid) { exit = end }
        return exit
    }
}
