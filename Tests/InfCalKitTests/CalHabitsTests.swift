import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The parser and resolver behind cal's habits: bundles, positional dates, runs of months,
/// the year view's columns and the start at a bound. Expected values follow util-linux cal's
/// rules (cal.c: a lone number is a year, `-3` and `-S` put count / 2 months before the
/// date's) and ncal's (`-A`, `-B` add months); the grids are checked end to end against ncal.
@Suite struct CalHabitsTests {
    struct Bundle: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let occurrences: [String]
        let positionals: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let bundles: [Bundle] = [
        Bundle(arguments: ["-yj"], occurrences: ["-y", "-j"], positionals: []),
        Bundle(arguments: ["-jy"], occurrences: ["-j", "-y"], positionals: []),
        Bundle(arguments: ["-y2024"], occurrences: ["-y=2024"], positionals: []),
        Bundle(arguments: ["-3w"], occurrences: ["-3", "-w"], positionals: []),
        Bundle(arguments: ["-w3"], occurrences: ["-w", "-3"], positionals: []),
        Bundle(arguments: ["-wiso"], occurrences: ["-w=iso"], positionals: []),
        Bundle(arguments: ["-mw"], occurrences: ["-m", "-w"], positionals: []),
        Bundle(arguments: ["-c3"], occurrences: ["-c=3"], positionals: []),
        Bundle(arguments: ["-c", "3"], occurrences: ["-c=3"], positionals: []),
        Bundle(arguments: ["-mc3"], occurrences: ["-m", "-c=3"], positionals: []),
        Bundle(arguments: ["-n3", "-A", "2"], occurrences: ["-n=3", "-A=2"], positionals: []),
        Bundle(arguments: ["--months=3"], occurrences: ["--months=3"], positionals: []),
        Bundle(arguments: ["-w", "2024"], occurrences: ["-w"], positionals: ["2024"]),
        Bundle(arguments: ["--color", "3", "2024"], occurrences: ["--color"], positionals: ["3", "2024"]),
        Bundle(arguments: ["-y", "2024"], occurrences: ["-y=2024"], positionals: []),
        Bundle(arguments: ["-w", "-3"], occurrences: ["-w", "-3"], positionals: []),
        Bundle(arguments: ["15", "mar", "2024", "-S"], occurrences: ["-S"], positionals: ["15", "mar", "2024"]),
        Bundle(arguments: ["--", "-3"], occurrences: [], positionals: ["-3"]),
    ]

    @Test(arguments: bundles)
    func bundlesSplitAsGetoptSplitsThem(_ bundle: Bundle) throws {
        let raw = try ArgumentParser.parse(bundle.arguments)
        #expect(raw.occurrences.map { $0.spelling + ($0.value.map { "=" + $0 } ?? "") } == bundle.occurrences)
        #expect(raw.positionals == bundle.positionals)
    }

    @Test func positionalDatesReadAsCalReadsThem() throws {
        #expect(try PositionalDate.parse(["2024"], locale: nil) == PositionalDate(year: 2024))
        #expect(try PositionalDate.parse(["3"], locale: nil) == PositionalDate(year: 3))
        #expect(try PositionalDate.parse(["3", "2024"], locale: nil) == PositionalDate(year: 2024, month: 3))
        #expect(try PositionalDate.parse(["15", "3", "2024"], locale: nil) == PositionalDate(year: 2024, month: 3, day: 15))
        #expect(try PositionalDate.parse(["August", "1999"], locale: nil) == PositionalDate(year: 1999, month: 8))
        #expect(try PositionalDate.parse(["jun", "1999"], locale: nil) == PositionalDate(year: 1999, month: 6))
        #expect(try PositionalDate.parse(["dec"], locale: nil) == PositionalDate(month: 12))
        // Julian leap years before the reform: 29 February 1500 exists.
        #expect(try PositionalDate.parse(["29", "2", "1500"], locale: nil).day == 29)
        // The locale's names, the formatting and the standalone forms (March in Russian is
        // "марта" in dates and "март" alone).
        let german = Locale(identifier: "de_DE")
        #expect(try PositionalDate.parse(["mär", "2024"], locale: german).month == 3)
        #expect(try PositionalDate.parse(["Dezember", "2024"], locale: german).month == 12)
        let russian = Locale(identifier: "ru_RU")
        #expect(try PositionalDate.parse(["март", "2024"], locale: russian).month == 3)
        #expect(try PositionalDate.parse(["марта", "2024"], locale: russian).month == 3)
        // "ma" is March or May in English: ambiguous, even where the locale agrees.
        #expect(throws: UsageError.self) { try PositionalDate.parse(["ma", "2024"], locale: german) }
        #expect(throws: UsageError.self) { try PositionalDate.parse(["-3", "2024"], locale: nil) }
        #expect(throws: UsageError.self) { try PositionalDate.parse(["3", "-2024"], locale: nil) }
        #expect(throws: UsageError.self) { try PositionalDate.parse(["32", "4", "2024"], locale: nil) }
        // Whether the month has the day is the calendar's to say, when the date is resolved.
        #expect(throws: UsageError.self) { try Fixture.resolve(["31", "4", "2024"]) }
        #expect(try Fixture.resolve(["29", "2", "1500"]).markedDay == Fixture.day(1500, 2, 29))
        #expect(throws: UsageError.self) { try PositionalDate.parse(["", "2024"], locale: nil) }
    }

