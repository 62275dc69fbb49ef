import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The interactive pager at a real terminal: reads keys and signals, feeds them to
/// `PagerState`, and draws the frames `PagerView` composes, one write per frame.
final class PagerSession {
    private var state: PagerState
    private var view: PagerView
    /// The fetch of due calendars running while the pager shows the copies there are.
    private var fetch: BackgroundFetch?
    /// The events as the copies are after a fetch (nil: keep those shown).
    private let reload: () -> EventStore?
    /// What the fetch had to say, written once the terminal is restored.
    private var fetchLines: [String] = []
    /// Whether today follows the clock (no `--today`): the highlight moves at midnight.
    private let followsClock: Bool
    /// The zone whose midnight moves today (`--zone`); nil: the local one.
    private let clockZone: DisplayZone?
    private var decoder = KeyDecoder()
    /// What the screen shows now; nil when unknown, so that the next frame is drawn whole.
    private var shown: Frame?
    /// Whether the terminal reports the mouse wheel (`--mouse`).
    private let mouse: Bool
    /// When the clock is looked at next: the coming local midnight.
    private var nextDay = Date.distantFuture
    /// The run's environment and where the day view's writes go (nil: the pager writes nothing).
    private let writing: (environment: RunEnvironment, settings: WriteSettings)?

    /// The signals the pager handles.
    static let signals: [Platform.Signal] = [.interrupt, .quit, .terminate, .hangUp, .terminalStop, .continue, .windowChange]
    /// The longest wait (ms) between looks at the clock.
    static let clockInterval = 60_000

    /// How a session ended.
    enum End {
        /// A quit key.
        case quit
        /// SIGINT, SIGQUIT, SIGTERM or SIGHUP: the process ends by it once the terminal is restored.
        case signal(Platform.Signal)
        /// The terminal went away.
        case hangUp
    }

    /// A session started from `settings`, showing `events` when the run reads some.
    init(settings: PagerSettings, events: EventStore? = nil, fetch: BackgroundFetch? = nil,
         reload: @escaping () -> EventStore? = { nil }, writing: (environment: RunEnvironment, settings: WriteSettings)? = nil) {
        self.fetch = fetch
        self.reload = reload
        self.writing = writing
        state = settings.state
        var view = settings.view
        view.events = events
        self.view = view
        followsClock = settings.followsClock
        clockZone = settings.clockZone
        mouse = settings.mouse
        if let events { state.setCalendars(Self.namedCalendars(events), hidden: events.hidden) }
        view.follow(state)
    }

    /// The calendars of `events` that have a name, for the list of key `c`.
    static func namedCalendars(_ events: EventStore) -> [(index: Int, name: String)] {
        events.calendars.enumerated().compactMap { index, calendar in calendar.name.map { (index, $0) } }
    }

    /// Runs the pager until a quit key or a signal and returns the exit status; the terminal
    /// is restored on every way out. Ends the process by the signal for SIGINT, SIGQUIT,
    /// SIGTERM and SIGHUP.
    /// - throws: `UsageError.unavailable` when no terminal can be opened for keys, a write
    ///   error when the terminal takes no output.
    func run() throws -> Int32 {
        let end = try session()
        for line in fetchLines { InfCal.fail(line, status: 0) }
        switch end {
        case .quit: return ExitStatus.success
        case .hangUp: return ExitStatus.failure
        case .signal(let signal): Platform.die(by: signal)
        }
    }

    /// The session proper; the terminal is restored when it returns or throws.
    private func session() throws -> End {
        guard let terminal = RawTerminal(output: FileOutput(fd: 1), mouse: mouse) else {
            throw UsageError.unavailable(option: "--paged", reason: "no terminal to read keys from (/dev/tty cannot be opened)")
        }
        // Signals are caught before the terminal changes, so none can leave it raw.
        guard let signalPipe = Platform.catchSignals(Self.signals) else {
            throw PagerFailure(description: "cannot catch signals: \(Platform.describe(errno: errno))")
        }
        defer { Platform.releaseSignals(Self.signals, readEnd: signalPipe) }
        defer { terminal.leave() }
        try terminal.enter()
        if followsClock { lookAtTheClock() }

        while true {
            try draw(on: terminal)
            // A search under way looks at keys between its slices without waiting for them.
            let timeout = state.search != nil ? 0 : decoder.hasPending ? KeyDecoder.escapeTimeout
                : followsClock ? Self.milliseconds(until: nextDay) : -1
            let ready = try Platform.waitForInput([terminal.input, signalPipe] + (fetch.map { [$0.readEnd] } ?? []), timeout: timeout)
            if let fetch, ready.contains(fetch.readEnd), let report = fetch.finished {
                // A fresher copy arrived: the same months, repainted with its events.
                self.fetch = nil
                fetchLines = report.lines
                if report.changed, let events = reload() { adopt(events) }
                continue
            }

            // Signals: when the pipe has their bytes, or poll was interrupted before it could say.
            var signals = ready.contains(signalPipe) || ready.isEmpty ? Platform.drainSignals(signalPipe) : []
            var reenter = false
            var next = 0
            while next < signals.count {
                let signal = signals[next]
                next += 1
                switch signal {
                case .interrupt, .quit, .terminate, .hangUp:
                    return .signal(signal)
                case .terminalStop where signals[next...].contains(.continue):
                    // Continued already (fg came before the stop was handled): stopping now
                    // would stop after the continue, for good.
                    reenter = true
                case .terminalStop:
                    Platform.ignoringTerminalOutputStops { terminal.leave() }
                    // A shell that saw the job stop before infcal did (`sh -c`: sh stops at
                    // once) may have continued it while the terminal was restored: stopping
                    // after that continue would stop for good.
                    let meanwhile = Platform.drainSignals(signalPipe)
                    if !meanwhile.contains(.continue) { Platform.stopProcess(resumingCatch: .terminalStop) }
                    // Back after fg: the SIGCONT that woke us is among these.
                    signals += meanwhile + Platform.drainSignals(signalPipe)
                    reenter = true
                case .continue:
                    // Also after a stop we did not see (SIGSTOP): the shell may have reset
                    // the terminal meanwhile.
                    reenter = true
                default:
                    // SIGWINCH: the next frame is composed for the new size, and the strip
                    // keeps the selected day on it.
                    state.room = view.room(for: state, size: terminal.size)
                }
            }
            if reenter {
                try terminal.enter()
                shown = nil
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
                // Screenfuls, scrolling and clicks depend on the size the terminal has now.
                switch view.handle(key, in: &state, size: terminal.size) {
                case .quit: return .quit
                case .redraw: shown = nil
                case .draw: break
                case .write(let write): perform(write)
                }
            }
            // After a timeout always (the clock may have been set), else once midnight passed.
            if followsClock, ready.isEmpty || Date() >= nextDay { lookAtTheClock() }
            if state.search != nil { view.continueSearch(&state) }
        }
    }

