import Foundation
import Testing

/// Events shown in a zone, through the built binary, against an independent computation:
/// `Tests/Oracles/zone_oracle.py` reads each event's times in its own zone with Python's
/// `zoneinfo`, lasts a DTEND's exact time and a DURATION's days of the calendar (RFC 5545
/// §3.3.6, §3.8.2.2), steps a series on the wall clock of its zone, and writes the times as
/// `--json` writes them in the zone shown. A year of events in four zones (Berlin, New York,
/// Tokyo, Sydney, whose offsets change on different days and in both hemispheres), the days
/// the offsets change among them, shown in each of the four: by TZ, and by `--zone` with TZ
/// another zone. `--agenda --json`, the month's `--json` and the text agenda are compared.
/// Skips, saying so, without python3 3.9 or later (`zoneinfo`).
@Suite struct ZoneOracleTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/zone_oracle.py").path

    /// The zones the events are in and are shown in.
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"]

    /// An event as the oracle and the .ics file both take it.
    struct TestEvent: Encodable {
        let summary: String
        /// "zoned" (in `tz`), "utc", "floating" or "date".
        let kind: String
        var tz: String?
        /// Local (or UTC) times `YYYY-MM-DDTHH:MM:SS`, or dates `YYYY-MM-DD`.
        let start: String
        /// DTEND (exclusive for dates), in `end_tz` where given, else in the start's zone.
        var end: String?
        var end_tz: String?
        /// DURATION: days of the calendar, then exact seconds.
        var days: Int?
        var seconds: Int?
        /// A series: `count` instances `every` days apart.
        var every: Int?
        var count: Int?

        /// The VEVENT's lines.
        var lines: [String] {
            func stamp(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") }
            var lines = ["BEGIN:VEVENT", "UID:\(summary.replacingOccurrences(of: " ", with: "-"))@zones", "SUMMARY:\(summary)"]
            func time(_ name: String, _ value: String, zone: String?) -> String {
                switch kind {
                case "zoned": return "\(name);TZID=\(zone ?? tz ?? "UTC"):\(stamp(value))"
                case "utc": return "\(name):\(stamp(value))Z"
                case "date": return "\(name);VALUE=DATE:\(stamp(value))"
                default: return "\(name):\(stamp(value))"
                }
            }
            lines.append(time("DTSTART", start, zone: tz))
            if let end {
                lines.append(time("DTEND", end, zone: end_tz ?? tz))
            } else {
                let dayPart = (days ?? 0) > 0 ? "\(days ?? 0)D" : ""
                let timePart = (seconds ?? 0) > 0 ? "T\(seconds ?? 0)S" : ""
                lines.append("DURATION:P" + dayPart + timePart)
            }
            if let every, let count { lines.append("RRULE:FREQ=DAILY;INTERVAL=\(every);COUNT=\(count)") }
            return lines + ["END:VEVENT"]
        }
    }

    /// A year of events: weekly series at the hours the clocks skip or repeat in their zone,
    /// overnight events across the changes (DTEND, DTEND in another zone, DURATION of days and
    /// of 24 hours), a late call that is the next day elsewhere, UTC, floating and all-day events.
    static let events: [TestEvent] = {
        func zoned(_ summary: String, _ tz: String, _ start: String, end: String? = nil) -> TestEvent {
            TestEvent(summary: summary, kind: "zoned", tz: tz, start: start, end: end)
        }
        func series(_ event: TestEvent, every: Int, count: Int) -> TestEvent {
            var event = event
            (event.every, event.count) = (every, count)
            return event
        }
        var events: [TestEvent] = [
            series(zoned("Berlin night", "Europe/Berlin", "2024-01-07T02:30:00", end: "2024-01-07T03:30:00"), every: 7, count: 52),
            series(zoned("New York night", "America/New_York", "2024-01-07T01:30:00", end: "2024-01-07T02:30:00"), every: 7, count: 52),
            series(zoned("Tokyo standup", "Asia/Tokyo", "2024-01-04T09:00:00", end: "2024-01-04T09:15:00"), every: 7, count: 52),
            series(zoned("Sydney April", "Australia/Sydney", "2024-04-02T02:30:00", end: "2024-04-02T03:00:00"), every: 1, count: 10),
            series(zoned("Sydney October", "Australia/Sydney", "2024-10-01T02:30:00", end: "2024-10-01T03:30:00"), every: 1, count: 10),
            series(zoned("Late call", "America/New_York", "2024-11-01T23:30:00", end: "2024-11-02T00:30:00"), every: 1, count: 5),
            series(TestEvent(summary: "Day and an hour", kind: "zoned", tz: "Europe/Berlin", start: "2024-10-19T22:00:00", days: 1, seconds: 3600),
                   every: 7, count: 3),
            series(TestEvent(summary: "March day", kind: "zoned", tz: "America/New_York", start: "2024-03-09T22:00:00", days: 1), every: 1, count: 3),
        ]
        var crossEnd = zoned("Ends in New York", "Europe/Berlin", "2024-10-26T22:00:00", end: "2024-10-27T06:00:00")
        crossEnd.end_tz = "America/New_York"
        events += [
            zoned("Overnight October", "Europe/Berlin", "2024-10-26T22:00:00", end: "2024-10-27T06:00:00"),
            zoned("Overnight March", "Europe/Berlin", "2024-03-30T22:00:00", end: "2024-03-31T06:00:00"),
            zoned("Overnight November", "America/New_York", "2024-11-02T22:00:00", end: "2024-11-03T06:00:00"),
            zoned("Overnight Sydney", "Australia/Sydney", "2024-04-06T22:00:00", end: "2024-04-07T06:00:00"),
            crossEnd,
            TestEvent(summary: "Whole day", kind: "zoned", tz: "Europe/Berlin", start: "2024-03-30T12:00:00", days: 1),
            TestEvent(summary: "Twenty-four hours", kind: "zoned", tz: "Europe/Berlin", start: "2024-03-30T12:00:00", seconds: 86_400),
            zoned("Summer call", "America/New_York", "2024-06-12T23:30:00", end: "2024-06-13T00:30:00"),
            zoned("Gap start", "Europe/Berlin", "2024-03-31T02:30:00", end: "2024-03-31T04:00:00"),
            TestEvent(summary: "UTC sync", kind: "utc", start: "2024-03-31T01:30:00", end: "2024-03-31T02:30:00"),
            TestEvent(summary: "UTC fold", kind: "utc", start: "2024-11-03T05:30:00", end: "2024-11-03T06:45:00"),
            TestEvent(summary: "Floating yoga", kind: "floating", start: "2024-10-27T02:30:00", end: "2024-10-27T03:30:00"),
            TestEvent(summary: "Holiday", kind: "date", start: "2024-10-27", end: "2024-10-28"),
            TestEvent(summary: "Trip", kind: "date", start: "2024-03-29", end: "2024-04-02"),
        ]
        return events
    }()

    /// The calendar file of `events`.
    static func calendar(_ events: [TestEvent]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:zones"] + events.flatMap(\.lines) + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// An occurrence as `--json` writes it, what the oracle compares.
    struct Shown: Decodable, Hashable, Comparable, CustomStringConvertible {
        let summary: String
        let allDay: Bool
        let start: String
        let end: String
        var description: String { "\(start) \(end) \(summary)\(allDay ? " (all day)" : "")" }
        static func < (a: Shown, b: Shown) -> Bool { (a.start, a.end, a.summary) < (b.start, b.end, b.summary) }
    }

    /// What the oracle says of `events` shown in each of `zones` in 2024.
    static func oracle(_ events: [TestEvent], zones: [String]) throws -> [[Shown]] {
        struct Request: Encodable {
            let zone: String
            let from = "2024-01-01"
            let until = "2025-01-01"
            let events: [TestEvent]
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-zones-\(getpid())-\(UUID().uuidString).json")
        try JSONEncoder().encode(zones.map { Request(zone: $0, events: events) }).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: try #require(WeekOracleTests.python)), [script, file.path],
                                                 environment: [:], deadline: 120)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([[Shown]].self, from: Data(result.stdout.utf8))
    }

    /// The occurrences of the JSON lines `text` (an agenda's, or the events of months' objects).
    static func shown(_ text: String) throws -> [Shown] {
        var found: [Shown] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("{\"calendar\"") {
                struct Month: Decodable { let events: [Shown]? }
                found += try JSONDecoder().decode(Month.self, from: Data(line.utf8)).events ?? []
            } else {
                found.append(try JSONDecoder().decode(Shown.self, from: Data(line.utf8)))
            }
        }
        return found
    }

    /// The lines of the text agenda the oracle's occurrences make: the start's date, its time
    /// for a timed one, the summary last.
    static func agendaKeys(_ shown: [Shown]) -> [String] {
        shown.map { occurrence in
            let date = String(occurrence.start.prefix(10))
            let time = occurrence.allDay ? "" : String(occurrence.start.dropFirst(11).prefix(5))
            return date + " " + time + " " + occurrence.summary
        }.sorted()
    }

    /// The same of the text agenda's lines: `2024-10-26 Sat  22:00 → 2024-10-27 06:00  Summary`.
    static func agendaKeys(ofLines text: String) -> [String] {
        text.split(separator: "\n").map { line in
            let date = String(line.prefix(10))
            let rest = line.dropFirst(16)
            let time = rest.first?.isNumber == true ? String(rest.prefix(5)) : ""
            let summary = line.components(separatedBy: "  ").last ?? ""
            return date + " " + time + " " + summary
        }.sorted()
    }

    /// Runs infcal on the events' file with `arguments` in the environment `zone` sets.
    static func run(_ arguments: [String], file: String, tz: String) throws -> String {
        let result = try BinaryRunner.run(["--no-config", "--events", file, "--today", "2024-01-01", "--from", "2024-01", "--forward", "12"]
                                          + arguments, environment: ["TZ": tz])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "", "\(arguments)")
        return result.stdout
    }

    static func compare(_ got: [Shown], _ expected: [Shown], _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (got, expected) = (got.sorted(), expected.sorted())
        // Only what differs is said: a year of occurrences is too long a message.
        #expect(got.count == expected.count && Set(got) == Set(expected),
                "\(context): \(got.count) occurrences, zoneinfo \(expected.count); only infcal has \(Set(got).subtracting(expected).sorted()), only zoneinfo \(Set(expected).subtracting(got).sorted())",
                sourceLocation: sourceLocation)
    }

    static func compare(lines got: [String], _ expected: [String], _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == expected.count && Set(got) == Set(expected), "\(context): \(got.count) lines, zoneinfo \(expected.count); only infcal has \(Set(got).subtracting(expected).sorted()), only zoneinfo \(Set(expected).subtracting(got).sorted())",
                sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: WeekOracleTests.hasOracle, "python3 with zoneinfo is not installed; skipping the zones' agenda"))
    func aYearInFourZonesShownByTZ() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-zones-\(getpid())-\(UUID().uuidString).ics")
        try Data(Self.calendar(Self.events).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let expected = try Self.oracle(Self.events, zones: Self.zones)
        #expect(expected.allSatisfy { $0.count > 200 })
        for (zone, expected) in zip(Self.zones, expected) {
            Self.compare(try Self.shown(try Self.run(["--agenda", "--json"], file: file.path, tz: zone)), expected, "TZ=\(zone) --agenda --json")
            Self.compare(try Self.shown(try Self.run(["--json"], file: file.path, tz: zone)), expected, "TZ=\(zone) --json")
            Self.compare(lines: Self.agendaKeys(ofLines: try Self.run(["--agenda"], file: file.path, tz: zone)), Self.agendaKeys(expected), "TZ=\(zone) --agenda")
        }
    }

    /// `--zone ZONE` shows what TZ=ZONE shows, whatever TZ says (here São Paulo's, or a POSIX
    /// rule), the cached copy's and the freshly read file's alike.
    @Test(.enabled(if: WeekOracleTests.hasOracle, "python3 with zoneinfo is not installed; skipping the zones' agenda"))
    func aYearInFourZonesShownByZone() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-zones-\(getpid())-\(UUID().uuidString).ics")
        try Data(Self.calendar(Self.events).utf8).write(to: file)
        // Aged past the cache's wait for a file that may still change: the second run of a
        // zone writes the cache, the third reads it.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let expected = try Self.oracle(Self.events, zones: Self.zones)
        for (index, (zone, expected)) in zip(Self.zones, expected).enumerated() {
            let tz = index % 2 == 0 ? "America/Sao_Paulo" : "EST5EDT,M3.2.0,M11.1.0"
            for cache in [["--no-cache"], [], []] {
                Self.compare(try Self.shown(try Self.run(["--zone", zone, "--agenda", "--json"] + cache, file: file.path, tz: tz)), expected,
                             "TZ=\(tz) --zone \(zone) --agenda --json \(cache)")
            }
            Self.compare(try Self.shown(try Self.run(["--zone", zone, "--json"], file: file.path, tz: tz)), expected, "--zone \(zone) --json")
            Self.compare(lines: Self.agendaKeys(ofLines: try Self.run(["--zone", zone, "--agenda"], file: file.path, tz: tz)),
                         Self.agendaKeys(expected), "--zone \(zone) --agenda")
        }
        // --zone local is TZ's zone, a POSIX rule too.
        let local = try Self.run(["--zone", "local", "--agenda", "--json"], file: file.path, tz: "CET-1CEST,M3.5.0,M10.5.0/3")
        Self.compare(try Self.shown(local), expected[0], "--zone local, TZ a POSIX rule for Berlin")
    }
}
