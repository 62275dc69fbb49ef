import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The one resolve step: arguments, the config file and the environment in, the run plan out.
/// Which kind of run each command line is, where the output mode, the months and the event
/// window are decided once. Today is fixed (2024-02-15), the locale is C, no variables.
@Suite struct RunPlanTests {
    /// What a plan says, in words a table can hold.
    enum Kind: Equatable, CustomStringConvertible {
        case answer, listCalendars, grids, wall, json, agenda, agendaJSON, week, weekJSON, pager, add, edit, delete
        case check, checkJSON

        var description: String { "\(self)" }
    }

    static func kind(_ plan: RunPlan) -> Kind {
        switch plan {
        case .answer: return .answer
        case .listCalendars: return .listCalendars
        case .months(let run):
            switch run.form {
            case .grids: return .grids
            case .wall: return .wall
            case .json: return .json
            }
        case .agenda(let run): return run.json ? .agendaJSON : .agenda
        case .week(let run): return run.json ? .weekJSON : .week
        case .pager: return .pager
        case .change(let run):
            switch run.change {
            case .add: return .add
            case .edit: return .edit
            case .delete: return .delete
            }
        case .check(let run): return run.json ? .checkJSON : .check
        }
    }

    /// A terminal with a keyboard (the pager can run), or a pipe.
    static func environment(terminal: Bool, keyboard: Bool = true) -> RunEnvironment {
        RunEnvironment(variables: terminal ? ["TERM": "xterm"] : [:], stdoutIsTerminal: terminal, terminalWidth: terminal ? 80 : nil,
                       localToday: (2024, 2, 15), keyboardIsAvailable: keyboard)
    }

    /// No config file anywhere.
    static func none(_ path: String, _ limit: Int) -> ConfigRead { .failed(reason: "no such file", isMissing: true) }

    static func plan(_ arguments: [String], terminal: Bool = false, keyboard: Bool = true) throws -> RunPlan {
        try RunPlan.resolve(arguments, environment: environment(terminal: terminal, keyboard: keyboard), readConfig: none)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        var terminal = false
        var keyboard = true
        let kind: Kind
        /// How the months follow the first, where the run shows months.
        var walk: ShownMonths.Walk?
        var testDescription: String { arguments.joined(separator: " ") + (terminal ? " (terminal)" : "") }
    }

    static let cases: [Case] = [
        Case(arguments: ["--help"], kind: .answer),
        Case(arguments: ["-V"], kind: .answer),
        Case(arguments: ["--completions", "fish"], kind: .answer),
        Case(arguments: ["add", "--help"], kind: .answer),
        Case(arguments: ["--calendar", "list"], kind: .listCalendars, walk: ShownMonths.Walk.none),
        Case(arguments: [], kind: .grids, walk: .forward(count: nil)),
        Case(arguments: [], terminal: true, kind: .pager),
        Case(arguments: [], terminal: true, keyboard: false, kind: .grids, walk: .single),
        Case(arguments: ["--paged"], terminal: true, kind: .pager),
        Case(arguments: ["-3"], kind: .grids, walk: .run(count: 3)),
        Case(arguments: ["-y"], terminal: true, kind: .grids, walk: .year),
        Case(arguments: ["--backward", "2"], kind: .grids, walk: .backward(count: 2)),
        Case(arguments: ["--json"], kind: .json, walk: .forward(count: nil)),
        Case(arguments: ["--json"], terminal: true, kind: .json, walk: .single),
        Case(arguments: ["--wall"], kind: .wall, walk: .forward(count: nil)),
        Case(arguments: ["--wall"], terminal: true, kind: .wall, walk: .single),
        Case(arguments: ["--agenda", "--events", "x.ics"], kind: .agenda, walk: .eventful(backward: false)),
        Case(arguments: ["--agenda", "--events", "x.ics", "--forward", "3"], kind: .agenda, walk: .forward(count: 3)),
        Case(arguments: ["--agenda", "--events", "x.ics", "--backward"], kind: .agenda, walk: .eventful(backward: true)),
        // At a terminal the agenda is the agenda (a year of it), not the pager.
        Case(arguments: ["--agenda", "--events", "x.ics"], terminal: true, kind: .agenda, walk: .forward(count: 12)),
        Case(arguments: ["--agenda", "--json", "--events", "x.ics"], kind: .agendaJSON, walk: .eventful(backward: false)),
        // --week prints weeks, even at a terminal; with --json as objects.
        Case(arguments: ["--week"], kind: .week),
        Case(arguments: ["--week"], terminal: true, kind: .week),
        Case(arguments: ["--week", "2024-03-27", "--json"], kind: .weekJSON),
        Case(arguments: ["--paged", "--view", "week"], terminal: true, kind: .pager),
        Case(arguments: ["add", "tomorrow", "Lunch"], kind: .add),
        Case(arguments: ["edit", "uid-1", "--summary", "New"], kind: .edit),
        Case(arguments: ["delete", "uid-1"], kind: .delete),
        Case(arguments: ["check", "--events", "x.ics"], kind: .check),
        Case(arguments: ["check", "--json"], kind: .checkJSON),
        Case(arguments: ["check", "--help"], kind: .answer),
    ]