    /// Shows `events` (read again), the calendars hidden by name still hidden.
    private func adopt(_ events: EventStore) {
        let hiddenNames = Set(state.calendars.filter { state.hiddenCalendars.contains($0.index) }.map(\.name))
        let calendars = Self.namedCalendars(events)
        state.setCalendars(calendars, hidden: events.hidden.union(calendars.filter { hiddenNames.contains($0.name) }.map(\.index)))
        view.events = events
        view.follow(state)
    }

    // MARK: Writes

    /// Does the day view's `write` as `infcal add`, `edit` or `delete` would (the same command,
    /// the same writer), says on the status line how it went, and shows the events as they are then.
    private func perform(_ write: PagerState.Write) {
        guard let writing else {
            state.report("this pager writes no events", isError: true)
            return
        }
        let occurrences = view.dayOccurrences(for: state)
        let change: EventChange?
        do {
            change = try EventChange.fromPager(write) { index in
                guard occurrences.indices.contains(index), !occurrences[index].uid.isEmpty else { return nil }
                let occurrence = occurrences[index]
                let events = view.events?.events
                let recurring = occurrence.event.flatMap { events?.indices.contains($0) == true ? events?[$0] : nil }?.isRecurring ?? false
                // As `--agenda --uid` prints it, which the writer reads back exactly.
                return (InertText.uid(occurrence.uid), recurring)
            }
        } catch {
            state.report(error.description, isError: true)
            return
        }
        guard let change else {
            state.report("that event is gone; nothing was written", isError: true)
            return
        }
        switch WriteRun.attempt(ChangeRun(change: change, writes: writing.settings), environment: writing.environment) {
        case .success(let line):
            state.report(line.replacingOccurrences(of: "\t", with: "  "), isError: false)
            if let events = reload() { adopt(events) }
            state.keepHighlight(within: view.dayOccurrences(for: state).count)
        case .failure(let failure):
            state.report(failure.message, isError: true)
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

    /// Sets today from the local clock (as the C library reads TZ, or in the zone `--zone`
    /// names) and notes when the next day starts.
    private func lookAtTheClock() {
        let now = Date()
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        if let zone = clockZone {
            let civil = CivilTime.floorDiv(seconds + zone.offset(seconds), CivilTime.secondsPerDay)
            state.setToday(CivilTime.dayNumber(ofCivilDay: civil))
            // Its next midnight: the first instant of the next day on its clock.
            let next = CivilTime.utc(ofLocal: (civil + 1) * CivilTime.secondsPerDay, offset: zone.offset)
            nextDay = Date(timeIntervalSince1970: Double(max(next, seconds + 1)))
        } else {
            if let local = Platform.localDate(at: seconds), let today = Today.dayNumber(of: local) { state.setToday(today) }
            nextDay = Platform.nextLocalDay(after: seconds).map { Date(timeIntervalSince1970: Double($0)) }
                ?? now.addingTimeInterval(Double(Self.clockInterval) / 1000)
        }
        state.setNow(seconds)
    }

    /// Milliseconds until just after `date`, at most `clockInterval` (a machine that slept, or
    /// a clock that was set, is noticed within that).
    static func milliseconds(until date: Date) -> Int {
        let milliseconds = Int((date.timeIntervalSinceNow * 1000).rounded(.up)) + 10
        return min(clockInterval, max(10, milliseconds))
    }
}

/// A failure of the pager that is not the user's: reported as is, exit status 1.
struct PagerFailure: Error, CustomStringConvertible {
    let description: String
}
