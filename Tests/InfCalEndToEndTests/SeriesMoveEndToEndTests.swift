import Foundation
import InfCalProcess
import Testing

/// A whole series moved by `infcal edit UID DAY`, read back by recurring-ical-events (Python's
/// icalendar beside it): what the overrides, EXDATEs and RDATEs mean after the move.
extension WriteCommandEndToEndTests {
    /// The instances of `file` in 2024, as recurring-ical-events expands them: the start on
    /// Berlin's wall clock and the summary, sorted.
    static func recurringEvents(_ file: URL) throws -> [String] {
        let script = """
            import sys, datetime, icalendar, recurring_ical_events, zoneinfo
            berlin = zoneinfo.ZoneInfo("Europe/Berlin")
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            rows = []
            for event in recurring_ical_events.of(cal).between(datetime.date(2024, 1, 1), datetime.date(2025, 1, 1)):
                rows.append(event["DTSTART"].dt.astimezone(berlin).strftime("%Y-%m-%dT%H:%M") + " " + str(event["SUMMARY"]))
            for row in sorted(rows):
                print(row)
            """
        let python = try ChildProcess.run(try #require(Self.python), ["-c", script, file.path], environment: nil, deadline: 120)
        #expect(python.exit == .exited(0), "\(String(decoding: python.standardError, as: UTF8.self))")
        return String(decoding: python.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `infcal edit UID DAY` of a weekly series with two overrides (one with guests, still at
    /// its time; one moved to Tuesday) and an EXDATE: recurring-ical-events reads the result as
    /// intended, the overrides replacing the instances they overrode and the excluded one
    /// still left out, now two days later.
    @Test(.enabled(if: python != nil,
                   "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func aMovedSeriesTakesItsOverrides() throws {
        let home = try Self.scratch("series")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("series.ics")
        func event(_ lines: [String]) -> String { (["BEGIN:VEVENT", "UID:s", "DTSTAMP:20240101T000000Z"] + lines + ["END:VEVENT"]).joined(separator: "\n") }
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN",
                    event(["DTSTART;TZID=Europe/Berlin:20240304T100000", "DTEND;TZID=Europe/Berlin:20240304T110000",
                           "RRULE:FREQ=WEEKLY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20240325T100000", "SUMMARY:Weekly"]),
                    event(["RECURRENCE-ID;TZID=Europe/Berlin:20240311T100000", "DTSTART;TZID=Europe/Berlin:20240311T100000",
                           "DTEND;TZID=Europe/Berlin:20240311T110000", "SUMMARY:Weekly with guests"]),
                    event(["RECURRENCE-ID;TZID=Europe/Berlin:20240318T100000", "DTSTART;TZID=Europe/Berlin:20240319T150000",
                           "DTEND;TZID=Europe/Berlin:20240319T160000", "SUMMARY:Weekly moved to Tuesday"]),
                    "END:VCALENDAR", ""].joined(separator: "\n")
        try text.write(to: file, atomically: false, encoding: .utf8)
        let (moved, report) = try Self.write(["edit", "--to", file.path, "s", "2024-03-06"], on: file, home: home, zone: "Europe/Berlin")
        #expect(moved.status == 0, "\(moved.stderr)")
        // The master and both overrides changed (each SEQUENCE up, at least the master's), nothing else.
        if let report { #expect(report.changed == ["s"] && report.touched == ["s"] && report.zonesAdded.isEmpty) }
        let written = String(decoding: Self.bytes(file), as: UTF8.self)
        #expect(written.components(separatedBy: "SEQUENCE:1\n").count - 1 == 3, "\(written)")
        let theirs = try Self.recurringEvents(file)
        // Before the move recurring-ical-events gives 03-04, 03-11 (guests), 03-19 15:00 (Tuesday),
        // 04-01 (03-25 excluded); after it the excluded Wednesday is 03-27.
        #expect(theirs == ["2024-03-06T10:00 Weekly", "2024-03-13T10:00 Weekly with guests", "2024-03-19T15:00 Weekly moved to Tuesday",
                           "2024-04-03T10:00 Weekly"], "\(theirs)")
        let ours = try Self.infcal(["--agenda", "--events", file.path, "--from", "2024-03", "--forward", "2"], home: home, zone: "Europe/Berlin")
        #expect(ours.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " ") }
                == ["2024-03-06 Wed 10:00-11:00", "2024-03-13 Wed 10:00-11:00", "2024-03-19 Tue 15:00-16:00", "2024-04-03 Wed 10:00-11:00"],
                "\(ours.stdout)")
    }

    /// `infcal edit UID DAY` of a weekly series with RDATEs: a DATE-TIME in its zone, one in
    /// UTC, and two PERIODs (an end, a duration). recurring-ical-events reads the added
    /// instances two days later, as the rule's, and the periods keep their lengths.
    @Test(.enabled(if: python != nil,
                   "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func aMovedSeriesTakesItsAddedDates() throws {
        let home = try Self.scratch("rdates")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("series.ics")
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN", "BEGIN:VEVENT", "UID:r", "DTSTAMP:20240101T000000Z",
                    "DTSTART;TZID=Europe/Berlin:20240304T100000", "DTEND;TZID=Europe/Berlin:20240304T110000", "RRULE:FREQ=WEEKLY;COUNT=2",
                    "RDATE;TZID=Europe/Berlin:20240307T180000", "RDATE:20240308T110000Z",
                    "RDATE;VALUE=PERIOD:20240315T080000Z/20240315T113000Z,20240316T080000Z/PT45M", "SUMMARY:Weekly",
                    "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\n")
        try text.write(to: file, atomically: false, encoding: .utf8)
        let (moved, report) = try Self.write(["edit", "--to", file.path, "r", "2024-03-06"], on: file, home: home, zone: "Europe/Berlin")
        #expect(moved.status == 0, "\(moved.stderr)")
        if let report { #expect(report.changed == ["r"] && report.touched == ["r"]) }
        // Before the move recurring-ical-events gives 03-04 and 03-11 10:00 (the rule), 03-07
        // 18:00, 03-08 12:00 (11:00 UTC), 03-15 09:00 and 03-16 09:00 (the periods).
        #expect(try Self.recurringEvents(file) == ["2024-03-06T10:00 Weekly", "2024-03-09T18:00 Weekly", "2024-03-10T12:00 Weekly",
                                                   "2024-03-13T10:00 Weekly", "2024-03-17T09:00 Weekly", "2024-03-18T09:00 Weekly"])
        let ours = try Self.infcal(["--agenda", "--events", file.path, "--from", "2024-03", "--forward", "1"], home: home, zone: "Europe/Berlin")
        #expect(ours.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " ") }
                == ["2024-03-06 Wed 10:00-11:00", "2024-03-09 Sat 18:00-19:00", "2024-03-10 Sun 12:00-13:00", "2024-03-13 Wed 10:00-11:00",
                    "2024-03-17 Sun 09:00-12:30", "2024-03-18 Mon 09:00-09:45"], "\(ours.stdout)")
    }
}
