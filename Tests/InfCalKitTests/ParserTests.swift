import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

@Suite struct ParserTests {
    struct Valid: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let mode: Configuration.Mode
        var columns = 1
        var firstWeekday = 1
        var color = false
        /// The expected start month as (year, month), astronomical years.
        var start = (2024, 2)
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let valid: [Valid] = [
        Valid(arguments: [], mode: .forward(count: nil)),
        Valid(arguments: ["--forward=6"], mode: .forward(count: 6)),
        Valid(arguments: ["--forward", "6"], mode: .forward(count: 6)),
        Valid(arguments: ["--forward"], mode: .forward(count: nil)),
        Valid(arguments: ["--forward", "9223372036854775807"], mode: .forward(count: Int.max)),
        Valid(arguments: ["--backward", "--from", "2024-03"], mode: .backward(count: nil), start: (2024, 3)),
        Valid(arguments: ["--backward", "3"], mode: .backward(count: 3)),
        Valid(arguments: ["-c3"], mode: .forward(count: nil), columns: 3),
        Valid(arguments: ["-c", "2"], mode: .forward(count: nil), columns: 2),
        Valid(arguments: ["-mc", "2"], mode: .forward(count: nil), columns: 2, firstWeekday: 2),
        Valid(arguments: ["--columns=auto"], mode: .forward(count: nil), columns: 3),
        Valid(arguments: ["--monday"], mode: .forward(count: nil), firstWeekday: 2),
        Valid(arguments: ["-s"], mode: .forward(count: nil)),
        Valid(arguments: ["--color"], mode: .forward(count: nil), color: true),
        Valid(arguments: ["--color", "always"], mode: .forward(count: nil), color: true),
        Valid(arguments: ["--color=never"], mode: .forward(count: nil)),
        Valid(arguments: ["--color", "auto"], mode: .forward(count: nil)),
        Valid(arguments: ["--from", "-3"], mode: .forward(count: nil), start: (2023, 11)),
        Valid(arguments: ["--from", "+11"], mode: .forward(count: nil), start: (2025, 1)),
        Valid(arguments: ["--from", "2020"], mode: .forward(count: nil), start: (2020, 1)),
        Valid(arguments: ["--from", "2020-7"], mode: .forward(count: nil), start: (2020, 7)),
        Valid(arguments: ["--from", "2020-07-31"], mode: .forward(count: nil), start: (2020, 7)),
        Valid(arguments: ["--from", "today"], mode: .forward(count: nil)),
        Valid(arguments: ["--from", "0000-12"], mode: .forward(count: nil), start: (0, 12)),
        Valid(arguments: ["--today", "1999-12-31"], mode: .forward(count: nil), start: (1999, 12)),
        Valid(arguments: ["--from", "2024-01", "--from", "2024-05"], mode: .forward(count: nil), start: (2024, 5)),
        Valid(arguments: ["--since", "2024-02-29", "--until", "2024-02"], mode: .forward(count: nil)),
        Valid(arguments: ["--from", "2024-06", "--until", "2024"], mode: .forward(count: nil), start: (2024, 6)),
        Valid(arguments: ["--", ], mode: .forward(count: nil)),
    ]

    @Test(arguments: valid)
    func parses(_ valid: Valid) throws {
        let configuration = try Fixture.resolve(valid.arguments)
        #expect(configuration.mode == valid.mode)
        #expect(configuration.columns == valid.columns)
        #expect(configuration.firstWeekday == valid.firstWeekday)
        #expect(configuration.color == valid.color)
        let expected = try #require(Fixture.month(valid.start.0, valid.start.1))
        #expect(configuration.start == expected)
    }

    struct Invalid: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let dates = "YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)"
    static let count = "a count: a whole number from 1 up"

