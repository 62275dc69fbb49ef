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
        let raw: RawOptions
        let special: Configuration.Special?
        let configuration: Configuration?
        let events: EventSettings?
        let environment = currentEnvironment()
        if let first = arguments.first, let subcommand = Subcommand.named(first) {
            return WriteRun.run(subcommand, Array(arguments.dropFirst()), environment: environment, output: standardOutput)
        }
        do {
            raw = try ArgumentParser.parse(arguments)
            // --help, --version and --completions answer before anything else is resolved, so
            // other options' values do not matter then.
            special = try Configuration.specialMode(of: raw)
            if special == nil {
                let (file, config) = try ConfigRun.load(raw, environment: environment)
                let resolved = try Configuration.resolve(raw, config: config, file: file, environment: environment)
                configuration = resolved.configuration
                events = resolved.events
            } else {
                (configuration, events) = (nil, nil)
            }
        } catch let error as ConfigError {
            return fail(error.description, status: ExitStatus.config)
        } catch {
            return fail("\(error)", status: ExitStatus.usage)
        }
        do {
            guard let configuration, let events else {
                try answer(special ?? .help, to: standardOutput)
                return ExitStatus.success
            }
            let output = configuration.output(events: events)
            var store: EventStore?
            // The list of calendars reads no events.
            if output != .calendarList {
                switch EventRun.run(events, configuration: configuration, environment: environment,
                                        fetchLater: configuration.mode == .paged) {
                case .finished(let status): return status
                case .months(let events): store = events
                }
            }
            // Forward, what is under way on the first day listed is listed with that day's month.
            var listedFrom: Int? {
                if case .backward = configuration.mode { return nil }
                return configuration.months().first { _ in true }?.firstDay
            }
            switch output {
            case .calendarList:
                try standardOutput.write(configuration.calendarList().map { $0 + "\n" }.joined())
            case .agenda, .agendaJSON:
                guard let plan = events.agenda, let store else { break }
                try EventRun.printAgenda(plan, store: store, configuration: configuration, json: output == .agendaJSON,
                                         to: standardOutput)
            case .json:
                var printer = JSONLinesPrinter(renderer: configuration.makeRenderer(), locale: configuration.locale, store: store)
                printer.listedFrom = listedFrom
                try printer.print(configuration.months(), to: standardOutput)
            case .wall, .grids:
                if let store, var pages = configuration.makePagePrinter() {
                    pages.events = store
                    try pages.print(configuration.months(), to: standardOutput)
                } else if let store {
                    var printer = configuration.makePrinter()
                    printer.events = StreamEvents(store: store, marksDays: configuration.color, locale: configuration.locale,
                                                  trueColor: configuration.trueColor)
                    printer.events?.listedFrom = listedFrom
                    // At a terminal the lines are cut to its width; into a pipe or a file they are whole.
                    printer.events?.width = environment.cutWidth
                    try printer.print(configuration.months(), to: standardOutput)
                } else {
                    try configuration.printMonths(to: standardOutput)
                }
            case .pager:
                // The pager opens on the copies there are and repaints when a fetch brings fresher ones.
                let fetch = events.needsEvents ? BackgroundFetch(events) : nil
                return try PagerSession(settings: configuration.pagerSettings(), events: store, fetch: fetch,
                                        reload: { EventRun.reread(events, environment: environment) },
                                        writing: environment, eventPaths: events.sources.filter { $0.name == nil }.compactMap(\.path),
                                        options: raw).run()
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

    /// Writes the text of `--help`, `--version` or `--completions SHELL`.
    static func answer(_ special: Configuration.Special, to output: FileOutput) throws {
        switch special {
        case .help: try output.write(HelpText.text)
        case .version: try output.write(HelpText.version + "\n")
        case .completions(let shell): try output.write(Completions.script(for: shell))
        }
    }

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
