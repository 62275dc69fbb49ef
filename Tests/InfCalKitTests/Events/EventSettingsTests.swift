import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Resolving `--events`, `INFCAL_EVENTS`, `--agenda` and `--strict`.
@Suite struct EventSettingsTests {
    func settings(_ arguments: [String], terminal: Bool = false, variables: [String: String] = [:]) throws -> EventSettings {
        let environment = Fixture.environment(terminal: terminal, variables: variables)
        let raw = try ArgumentParser.parse(arguments)
        return try Configuration.resolveRun(raw, environment: environment).events
    }

    @Test func sourcesComeFromOptionsElseTheVariable() throws {
        let variables = ["INFCAL_EVENTS": "/a.ics::/b"]
        #expect(try settings([], variables: variables).sources.compactMap(\.path) == ["/a.ics", "/b"])
        // The variable acts as --events does: its events are read in every view.
        #expect(try settings([], variables: variables).needsEvents)
        #expect(try settings([], variables: ["INFCAL_EVENTS": "::"]).needsEvents == false)
        #expect(try settings([]).needsEvents == false)
        let given = try settings(["--events", "x.ics", "--events", "-"], variables: variables)
        #expect(given.sources.compactMap(\.path) == ["x.ics", "-"])
        #expect(given.sources.allSatisfy { $0.name == nil })
        #expect(given.needsEvents)
        #expect(try settings(["--strict"]).strict)
    }

    @Test func agendaSpan() throws {
        // In a pipe: until a bound; at a terminal: a year unless a count or bound ends it.
        #expect(try settings(["--events", "x", "--agenda"]).agenda?.months == nil)
        #expect(try settings(["--events", "x", "--agenda"], terminal: true).agenda?.months == AgendaPlan.terminalMonths)
        #expect(try settings(["--events", "x", "--agenda", "--until", "2030"], terminal: true).agenda?.months == nil)
        #expect(try settings(["--events", "x", "--agenda", "--forward", "3"], terminal: true).agenda?.months == 3)
        // The start: today (2024-02-15), the first day of --from, or its last going backward.
        #expect(try settings(["--events", "x", "--agenda"]).agenda?.startDay == Fixture.day(2024, 2, 15))
        #expect(try settings(["--events", "x", "--agenda", "--from", "2024-03"]).agenda?.startDay == Fixture.day(2024, 3, 1))
        let backward = try settings(["--events", "x", "--agenda", "--from", "2024-03", "--backward", "2"]).agenda
        #expect(backward?.backward == true)
        #expect(backward?.startDay == Fixture.day(2024, 3, 31))
        #expect(try settings(["--events", "x", "--agenda"], terminal: true).agenda?.width == 80)
    }

    @Test func agendaConflicts() {
        #expect(throws: UsageError.conflict("--agenda", "--year")) { try settings(["--events", "x", "--agenda", "--year"]) }
        #expect(throws: UsageError.conflict("--agenda", "--calendar list")) { try settings(["--events", "x", "--agenda", "--calendar", "list"]) }
        #expect(throws: UsageError.self) { try settings(["--agenda"]) }
    }
}
