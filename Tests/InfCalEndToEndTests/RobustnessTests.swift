import Foundation
import Testing

/// What the environment and odd command lines cannot break: --help and --version answer first,
/// errors are one inert line, and TZ decides today as `date` reads it.
@Suite struct RobustnessTests {
    // MARK: --help and --version

    @Test(arguments: [
        ["--version", "--until", "1990"], ["--version", "--columns", "abc", "--locale", "zzzzzzzzzzzzzzzzz"],
        ["-V", "--forward", "0", "--calendar", "nope"], ["--from", "2024-13", "--version"],
    ])
    func versionAnswersWhateverElseIsGiven(arguments: [String]) throws {
        let result = try BinaryRunner.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == "infcal 0.1.0\n")
        #expect(result.stderr == "")
    }

    @Test func helpAnswersWhateverElseIsGiven() throws {
        let result = try BinaryRunner.run(["--until", "xx", "--calendar", "nope", "-h", "--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: infcal [OPTION]..."))
        #expect(result.stderr == "")
    }

    // MARK: Inert errors

    @Test func controlCharactersInValuesAreEscaped() throws {
        let newline = try BinaryRunner.run(["--calendar", "chinese\nX"])
        #expect(newline.status == 64)
        #expect(newline.stderr.hasPrefix("infcal: invalid value 'chinese\\nX' for --calendar: expected "))
        #expect(newline.stderr.filter { $0 == "\n" }.count == 1 && newline.stderr.hasSuffix("\n"))

        let escape = try BinaryRunner.run(["--from", "\u{1B}]0;pwned\u{07}\u{1B}[2J"])
        #expect(escape.status == 64)
        #expect(escape.stderr == "infcal: invalid value '\\x1b]0;pwned\\x07\\x1b[2J' for --from: expected YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)\n")

        let option = try BinaryRunner.run(["--fr\u{202E}om\u{9B}"])
        #expect(option.stderr == "infcal: unknown option '--fr\\u{202e}om\\u{9b}' (did you mean '--from'?)\n")
    }

    @Test func longValuesAreCut() throws {
        let result = try BinaryRunner.run(["--from", String(repeating: "x", count: 5_000)])
        #expect(result.status == 64)
        #expect(result.stderr == "infcal: invalid value '\(String(repeating: "x", count: 79))…' for --from: expected YYYY-MM, YYYY-MM-DD, YYYY (signed: -0043, +10000), today or +N/-N (months, up to 3 digits)\n")
    }

    // MARK: Today as date sees it

    /// TZ in the forms the C library reads: names, ":name", POSIX rules. Several put today on
    /// another date than UTC's (UTC+12 is twelve hours behind, as POSIX counts).
    @Test(arguments: ["<+14>-14", "UTC+12", "XYZ-14", ":Pacific/Kiritimati", "EST5EDT,M3.2.0,M11.1.0", "Pacific/Pago_Pago",
                      "Asia/Kolkata", "<-0330>3:30", "UTC"])
    func todayIsTheDateDateSees(zone: String) throws {
        let date = URL(fileURLWithPath: "/bin/date")
        // The oracle: date(1) under the same TZ, before and after (a run across midnight is retried).
        for _ in 0..<3 {
            let before = try BinaryRunner.runProgram(date, ["+%-d %B %Y"], environment: ["TZ": zone], deadline: 20).stdout
            let result = try BinaryRunner.runProgram(BinaryRunner.executable, ["--color", "always", "--forward", "1"],
                                                     environment: ["TZ": zone], deadline: 20)
            let after = try BinaryRunner.runProgram(date, ["+%-d %B %Y"], environment: ["TZ": zone], deadline: 20).stdout
            guard before == after else { continue }
            let parts = before.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let lines = result.stdout.split(separator: "\n")
            #expect(result.status == 0)
            #expect(lines.first?.trimmingCharacters(in: .whitespaces) == parts.last, "TZ=\(zone)")
            let highlighted = result.stdout.components(separatedBy: "\u{1B}[7m").dropFirst().first?.prefix { $0.isNumber }
            #expect(highlighted.map(String.init) == parts.first, "TZ=\(zone)")
            return
        }
        Issue.record("the date kept changing under TZ=\(zone)")
    }
}
