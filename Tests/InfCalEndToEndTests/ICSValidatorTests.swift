import Foundation
import InfCalProcess
import Testing

/// The validator of written files (`Tests/Oracles/ics_validator.py`, through `WrittenFiles`)
/// finds what it is there to find: each rule broken once in a file written here by hand (the
/// rule's RFC 5545 section in the case), and a file that keeps every rule passes.
@Suite struct ICSValidatorTests {
    static let before = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN",
                         "BEGIN:VEVENT", "UID:m", "DTSTAMP:20240101T000000Z", "SEQUENCE:2", "DTSTART;TZID=Europe/Berlin:20240304T100000",
                         "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Series", "END:VEVENT", "END:VCALENDAR", ""]

    static let good = ["BEGIN:VEVENT", "UID:m", "DTSTAMP:20240301T120000Z", "SEQUENCE:3", "RECURRENCE-ID;TZID=Europe/Berlin:20240311T100000",
                       "DTSTART;TZID=Europe/Berlin:20240311T110000", "SUMMARY:Moved", "END:VEVENT"]

    /// The file with `override` inserted after the master (the lines joined by `ending`).
    static func after(_ override: [String], ending: String = "\r\n", change: (String) -> String = { $0 }) -> String {
        change((before.prefix(11) + override + before.suffix(2)).joined(separator: ending))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let text: String
        let problem: String?
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "a valid new override", text: after(good), problem: nil),
        Case(label: "3.8.7.4: a new override at its master's SEQUENCE",
             text: after(good.map { $0 == "SEQUENCE:3" ? "SEQUENCE:2" : $0 }), problem: "not above its master's"),
        Case(label: "3.8.7.2: DTSTAMP on the local clock", text: after(good.map { $0.hasPrefix("DTSTAMP") ? "DTSTAMP:20240301T120000" : $0 }),
             problem: "DTSTAMP"),
        Case(label: "3.8.7.2: DTSTAMP with a TZID",
             text: after(good.map { $0.hasPrefix("DTSTAMP") ? "DTSTAMP;TZID=Europe/Berlin:20240301T120000" : $0 }), problem: "DTSTAMP"),
        Case(label: "3.6.1: no UID", text: after(good.filter { !$0.hasPrefix("UID") }), problem: "no UID"),
        Case(label: "3.3.10: a DATE UNTIL for a zoned DTSTART (issue 31)",
             text: after(["BEGIN:VEVENT", "UID:n", "DTSTAMP:20240301T120000Z", "DTSTART;TZID=Europe/Berlin:20240304T100000",
                          "RRULE:FREQ=WEEKLY;UNTIL=20270131", "END:VEVENT"]), problem: "UNTIL=20270131"),
        Case(label: "3.3.10: a UTC UNTIL for an all-day DTSTART",
             text: after(["BEGIN:VEVENT", "UID:n", "DTSTAMP:20240301T120000Z", "DTSTART;VALUE=DATE:20240304",
                          "RRULE:FREQ=WEEKLY;UNTIL=20270131T000000Z", "END:VEVENT"]), problem: "UNTIL="),
        Case(label: "3.3.10: a UTC UNTIL for a floating DTSTART",
             text: after(["BEGIN:VEVENT", "UID:n", "DTSTAMP:20240301T120000Z", "DTSTART:20240304T100000",
                          "RRULE:FREQ=WEEKLY;UNTIL=20270131T235959Z", "END:VEVENT"]), problem: "UNTIL="),
        Case(label: "3.3.10: a UTC UNTIL for a zoned DTSTART is right",
             text: after(["BEGIN:VEVENT", "UID:n", "DTSTAMP:20240301T120000Z", "DTSTART;TZID=Europe/Berlin:20240304T100000",
                          "RRULE:FREQ=WEEKLY;UNTIL=20270131T225959Z", "END:VEVENT"]), problem: nil),
        Case(label: "3.1: a line of 76 octets", text: after(good.map { $0.hasPrefix("SUMMARY") ? "SUMMARY:" + String(repeating: "x", count: 68) : $0 }),
             problem: "more than 75"),
        Case(label: "3.1: an LF line in a CRLF file", text: after(good, change: { $0.replacingOccurrences(of: "SUMMARY:Moved\r\n", with: "SUMMARY:Moved\n") }),
             problem: "ends in"),
        Case(label: "a byte outside the components changed",
             text: after(good, change: { $0.replacingOccurrences(of: "PRODID:-//infcal tests//EN", with: "PRODID:-//someone//EN") }),
             problem: "outside the components"),
    ]

    @Test(.enabled(if: WrittenFiles.python != nil, "python3 with icalendar is missing (pip install icalendar); skipping"), arguments: cases)
    func findsWhatItShould(_ c: Case) throws {
        let home = try WriteCommandEndToEndTests.scratch("validator-" + String(c.label.filter(\.isLetter).prefix(40)))
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        try Data(Self.before.joined(separator: "\r\n").utf8).write(to: file)
        let snapshot = WrittenFiles.Snapshot(file)
        try Data(c.text.utf8).write(to: file)
        let problems = try #require(try WrittenFiles.check(file, since: snapshot, recording: false)).problems
        if let wanted = c.problem {
            #expect(problems.contains { $0.contains(wanted) }, "\(problems)")
        } else {
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// A file a write made must be CRLF throughout, with VERSION and PRODID; an event removed,
    /// a zone added: reported as such.
    @Test(.enabled(if: WrittenFiles.python != nil, "python3 with icalendar is missing (pip install icalendar); skipping"))
    func aNewFileAndWhatChanged() throws {
        let home = try WriteCommandEndToEndTests.scratch("validator-new")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        let empty = WrittenFiles.Snapshot(file)
        try Data(Self.before.joined(separator: "\n").utf8).write(to: file)
        let made = try #require(try WrittenFiles.check(file, since: empty, recording: false))
        #expect(made.problems.contains { $0.contains("CRLF") }, "\(made.problems)")
        try Data(Self.before.joined(separator: "\r\n").utf8).write(to: file)
        let full = WrittenFiles.Snapshot(file)
        let zone = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
                    "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]
        try Data((Self.before.prefix(3) + zone + Self.before.suffix(2)).joined(separator: "\r\n").utf8).write(to: file)
        let changed = try #require(try WrittenFiles.check(file, since: full))
        #expect(changed.problems.isEmpty && changed.removed == ["m"] && changed.zonesAdded == ["Europe/Berlin"] && changed.added.isEmpty)
    }
}
