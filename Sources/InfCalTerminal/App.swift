import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The program: arguments in, exit status out.
public enum InfCal {
    /// Runs infcal with `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        // A malformed TZ crashes Foundation's zone code; it counts as unset (UTC), as a
        // malformed locale counts as C. Should the restart fail, Foundation is told UTC itself.
        if Platform.restartWithout(ZoneSetting.variables, unless: ZoneSetting.isWellFormed) {
            NSTimeZone.default = TimeZone(secondsFromGMT: 0) ?? NSTimeZone.default
        }
        // Before ICU reads its default locale: a malformed locale name counts as C.
        Platform.replaceEnvironment(LocaleSetting.variables + LocaleSetting.icuVariables,
                                    unless: { $0.isEmpty || LocaleName.isWellFormed($0) }, with: "C")
        Platform.ignoreBrokenPipe()
        let standardOutput = FileOutput(fd: 1)
        let environment = currentEnvironment()
        let plan: RunPlan
        do {
            plan = try RunPlan.resolve(arguments, environment: environment, readConfig: ConfigRun.read)
        } catch let error as ConfigError {
            return fail(error.description, status: ExitStatus.config)
        } catch {
            return fail("\(error)", status: ExitStatus.usage)
        }
        do {
            switch plan {
            case .answer(let text):
                try standardOutput.write(text)
            case .listCalendars(let run):
                try standardOutput.write(run.lines().map { $0 + "\n" }.joined())
            case .months(let run):
                switch EventRun.run(run.events, environment: environment) {
                case .finished(let status): return status
                case .months(let store): try run.print(events: store, to: standardOutput)
                }
            case .agenda(let run):
                switch EventRun.run(run.events, environment: environment) {
                case .finished(let status): return status
                case .months(let store): if let store { try run.print(store, to: standardOutput) }
                }
            case .week(let run):
                switch EventRun.run(run.events, environment: environment) {
                case .finished(let status): return status
                case .months(let store): try run.print(events: store, to: standardOutput)
                }
            case .pager(let run):
                var store: EventStore?
                switch EventRun.run(run.events, environment: environment) {
                case .finished(let status): return status
                case .months(let events): store = events
                }
                // The pager opens on the copies there are and repaints when a fetch brings fresher ones.
                let fetch = run.events.needsEvents ? BackgroundFetch(run.events) : nil
                return try PagerSession(settings: run.settings, events: store, fetch: fetch,
                                        reload: { EventRun.reread(run.events, environment: environment) },
                                        writing: (environment, run.writes)).run()
            case .change(let run):
                return WriteRun.run(run, environment: environment, output: standardOutput)
            case .check(let run):
                return try CheckRunner.run(run, output: standardOutput)
            }
        } catch Platform.WriteError.closed {
            // The reader went away: the output ends here, and that is no error.
            return ExitStatus.success
        } catch let error as UsageError {
            return fail(error.description, status: ExitStatus.usage)
        } catch Platform.WriteError.failed(let code) {
            return fail("write error: \(Platform.describe(errno: code))", status: ExitStatus.failure)
        } catch {
            return fail("\(error)", status: ExitStatus.failure)
        }
        return ExitStatus.success
    }

    /// Objects left for the process's exit to reclaim.
    nonisolated(unsafe) static var keptUntilExit: [AnyObject] = []

    /// The process's surroundings: variables, whether stdout is a terminal and how wide, and
    /// today's date in the local zone, as the C library reads TZ.
    static func currentEnvironment() -> RunEnvironment {
        let isTerminal = Platform.isTerminal(1)
        Platform.readTimeZone()
        var environment = RunEnvironment(
            setVariables: Platform.environment(RunEnvironment.variableNames),
            stdoutIsTerminal: isTerminal,
            terminalWidth: isTerminal ? Platform.windowSize(1)?.columns : nil,
            localToday: Platform.localDate() ?? DayNumber.localDate(of: Date(), in: .gmt),
            keyboardIsAvailable: isTerminal && Platform.controllingTerminalIsAvailable()
        )
        environment.displayZone = DisplayZone { Platform.localOffset(atUTC: $0) }
        environment.now = Platform.secondsNow()
        environment.defaultCalendarExists = environment.defaultCalendarPath.map(Platform.exists) ?? false
        return environment
    }

    /// Prints "infcal: `message`" on standard error and returns `status`. The values a message
    /// quotes are echoed inert where it is made; the whole line passes `InertText.echo` once
    /// more (which leaves escaped text as it is), so that no control character, line break or
    /// bidirectional control from outside can reach the terminal even where a message forgot.
    @discardableResult
    static func fail(_ message: String, status: Int32) -> Int32 {
        try? FileOutput(fd: 2).write("infcal: \(InertText.echo(message, limit: Int.max))\n")
        return status
    }
}
