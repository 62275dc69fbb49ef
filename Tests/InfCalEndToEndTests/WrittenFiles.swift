import Foundation
import InfCalProcess
import Testing

/// The independent check every write test makes of what a write left: each calendar file it
/// made or changed is read by Python's icalendar and held to RFC 5545's rules by
/// `Tests/Oracles/ics_validator.py` (UID, DTSTAMP in UTC, DTSTART; UNTIL of DTSTART's type;
/// an override's SEQUENCE; lines of at most 75 octets, CRLF), and compared with the file
/// before the write byte for byte except whole components: the report names the components
/// added, changed and removed, which the test checks are the ones it meant.
///
/// Use: `let before = WrittenFiles.Snapshot(calendar)`, the write, then
/// `WrittenFiles.check(calendar, since: before)`. Without python3 and icalendar it says so
/// once and checks nothing (nil).
enum WrittenFiles {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/ics_validator.py").path

    /// A python3 with icalendar, or nil (then every check says it is skipped).
    static let python: String? = WriteCommandEndToEndTests.programs("python3").first { candidate in
        (try? ChildProcess.run(candidate, ["-c", "import icalendar"], environment: nil, deadline: 30).exit) == .exited(0)
    }

    /// What the validator found, merged over the files of one write.
    struct Report: Decodable, Equatable {
        var problems: [String] = []
        var added: [String] = []
        var changed: [String] = []
        var removed: [String] = []
        var zonesAdded: [String] = []
        var zonesRemoved: [String] = []

        /// Every UID added, changed or removed, sorted, once each.
        var touched: [String] { Array(Set(added + changed + removed)).sorted() }
    }

    /// The bytes of a calendar before a write: the file, or each `.ics` file below a
    /// directory (links followed, as the calendar's readers follow them).
    struct Snapshot {
        let files: [String: [UInt8]]

        init(_ calendar: URL) {
            var files: [String: [UInt8]] = [:]
            for path in WrittenFiles.calendarFiles(calendar) {
                files[path] = FileManager.default.contents(atPath: path).map { Array($0) } ?? []
            }
            self.files = files
        }

        /// The file `calendar` as if it held `bytes`.
        init(_ calendar: URL, bytes: [UInt8]) {
            files = [calendar.path: bytes]
        }
    }

    /// The calendar files at `calendar`: itself, or the `.ics` files below it (a vdir; the
    /// directory's links followed first).
    static func calendarFiles(_ named: URL) -> [String] {
        var isDirectory: ObjCBool = false
        let resolved = named.resolvingSymlinksInPath()
        let calendar = FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) && isDirectory.boolValue ? resolved : named
        guard FileManager.default.fileExists(atPath: calendar.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [calendar.path] }
        let names = (FileManager.default.subpaths(atPath: calendar.path) ?? []).filter { $0.lowercased().hasSuffix(".ics") }
        return names.map { calendar.appendingPathComponent($0).path }.sorted()
    }

    /// Says once that nothing is validated.
    static let skipped: Void = print("WrittenFiles: python3 with icalendar is missing (pip install icalendar): written files are not validated")

    /// Validates every file of `calendar` that the write since `before` made or changed, and
    /// records each problem as a test failure (unless `recording` is false: the validator's
    /// own tests look at the problems); a file the write removed has its UIDs reported
    /// removed. nil (after saying so once) without python3 and icalendar.
    @discardableResult
    static func check(_ calendar: URL, since before: Snapshot, recording: Bool = true,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Report? {
        guard let python else {
            skipped
            return nil
        }
        var report = Report()
        let after = Snapshot(calendar)
        for (path, bytes) in after.files.sorted(by: { $0.key < $1.key }) where before.files[path] != bytes {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-validate-\(UUID().uuidString).ics")
            defer { try? FileManager.default.removeItem(at: base) }
            try Data(before.files[path] ?? []).write(to: base)
            let run = try ChildProcess.run(python, [script, path, base.path], environment: nil, deadline: 300)
            let output = String(decoding: run.standardOutput, as: UTF8.self)
            guard let line = output.split(separator: "\n").last, let one = try? JSONDecoder().decode(Report.self, from: Data(line.utf8)) else {
                Issue.record("ics_validator.py on \(path) gave no report: \(output) \(String(decoding: run.standardError, as: UTF8.self))",
                             sourceLocation: sourceLocation)
                continue
            }
            for problem in one.problems where recording { Issue.record("\(path): \(problem)", sourceLocation: sourceLocation) }
            report.problems += one.problems
            report.added += one.added
            report.changed += one.changed
            report.removed += one.removed
            report.zonesAdded += one.zonesAdded
            report.zonesRemoved += one.zonesRemoved
        }
        for (path, bytes) in before.files where after.files[path] == nil {
            report.removed += String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
                .filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }
        return report
    }
}