    struct Run: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        /// The first month printed and how many, as (year, month, count).
        let first: (Int, Int)
        let count: Int
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// Today is 2024-02-15 (Fixture.environment).
    static let runs: [Run] = [
        Run(arguments: ["-1"], first: (2024, 2), count: 1),
        Run(arguments: ["-3"], first: (2024, 1), count: 3),
        Run(arguments: ["-3", "1", "2024"], first: (2023, 12), count: 3),
        Run(arguments: ["-n", "4"], first: (2024, 2), count: 4),
        Run(arguments: ["-n", "4", "-S"], first: (2023, 12), count: 4),
        Run(arguments: ["-n", "5", "-S"], first: (2023, 12), count: 5),
        Run(arguments: ["-Y"], first: (2024, 2), count: 12),
        Run(arguments: ["-Y", "-S"], first: (2023, 8), count: 12),
        Run(arguments: ["-A", "2"], first: (2024, 2), count: 3),
        Run(arguments: ["-B", "2"], first: (2023, 12), count: 3),
        Run(arguments: ["-3", "-A", "1", "-B", "1"], first: (2023, 12), count: 5),
        Run(arguments: ["-n", "2", "2030"], first: (2030, 2), count: 2),
        Run(arguments: ["--from", "2024-07", "-3"], first: (2024, 6), count: 3),
        Run(arguments: ["3", "2024"], first: (2024, 3), count: 1),
        Run(arguments: ["-A", "9223372036854775807", "-B", "1"], first: (2024, 1), count: .max),
    ]

    @Test(arguments: runs)
    func runsOfMonthsStartAndCountAsCalDoes(_ run: Run) throws {
        let configuration = try Fixture.resolve(run.arguments)
        #expect(configuration.mode == .months(count: run.count))
        #expect(configuration.start == Fixture.month(run.first.0, run.first.1))
        #expect(configuration.columns == 3)
    }

