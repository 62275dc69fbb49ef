import Foundation
import InfCalProcess
import Testing

/// The UNTIL of a rule infcal writes has the form RFC 5545 §3.3.10 asks of it for the event's
/// DTSTART: a DATE for an all-day event, a UTC DATE-TIME (the end of that day on the start's
/// wall clock) for a zoned or UTC one, a local DATE-TIME for a floating one. `edit UID --every
/// week --until 2027-01-31` on a timed series once wrote `UNTIL=20270131` against a DATE-TIME
/// DTSTART. Each file is read back: the form checked against DTSTART's by the test, and, where
/// Python's icalendar and recurring-ical-events are installed, read by them too (48 Mondays
/// from 2026-03-02 to 2027-01-25, counted by hand: 329 days apart, 47 weeks).
@Suite(.serialized) struct UntilFormEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        /// TZ of the runs.
        let zone: String
        /// How the event is made: `add` words, or the lines of a VEVENT written by hand.
        let add: [String]
        var written: [String] = []
        /// TZ of the edit, when not `zone`.
        var editZone: String?
        let until: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        // Berlin is UTC+1 in January: 23:59:59 there is 22:59:59Z.
        Case(label: "zoned", zone: "Europe/Berlin", add: ["2026-03-02", "10:00", "Weekly"], until: "20270131T225959Z"),
        // The event's zone decides the day's end, not the zone the edit runs in.
        Case(label: "zoned, edited elsewhere", zone: "Europe/Berlin", add: ["2026-03-02", "10:00", "Weekly"], editZone: "America/New_York",
             until: "20270131T225959Z"),
        Case(label: "all-day", zone: "Europe/Berlin", add: ["2026-03-02", "Weekly"], until: "20270131"),
        Case(label: "UTC", zone: "UTC", add: ["2026-03-02", "10:00", "Weekly"], until: "20270131T235959Z"),
        Case(label: "floating", zone: "Europe/Berlin", add: [],
             written: ["BEGIN:VEVENT", "UID:floating@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260302T100000", "DTEND:20260302T110000",
                       "SUMMARY:Weekly", "END:VEVENT"],
             until: "20270131T235959"),
    ]

    /// The RRULE's UNTIL and the DTSTART line of the one event in `text`.
    static func lines(_ text: String) -> (dtstart: String, until: String)? {
        // The event's own lines (a VTIMEZONE has DTSTARTs too).
        let lines = text.components(separatedBy: "\r\n").drop { $0 != "BEGIN:VEVENT" }
        guard let dtstart = lines.first(where: { $0.hasPrefix("DTSTART") }),
              let rule = lines.first(where: { $0.hasPrefix("RRULE:") }),
              let until = rule.dropFirst(6).split(separator: ";").first(where: { $0.hasPrefix("UNTIL=") }) else { return nil }
        return (dtstart, String(until.dropFirst(6)))
    }

    @Test(arguments: cases)
    func editWritesUntilInTheFormOfDTSTART(_ example: Case) throws {
        let home = try WriteCommandEndToEndTests.scratch("until-\(example.label.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: ",", with: ""))")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("cal.ics")
        let uid: String
        if example.written.isEmpty {
            let added = try WriteCommandEndToEndTests.infcal(["add", "--to", file.path] + example.add, home: home, zone: example.zone)
            #expect(added.status == 0, "\(added.stderr)")
            uid = WriteCommandEndToEndTests.uid(added)
        } else {
            let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + example.written + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
            try Data(text.utf8).write(to: file)
            uid = "floating@test"
        }
        let edited = try WriteCommandEndToEndTests.infcal(["edit", "--to", file.path, uid, "--every", "week", "--until", "2027-01-31"], home: home,
                                                          zone: example.editZone ?? example.zone)
        #expect(edited.status == 0, "\(edited.stderr)")
        let text = String(decoding: WriteCommandEndToEndTests.bytes(file), as: UTF8.self)
        let found = try #require(Self.lines(text), "\(text)")
        #expect(found.until == example.until, "\(text)")
        // The form, from DTSTART's line alone (RFC 5545 §3.3.10).
        let dtstartIsDate = found.dtstart.contains("VALUE=DATE:")
        let dtstartIsZonedOrUTC = found.dtstart.contains("TZID=") || found.dtstart.hasSuffix("Z")
        if dtstartIsDate {
            #expect(found.until.count == 8)
        } else if dtstartIsZonedOrUTC {
            #expect(found.until.count == 16 && found.until.hasSuffix("Z"))
        } else {
            #expect(found.until.count == 15 && !found.until.hasSuffix("Z"))
        }
        // infcal itself reads 48 occurrences.
        let agenda = try WriteCommandEndToEndTests.infcal(["--agenda", "--events", file.path, "--from", "2026-01", "--forward", "24"], home: home,
                                                          zone: example.zone)
        #expect(agenda.stdout.split(separator: "\n").count == 48, "\(agenda.stdout)")
        guard let python = WriteCommandEndToEndTests.python else { return }
        let script = """
            import sys, datetime, icalendar, recurring_ical_events
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            for event in cal.walk("VEVENT"):
                start, until = event["DTSTART"].dt, event["RRULE"]["UNTIL"][0]
                timed = isinstance(start, datetime.datetime)
                assert timed == isinstance(until, datetime.datetime), (start, until)
                if timed:
                    assert (start.tzinfo is None) == (until.tzinfo is None), (start, until)
                    if until.tzinfo is not None:
                        assert until.utcoffset() == datetime.timedelta(0), until
            print(len(recurring_ical_events.of(cal).between(datetime.date(2026, 1, 1), datetime.date(2028, 1, 1))))
            """
        let result = try ChildProcess.run(python, ["-c", script, file.path], environment: nil, deadline: 60)
        #expect(result.exit == .exited(0), "\(String(decoding: result.standardError, as: UTF8.self))")
        #expect(String(decoding: result.standardOutput, as: UTF8.self) == "48\n")
    }

    /// `add --every week --until` writes the same forms as the edit.
    @Test func addWritesTheSameForms() throws {
        let home = try WriteCommandEndToEndTests.scratch("until-add")
        defer { try? FileManager.default.removeItem(at: home) }
        for (zone, words, until) in [("Europe/Berlin", ["2026-03-02", "10:00", "x"], "20270131T225959Z"),
                                     ("Europe/Berlin", ["2026-03-02", "x"], "20270131"),
                                     ("UTC", ["2026-03-02", "10:00", "x"], "20270131T235959Z")] {
            let file = home.appendingPathComponent("add-\(until).ics")
            let added = try WriteCommandEndToEndTests.infcal(["add", "--to", file.path] + words + ["--every", "week", "--until", "2027-01-31"],
                                                             home: home, zone: zone)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(Self.lines(String(decoding: WriteCommandEndToEndTests.bytes(file), as: UTF8.self))?.until == until)
        }
    }
}
