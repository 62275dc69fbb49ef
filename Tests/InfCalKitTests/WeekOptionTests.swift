import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The options of the week by the hour and of the zones: `--week`, `--hours`, `--view`,
/// `--zone`, `--zones`, their values, their conflicts, the config file's keys, and the weeks
/// they print. Today is 2024-02-15 (a Thursday), the locale C, no variables.
@Suite struct WeekOptionTests {
    static func environment(terminal: Bool = false, variables: [String: String] = [:]) -> RunEnvironment {
        RunEnvironment(variables: (terminal ? ["TERM": "xterm"] : [:]).merging(variables) { $1 }, stdoutIsTerminal: terminal,
                       terminalWidth: terminal ? 80 : nil, localToday: (2024, 2, 15), keyboardIsAvailable: true)
    }

    static func plan(_ arguments: [String], terminal: Bool = false, config: String? = nil,
                     environment: RunEnvironment? = nil) throws -> RunPlan {
        let read: (String, Int) -> ConfigRead = { _, _ in
            config.map { .bytes(Array($0.utf8)) } ?? .failed(reason: "no such file", isMissing: true)
        }
        var env = environment ?? Self.environment(terminal: terminal)
        if config != nil { env.variables["INFCAL_CONFIG"] = "/etc/infcal.conf" }
        return try RunPlan.resolve(arguments, environment: env, readConfig: read)
    }

    static func week(_ arguments: [String]) throws -> WeekRun? {
        guard case .week(let run) = try plan(arguments) else { return nil }
        return run
    }

    // MARK: Bad values and conflicts

    static let refusedCases: [([String], String)] = [
        (["--week", "--hours", "8-25"], "invalid value '8-25' for --hours: expected whole hours START-END from 0 to 24, START before END, such as 8-20"),
        (["--week", "--hours", "20-8"], "invalid value '20-8' for --hours: expected whole hours START-END from 0 to 24, START before END, such as 8-20"),
        (["--week", "--hours", "8-8"], "invalid value '8-8' for --hours: expected whole hours START-END from 0 to 24, START before END, such as 8-20"),
        (["--week", "--hours", "8"], "invalid value '8' for --hours: expected whole hours START-END from 0 to 24, START before END, such as 8-20"),
        (["--week", "--hours", "-1-8"], "invalid value '-1-8' for --hours: expected whole hours START-END from 0 to 24, START before END, such as 8-20"),
        (["--hours", "8-20"], "--hours is not available: it sets the hours of the week (--week, or the pager's week view)"),
        (["--zone", "Europe/Berln"], "invalid value 'Europe/Berln' for --zone: expected " + ZoneChoice.expected + " (did you mean 'Europe/Berlin'?)"),
        (["--zone", "berlin"], "invalid value 'berlin' for --zone: expected " + ZoneChoice.expected + " (did you mean 'Europe/Berlin'?)"),
        (["--zone", "Tokio"], "invalid value 'Tokio' for --zone: expected " + ZoneChoice.expected + " (did you mean 'Asia/Tokyo'?)"),
        (["--zone", "Nowhere/Atall"], "invalid value 'Nowhere/Atall' for --zone: expected " + ZoneChoice.expected),
        (["--zone", "../../etc/passwd"], "invalid value '../../etc/passwd' for --zone: expected " + ZoneChoice.expected),
        (["--zones", "Asia/Tokyo"], "--zones is not available: it sets the zones the pager's z key shows times in"),
        (["--view", "week"], "--view is not available: it chooses the view the pager opens with"),
        (["--view", "weak"], "invalid value 'weak' for --view: expected a view of the pager: month, strip, year, week (did you mean 'week'?)"),
        (["--week=2024"], "invalid value '2024' for --week: expected " + OptionSpec.weekDateExpected),
        (["--week", "2024-13-01"], "invalid value '2024-13-01' for --week: expected " + OptionSpec.weekDateExpected),
        (["--week", "--width", "70"], "invalid value '70' for --width: expected a width in columns from 71 (a week's seven days) to 10000"),
        (["--week", "--year"], "--week cannot be used together with --year"),
        (["-3", "--week"], "--week cannot be used together with -3"),
        (["--week", "--wall"], "--week cannot be used together with --wall"),
        (["--week", "--agenda"], "--week cannot be used together with --agenda"),
        (["--week", "--columns", "2"], "--week cannot be used together with --columns"),
        (["--week", "--vertical"], "--week cannot be used together with --vertical"),
        (["--week", "--view", "week"], "--week cannot be used together with --view"),
        (["--week", "2024-03-01", "--from", "2024-02"], "--week 2024-03-01 cannot be used together with --from"),
        (["--week", "2024-03-01", "3", "2024"], "--week 2024-03-01 cannot be used together with 3 2024"),
        (["--calendar", "list", "--week"], "--calendar list cannot be used together with --week"),
        (["--week", "2024-02-01", "--since", "2024-03"], "invalid value '2024-02-01' for --week: expected a week with a day inside --since 2024-03"),
    ]

