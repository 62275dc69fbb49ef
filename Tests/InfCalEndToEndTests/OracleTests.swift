import Foundation
import Testing

/// infcal against an independent implementation: Debian's `ncal -C`, where both use the same
/// calendar (Julian before 1582-10-05; Gregorian from 1753, after ncal's default 1752 reform).
/// Skips, saying so, where ncal is not installed.
@Suite struct NcalAgreementTests {
    static let ncal = ["/usr/bin/ncal", "/bin/ncal"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Lines without trailing blanks, trailing empty lines dropped.
    static func normalized(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// What `ncal arguments` prints, normalized. ncal -C underlines the real today by
    /// overstriking ("_\b3"), even into a pipe, and has no switch for it in cal mode: the
    /// overstrikes are removed.
    static func ncalLines(_ arguments: [String]) throws -> [String] {
        let output = try BinaryRunner.runProgram(URL(fileURLWithPath: ncal ?? "/usr/bin/ncal"), arguments, environment: [:], deadline: 20)
        return normalized(output.stdout.replacingOccurrences(of: "_\u{8}", with: ""))
    }

    static func ncalMonth(_ month: Int, _ year: Int) throws -> [String] {
        try ncalLines(["-C", String(month), String(year)])
    }

    /// Stretches of months, as (first year, first month, count), where both agree on the calendar.
    static let stretches: [(Int, Int, Int)] = [
        (1, 1, 24), (4, 1, 12), (100, 1, 12), (999, 6, 12), (1000, 1, 24), (1581, 1, 21),
        (1753, 1, 36), (1799, 12, 3), (1899, 11, 4), (1999, 12, 3), (2000, 1, 60), (2023, 1, 48),
        (2100, 1, 12), (2400, 1, 12), (9998, 1, 24),
    ]

    @Test(.enabled(if: ncal != nil, "ncal is not installed (apt-get install ncal); skipping the ncal comparison"))
    func monthsMatchNcal() throws {
        var compared = 0
        for (year, month, count) in Self.stretches {
            let from = String(format: "%04d-%02d", year, month)
            let result = try BinaryRunner.run(["--from", from, "--forward", String(count), "--today", "2024-02-15"])
            #expect(result.status == 0)
            let ours = result.stdout.components(separatedBy: "\n\n")
            #expect(ours.count == count, "stretch from \(from)")
            for (offset, text) in ours.enumerated() {
                let index = (month - 1) + offset
                let (y, m) = (year + index / 12, index % 12 + 1)
                #expect(Self.normalized(text) == (try Self.ncalMonth(m, y)), "\(y)-\(m)")
                compared += 1
            }
        }
        // Random single months over both stretches of agreement, from a fixed seed.
        var state: UInt64 = 1582
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<120 {
            let julian = next(2) == 0
            let year = julian ? 1 + next(1581) : 1753 + next(8247)
            let month = 1 + next(12)
            let result = try BinaryRunner.run(["--from", String(format: "%04d-%02d", year, month), "--forward", "1", "--today", "2024-02-15"])
            #expect(Self.normalized(result.stdout) == (try Self.ncalMonth(month, year)), "\(year)-\(month)")
            compared += 1
        }
        #expect(compared == 427)
    }

    /// The machine's zone never changes a grid: Samoa skipped 30 December 2011, and Sao Paulo's
    /// clocks skipped local midnight on 4 November 2018.
    @Test(.enabled(if: ncal != nil, "ncal is not installed; skipping the zone comparison"),
          arguments: [("Pacific/Apia", 2011, 12), ("America/Sao_Paulo", 2018, 11), ("Asia/Kolkata", 2024, 3), ("Pacific/Kiritimati", 1995, 1)])
    func zonesDoNotChangeGrids(zone: String, year: Int, month: Int) throws {
        let result = try BinaryRunner.run(["--from", String(format: "%04d-%02d", year, month), "--forward", "1"], environment: ["TZ": zone])
        #expect(Self.normalized(result.stdout) == (try Self.ncalMonth(month, year)))
    }
}
