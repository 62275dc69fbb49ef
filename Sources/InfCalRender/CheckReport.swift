import InfCalModel
import InfCalEvents

/// What `infcal check` prints: for each calendar a heading line and its findings, one line
/// each (`FILE:LINE: kind: message`), then a summary; or, as JSON Lines, one object a finding.
public struct CheckReport {
    /// One calendar looked over: its name, where it is, how many files were read, and what
    /// was found in it.
    public struct Calendar {
        public let name: String
        public let location: String
        public let files: Int
        public let findings: [CheckFinding]

        /// The calendar `name` at `location`, `files` files, `findings`.
        public init(name: String, location: String, files: Int, findings: [CheckFinding]) {
            self.name = name
            self.location = location
            self.files = files
            self.findings = findings
        }
    }

    public let calendars: [Calendar]

    /// The report of `calendars`.
    public init(calendars: [Calendar]) {
        self.calendars = calendars
    }

    /// Every finding, calendar by calendar.
    public var findings: [CheckFinding] { calendars.flatMap(\.findings) }

    /// Whether a finding fails the check (exit 65): one that is an error, not a warning.
    public var failed: Bool { findings.contains { $0.kind.isError } }

    /// `count` things, in words: `1 file`, `2 files`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// How many errors and warnings `findings` hold, in words; `clean` for none.
    static func tally(_ findings: [CheckFinding]) -> String {
        let errors = findings.filter(\.kind.isError).count
        let warnings = findings.count - errors
        guard !findings.isEmpty else { return "clean" }
        return [errors > 0 ? counted(errors, "error") : nil, warnings > 0 ? counted(warnings, "warning") : nil]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// One finding as a line: `FILE:LINE: kind: message` (`FILE: kind: message` for a whole file).
    public static func line(_ finding: CheckFinding) -> String {
        InertText.path(finding.file) + (finding.line.map { ":\($0)" } ?? "") + ": \(finding.kind.rawValue): " + finding.message
    }

    /// The text form, ending in a newline: per calendar a heading (`NAME (PATH): N files,
    /// E errors, W warnings`, or `clean`) and its findings, then a blank line and the summary.
    public func text() -> String {
        var lines: [String] = []
        for calendar in calendars {
            let place = calendar.name == calendar.location ? InertText.path(calendar.name)
                : "\(InertText.path(calendar.name)) (\(InertText.path(calendar.location)))"
            lines.append("\(place): \(Self.counted(calendar.files, "file")), \(Self.tally(calendar.findings))")
            lines += calendar.findings.map(Self.line)
        }
        let files = calendars.reduce(0) { $0 + $1.files }
        let all = findings
        lines.append("")
        lines.append("\(Self.counted(calendars.count, "calendar")), \(Self.counted(files, "file")) checked: "
                     + (all.isEmpty ? "no problems found" : Self.tally(all)))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON Lines form: one object a finding, with `calendar`, `file`, `line` (null for a
    /// whole file), `kind`, `severity`, `message` and `uid` (null where none applies); nothing
    /// when there is no finding.
    public func jsonLines() -> String {
        let out = ByteBuffer()
        /// `"name":` and the string, or null; the first field opens the object.
        func field(_ name: String, _ value: String?) {
            out.append((name == "calendar" ? "{\"" : ",\"") + name + "\":")
            if let value { JSONText.appendString(value, to: out) } else { out.append("null") }
        }
        for finding in findings {
            field("calendar", finding.calendar)
            field("file", finding.file)
            out.append(",\"line\":" + (finding.line.map(String.init) ?? "null"))
            field("kind", finding.kind.rawValue)
            field("severity", finding.kind.severity)
            field("message", finding.message)
            field("uid", finding.uid)
            out.append("}\n")
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
