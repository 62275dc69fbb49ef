import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Helpers shared by the unit tests. Every test fixes its own calendar, zone ("UTC", through
/// `MonthCalendar`) and today; nothing here reads the real date or locale.
enum Fixture {
    static let gregorian = MonthCalendar(.gregorian)

    /// The day number of a Gregorian (Julian before 1582-10-15) date; astronomical years.
    /// A date that does not exist fails the test that asked for it.
    static func day(_ year: Int, _ month: Int, _ day: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        do {
            return try DateArgument.dayNumber(year: year, month: month, day: day, in: gregorian)
        } catch {
            Issue.record("\(year)-\(month)-\(day) is no day: \(error)", sourceLocation: sourceLocation)
            return 0
        }
    }

    /// The month holding that date.
    static func month(_ year: Int, _ month: Int, _ day: Int = 1, in calendar: MonthCalendar = gregorian) -> Month? {
        calendar.month(containing: Self.day(year, month, day))
    }

    /// An environment for resolving options: not a terminal, no variables, today 2024-02-15.
    static func environment(terminal: Bool = false, width: Int? = nil, variables: [String: String] = [:],
                            today: (Int, Int, Int) = (2024, 2, 15)) -> RunEnvironment {
        RunEnvironment(variables: variables, stdoutIsTerminal: terminal, terminalWidth: terminal ? (width ?? 80) : nil,
                       localToday: today)
    }

    /// Parses and resolves `arguments`.
    static func resolve(_ arguments: [String], environment: RunEnvironment = environment()) throws(UsageError) -> Configuration {
        try Configuration.resolve(ArgumentParser.parse(arguments), environment: environment)
    }

    /// The text infcal prints for `arguments`.
    static func output(_ arguments: [String], environment: RunEnvironment = environment()) throws -> String {
        let configuration = try resolve(arguments, environment: environment)
        let sink = CollectingSink()
        try configuration.printMonths(to: sink)
        return String(decoding: sink.bytes, as: UTF8.self)
    }
}

/// A sink that keeps what it is given.
final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []
    var writes = 0
    func write(_ bytes: [UInt8]) throws {
        self.bytes += bytes
        writes += 1
    }
}

/// SplitMix64: a seeded, portable sequence, so that a fuzz failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 up to `n`, exclusive (0 when `n` is below 1).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// `bytes` with one to eight random changes: a byte made one of `specials`, one of them
    /// inserted, a byte removed, a byte made any byte.
    mutating func mutated(_ bytes: [UInt8], specials: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + below(8)) where !bytes.isEmpty {
            let at = below(bytes.count)
            switch below(4) {
            case 0: bytes[at] = specials[below(specials.count)]
            case 1: bytes.insert(specials[below(specials.count)], at: at)
            case 2: bytes.remove(at: at)
            default: bytes[at] = UInt8(truncatingIfNeeded: next())
            }
        }
        return bytes
    }
}
