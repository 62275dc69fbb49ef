import Foundation
import Testing

/// No locale name in the environment or on the command line can crash infcal: ICU reads its
/// default locale from LC_ALL, LC_MESSAGES and LANG itself, and crashed on malformed names.
@Suite struct EnvironmentFuzzTests {
    /// Knuth's MMIX linear congruential generator, seeded, so that every run tries the same
    /// names; its high bits are good enough to pick shapes and letters.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// The names the reports found crashing, then malformed names of every kind: long parts,
    /// non-ASCII, empty parts, odd `@` modifiers, codesets and keywords.
    static func malformedNames(count: Int) -> [String] {
        var generator = Generator(state: 20_261_130)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let odd = ["😀", "é", "ß", "\u{301}", "中", "\u{202E}", "\u{7F}", "\u{1B}", "\t", " ", "=", ";", "@", ".", "_", "-", "/", "%", "'", "\\", "\u{FFFD}"]
        func word(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "a" })
        }
        func oddText(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &generator)).map { _ in
                Bool.random(using: &generator) ? (odd.randomElement(using: &generator) ?? "") : word(1...3)
            }.joined()
        }
        let shapes: [() -> String] = [
            { word(9...300) },                                          // a long language
            { "en_" + word(3...200) },                                  // a long region
            { "de_DE.UTF-8@" + word(12...200) },                        // a long modifier
            { "de@" + word(12...80) },
            { oddText(1...12) },                                        // non-ASCII and punctuation
            { "en_US" + oddText(1...6) },
            { ["", "_", "__", "."].randomElement(using: &generator)! + word(0...12) + ["_", "__", ".", "@", "@="].randomElement(using: &generator)! },
            { "en_US@" + [";", "=", "==", "a=", "=b", "a=b;", "a=b;;c=d", "@", "calendar=" + word(40...90)].randomElement(using: &generator)! },
            { word(2...3) + "_" + word(2...2).uppercased() + "." + word(33...100) },  // a long codeset
            { word(2...3) + "@" + word(1...5) + "@" + word(1...5) },   // two modifiers
            { String(repeating: word(1...4) + "_", count: Int.random(in: 2...40, using: &generator)) },
        ]
        var names = ["abcdefghijkl", "xxxxxxxxxxxx", "😀😀😀", "en_" + String(repeating: "A", count: 200),
                     "en_US@" + String(repeating: "m", count: 200), "", "C", "c.utf8", "POSIX", "posix"]
        while names.count < count {
            names.append(shapes.randomElement(using: &generator)!())
        }
        return names
    }

    struct Run: Sendable {
        let environment: [String: String]
        let arguments: [String]
    }

    @Test func malformedLocaleNamesNeverCrash() throws {
        let names = Self.malformedNames(count: 60)
        var runs: [Run] = []
        for (position, name) in names.enumerated() {
            // ICU's calendar and names open a locale; the calendar list opens every calendar.
            let arguments = position % 3 == 0 ? ["--calendar", "list"] : ["--calendar", position % 3 == 1 ? "hebrew" : "chinese", "--forward", "1"]
            for variable in ["LC_ALL", "LC_TIME", "LC_MESSAGES", "LANG"] {
                runs.append(Run(environment: [variable: name], arguments: arguments))
            }
            runs.append(Run(environment: ["LC_MESSAGES": name], arguments: ["--locale", name, "--forward", "1"]))
        }
        #expect(runs.count == 300)
        let results = Results(count: runs.count)
        let all = runs
        Self.inLanes(count: all.count, lanes: 4) { index in
            let run = all[index]
            var environment: [String: String?] = ["LC_ALL": nil]
            for (key, value) in run.environment { environment[key] = value }
            results.set(index, (try? BinaryRunner.run(run.arguments, environment: environment)).map { ($0.status, $0.signalled) })
        }
        for (index, run) in runs.enumerated() {
            let outcome = results.get(index)
            #expect(outcome.map { !$0.1 && ($0.0 == 0 || $0.0 == 64) } == true,
                    "\(run.environment.debugDescription) \(run.arguments): \(outcome.map { "\($0.1 ? "signal" : "exit") \($0.0)" } ?? "did not run")")
        }
    }

    /// A malformed name counts as C in the environment, and is a usage error for --locale.
    @Test func malformedNamesCountAsCOrAreRefused() throws {
        for variable in ["LC_ALL", "LC_TIME", "LANG"] {
            var environment: [String: String?] = ["LC_ALL": nil, "LANG": "de_DE.UTF-8"]
            environment[variable] = "abcdefghijkl"
            let result = try BinaryRunner.run(["--from", "2024-02", "--forward", "1"], environment: environment)
            #expect(result.status == 0 && result.stdout.hasPrefix("   February 2024\nSu Mo"), "\(variable)")
        }
        let german = try BinaryRunner.run(["--from", "2024-02", "--forward", "1", "--locale", "de_DE"],
                                          environment: ["LC_ALL": nil, "LC_MESSAGES": "xxxxxxxxxxxx"])
        #expect(german.status == 0 && german.stdout.hasPrefix("    Februar 2024\nMo Di"))
        let refused = try BinaryRunner.run(["--locale", "abcdefghijkl"])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(refused.stderr == "infcal: invalid value 'abcdefghijkl' for --locale: expected \(localeExpected)\n")
    }

    let localeExpected = "a locale such as en_US, de_DE or ja_JP, or C"

    /// Calls `body` for each of `0..<count` on `lanes` threads of their own (not the dispatch
    /// pool, which the runner's pipe readers need), each taking every `lanes`-th index, and
    /// returns when all are done.
    static func inLanes(count: Int, lanes: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchSemaphore(value: 0)
        for lane in 0..<lanes {
            Thread {
                for index in stride(from: lane, to: count, by: lanes) { body(index) }
                finished.signal()
            }.start()
        }
        for _ in 0..<lanes { finished.wait() }
    }

    /// Whole results written from several threads, each slot by one.
    final class Outcomes: @unchecked Sendable {
        private var results: [BinaryRunner.Result?]
        private let lock = NSLock()
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ result: BinaryRunner.Result?) { lock.withLock { results[index] = result } }
        func get(_ index: Int) -> BinaryRunner.Result? { lock.withLock { results[index] } }
    }

    /// Outcomes written from several threads, each slot by one.
    final class Results: @unchecked Sendable {
        private var outcomes: [(Int32, Bool)?]
        private let lock = NSLock()
        init(count: Int) { outcomes = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ outcome: (Int32, Bool)?) { lock.withLock { outcomes[index] = outcome } }
        func get(_ index: Int) -> (Int32, Bool)? { lock.withLock { outcomes[index] } }
    }
}
