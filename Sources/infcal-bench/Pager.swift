#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: Measure 4: paged mode, a key press to the finished repaint
//
// HOOK FOR THE PAGER BRANCH. The pager (`--paged`) is built on another branch. Until
// `infcal --help` lists `--paged`, the table says "pager: not measured (no --paged in this
// build)". To measure it, write `PagerBenchmark.keyPressToRepaint` below; everything around it
// (the pseudo-terminal, starting infcal on it as its controlling terminal, reading with a
// deadline, the medians and the table row) is here already.

/// Measure 4: the time from a key press to the end of the repaint it causes, under a pseudo-terminal.
enum PagerBenchmark {
    /// Whether the infcal measured has a pager, as its `--help` says.
    static func isAvailable(help: String) -> Bool {
        help.contains("--paged")
    }

    /// One sample per key press, in seconds: from writing the key to the pseudo-terminal to
    /// reading the last byte of the repaint. nil while nobody has written the measurement.
    ///
    /// To write it: open a `PseudoTerminal(rows:columns:)`, start
    /// `Processes.spawn(infcal, ["--paged", "--from", "2024-01"], streams: .terminal(slavePath: terminal.slavePath))`,
    /// `terminal.readUntil(...)` the first screen, then for each of `presses` keys
    /// (`terminal.write("j")` and the like) take `Processes.now()` before the write and after
    /// `readUntil` sees the end of the frame (whatever the pager ends a frame with, e.g. the
    /// cursor placed on the status line); send the quit key and `Processes.wait(pid)` at the end.
    static func keyPressToRepaint(infcal: String, presses: Int) throws -> [Double]? {
        nil
    }
}

/// A pseudo-terminal pair: the benchmark holds the master side, a child gets the slave side.
final class PseudoTerminal {
    /// The master side's descriptor: what is written here the child reads as typed keys.
    let master: Int32
    /// The slave side's path, for `Processes.Streams.terminal`.
    let slavePath: String

    /// Opens a pseudo-terminal of `rows` x `columns`.
    /// - throws: `BenchError.failed` when the system has none to give.
    init(rows: Int, columns: Int) throws {
        // posix_openpt, grantpt, unlockpt and ptsname are not visible through the Glibc module;
        // on Linux they come down to these ioctls on /dev/ptmx.
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        let setLock: UInt = 0x4004_5431    // TIOCSPTLCK
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            let reason = String(cString: strerror(errno))
            if master >= 0 { close(master) }
            throw BenchError.failed("cannot open a pseudo-terminal: \(reason)")
        }
        slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    deinit {
        close(master)
    }

    /// Types `text`.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(master, &bytes, bytes.count)
    }

    /// Reads what the child writes until `isComplete` says the bytes so far are complete or
    /// `timeout` seconds pass.
    /// - returns: the bytes read, and whether `isComplete` was met.
    func readUntil(timeout: Double, _ isComplete: ([UInt8]) -> Bool) -> (bytes: [UInt8], complete: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let end = Processes.now() + timeout
        while true {
            let left = end - Processes.now()
            if left <= 0 { return (bytes, false) }
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(max(1, left * 1000)))
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return (bytes, false) }
            let count = read(master, &chunk, chunk.count)
            // EIO: the child closed its side, so nothing more will come.
            if count <= 0 { return (bytes, isComplete(bytes)) }
            bytes.append(contentsOf: chunk[..<count])
            if isComplete(bytes) { return (bytes, true) }
        }
    }
}