    static let invalid: [Invalid] = [
        Invalid(arguments: ["--frm", "2024-01"], message: "unknown option '--frm' (did you mean '--from'?)"),
        Invalid(arguments: ["--verbose"], message: "unknown option '--verbose'"),
        Invalid(arguments: ["--verison"], message: "unknown option '--verison' (did you mean '--version'?)"),
        Invalid(arguments: ["--mondy"], message: "unknown option '--mondy' (did you mean '--monday'?)"),
        Invalid(arguments: ["--forwards"], message: "unknown option '--forwards' (did you mean '--forward'?)"),
        Invalid(arguments: ["--xyzzy"], message: "unknown option '--xyzzy'"),
        Invalid(arguments: ["-forward"], message: "unknown option '-f' (did you mean '--forward'?)"),
        Invalid(arguments: ["-x"], message: "unknown option '-x'"),
        Invalid(arguments: ["--from"], message: "missing value for --from: expected \(dates)"),
        Invalid(arguments: ["--from", "2024-13"], message: "invalid value '2024-13' for --from: expected \(dates)"),
        Invalid(arguments: ["--from", "24-01"], message: "invalid value '24-01' for --from: expected \(dates)"),
        Invalid(arguments: ["--from", "--forward"], message: "invalid value '--forward' for --from: expected \(dates)"),
        Invalid(arguments: ["--from", ""], message: "invalid value '' for --from: expected \(dates)"),
        Invalid(arguments: ["--from", "2023-02-29"],
                message: "invalid value '2023-02-29' for --from: expected a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"),
        Invalid(arguments: ["--from", "1582-10-10"],
                message: "invalid value '1582-10-10' for --from: expected a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"),
        Invalid(arguments: ["--from", "99999999999-01"],
                message: "invalid value '99999999999-01' for --from: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Invalid(arguments: ["--from", "-4713-12"],
                message: "invalid value '-4713-12' for --from: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Invalid(arguments: ["--from", "+9223372036854775807"],
                message: "invalid value '+9223372036854775807' for --from: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        // Twenty digits with a sign: a year (four digits or more), far outside the range.
        Invalid(arguments: ["--from", "+99999999999999999999"], message: "invalid value '+99999999999999999999' for --from: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Invalid(arguments: ["--forward", "0"], message: "invalid value '0' for --forward: expected \(count)"),
        Invalid(arguments: ["--forward", "-3"], message: "invalid value '-3' for --forward: expected \(count)"),
        Invalid(arguments: ["--forward=abc"], message: "invalid value 'abc' for --forward: expected \(count)"),
        Invalid(arguments: ["--backward=99999999999999999999"],
                message: "invalid value '99999999999999999999' for --backward: expected \(count)"),
        Invalid(arguments: ["--forward", "--backward"], message: "--forward cannot be used together with --backward"),
        Invalid(arguments: ["-m", "--sunday"], message: "-m cannot be used together with --sunday"),
        Invalid(arguments: ["--since", "2024-05", "--until", "2024-01"],
                message: "invalid value '2024-01' for --until: expected a date not before --since 2024-05"),
        Invalid(arguments: ["--from", "2023-01", "--since", "2024-01"],
                message: "invalid value '2023-01' for --from: expected a month inside --since 2024-01"),
        // Without --from nothing the user did not type is named: a stream starts today, after --until.
        Invalid(arguments: ["--until", "2023-12"],
                message: "invalid value '2023-12' for --until: expected a date not before today's month, 2024-02, where the months start without --from"),
        Invalid(arguments: ["--columns", "0"], message: "invalid value '0' for --columns: expected a number from 1 to 1000, or auto"),
        Invalid(arguments: ["-c", "x"], message: "invalid value 'x' for -c: expected a number from 1 to 1000, or auto"),
        Invalid(arguments: ["--columns", "1001"], message: "invalid value '1001' for --columns: expected a number from 1 to 1000, or auto"),
        Invalid(arguments: ["--color=sometimes"], message: "invalid value 'sometimes' for --color: expected auto, always or never"),
        Invalid(arguments: ["--today", "2024-02"], message: "invalid value '2024-02' for --today: expected YYYY-MM-DD"),
        Invalid(arguments: ["--today", "2023-02-29"],
                message: "invalid value '2023-02-29' for --today: expected a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"),
        Invalid(arguments: ["--monday=yes"], message: "--monday takes no value, but was given 'yes'"),
        Invalid(arguments: ["1", "2", "2024", "4"], message: "unexpected argument '4' (infcal takes options and at most DAY MONTH YEAR; try --help)"),
        Invalid(arguments: ["--", "--help"], message: "invalid value '--help' for MONTH: expected a month: 1 to 12, or a name such as march or mar"),
        Invalid(arguments: ["--color", "sometimes"], message: "invalid value 'sometimes' for --color: expected auto, always or never"),
        Invalid(arguments: ["--forward", "5x"], message: "invalid value '5x' for --forward: expected \(count)"),
        Invalid(arguments: ["--forward", ""], message: "invalid value '' for --forward: expected \(count)"),
        Invalid(arguments: ["-w", "foo"], message: "invalid value 'foo' for -w: expected iso or locale"),
        Invalid(arguments: ["--year", "2024-01"], message: "invalid value '2024-01' for --year: expected a year of the calendar, from 1, inside the calendar's range"),
        Invalid(arguments: ["--today", "0000-06-01", "--from", "-9223372036854775808"],
                message: "invalid value '-9223372036854775808' for --from: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Invalid(arguments: ["--today", "0000-06-01", "--until", "-9223372036854775800"],
                message: "invalid value '-9223372036854775800' for --until: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Invalid(arguments: ["--calendar", "list", "--forward", "3"], message: "--calendar list cannot be used together with --forward"),
        Invalid(arguments: ["--locale", "."], message: "invalid value '.' for --locale: expected a locale such as en_US, de_DE or ja_JP, or C"),
    ]

    @Test(arguments: invalid)
    func rejects(_ invalid: Invalid) {
        #expect(throws: UsageError.self) { try Fixture.resolve(invalid.arguments) }
        do {
            _ = try Fixture.resolve(invalid.arguments)
        } catch {
            #expect(error.description == invalid.message)
        }
    }

    @Test func automaticColumnsFollowTheTerminal() throws {
        for (width, columns) in [(20, 1), (41, 1), (42, 2), (63, 2), (64, 3), (200, 3)] {
            let configuration = try Fixture.resolve([], environment: Fixture.environment(terminal: true, width: width))
            #expect(configuration.columns == columns, "width \(width)")
        }
        // A pipe gets one column unless asked; asked for auto, it assumes COLUMNS or 80.
        #expect(try Fixture.resolve(["-c", "auto"], environment: Fixture.environment(variables: ["COLUMNS": "50"])).columns == 2)
        #expect(try Fixture.resolve(["-c", "auto"]).columns == 3)
        #expect(try Fixture.resolve(["-c", "7"], environment: Fixture.environment(terminal: true, width: 40)).columns == 7)
        // Wider months fit fewer: -j makes 27 cells, -w 23.
        #expect(try Fixture.resolve(["-j"], environment: Fixture.environment(terminal: true, width: 80)).columns == 2)
        #expect(try Fixture.resolve(["-w"], environment: Fixture.environment(terminal: true, width: 66)).columns == 2)
        #expect(try Fixture.resolve(["-w"], environment: Fixture.environment(terminal: true, width: 73)).columns == 3)
        // No width overflows the arithmetic.
        #expect(GridMetrics(numbering: .dayOfMonth, weekNumbers: nil).columns(fitting: .max, limit: Configuration.automaticColumnLimit) == 3)
        #expect(try Fixture.resolve(["-c", "auto"], environment: Fixture.environment(variables: ["COLUMNS": "9223372036854775807"])).columns == 3)
    }

    @Test func colourAutoNeedsATerminalATermAndNoNoColor() throws {
        func color(_ terminal: Bool, _ variables: [String: String]) throws -> Bool {
            try Fixture.resolve([], environment: Fixture.environment(terminal: terminal, variables: variables)).color
        }
        #expect(try color(true, ["TERM": "xterm"]))
        #expect(try !color(false, ["TERM": "xterm"]))
        #expect(try !color(true, [:]))
        #expect(try !color(true, ["TERM": "dumb"]))
        #expect(try !color(true, ["TERM": "xterm", "NO_COLOR": "1"]))
        #expect(try color(true, ["TERM": "xterm", "NO_COLOR": ""]))
    }

    @Test func atATerminalWithNoDirectionOneMonth() throws {
        #expect(try Fixture.resolve([], environment: Fixture.environment(terminal: true)).mode == .single)
    }

    @Test func boundsComeFromThePeriodsTheDatesName() throws {
        let configuration = try Fixture.resolve(["--since", "2023", "--until", "2024-06"])
        #expect(configuration.bounds.since == Fixture.day(2023, 1, 1))
        #expect(configuration.bounds.until == Fixture.day(2024, 6, 30))
        let year = try Fixture.resolve(["--until", "2024"])
        #expect(year.bounds.until == Fixture.day(2024, 12, 31))
    }
}

/// Thousands of random argument lists: each parses or yields a usage error, never a trap.
@Suite struct ParserFuzzTests {
    static let options = OptionSpec.all.flatMap { spec in ["--" + spec.long, spec.short.map { "-\($0)" }].compactMap { $0 } }
    static let values = [
        "", "-", "--", "=", "0", "1", "3", "-1", "+1", "-0", "+0", "12", "1000", "1001", "auto", "always", "never",
        "today", "2024", "2024-02", "2024-02-29", "2023-02-29", "1582-10-10", "1582-10", "0000-01", "-0043-03",
        "-4712-01-01", "-4713-01", "506713-02", "999999-01", "99999999999999999999", "9223372036854775807",
        "-9223372036854775808", "+9223372036854775807", "2024-1-1", "2024-00", "2024-01-32", "x", "é", "日本",
        "\u{1B}[7m", "--from=", "--forward=0", "--columns=3", "-c0", "-mc", "-ms", "-hV", "--colour", "--fro",
        "0000-06-01", "65697-03", "68480-01", "list", "hebrew", "chinese", "japanese", "ethiopic-amete-alem",
        "fa_IR", "ja_JP", "C", ".", "@", "sunday", "sat", "iso", "locale", "5x",
    ]

    /// Todays and terminal widths the fuzz runs under: the ends of the calendar, year 0 (where
    /// a relative date once overflowed) and widths no terminal has.
    static let todays = [(2024, 2, 15), (0, 6, 1), (-4712, 1, 1), (506_712, 12, 31), (1582, 10, 15), (1, 1, 1)]
    static let widths: [String?] = [nil, "0", "-5", "80", "9223372036854775807", "x"]

    @Test func randomArgumentListsParseOrFailCleanly() {
        var generator = SplitMix64(state: 20_241_130)
        var parsed = 0, rejected = 0
        for _ in 0..<20_000 {
            let today = Self.todays.randomElement(using: &generator) ?? (2024, 2, 15)
            var variables: [String: String] = [:]
            if let width = Self.widths.randomElement(using: &generator) ?? nil { variables["COLUMNS"] = width }
            let environment = Fixture.environment(terminal: Bool.random(using: &generator), variables: variables, today: today)
            // Mostly real options, each with a value from the pool (as a next word or after "="),
            // and now and then any word at all.
            var arguments: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let option = Self.options.randomElement(using: &generator) ?? "--from"
                let value = Self.values.randomElement(using: &generator) ?? ""
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: arguments.append(option)
                case 1 where option.hasPrefix("--"): arguments.append(option + "=" + value)
                case 2: arguments.append(value)
                default: arguments += [option, value]
                }
            }
            do {
                let configuration = try Fixture.resolve(arguments, environment: environment)
                parsed += 1
                // Whatever parsed can be printed: take a few months of it.
                let sink = CollectingSink()
                try? configuration.makePrinter().print(configuration.months().prefix(3), to: sink)
                if case .forward = configuration.mode { #expect(!sink.bytes.isEmpty, "\(arguments)") }
            } catch {
                rejected += 1
                let message = error.description
                #expect(!message.isEmpty && !message.contains("\n"), "\(arguments): \(message)")
            }
        }
        // The mix exercises both outcomes.
        #expect(parsed > 100 && rejected > 100, "parsed \(parsed), rejected \(rejected)")
    }
}
