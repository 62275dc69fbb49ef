import Foundation
import InfCalKit

/// The interactive pager at a real terminal: reads keys and signals, feeds them to
/// `PagerState`, and draws the frames `PagerView` composes, one write per frame.
final class PagerSession {
    private var state: PagerState
    private let view: PagerView
    /// Whether today follows the clock (no `--today`): the highlight moves at midnight.
    private let followsClock: Bool
    private var decoder = KeyDecoder()
    /// What the screen shows now; nil when unknown, so that the next frame is drawn whole.
    private var shown: Frame?

    /// The signals the pager handles.
    static let signals: [Platform.Signal] = [.interrupt, .terminate, .hangUp, .terminalStop, .continue, .windowChange]
    /// The longest wait (ms) between looks at the clock.
    static let clockInterval = 60_000

    /// How a session ended.
    enum End {
        /// A quit key.
        case quit
        /// SIGINT, SIGTERM or SIGHUP: the process ends by it once the terminal is restored.
        case signal(Platform.Signal)
        /// The terminal went away.
        case hangUp
    }

    init(configuration: Configuration, automaticColumns: Bool, followsClock: Bool) {
        state = PagerState(calendar: configuration.calendar, start: configuration.start,
                           bounds: configuration.bounds, today: configuration.today)
        view = PagerView(configuration: configuration, automaticColumns: automaticColumns)
        self.followsClock = followsClock
    }

    /// Runs the pager until a quit key or a signal and returns the exit status; the terminal
    /// is restored on every way out. Ends the process by the signal for SIGINT, SIGTERM and
    /// SIGHUP.
    /// - throws: `UsageError.unavailable` when no terminal can be opened for keys, a write
    ///   error when the terminal takes no output.
    func run() throws -> Int32 {
        switch try session() {
        case .quit: return ExitStatus.success
        case .hangUp: return ExitStatus.failure
        case .signal(let signal): Platform.die(by: signal)
        }
    }

    /// The session proper; the terminal is restored when it returns or throws.
    private func session() throws -> End {
        guard let terminal = RawTerminal(output: FileOutput(fd: 1)) else {
            throw UsageError.unavailable(option: "--paged", reason: "no terminal to read keys from (/dev/tty cannot be opened)")
        }
        // Signals are caught before the terminal changes, so none can leave it raw.
        guard let signalPipe = Platform.catchSignals(Self.signals) else {
            throw Platform.WriteError.failed(errno)
        }
        defer { Platform.releaseSignals(Self.signals, readEnd: signalPipe) }
        try terminal.enter()
        defer { terminal.leave() }

        while true {
            try draw(on: terminal)
            let timeout = decoder.hasPending ? KeyDecoder.escapeTimeout
                : followsClock ? Self.millisecondsToNextDay() : -1
            let ready = try Platform.waitForInput([terminal.input, signalPipe], timeout: timeout)

            // Signals: when the pipe has their bytes, or poll was interrupted before it could say.
            let signals = ready.contains(signalPipe) || ready.isEmpty ? Platform.drainSignals(signalPipe) : []
            for signal in signals {
                switch signal {
                case .interrupt, .terminate, .hangUp:
                    return .signal(signal)
                case .terminalStop:
                    terminal.leave()
                    Platform.stopProcess(resumingCatch: .terminalStop)
                    try terminal.enter()
                    shown = nil
                case .continue:
                    // Continued after a stop we did not see (SIGSTOP): the shell may have
                    // reset the terminal, so raw mode and the whole screen again.
                    try terminal.enter()
                    shown = nil
                default:
                    // SIGWINCH: the next frame is composed for the new size.
                    break
                }
            }

            var keys: [Key] = []
            if ready.contains(terminal.input) {
                switch Platform.readAvailable(terminal.input) {
                case .bytes(let bytes): keys = decoder.feed(bytes)
                case .endOfFile: return .hangUp
                case .interrupted: break
                case .failed(let code): throw Platform.WriteError.failed(code)
                }
            } else if ready.isEmpty, decoder.hasPending {
                // No byte followed an Esc in time: it was the Esc key.
                keys = decoder.flush()
            }
            for key in keys {
                switch state.handle(key) {
                case .quit: return .quit
                case .redraw: shown = nil
                case .draw: break
                }
            }
            if followsClock, let today = Self.localToday() { state.setToday(today) }
        }
    }

    /// Draws the frame for the state at the terminal's size, writing only what changed.
    private func draw(on terminal: RawTerminal) throws {
        let frame = view.frame(for: state, size: terminal.size)
        let bytes = FrameDiff.bytes(from: shown, to: frame)
        if !bytes.isEmpty { try terminal.output.write(bytes) }
        shown = frame
    }

    // MARK: The clock

    /// The local calendar, in the process's zone (TZ).
    private static func localCalendar() -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    /// Today's day number in the local zone, or nil if Foundation cannot say.
    static func localToday() -> Int? {
        let parts = localCalendar().dateComponents([.year, .month, .day], from: Date())
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return Today.dayNumber(year: year, month: month, day: day)
    }

    /// Milliseconds until just after the next local midnight, at most `clockInterval` (a
    /// machine that slept, or a clock that was set, is noticed within that).
    static func millisecondsToNextDay() -> Int {
        let calendar = localCalendar()
        let now = Date()
        guard let next = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0),
                                           matchingPolicy: .nextTime) else { return clockInterval }
        let milliseconds = Int((next.timeIntervalSince(now) * 1000).rounded(.up)) + 10
        return min(clockInterval, max(10, milliseconds))
    }
}
