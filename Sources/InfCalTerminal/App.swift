import Foundation
import InfCalKit

/// The program: arguments in, exit status out.
public enum InfCal {
    /// Runs infcal with `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        Platform.ignoreBrokenPipe()
        let standardOutput = FileOutput(fd: 1)
        let raw: RawOptions
        let special: Configuration.Mode?
        do {
            raw = try ArgumentParser.parse(arguments)
            special = try Configuration.specialMode(of: raw)
        } catch {
            return fail(error.description, status: ExitStatus.usage)
        }
        do {
            // Help, version and completions first: nothing else is resolved for them.
            if let special {
                try answer(special, to: standardOutput)
                return ExitStatus.success
            }
            let configuration = try Configuration.resolve(raw, environment: currentEnvironment())
            switch configuration.mode {
            case .help, .version, .completions:
                try answer(configuration.mode, to: standardOutput)
            case .listCalendars:
                try standardOutput.write(configuration.calendarList().map { $0 + "\n" }.joined())
            case .forward, .backward, .single, .year, .months:
                try configuration.printMonths(to: standardOutput)
            case .paged:
                return try PagerSession(configuration: configuration).run()
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

    /// Writes the text of `--help`, `--version` or `--completions SHELL`.
    static func answer(_ mode: Configuration.Mode, to output: FileOutput) throws {
        switch mode {
        case .help: try output.write(HelpText.text)
        case .version: try output.write(HelpText.version + "\n")
        case .completions(let shell): try output.write(Completions.script(for: shell))
        default: break
        }
    }

    /// The process's surroundings: variables, whether stdout is a terminal and how wide, and
    /// today's date in the local zone.
    static func currentEnvironment() -> RunEnvironment {
        let isTerminal = Platform.isTerminal(1)
        return RunEnvironment(
            setVariables: Platform.environment(RunEnvironment.variableNames),
            stdoutIsTerminal: isTerminal,
            terminalWidth: isTerminal ? Platform.windowSize(1)?.columns : nil,
            localToday: Platform.localDate() ?? DayNumber.localDate(of: Date(), in: .current),
            keyboardIsAvailable: isTerminal && Platform.controllingTerminalIsAvailable()
        )
    }

    /// Prints "infcal: `message`" on standard error and returns `status`.
    static func fail(_ message: String, status: Int32) -> Int32 {
        try? FileOutput(fd: 2).write("infcal: \(message)\n")
        return status
    }
}
