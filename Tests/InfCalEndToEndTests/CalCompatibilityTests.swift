import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import Testing

/// What cal and ncal users type: positional dates, runs of months, bundled options, the year
/// view at a terminal. Grids are checked against Debian's `ncal -C` (BSD ncal in cal mode,
/// the same Julian/Gregorian months as infcal from 1753 and before 1582) and Python's
/// `calendar` module; each test skips, saying so, where its oracle is missing.
@Suite struct CalCompatibilityTests {
    static let ncal = NcalAgreementTests.ncal

    /// Lines without trailing blanks and without empty lines: ncal pads every row of months to
    /// six weeks and ends with an empty line, infcal prints the weeks there are.
    static func rows(_ text: String) -> [String] {
        NcalAgreementTests.normalized(text).filter { !$0.isEmpty }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let infcal: [String]
        let ncal: [String]
        var testDescription: String { infcal.joined(separator: " ") }
    }

    /// infcal invocations and the ncal -C invocation that prints the same months. ncal takes
    /// the month before the year, as util-linux cal does; `-n N` is ncal's `-A N-1`, and the
    /// centred runs are ncal's `-B` and `-A` around the month.
    static let sameMonths: [Case] = [
        Case(infcal: ["3", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["march", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["MAR", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["se", "1999"], ncal: ["-C", "9", "1999"]),
        Case(infcal: ["15", "3", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["29", "feb", "2000"], ncal: ["-C", "2", "2000"]),
        Case(infcal: ["12", "1"], ncal: ["-C", "12", "1"]),
        Case(infcal: ["-1", "3", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["--one", "--from", "2024-03"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["-3"], ncal: ["-C", "-3", "2", "2024"]),
        Case(infcal: ["-3", "3", "2024"], ncal: ["-C", "-3", "3", "2024"]),
        Case(infcal: ["--three", "1", "2024"], ncal: ["-C", "-3", "1", "2024"]),
        Case(infcal: ["-3", "12", "2024"], ncal: ["-C", "-3", "12", "2024"]),
        Case(infcal: ["-A", "2", "-B", "1", "3", "2024"], ncal: ["-C", "-A", "2", "-B", "1", "3", "2024"]),
        Case(infcal: ["--after=2", "--before", "1", "3", "2024"], ncal: ["-C", "-A", "2", "-B", "1", "3", "2024"]),
        Case(infcal: ["-3", "-A", "1", "3", "2024"], ncal: ["-C", "-3", "-A", "1", "3", "2024"]),
        Case(infcal: ["-3", "-B", "2", "3", "2024"], ncal: ["-C", "-3", "-B", "2", "3", "2024"]),
        Case(infcal: ["-A", "0", "-B", "0", "3", "2024"], ncal: ["-C", "-A", "0", "-B", "0", "3", "2024"]),
        Case(infcal: ["-A4", "--from", "2024-11"], ncal: ["-C", "-A", "4", "11", "2024"]),
        Case(infcal: ["-n", "5", "11", "2024"], ncal: ["-C", "-A", "4", "11", "2024"]),
        Case(infcal: ["--months=5", "11", "2024"], ncal: ["-C", "-A", "4", "11", "2024"]),
        Case(infcal: ["-n", "5", "-S", "3", "2024"], ncal: ["-C", "-B", "2", "-A", "2", "3", "2024"]),
        Case(infcal: ["-n", "4", "--span", "3", "2024"], ncal: ["-C", "-B", "2", "-A", "1", "3", "2024"]),
        Case(infcal: ["-Y", "5", "2024"], ncal: ["-C", "-A", "11", "5", "2024"]),
        Case(infcal: ["--twelve", "-S", "5", "2024"], ncal: ["-C", "-B", "6", "-A", "5", "5", "2024"]),
        Case(infcal: ["-S", "3", "2024"], ncal: ["-C", "3", "2024"]),
        Case(infcal: ["-c3", "-3", "3", "2024"], ncal: ["-C", "-3", "3", "2024"]),
        Case(infcal: ["-c", "3", "-3", "3", "2024"], ncal: ["-C", "-3", "3", "2024"]),
        // A lone number is a year (ncal's rows; its heading is placed two cells further left).
        Case(infcal: ["2024"], ncal: ["-C", "-y", "2024"]),
        Case(infcal: ["3"], ncal: ["-C", "-y", "3"]),
        Case(infcal: ["-y", "2025"], ncal: ["-C", "-y", "2025"]),
        Case(infcal: ["3", "2025", "-y"], ncal: ["-C", "-y", "2025"]),
    ]

    @Test(.enabled(if: ncal != nil, "ncal is not installed (apt-get install ncal); skipping the cal-compatibility comparison"),
          arguments: sameMonths)
    func printsTheMonthsNcalPrints(_ invocation: Case) throws {
        let result = try BinaryRunner.run(invocation.infcal)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let ours = Self.rows(result.stdout)
        let theirs = Self.rows(try BinaryRunner.runProgram(URL(fileURLWithPath: Self.ncal ?? "/usr/bin/ncal"), invocation.ncal,
                                                           environment: [:], deadline: 20).stdout
                                  .replacingOccurrences(of: "_\u{8}", with: ""))
        // ncal titles a run that starts in January as a year ("2024" over "January"), infcal
        // each month ("January 2024"), and places a year heading two cells further left: the
        // grids and weekday headers are compared line for line, the titles by their months.
        #expect(Self.grids(ours) == Self.grids(theirs))
        #expect(Self.monthNames(ours) == Self.monthNames(theirs))
        #expect(!Self.grids(ours).isEmpty)
    }

    /// The weekday headers and week lines of `lines`.
    static func grids(_ lines: [String]) -> [String] {
        lines.filter { line in line.contains("Su Mo") || line.allSatisfy { $0 == " " || $0.isNumber } && line.contains { $0 != " " } && !isYearHeading(line) }
    }

    /// A line holding just a year: a heading.
    static func isYearHeading(_ line: String) -> Bool {
        line.split(separator: " ").count == 1 && line.hasPrefix("     ")
    }

    static let englishMonths = ["January", "February", "March", "April", "May", "June", "July",
                                "August", "September", "October", "November", "December"]

    /// The month names of the titles in `lines`, in order.
    static func monthNames(_ lines: [String]) -> [String] {
        lines.flatMap { $0.split(separator: " ").map(String.init).filter(englishMonths.contains) }
    }

    /// DAY MONTH YEAR highlights that day in place of today, as cal does, with the colours on.
    @Test func theDayOfADateIsHighlighted() throws {
        let result = try BinaryRunner.run(["--color", "always", "15", "3", "2024"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("14 \u{1B}[7m15\u{1B}[27m 16"))
        #expect(result.stdout.components(separatedBy: "\u{1B}[7m").count == 2)
        // And never without them (not a terminal).
        #expect(!(try BinaryRunner.run(["15", "3", "2024"]).stdout.contains("\u{1B}")))
    }

    /// The positional forms print even at a terminal: no pager opens.
    @Test func datesPrintAtATerminal() throws {
        for (arguments, title) in [(["3", "2024"], "March 2024"), (["2024"], "January"), (["-3"], "January 2024")] {
            let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                    arguments: ["--today", "2024-02-15"] + arguments)
            #expect(session.waitForExit() == .exited(0), "\(arguments)")
            #expect(String(decoding: session.output, as: UTF8.self).contains(title), "\(arguments)")
        }
    }

    /// The pager, given bounds that leave today out, opens at the nearest bound.
    @Test func thePagerOpensAtTheNearestBound() throws {
        let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                arguments: ["--today", "2024-02-15", "--since", "2030-01", "--until", "2030-12"])
        #expect(session.waitFor("January 2030"))
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    /// Short options bundle as getopt bundles them: each bundle prints what the options
    /// written apart print.
    @Test(arguments: [
        (["-yj", "2024"], ["-y", "-j", "2024"]),
        (["-jy", "2024"], ["-j", "-y", "2024"]),
        (["-3w", "3", "2024"], ["-3", "-w", "3", "2024"]),
        (["-w3", "3", "2024"], ["-w", "-3", "3", "2024"]),
        (["-mw", "--forward", "2"], ["-m", "-w", "--forward", "2"]),
        (["-c3", "--forward=3"], ["--columns", "3", "--forward", "3"]),
        (["-c", "3", "--forward", "3"], ["--columns=3", "--forward=3"]),
        (["-wlocale", "--forward=1"], ["--week-numbers=locale", "--forward", "1"]),
        (["-w", "2024"], ["--week-numbers", "--year", "2024"]),
        (["--first-weekday=monday", "--forward=1"], ["--first-weekday", "monday", "--forward", "1"]),
        (["--calendar=hebrew", "--forward=1"], ["--calendar", "hebrew", "--forward", "1"]),
        (["--locale=de_DE", "--forward=1"], ["--locale", "de_DE", "--forward", "1"]),
        (["--since=2024-01", "--forward=1"], ["--since", "2024-01", "--forward", "1"]),
        (["--today=2024-03-01", "--forward=1"], ["--today", "2024-03-01", "--forward", "1"]),
        (["--from=2024-05", "-n2"], ["--from", "2024-05", "--months", "2"]),
    ])
    func bundlesMeanTheOptionsApart(bundled: [String], apart: [String]) throws {
        let one = try BinaryRunner.run(bundled)
        let other = try BinaryRunner.run(apart)
        #expect(one.status == 0 && one.stderr == "", "\(one.stderr)")
        #expect(one.stdout == other.stdout)
        #expect(!one.stdout.isEmpty)
    }

    /// The examples directory: an events file and a config file naming it.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples").path

    /// A value each option that takes one accepts, with what else it needs to print.
    static let sampleValues: [String: (value: String, rest: [String])] = [
        "from": ("2024-05", ["--forward", "1"]), "forward": ("2", []), "backward": ("2", []),
        "months": ("2", []), "after": ("1", []), "before": ("1", []), "year": ("2023", []),
        "since": ("2024-01", ["--forward", "1"]), "until": ("2024-06", ["--backward", "1"]),
        "columns": ("2", ["--forward", "2"]), "calendar": ("hebrew", ["--forward", "1"]),
        "also": ("hebrew", ["--forward", "1"]),
        "search": ("easter", ["--events", examples + "/holidays.ics", "--forward", "1"]),
        "locale": ("fr_FR", ["--forward", "1"]), "first-weekday": ("wednesday", ["--forward", "1"]),
        "week-numbers": ("locale", ["--forward", "1"]), "color": ("always", ["--forward", "1"]),
        "today": ("2024-03-09", ["--forward", "1"]), "completions": ("fish", []),
        "width": ("40", ["--wall", "--forward", "1"]), "reform": ("1752", ["--from", "1752-09", "--forward", "1"]),
        "events": (examples + "/holidays.ics", ["--forward", "1"]),
        "config": (examples + "/config", ["--forward", "1"]),
        "only": ("holidays", ["--config", examples + "/config", "--forward", "1"]),
        "hide": ("holidays", ["--config", examples + "/config", "--forward", "1"]),
        "week": ("2024-03-27", []), "hours": ("8-20", ["--week", "2024-03-27"]),
        "zone": ("Europe/Berlin", ["--forward", "1"]),
        "view": ("week", []), "zones": ("Europe/Berlin,America/New_York", []),
    ]

    /// The options only the pager takes: away from a terminal, a valid value reaches the
    /// refusal that names the option as unavailable (a bad one is refused as a bad value first).
    static let pagerOnly: Set<String> = ["view", "zones"]

    /// Every option that takes a value takes it as `--opt=value` and as `--opt value` (and a
    /// short one as `-xvalue` and `-x value`), with the same result; the list comes from the
    /// option table, so a new option without a sample here fails.
    @Test func everyValueIsWrittenEitherWay() throws {
        for spec in OptionSpec.all {
            if case .none = spec.value { continue }
            guard let sample = Self.sampleValues[spec.long] else {
                Issue.record("no sample value for --\(spec.long)")
                continue
            }
            let joined = try BinaryRunner.run(["--\(spec.long)=\(sample.value)"] + sample.rest)
            var spellings = [["--\(spec.long)", sample.value]]
            if let short = spec.short { spellings += [["-\(short)\(sample.value)"], ["-\(short)", sample.value]] }
            if Self.pagerOnly.contains(spec.long) {
                #expect(joined.status == 64 && joined.stderr.contains("--\(spec.long) is not available"), "--\(spec.long)=\(sample.value): \(joined.stderr)")
                for spelling in spellings {
                    let run = try BinaryRunner.run(spelling + sample.rest)
                    #expect(run.status == joined.status && run.stderr == joined.stderr, "\(spelling)")
                }
                continue
            }
            #expect(joined.status == 0 && joined.stderr == "", "--\(spec.long)=\(sample.value): \(joined.stderr)")
            #expect(!joined.stdout.isEmpty)
            for spelling in spellings {
                #expect(try BinaryRunner.run(spelling + sample.rest).stdout == joined.stdout, "\(spelling)")
            }
        }
    }

    /// `-jy` at an 80-column terminal puts two months a row, as ncal -C -jy does (ncal always
    /// does; util-linux cal fits the terminal); `-y` at 80 columns three, at 50 columns two.
    @Test(.enabled(if: ncal != nil, "ncal is not installed; skipping the fitted year view comparison"))
    func theYearViewFitsTheTerminal() throws {
        let ncal = Self.rows(try BinaryRunner.runProgram(URL(fileURLWithPath: Self.ncal ?? "/usr/bin/ncal"), ["-C", "-jy", "2024"],
                                                         environment: [:], deadline: 20).stdout)
        let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                arguments: ["--today", "2024-02-15", "--color", "never", "-jy", "2024"], columns: 80, rows: 24)
        #expect(session.waitForExit() == .exited(0))
        let ours = Self.rows(String(decoding: session.output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(Array(ours.dropFirst()) == Array(ncal.dropFirst()))
        // Away from a terminal, --columns auto fits COLUMNS the same way.
        let auto = try BinaryRunner.run(["-jy", "2024", "--columns", "auto"], environment: ["COLUMNS": "80"])
        #expect(Array(Self.rows(auto.stdout).dropFirst()) == Array(ncal.dropFirst()))
        // Without either, three a row as cal prints into a pipe (rows of 3 x 27 + 2 x 2 cells).
        #expect(try BinaryRunner.run(["-jy", "2024"]).stdout.split(separator: "\n").map(\.count).max() == 85)
    }

    /// Python's calendar.TextCalendar.formatyear with two months a row (m=2, two cells apart)
    /// has the rows `infcal -y` prints at a 50-column terminal.
    @Test(.enabled(if: CalendarOracleTests.python != nil, "python3 is not installed; skipping the narrow year view comparison"))
    func aNarrowTerminalGetsTwoMonthsARow() throws {
        let python = try CalendarOracleTests.runPython(
            "import calendar; print(calendar.TextCalendar(6).formatyear(2025, 2, 1, 2, 2), end='')")
        let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                arguments: ["--today", "2024-02-15", "-y", "2025"], columns: 50, rows: 24)
        #expect(session.waitForExit() == .exited(0))
        let ours = Self.rows(String(decoding: session.output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
        // Month names are centred alike up to a cell (str.center rounds the other way), so
        // the grids and weekday headers are compared, not the title lines.
        let weeks = { (lines: [String]) in lines.filter { $0.contains("Su Mo") || $0.first?.isNumber == true || $0.hasPrefix(" ") && $0.contains(where: \.isNumber) } }
        #expect(weeks(Array(ours.dropFirst())) == weeks(Array(Self.rows(python).dropFirst())))
        #expect(ours.count == Self.rows(python).count)
    }

    struct Usage: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let stderr: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usage: [Usage] = [
        Usage(arguments: ["13", "2024"], stderr: "invalid value '13' for MONTH: expected a month: 1 to 12, or a name such as march or mar"),
        Usage(arguments: ["0", "2024"], stderr: "invalid value '0' for MONTH: expected a month: 1 to 12, or a name such as march or mar"),
        Usage(arguments: ["ju", "2024"], stderr: "invalid value 'ju' for MONTH: expected the start of one month's name ('ju' begins june and july)"),
        Usage(arguments: ["m", "2024"], stderr: "invalid value 'm' for MONTH: expected the start of one month's name ('m' begins march and may)"),
        Usage(arguments: ["smarch", "2024"], stderr: "invalid value 'smarch' for MONTH: expected a month: 1 to 12, or a name such as march or mar"),
        Usage(arguments: ["30", "2", "2024"], stderr: "invalid value '30' for DAY: expected a day of February 2024, 1 to 29"),
        Usage(arguments: ["29", "2", "1900"], stderr: "invalid value '29' for DAY: expected a day of February 1900, 1 to 28"),
        Usage(arguments: ["10", "10", "1582"],
              stderr: "invalid value '10' for DAY: expected a day that exists (Julian before 1582-10-05, Gregorian from 1582-10-15)"),
        Usage(arguments: ["0"], stderr: "invalid value '0' for YEAR: expected a year from 1 (infcal [[DAY] MONTH] YEAR)"),
        Usage(arguments: ["3", "99999999999999999999"],
              stderr: "invalid value '99999999999999999999' for YEAR: expected a date from -4712-01-01 (4713 BC) to about year 500000"),
        Usage(arguments: ["1", "2", "2024", "4"], stderr: "unexpected argument '4' (infcal takes options and at most DAY MONTH YEAR; try --help)"),
        Usage(arguments: ["3", "2024", "--from", "2024-01"], stderr: "3 2024 cannot be used together with --from"),
        Usage(arguments: ["--year", "2024", "2025"], stderr: "--year 2024 cannot be used together with 2025"),
        Usage(arguments: ["-3", "--forward"], stderr: "--forward cannot be used together with -3"),
        Usage(arguments: ["-y", "-3"], stderr: "-y cannot be used together with -3"),
        Usage(arguments: ["-1", "-3"], stderr: "-1 cannot be used together with -3"),
        Usage(arguments: ["-n", "3", "-Y"], stderr: "-n cannot be used together with -Y"),
        Usage(arguments: ["--paged", "-A", "2"], stderr: "--paged cannot be used together with -A"),
        Usage(arguments: ["-n", "0"], stderr: "invalid value '0' for -n: expected a count: a whole number from 1 up"),
        Usage(arguments: ["-A", "-1"], stderr: "invalid value '-1' for -A: expected a count: a whole number from 0 up"),
        Usage(arguments: ["-B"], stderr: "missing value for -B: expected a count: a whole number from 0 up"),
        Usage(arguments: ["--color", "sometimes"], stderr: "invalid value 'sometimes' for --color: expected auto, always or never"),
        Usage(arguments: ["-wfoo"], stderr: "invalid value 'foo' for -w: expected iso or locale"),
        Usage(arguments: ["--completions", "tcsh"], stderr: "invalid value 'tcsh' for --completions: expected bash, zsh or fish"),
        // --since and --until as the start: what was typed is named, never a default.
        Usage(arguments: ["--since", "2024-03", "--until", "2024-05", "-3"],
              stderr: "invalid value '2024-03' for --since: expected a date not after today's month, 2024-02, where the months start without --from"),
        Usage(arguments: ["--until", "2023-12", "--forward"],
              stderr: "invalid value '2023-12' for --until: expected a date not before today's month, 2024-02, where the months start without --from"),
        Usage(arguments: ["--since", "2024-06", "--backward"],
              stderr: "invalid value '2024-06' for --since: expected a date not after today's month, 2024-02, where the months start without --from"),
        Usage(arguments: ["--from", "2024-07", "--since", "2024-03", "--until", "2024-05", "--forward"],
              stderr: "invalid value '2024-07' for --from: expected a month inside --since 2024-03 and --until 2024-05"),
        Usage(arguments: ["3", "2023", "--since", "2024-01"],
              stderr: "invalid value '3 2023' for the date: expected a month inside --since 2024-01"),
        Usage(arguments: ["2023", "--since", "2024-01"],
              stderr: "invalid value '2023' for YEAR: expected a year with a month inside --since 2024-01"),
    ]

    @Test(arguments: usage)
    func mistakesAreUsageErrors(_ usage: Usage) throws {
        let result = try BinaryRunner.run(usage.arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == "infcal: " + usage.stderr + "\n")
    }

    /// A month name in the locale's language, full or cut, with or without its accents typed
    /// as the locale writes them (ncal -C 3 2024 is the grid; the title is German).
    @Test func monthNamesInTheLocale() throws {
        for name in ["mär", "März", "MÄRZ", "märz"] {
            let result = try BinaryRunner.run(["--locale", "de_DE", name, "2024"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.hasPrefix("     März 2024\n"), "\(name)")
        }
        // The locale from LC_ALL counts too, and English names always work.
        let fromEnvironment = try BinaryRunner.run(["okt", "2024"], environment: ["LC_ALL": "de_DE.UTF-8"])
        #expect(fromEnvironment.stdout.contains("Oktober 2024"))
        #expect(try BinaryRunner.run(["--locale", "de_DE", "october", "2024"]).stdout.contains("Oktober 2024"))
        // A lone name is that month of this year (today is 2024-02-15).
        #expect(try BinaryRunner.run(["june"]).stdout.hasPrefix("     June 2024\n"))
    }

    /// Without --from, a forward stream starts at --since and a backward one at --until; the
    /// grids are ncal's.
    @Test(.enabled(if: ncal != nil, "ncal is not installed; skipping the bounded stream comparison"))
    func boundsAreWhereStreamsStart() throws {
        func ncalMonths(_ months: [(Int, Int)]) throws -> [String] {
            try months.flatMap { try NcalAgreementTests.ncalMonth($0.1, $0.0).filter { !$0.isEmpty } }
        }
        let forward = try BinaryRunner.run(["--since", "2024-03", "--until", "2024-05", "--forward"])
        #expect(forward.status == 0)
        #expect(Self.rows(forward.stdout) == (try ncalMonths([(2024, 3), (2024, 4), (2024, 5)])))
        let backward = try BinaryRunner.run(["--since", "2024-03", "--until", "2024-05", "--backward"])
        #expect(Self.rows(backward.stdout) == (try ncalMonths([(2024, 5), (2024, 4), (2024, 3)])))
        // The same with the pipe's default stream, and with only one bound.
        let plain = try BinaryRunner.run(["--since", "2030-11", "--until", "2031-01"])
        #expect(Self.rows(plain.stdout) == (try ncalMonths([(2030, 11), (2030, 12), (2031, 1)])))
        let counted = try BinaryRunner.run(["--until", "2019-02", "--backward", "2"])
        #expect(Self.rows(counted.stdout) == (try ncalMonths([(2019, 2), (2019, 1)])))
    }
}
