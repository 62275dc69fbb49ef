import Foundation
import Testing

/// The fuzzing run's file half as a test: a few hundred files mutated from the examples and
/// the hostile cases, each run of the binary bounded in time and memory, each followed by a
/// good calendar that must come through. Seeded, so every run tries the same files.
@Suite struct HostileFileFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files mutated: the examples, and the cases of `HostileInputTests` in a few lines.
    static func seeds() -> [[UInt8]] {
        var seeds = ["examples/holidays.ics", "examples/team.ics"].compactMap { FileManager.default.contents(atPath: root.appendingPathComponent($0).path) }
            .map { Array($0) }
        let snippets = [
            "BEGIN:VTIMEZONE\nTZID:Hostile/Zone\nBEGIN:STANDARD\nDTSTART:19700101T000000\nRRULE:FREQ=SECONDLY\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nEND:STANDARD\nEND:VTIMEZONE\nBEGIN:VEVENT\nUID:w\nDTSTART;TZID=Hostile/Zone:20240101T090000\nRRULE:FREQ=WEEKLY\nSUMMARY:weekly\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:s\nDTSTART:20240101T000000Z\nRRULE:FREQ=SECONDLY\nSUMMARY:seconds\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:c\nDTSTART:20240101T000000Z\nRRULE:FREQ=MINUTELY;COUNT=2000000000;BYSECOND=0,1,2,3,4,5,6,7,8,9\nSUMMARY:count\nEND:VEVENT\n",
            "BEGIN:X-THING\nX-A:b\nBEGIN:VEVENT\nUID:x\nDTSTART;VALUE=DATE:20240305\nSUMMARY:after thing\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:o\nDTSTART;VALUE=DATE:20240301\nSUMMARY:open\nBEGIN:VTODO\nEND:VTOOD\nEND:VEVENT\n x\n",
            "BEGIN:VEVENT\nUID:e\nDTSTART:\u{1B}]52;c;cm0gLXJmIH4K\u{07}\nSUMMARY:esc \u{9B}2J \u{202E}bidi\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:y\nDTSTART;VALUE=DATE:20240310\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\nSUMMARY:never\nEND:VEVENT\n",
            // Events lasting for years that repeat often (issue 34).
            "BEGIN:VEVENT\nUID:d\nDTSTART:00000101T000000\nDTEND:20240901T100000\nRRULE:FREQ=DAILY\nSUMMARY:days\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:l\nDTSTART:00000101T000000\nDTEND:20241220T140000\nRRULE:FREQ=SECONDLY\nSUMMARY:lasting\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:m\nDTSTART:20200101T000000Z\nDURATION:P2000D\nRRULE:FREQ=MINUTELY;BYSECOND=0,10,20,30,40,50\nSUMMARY:minutes\nEND:VEVENT\n",
            "BEGIN:VEVENT\nUID:w\nDTSTART:00000101T000000Z\nDTEND:20240101T000000Z\nRRULE:FREQ=WEEKLY;UNTIL=20240304T000000Z\nSUMMARY:weeks\nEND:VEVENT\n",
        ]
        seeds += snippets.map { Array(("BEGIN:VCALENDAR\nVERSION:2.0\n" + $0 + "END:VCALENDAR\n").utf8) }
        return seeds
    }

    /// Pieces a mutation inserts: controls, terminal sequences, bidi controls, structure,
    /// dense or huge rule parts, odd dates and zones.
    static let pieces: [String] = [
        "\u{1B}]0;title\u{07}", "\u{1B}[2J", "\u{9B}31m", "\u{202E}", "\u{2066}", "\u{0}", "\u{7F}", "\r", "\n ", "\n\t",
        "\nBEGIN:X-THING\n", "\nBEGIN:VEVENT\n", "\nEND:VEVENT\n", "\nEND:VTOOD\n", "\nEND:VCALENDAR\n", "\nBEGIN:VCALENDAR\n",
        ";FREQ=SECONDLY", ";INTERVAL=1", ";COUNT=2000000000", ";BYSECOND=0,1,2,3,4,5,6,7,8,9,10,11,12", ";BYSETPOS=-1",
        ";UNTIL=99991231T235959Z", "\nRRULE:FREQ=SECONDLY\n", "\nRRULE:FREQ=MINUTELY;BYHOUR=0,1,2,3,4,5,6\n",
        "\nDTSTART:00000101T000000\n", "\nDTSTART:99991231\n", ";TZID=Hostile/Zone", ";TZID=\u{FF}", "\nEXDATE:20240101T000000Z,", "\nRDATE;VALUE=PERIOD:20240101T000000Z/P99999D\n",
        "\nDURATION:P99999999W\n", "\nDURATION:P3000D\n", "\nDTEND:20241220T140000\n", ";FREQ=MINUTELY", ";INTERVAL=7",
        ";BYSECOND=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59",
        "\nEXRULE:FREQ=HOURLY\n", "😀\u{200D}👩", "\u{FFFD}", String(repeating: "A", count: 5000),
    ]

    /// `seed` with 1 to 4 mutations: a piece inserted, bytes flipped, a line deleted,
    /// duplicated or swapped, or the text cut short.
    static func mutate(_ seed: [UInt8], using generator: inout EnvironmentFuzzTests.Generator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1: bytes.insert(contentsOf: Array((pieces.randomElement(using: &generator) ?? "").utf8), at: at)
            case 2: for index in at..<min(bytes.count, at + 3) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            case 3:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                let line = Int.random(in: 0..<lines.count, using: &generator)
                if Bool.random(using: &generator) { lines.remove(at: line) } else { lines.insert(lines[line], at: line) }
                bytes = Array(lines.joined(separator: [0x0A]))
            case 4:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                let (a, b) = (Int.random(in: 0..<lines.count, using: &generator), Int.random(in: 0..<lines.count, using: &generator))
                lines.swapAt(a, b)
                bytes = Array(lines.joined(separator: [0x0A]))
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }

    /// The good calendar after every mutated file: whatever came before, its event is read
    /// (a summary short enough for the stream's lines).
    static let sentinel = Array("\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:sentinel@infcal\r\nDTSTART;VALUE=DATE:20240315\r\nSUMMARY:GOODEV\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)

    /// Whether `text` holds a byte that drives a terminal (as `HostileInputTests` checks).
    static func hasRawControl(_ text: String) -> Bool { HostileInputTests.hasRawControl(text) }

    @Test func mutatedFilesNeverCrashHangLeakControlsOrLoseTheGoodEvent() throws {
        var generator = EnvironmentFuzzTests.Generator(state: 20_261_201)
        let seeds = Self.seeds()
        let dir = try HostileInputTests.directory()
        let views: [[String]] = [["--agenda"], ["--agenda", "--json"], ["--wall", "--width", "100", "--forward", "1"],
                                 ["--json", "--forward", "1"], ["--forward", "1"], ["--agenda", "--days"]]
        var runs: [(path: String, arguments: [String])] = []
        for index in 0..<300 {
            let seed = seeds[index % seeds.count]
            let file = dir.appendingPathComponent("fuzz-\(index).ics")
            try Data(Self.mutate(seed, using: &generator) + Self.sentinel).write(to: file)
            let view = views[index % views.count]
            runs.append((file.path, ["--events", file.path, "--from", "2024-03"] + (view.contains("--agenda") ? ["--forward", "1"] : []) + view))
        }
        let results = EnvironmentFuzzTests.Outcomes(count: runs.count)
        let all = runs
        EnvironmentFuzzTests.inLanes(count: all.count, lanes: 3) { index in
            results.set(index, try? BinaryRunner.run(all[index].arguments, deadline: 20, memoryLimit: HostileInputTests.memoryLimit))
        }
        var failures: [String] = []
        for (index, run) in runs.enumerated() {
            guard let result = results.get(index) else {
                failures.append("\(run.path): did not run")
                continue
            }
            if result.signalled || (result.status != 0 && result.status != 65) {
                failures.append("\(run.path) \(run.arguments.suffix(3)): \(result.signalled ? "signal" : "exit") \(result.status)")
            } else if Self.hasRawControl(result.stdout) || Self.hasRawControl(result.stderr) {
                failures.append("\(run.path): a raw control reached the terminal: \(result.stderr.debugDescription.prefix(200))")
            } else if !run.arguments.contains("--wall"), !result.stdout.contains("GOODEV") {
                // The lists (the agenda, JSON, the stream's) show every occurrence; the page's
                // cells may be full of a dense rule's instances.
                failures.append("\(run.path) \(run.arguments.suffix(3)): the good event was lost")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(runs.count) runs failed; first: \(failures.prefix(5).joined(separator: "\n"))")
    }
}