    /// A far step back (-B, -S with a large count) lands where a walk month by month does, in
    /// calendars with leap months too, and stops at the calendar's first month.
    @Test(arguments: [Calendar.Identifier.gregorian, .hebrew, .chinese])
    func farStepsBackLandWhereTheWalkDoes(_ identifier: Calendar.Identifier) throws {
        let calendar = MonthCalendar(identifier)
        let start = try #require(calendar.month(containing: Fixture.day(2024, 2, 15)))
        var walked = start
        for _ in 0..<(MonthCalendar.walkLimit + 345) { walked = try #require(calendar.month(before: walked)) }
        #expect(calendar.month(MonthCalendar.walkLimit + 345, before: start) == walked)
        let first = calendar.month(.max, before: start)
        #expect(calendar.month(before: first) == nil)
    }

    @Test func aLoneYearIsTheYearView() throws {
        let configuration = try Fixture.resolve(["2024"])
        #expect(configuration.mode == .year)
        #expect(configuration.start == Fixture.month(2024, 1))
        #expect(try Fixture.resolve(["5784", "--calendar", "hebrew"]).start.name.year == 5784)
        // At a terminal too: a date prints, no pager.
        let terminal = Fixture.environment(terminal: true, width: 80)
        #expect(try Fixture.resolve(["2024"], environment: terminal).mode == .year)
        #expect(try Fixture.resolve(["3", "2024"], environment: terminal).mode == .months(count: 1))
    }

    /// The year view and the runs fit the terminal: at 80 columns three months of 20 cells a
    /// row, two of -j's 27 cells (as ncal -jy), one at 40 columns; away from a terminal three.
    @Test func theYearViewFitsTheTerminal() throws {
        func columns(_ arguments: [String], width: Int?) throws -> Configuration.Columns {
            try Fixture.resolve(arguments, environment: Fixture.environment(terminal: width != nil, width: width)).columnLayout
        }
        #expect(try columns(["-y"], width: 80) == .fitted(count: 3))
        #expect(try columns(["-jy"], width: 80) == .fitted(count: 2))
        #expect(try columns(["-y"], width: 41) == .fitted(count: 1))
        #expect(try columns(["-y"], width: 42) == .fitted(count: 2))
        #expect(try columns(["-3"], width: 50) == .fitted(count: 2))
        #expect(try columns(["-y"], width: nil) == .fixed(3))
        #expect(try columns(["-jy"], width: nil) == .fixed(3))
        #expect(try columns(["-jy", "-c", "auto"], width: nil) == .fitted(count: 2))
        #expect(try columns(["-y", "-c", "1"], width: 80) == .fixed(1))
        #expect(try columns(["--forward"], width: nil) == .fixed(1))
    }

    @Test func boundsAreWhereStreamsStart() throws {
        let forward = try Fixture.resolve(["--since", "2024-03", "--until", "2024-05", "--forward"])
        #expect(forward.start == Fixture.month(2024, 3))
        let backward = try Fixture.resolve(["--since", "2023-03", "--until", "2023-05", "--backward"])
        #expect(backward.start == Fixture.month(2023, 5))
        // The pipe's default stream is a forward one.
        #expect(try Fixture.resolve(["--since", "2030-01"]).start == Fixture.month(2030, 1))
        // The pager (and its one month) starts at today, or at the bound nearest to it.
        let terminal = Fixture.environment(terminal: true, width: 80)
        #expect(try Fixture.resolve(["--since", "2030-01", "--until", "2030-06"], environment: terminal).start == Fixture.month(2030, 1))
        #expect(try Fixture.resolve(["--until", "2020-06"], environment: terminal).start == Fixture.month(2020, 6))
        #expect(try Fixture.resolve(["--since", "2020-06"], environment: terminal).start == Fixture.month(2024, 2))
        // --from still wins, inside the bounds.
        #expect(try Fixture.resolve(["--since", "2024-03", "--until", "2024-05", "--from", "2024-04", "--forward"]).start
                == Fixture.month(2024, 4))
    }

    @Test func settingsCarryWhatWasResolved() throws {
        #expect(try Fixture.resolve(["--today", "2024-02-01"]).todayFollowsClock == false)
        #expect(try Fixture.resolve([]).todayFollowsClock == true)
        #expect(try Fixture.resolve(["15", "3", "2024"]).markedDay == Fixture.day(2024, 3, 15))
        #expect(try Fixture.resolve(["3", "2024"]).markedDay == nil)
        #expect(try Fixture.resolve(["--columns", "2"]).columnLayout == .fixed(2))
        #expect(try Fixture.resolve(["--columns", "auto"]).columnLayout == .fitted(count: 3))
    }

    /// Every conflict of the table is refused, in either order, naming both options.
    @Test func everyConflictOfTheTableIsRefused() throws {
        func spelling(_ selector: OptionConflict.Selector) -> [String]? {
            switch selector {
            case .option(let key):
                let spec = OptionSpec.spec(key)
                switch spec.value {
                case .none: return [spec.flag]
                case .required: return [spec.flag, key == .from ? "2024-01" : "1"]
                // With its value attached: `--forward -3` is a bad count, not two options.
                case .optional: return [spec.flag + "=" + (key == .year ? "2024" : "2")]
                }
            case .valued(let key): return [OptionSpec.spec(key).flag + "=2024"]
            case let .value(key, value): return [OptionSpec.spec(key).flag, value]
            case .positionalDate: return ["2024"]
            }
        }
        var checked = 0
        for conflict in OptionConflict.all {
            for other in conflict.others {
                guard let first = spelling(conflict.option), let second = spelling(other) else { continue }
                for arguments in [first + second, second + first] {
                    #expect(throws: UsageError.self, "\(arguments)") { try Fixture.resolve(arguments) }
                    do {
                        _ = try Fixture.resolve(arguments)
                    } catch {
                        #expect(error.description.contains("cannot be used together with"), "\(arguments): \(error)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 60)
    }
}
