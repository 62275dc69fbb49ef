import Foundation
import InfCalProcess
import Testing

/// The agenda's lines for several-day events against khal's own `khal list` of the same
/// events: khal's test files `tests/ics/event_dt_long.ics` (timed, 2014-04-09 09:30 to
/// 2014-04-12 10:30) and `event_d_long.ics` (all day, 9 to 11 April), from
/// github.com/pimutils/khal (commit ea00567), as `Tests/Fixtures/khal/long-events.ics`, with
/// a one-day timed and a one-day all-day event beside them. khal reads a vdir (one event a
/// file) through a temporary config; the test skips when khal is not installed.
@Suite struct KhalAgendaTests {
    static let khal: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/khal" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// A vdir of the events and khal's config for it, in a new temporary directory.
    static func vdir() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-khal-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let calendar = root.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: calendar, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/khal/long-events.ics")
        var events = try String(contentsOf: fixture, encoding: .utf8).components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst()
            .map { "BEGIN:VEVENT\r\n" + ($0.components(separatedBy: "END:VEVENT\r\n").first ?? "") + "END:VEVENT\r\n" }
        events.append("BEGIN:VEVENT\r\nUID:lunch\r\nSUMMARY:Lunch\r\nDTSTART:20140410T120000\r\nDTEND:20140410T130000\r\nEND:VEVENT\r\n")
        events.append("BEGIN:VEVENT\r\nUID:holiday\r\nSUMMARY:Holiday\r\nDTSTART;VALUE=DATE:20140414\r\nDTEND;VALUE=DATE:20140415\r\nEND:VEVENT\r\n")
        for (number, event) in events.enumerated() {
            try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\n" + event + "END:VCALENDAR\r\n").utf8)
                .write(to: calendar.appendingPathComponent("event\(number).ics"))
        }
        let config = KhalConfig.text(name: "test", vdir: calendar.path, database: root.appendingPathComponent("khal.db").path, zone: "UTC")
        try Data(config.utf8).write(to: root.appendingPathComponent("config"))
        return root
    }

    /// khal's `{start}|{end}|{title}` line as infcal's agenda writes it: the start's date and
    /// weekday, the times (the end's date where it ends on another day), the title.
    static func agendaLine(fromKhal line: String) -> String {
        let parts = line.components(separatedBy: "|")
        guard parts.count == 3 else { return "unreadable khal line: \(line)" }
        let start = parts[0].split(separator: " ").map(String.init), end = parts[1].split(separator: " ").map(String.init)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.date(from: start[0])
        formatter.dateFormat = "EEE"
        let weekday = date.map(formatter.string) ?? "?"
        var times: String
        if start.count == 1 {
            times = end[0] == start[0] ? "all-day" : "all-day → " + end[0]
        } else {
            times = start[1] + (end[0] == start[0] ? "-" + end[1] : " → " + end[0] + " " + end[1])
        }
        if times.count < 11 { times += String(repeating: " ", count: 11 - times.count) }
        return start[0] + " " + weekday + "  " + times + "  " + parts[2]
    }

    static func khalList(_ root: URL, _ arguments: [String]) throws -> [String] {
        let run = try BinaryRunner.runProgram(URL(fileURLWithPath: khal ?? "khal"),
                                              ["-c", root.appendingPathComponent("config").path, "list", "--once",
                                               "--format", "{start}|{end}|{title}", "--day-format", ""] + arguments,
                                              environment: ["TZ": "UTC", "HOME": root.path,
                                                            "PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 120)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test(.enabled(if: khal != nil, "khal is not installed (pip install khal); skipping the comparison with khal list"))
    func severalDayEventsAsKhalListsThem() throws {
        let root = try Self.vdir()
        defer { try? FileManager.default.removeItem(at: root) }
        let khalLines = try Self.khalList(root, ["2014-04-01", "30d"])
        #expect(khalLines.count == 4)
        let ours = try BinaryRunner.run(["--agenda", "--events", root.appendingPathComponent("cal").path,
                                         "--since", "2014-04-01", "--until", "2014-04-30"],
                                        environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
        #expect(ours.status == 0, "\(ours.stderr)")
        #expect(ours.stdout.split(separator: "\n").map(String.init).sorted() == khalLines.map(Self.agendaLine).sorted())

        // From a day when the long events are under way: khal lists them with their true
        // starts, and so does infcal, marked as continuing.
        let underWay = try Self.khalList(root, ["2014-04-11", "1d"])
        let later = try BinaryRunner.run(["--agenda", "--events", root.appendingPathComponent("cal").path,
                                          "--from", "2014-04-11", "--until", "2014-04-11"],
                                         environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
        let lines = later.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasSuffix("  (continuing)") })
        #expect(lines.map { String($0.dropLast("  (continuing)".count)) }.sorted() == underWay.map(Self.agendaLine).sorted())
    }

    /// khal's `list` (one line a day an event touches, under the day's `{date}`) as
    /// `--agenda --days` writes it: khal's marks `↦` (first of several all-day days), `↔`
    /// (a day between), `⇥` (the last all-day day), `09:30→` and `→10:30` (first and last day
    /// of a timed event) in infcal's words, the days after the first marked `(continuing)`.
    static func dayLine(fromKhal line: String) -> String {
        let parts = line.components(separatedBy: "|")
        guard parts.count == 2 else {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            guard let date = formatter.date(from: line) else { return "unreadable khal line: \(line)" }
            formatter.dateFormat = "EEEE"
            return formatter.string(from: date) + ", " + line
        }
        let style = parts[0]
        var times = style, continuing = false
        switch style {
        case "": times = "all-day"
        case "↦": times = "all-day →"
        case "↔": continuing = true
        case "⇥": (times, continuing) = ("all-day", true)
        default:
            if style.hasSuffix("→") { times = String(style.dropLast()) + " →" }
            if style.hasPrefix("→") { (times, continuing) = ("→ " + style.dropFirst(), true) }
        }
        if times.count < 11 { times += String(repeating: " ", count: 11 - times.count) }
        return "  " + times + "  " + parts[1] + (continuing ? "  (continuing)" : "")
    }

    @Test(.enabled(if: khal != nil, "khal is not installed (pip install khal); skipping the comparison with khal list"))
    func daysAsKhalListsThem() throws {
        let root = try Self.vdir()
        defer { try? FileManager.default.removeItem(at: root) }
        for (since, until, span) in [("2014-04-01", "2014-04-30", "30d"), ("2014-04-11", "2014-04-11", "1d")] {
            let run = try BinaryRunner.runProgram(URL(fileURLWithPath: Self.khal ?? "khal"),
                                                  ["-c", root.appendingPathComponent("config").path, "list",
                                                   "--format", "{start-end-time-style}|{title}", "--day-format", "{date}", since, span],
                                                  environment: ["TZ": "UTC", "HOME": root.path,
                                                                "PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 120)
            #expect(run.status == 0, "\(run.stderr)")
            let khalLines = run.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            #expect(khalLines.count >= 3)
            let ours = try BinaryRunner.run(["--agenda", "--days", "--events", root.appendingPathComponent("cal").path,
                                             "--since", since, "--until", until],
                                            environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stdout.split(separator: "\n").map(String.init) == khalLines.map(Self.dayLine))
        }
    }

    /// khal's two long test events under day headings, from a day inside both: the golden was
    /// checked against `khal list` (as `daysAsKhalListsThem` above does where khal is installed),
    /// so that the layout is held where khal is not.
    @Test func longEventsUnderDayHeadings() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let run = try BinaryRunner.run(["--events", root.appendingPathComponent("Tests/Fixtures/khal/long-events.ics").path,
                                        "--agenda", "--days", "--from", "2014-04-09", "--until", "2014-04-12"],
                                       environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            Wednesday, 2014-04-09
              all-day →    Another Event
              09:30 →      An Event
            Thursday, 2014-04-10
              ↔            Another Event  (continuing)
              ↔            An Event  (continuing)
            Friday, 2014-04-11
              all-day      Another Event  (continuing)
              ↔            An Event  (continuing)
            Saturday, 2014-04-12
              → 10:30      An Event  (continuing)

            """)
    }
}
