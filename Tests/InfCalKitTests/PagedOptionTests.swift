import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

@Suite struct PagedOptionTests {
    static func environment(terminal: Bool = true, keyboard: Bool = true, term: String? = "xterm") -> RunEnvironment {
        var variables: [String: String] = [:]
        variables["TERM"] = term
        return RunEnvironment(variables: variables, stdoutIsTerminal: terminal, terminalWidth: terminal ? 80 : nil,
                              localToday: (2024, 2, 15), keyboardIsAvailable: keyboard)
    }

    static func mode(_ arguments: [String], _ environment: RunEnvironment) throws -> Configuration.Mode {
        try Configuration.resolve(try ArgumentParser.parse(arguments), environment: environment).mode
    }

    @Test func aTerminalWithNoDirectionPages() throws {
        #expect(try Self.mode([], Self.environment()) == .paged)
        #expect(try Self.mode(["--paged"], Self.environment()) == .paged)
        #expect(try Self.mode(["--paged", "--columns", "2", "--until", "2030"], Self.environment()) == .paged)
    }

    @Test func withoutAPagerTheTerminalGetsOneMonth() throws {
        #expect(try Self.mode([], Self.environment(keyboard: false)) == .single)
        #expect(try Self.mode([], Self.environment(term: "dumb")) == .single)
        #expect(try Self.mode([], Self.environment(term: nil)) == .single)
        #expect(try Self.mode([], Self.environment(terminal: false)) == .forward(count: nil))
        #expect(try Self.mode(["--forward", "2"], Self.environment()) == .forward(count: 2))
    }

    struct Refusal: Sendable {
        let arguments: [String]
        let terminal: Bool
        let keyboard: Bool
        let term: String?
        let error: UsageError
    }

    @Test(arguments: [
        Refusal(arguments: ["--paged"], terminal: false, keyboard: false, term: "xterm",
                error: .unavailable(option: "--paged", reason: "standard output is not a terminal")),
        Refusal(arguments: ["--paged"], terminal: true, keyboard: false, term: "xterm",
                error: .unavailable(option: "--paged", reason: "no terminal to read keys from (/dev/tty cannot be opened)")),
        Refusal(arguments: ["--paged"], terminal: true, keyboard: true, term: "dumb",
                error: .unavailable(option: "--paged", reason: "TERM is dumb, so the terminal cannot move its cursor")),
        Refusal(arguments: ["--paged"], terminal: true, keyboard: true, term: nil,
                error: .unavailable(option: "--paged", reason: "TERM is unset, so the terminal cannot move its cursor")),
        Refusal(arguments: ["--paged", "--forward"], terminal: true, keyboard: true, term: "xterm",
                error: .conflict("--paged", "--forward")),
        Refusal(arguments: ["--backward=3", "--paged"], terminal: true, keyboard: true, term: "xterm",
                error: .conflict("--paged", "--backward")),
    ])
    func refusals(_ refusal: Refusal) throws {
        let environment = Self.environment(terminal: refusal.terminal, keyboard: refusal.keyboard, term: refusal.term)
        #expect(throws: refusal.error) { try Self.mode(refusal.arguments, environment) }
    }

    @Test func helpListsPaged() {
        #expect(HelpText.text.contains("    --paged  "))
        #expect(OptionSpec.spec(.paged).long == "paged")
    }
}