    @Test(arguments: cases)
    func resolves(_ example: Case) throws {
        let plan = try Self.plan(example.arguments, terminal: example.terminal, keyboard: example.keyboard)
        #expect(Self.kind(plan) == example.kind)
        switch plan {
        case .months(let run): #expect(run.months.walk == example.walk)
        case .agenda(let run): #expect(run.months.walk == example.walk)
        default: #expect(example.walk == nil || example.walk == ShownMonths.Walk.none)
        }
    }

    /// The answers are the texts the tables make.
    @Test func answers() throws {
        #expect(try Self.plan(["--help"]).answer == HelpText.text)
        #expect(try Self.plan(["--version"]).answer == HelpText.version + "\n")
        #expect(try Self.plan(["--completions", "bash"]).answer == Completions.script(for: "bash"))
        #expect(try Self.plan(["edit", "--help"]).answer == Subcommand.named("edit")?.helpText)
        #expect(throws: UsageError.invalidValue(option: "--completions", value: "tcsh", expected: "bash, zsh or fish")) {
            try Self.plan(["--completions", "tcsh"])
        }
    }

    /// The window the event cache decodes for is the days of the months shown: one month, a
    /// year, an agenda of three months; none for an endless stream or the pager, which reads
    /// every calendar with its details and fetches while it shows.
    @Test func eventWindows() throws {
        let march = try #require(Fixture.month(2024, 3))
        guard case .months(let one) = try Self.plan(["--events", "x.ics", "--from", "2024-03", "-1"]) else { Issue.record("no months"); return }
        #expect(one.events.window == march.firstDay..<march.endDay)
        #expect(!one.events.interactive)
        guard case .months(let year) = try Self.plan(["--events", "x.ics", "-y", "2024"]) else { Issue.record("no months"); return }
        #expect(year.events.window == Fixture.day(2024, 1, 1)..<Fixture.day(2025, 1, 1))
        guard case .agenda(let agenda) = try Self.plan(["--events", "x.ics", "--agenda", "--from", "2024-03", "--forward", "3"]) else {
            Issue.record("no agenda"); return
        }
        #expect(agenda.events.window == march.firstDay..<Fixture.day(2024, 6, 1))
        guard case .months(let endless) = try Self.plan(["--events", "x.ics"]) else { Issue.record("no months"); return }
        #expect(endless.events.window == nil)
        guard case .pager(let pager) = try Self.plan(["--events", "x.ics"], terminal: true) else { Issue.record("no pager"); return }
        #expect(pager.events.window == nil)
        #expect(pager.events.interactive)
        #expect(pager.writes.searchPaths.contains("x.ics"))
    }

    /// The config file is read once, by the resolve step, for the months and for a write
    /// alike; its options and calendars reach the plan.
    @Test func theConfigFileIsReadOnce() throws {
        var reads: [String] = []
        let config = "[options]\njson = yes\n\n[events work]\npath = /cal/work.ics\n"
        let read = { (path: String, _: Int) -> ConfigRead in
            reads.append(path)
            return .bytes(Array(config.utf8))
        }
        let environment = RunEnvironment(variables: ["INFCAL_CONFIG": "/etc/infcal.conf", "INFCAL_EVENTS": "/a.ics:/b"],
                                         stdoutIsTerminal: false, terminalWidth: nil, localToday: (2024, 2, 15))
        let months = try RunPlan.resolve(["-1"], environment: environment, readConfig: read)
        #expect(Self.kind(months) == .json)
        #expect(reads == ["/etc/infcal.conf"])
        reads = []
        guard case .change(let run) = try RunPlan.resolve(["add", "x", "--to", "work"], environment: environment, readConfig: read) else {
            Issue.record("no change"); return
        }
        #expect(reads == ["/etc/infcal.conf"])
        #expect(run.writes.calendars.map(\.name) == ["work"])
        #expect(run.writes.searchPaths == ["/a.ics", "/b"])
        // --help answers without reading it.
        reads = []
        _ = try RunPlan.resolve(["add", "--help"], environment: environment, readConfig: read)
        _ = try RunPlan.resolve(["--help"], environment: environment, readConfig: read)
        #expect(reads.isEmpty)
    }

    /// `check` reads the calendars every run reads: the config file's, then --events (else
    /// INFCAL_EVENTS's paths), and the default calendar when no --events is given; it takes
    /// no operand, and a bad config file is the config's error (78).
    @Test func checkReadsTheCalendarsEveryRunReads() throws {
        let config = "[events work]\npath = /cal/work.ics\n\n[events feed]\nurl = https://example.org/f.ics\n"
        let read = { (_: String, _: Int) -> ConfigRead in .bytes(Array(config.utf8)) }
        var environment = RunEnvironment(variables: ["INFCAL_EVENTS": "/a.ics:/b", "HOME": "/home/u"],
                                         stdoutIsTerminal: false, terminalWidth: nil, localToday: (2024, 2, 15))
        environment.defaultCalendarExists = true
        guard case .check(let plain) = try RunPlan.resolve(["check"], environment: environment, readConfig: read) else {
            Issue.record("no check"); return
        }
        #expect(plain.sources.map(\.name) == ["work", "feed", nil, nil, nil])
        #expect(plain.sources.compactMap(\.path) == ["/cal/work.ics", "/a.ics", "/b", "/home/u/.local/share/infcal/calendar.ics"])
        #expect(!plain.json)
        guard case .check(let given) = try RunPlan.resolve(["check", "--events", "/x", "--json"], environment: environment, readConfig: read) else {
            Issue.record("no check"); return
        }
        #expect(given.sources.compactMap(\.path) == ["/cal/work.ics", "/x"])
        #expect(given.json)
        #expect(throws: UsageError.unexpectedArgument("work")) {
            try RunPlan.resolve(["check", "work"], environment: environment, readConfig: read)
        }
        #expect(throws: UsageError.self) {
            try RunPlan.resolve(["check", "--today", "2024-01-01"], environment: environment, readConfig: read)
        }
        #expect(throws: ConfigError.self) {
            try RunPlan.resolve(["check"], environment: environment, readConfig: { _, _ in .bytes(Array("not a config".utf8)) })
        }
    }

    /// A named config file that is missing is the config's error; one infcal only looks for
    /// is no error; a usage error comes before the file is looked at.
    @Test func configErrors() throws {
        #expect(throws: ConfigError(file: "/no/such", line: nil, message: "no such file")) {
            try RunPlan.resolve(["--config", "/no/such"], environment: Self.environment(terminal: false), readConfig: Self.none)
        }
        let home = RunEnvironment(variables: ["HOME": "/home/u"], stdoutIsTerminal: false, terminalWidth: nil, localToday: (2024, 2, 15))
        #expect(Self.kind(try RunPlan.resolve([], environment: home, readConfig: Self.none)) == .grids)
        #expect(throws: UsageError.self) {
            try RunPlan.resolve(["add", "--count", "x", "y"], environment: Self.environment(terminal: false),
                                readConfig: { _, _ in .bytes(Array("not a config".utf8)) })
        }
    }
}

extension RunPlan {
    /// The text of an answer, else nil.
    var answer: String? {
        if case .answer(let text) = self { return text }
        return nil
    }
}