    @Test(arguments: refusedCases)
    func refusals(arguments: [String], message: String) {
        do {
            _ = try Self.plan(arguments)
            Issue.record("\(arguments) was taken")
        } catch {
            #expect("\(error)" == message)
        }
    }

    /// `--week --paged` (and `--paged --week`) is a conflict at a terminal too.
    @Test func weekAndThePagerConflict() {
        #expect(throws: UsageError.conflict("--week", "--paged")) { try Self.plan(["--paged", "--week"], terminal: true) }
    }

    // MARK: The config file

    /// A bad zone in the config file is the file's error, with its line (exit 78); `view =`,
    /// `hours =` and `zones =` are left out of runs that print months, and reach the pager.
    @Test func configKeys() throws {
        #expect(throws: ConfigError(file: "/etc/infcal.conf", line: 3,
                                    message: "key 'zone': expected " + ZoneChoice.expected + " (did you mean 'America/New_York'?), not 'America/NewYork'")) {
            try Self.plan(["-1"], config: "[options]\nmonday = yes\nzone = America/NewYork\n")
        }
        #expect(throws: ConfigError(file: "/etc/infcal.conf", line: 2,
                                    message: "key 'zones': expected " + ZoneChoice.expected + " (did you mean 'Asia/Tokyo'?), not 'Asia/Tokio'")) {
            try Self.plan([], terminal: true, config: "[options]\nzones = Europe/Berlin, Asia/Tokio\n")
        }
        #expect(throws: ConfigError(file: "/etc/infcal.conf", line: 2,
                                    message: "key 'hours': expected " + OptionSpec.spec(.hours).expected + ", not '9-5'")) {
            try Self.plan(["--week"], config: "[options]\nhours = 9-5\n")
        }
        let config = "[options]\nview = week\nhours = 8-20\nzones = Europe/Berlin, America/New_York, Asia/Tokyo\nzone = UTC\n"
        // Into a pipe: the pager's keys are left out, the zone stays.
        guard case .months(let months) = try Self.plan(["-1"], config: config) else { Issue.record("no months"); return }
        #expect(months.events.zone == .named("UTC"))
        // At a terminal the pager opens in the week view, with the hours and the zones.
        guard case .pager(let pager) = try Self.plan([], terminal: true, config: config) else { Issue.record("no pager"); return }
        #expect(pager.settings.state.view == .week)
        #expect(pager.settings.view.weekHours == 8..<20)
        #expect(pager.settings.state.zones.map(\.name) == ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])
        #expect(pager.writes.zone == .named("UTC"))
        // The command line's --view wins over the file's; --week over view = week.
        guard case .pager(let strip) = try Self.plan(["--view", "strip"], terminal: true, config: config) else { Issue.record("no pager"); return }
        #expect(strip.settings.state.view == .strip)
        guard case .week(let week) = try Self.plan(["--week"], terminal: true, config: config) else { Issue.record("no week"); return }
        #expect(week.printer().hours == 8..<20)
    }

    /// The pager's zones: the run's first (TZ's name for the local one), the others after it,
    /// the run's own not twice; no `z` zones without `--zones`.
    @Test func pagerZones() throws {
        let env = Self.environment(terminal: true, variables: ["TZ": "Europe/Berlin"])
        guard case .pager(let local) = try Self.plan(["--zones", "Europe/Berlin,Asia/Tokyo"], environment: env) else { Issue.record("no pager"); return }
        #expect(local.settings.state.zones.map(\.name) == ["Europe/Berlin", "Asia/Tokyo"])
        #expect(local.settings.clockZone == nil)
        guard case .pager(let alone) = try Self.plan(["--zone", "Asia/Tokyo"], environment: env) else { Issue.record("no pager"); return }
        #expect(alone.settings.state.zones.isEmpty && alone.settings.clockZone != nil)
        guard case .pager(let opened) = try Self.plan(["--paged", "--view", "week"], terminal: true) else { Issue.record("no pager"); return }
        #expect(opened.settings.state.view == .week)
    }

    // MARK: Today in a zone

    /// Today is the date where `--zone` is: at 2024-02-15 23:30 UTC it is the 16th in Tokyo
    /// and the 15th in New York; `--today` wins.
    @Test func todayFollowsTheZone() throws {
        var env = Self.environment()
        env.now = Int(ISO8601DateFormatter().date(from: "2024-02-15T23:30:00Z")?.timeIntervalSince1970 ?? 0)
        func today(_ arguments: [String]) throws -> Int? {
            guard case .week(let run) = try Self.plan(["--week"] + arguments, environment: env) else { return nil }
            return run.configuration.today
        }
        #expect(try today(["--zone", "Asia/Tokyo"]) == Fixture.day(2024, 2, 16))
        #expect(try today(["--zone", "America/New_York"]) == Fixture.day(2024, 2, 15))
        #expect(try today(["--zone", "Asia/Tokyo", "--today", "2024-01-01"]) == Fixture.day(2024, 1, 1))
        // The local zone's today is the environment's.
        #expect(try today([]) == Fixture.day(2024, 2, 15))
    }

    // MARK: The weeks printed

    /// Which weeks: the one holding the date from the first weekday, as many as asked, either
    /// way, inside the bounds; the cache decodes the events of their days.
    @Test func theWeeksPrinted() throws {
        /// The first days of the weeks `--week` with `arguments` prints (at most 20).
        func weeks(_ arguments: [String]) throws -> [String] {
            guard let run = try Self.week(["--week"] + arguments) else { return ["no week"] }
            return run.weeks.weeks().prefix(20).map { ISODate.text(dayNumber: $0) }
        }
        #expect(try weeks([]) == ["2024-02-11"])
        #expect(try weeks(["-m"]) == ["2024-02-12"])
        #expect(try weeks(["--first-weekday", "saturday"]) == ["2024-02-10"])
        #expect(try weeks(["2024-03-27", "--forward", "3"]) == ["2024-03-24", "2024-03-31", "2024-04-07"])
        #expect(try weeks(["2024-03", "-m"]) == ["2024-02-26"])
        #expect(try weeks(["+2", "--backward", "2", "-m"]) == ["2024-02-26", "2024-02-19"])
        #expect(try weeks(["--from", "2024-03", "--forward", "--until", "2024-03-20"]) == ["2024-02-25", "2024-03-03", "2024-03-10", "2024-03-17"])
        #expect(try weeks(["--forward", "--since", "2024-05-02"]) == Array(try weeks(["2024-05-02", "--forward", "20"])))
        #expect(try weeks(["15", "3", "2024"]) == ["2024-03-10"])
        #expect(try weeks(["today", "--forward"]).count == 20)
        let run = try #require(try Self.week(["--week=2024-03-27", "--forward", "3", "--events", "x.ics"]))
        #expect(run.events.window == Fixture.day(2024, 3, 24)..<Fixture.day(2024, 4, 14))
        #expect(try Self.week(["--week", "--forward", "--events", "x.ics"])?.events.window == nil)
        // Widths: COLUMNS, else 80; too narrow a COLUMNS gets a week's 71.
        #expect(try Self.week(["--week"])?.printer().width == 80)
        #expect(try Self.week(["--week", "--width", "120"])?.printer().width == 120)
        guard case .week(let narrow) = try Self.plan(["--week"], environment: Self.environment(variables: ["COLUMNS": "40"])) else {
            Issue.record("no week"); return
        }
        #expect(narrow.printer().width == 71)
    }
}
