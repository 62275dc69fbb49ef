import Foundation
@testable import InfCalEvents

/// The invitation fixtures (Tests/Fixtures/invitations, README.md there says where each shape
/// comes from) and the Python oracles that read them independently (Tests/Oracles).
enum InvitationFixtures {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = tests.appendingPathComponent("Fixtures/invitations")

    /// The bytes of fixture `name` (`mail/...` for a message).
    static func bytes(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) ?? Data())
    }

    /// The fixture `name` read as import and invitations read it.
    static func data(_ name: String) -> CalendarData {
        CalendarData.read(bytes(name), name: name)
    }

    /// The .ics fixtures, sorted.
    static var calendars: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
    }

    /// The .eml fixtures, sorted (names with `mail/`).
    static var messages: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("mail").path)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted().map { "mail/" + $0 }
    }

    /// UTC civil seconds of `YYYYMMDDTHHMMSSZ`.
    static func utc(_ text: String) -> Int {
        ICalTime.parse(text, isDate: nil, zone: nil)?.seconds ?? Int.min
    }

    /// `seconds` (UTC civil) as `YYYYMMDDTHHMMSSZ`.
    static func text(_ seconds: Int) -> String { ICalText.dateTime(seconds, utc: true) }
}

/// Python 3 with icalendar (and recurring_ical_events), run on the oracle scripts of
/// Tests/Oracles; nil when it is not installed (the tests that need it skip and say so).
enum PythonOracle {
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3", "/usr/local/bin/python3"]
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && run(candidate, ["-c", "import icalendar, recurring_ical_events, email"])?.status == 0
        }
    }()


    /// The path of oracle script `name`.
    static func script(_ name: String) -> String {
        InvitationFixtures.tests.appendingPathComponent("Oracles/" + name).path
    }

    /// Runs oracle script `name` with `arguments` (and `input` on its standard input).
    static func run(script name: String, _ arguments: [String], input: [UInt8]? = nil) -> (status: Int32, output: String)? {
        guard let python else { return nil }
        return run(python, [script(name)] + arguments, input: input)
    }

    /// Runs `program` with `arguments`; nil when it cannot be started.
    static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        guard (try? process.run()) != nil else { return nil }
        if let input {
            // Written from another thread: the child may fill its output pipe before reading all of it.
            let writer = inputPipe.fileHandleForWriting
            DispatchQueue.global().async {
                writer.write(Data(input))
                try? writer.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A temporary file holding `bytes`, removed by `body`'s end.
    static func withFile<T>(_ bytes: [UInt8], suffix: String = ".ics", _ body: (String) throws -> T) rethrows -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-oracle-\(UUID().uuidString)\(suffix)")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }
}
