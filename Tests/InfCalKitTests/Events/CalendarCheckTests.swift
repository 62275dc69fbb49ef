import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender

/// `CalendarCheck` without the binary: each case a few calendars of small files, written here
/// line by line, and the exact findings (file, line, kind, UID) they must give. The line
/// numbers are counted in the texts below, by hand: line 1 is BEGIN:VCALENDAR.
@Suite struct CalendarCheckTests {
    /// A file: its name and lines (joined with CRLF).
    struct File: Sendable {
        let name: String
        let lines: [String]
        init(_ name: String, _ lines: [String]) {
            self.name = name
            self.lines = lines
        }
    }

    /// A calendar of `files`, its components between BEGIN:VCALENDAR (line 1), VERSION (line
    /// 2) and END:VCALENDAR: the first component's BEGIN is line 3.
    static func calendar(_ components: [String]) -> [String] {
        ["BEGIN:VCALENDAR", "VERSION:2.0"] + components + ["END:VCALENDAR"]
    }

    /// One VEVENT: BEGIN, `lines`, END.
    static func event(_ lines: [String]) -> [String] {
        ["BEGIN:VEVENT"] + lines + ["END:VEVENT"]
    }

    /// A finding as the cases write it.
    struct Expected: Equatable, CustomStringConvertible, Sendable {
        let calendar: String
        let file: String
        let line: Int?
        let kind: CheckFinding.Kind
        let uid: String?
        init(_ calendar: String, _ file: String, _ line: Int?, _ kind: CheckFinding.Kind, uid: String? = nil) {
            (self.calendar, self.file, self.line, self.kind, self.uid) = (calendar, file, line, kind, uid)
        }
        var description: String { "\(calendar) \(file):\(line.map(String.init) ?? "-") \(kind.rawValue) \(uid ?? "-")" }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        /// Calendars: a name and its files.
        let calendars: [(String, [File])]
        let expected: [Expected]
        var testDescription: String { label }
    }

    static func checked(_ calendars: [(String, [File])]) -> [CheckedCalendar] {
        calendars.map { name, files in
            CheckedCalendar(name: name, location: name, files: files.map { file in
                CheckedFile(name: file.name, bytes: Array((file.lines.joined(separator: "\r\n") + "\r\n").utf8))
            })
        }
    }

    static let master = event(["UID:s", "DTSTART;TZID=Europe/Berlin:20240101T100000", "RRULE:FREQ=WEEKLY"])
    static func override(_ id: String, at start: String = "20240108T110000") -> [String] {
        event(["UID:s", id, "DTSTART;TZID=Europe/Berlin:\(start)"])
    }

    static let cases: [Case] = [
        Case(label: "a clean file", calendars: [("c", [File("a.ics", calendar(master))])], expected: []),
        // Lines: 3 BEGIN, 4 UID, 5 DTSTART, 6 END; 7 BEGIN ...
        Case(label: "two masters of one UID in a file",
             calendars: [("c", [File("a.ics", calendar(event(["UID:x", "DTSTART:20240101T100000Z"])
                                                        + event(["UID:x", "DTSTART:20240102T100000Z"])))])],
             expected: [Expected("c", "a.ics", 7, .duplicateUID, uid: "x")]),
        Case(label: "an override is no duplicate",
             calendars: [("c", [File("a.ics", calendar(master + override("RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000")))])],
             expected: []),
        Case(label: "overrides of two occurrences are none either",
             calendars: [("c", [File("a.ics", calendar(master + override("RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000")
                                                       + override("RECURRENCE-ID;TZID=Europe/Berlin:20240115T100000", at: "20240115T110000")))])],
             expected: []),
        // 3-7 the master, 8-12 the first override, 13-17 the second.
        Case(label: "two overrides of one occurrence, one written in UTC",
             calendars: [("c", [File("a.ics", calendar(master + override("RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000")
                                                       + override("RECURRENCE-ID:20240108T090000Z", at: "20240108T120000")))])],
             expected: [Expected("c", "a.ics", 13, .duplicateUID, uid: "s")]),
        Case(label: "one event in two files of a calendar",
             calendars: [("v", [File("a.ics", calendar(master)), File("b.ics", calendar(master))])],
             expected: [Expected("v", "b.ics", 3, .duplicateUID, uid: "s")]),
        Case(label: "a series in one file, its override in another",
             calendars: [("v", [File("a.ics", calendar(master)),
                                File("b.ics", calendar(override("RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000")))])],
             expected: [Expected("v", "b.ics", 3, .splitUID, uid: "s")]),
        Case(label: "one UID in two calendars is a warning, in the later one",
             calendars: [("one", [File("a.ics", calendar(master))]), ("two", [File("b.ics", calendar(master))])],
             expected: [Expected("two", "b.ics", 3, .duplicateUIDAcrossCalendars, uid: "s")]),
        Case(label: "components without UID",
             calendars: [("c", [File("a.ics", calendar(event(["DTSTART:20240101T100000Z"])
                                                       + ["BEGIN:VTODO", "SUMMARY:todo", "END:VTODO"]
                                                       + event(["UID:", "DTSTART:20240101T100000Z"])))])],
             expected: [Expected("c", "a.ics", 3, .missingUID), Expected("c", "a.ics", 6, .missingUID),
                        Expected("c", "a.ics", 9, .missingUID)]),
        Case(label: "a VEVENT without DTSTART, said once (not as a skipped event too)",
             calendars: [("c", [File("a.ics", calendar(event(["UID:n", "SUMMARY:no start"])))])],
             expected: [Expected("c", "a.ics", 3, .missingStart, uid: "n")]),
        Case(label: "an event the reader skips, at the line it names",
             calendars: [("c", [File("a.ics", calendar(event(["UID:f", "DTSTART:20240101T100000Z", "RRULE:FREQ=FORTNIGHTLY"])))])],
             expected: [Expected("c", "a.ics", 6, .skippedEvent, uid: "f")]),
        // 3 BEGIN:VEVENT, 4 UID, 5 DTSTART, 6 END:VEVENTX, 7 END:VCALENDAR: the event ends at 6.
        Case(label: "an END that matches nothing",
             calendars: [("c", [File("a.ics", ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:e",
                                               "DTSTART:20240101T100000Z", "END:VEVENTX", "END:VCALENDAR"])])],
             expected: [Expected("c", "a.ics", 6, .structure)]),
        Case(label: "a malformed line of a property nothing reads",
             calendars: [("c", [File("a.ics", calendar(event(["UID:m", "DTSTART:20240101T100000Z", "ORGANIZER;CN=\"Ann"])))])],
             expected: [Expected("c", "a.ics", 6, .skippedLine, uid: "m")]),
        // 3 BEGIN, 4 UID, 5 DTSTART, 6 RRULE.
        Case(label: "30 February never comes",
             calendars: [("c", [File("a.ics", calendar(event(["UID:r", "DTSTART;VALUE=DATE:20240130",
                                                              "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"])))])],
             expected: [Expected("c", "a.ics", 6, .ruleNeverRecurs, uid: "r")]),
        Case(label: "a series cut short by its UNTIL is no mistake",
             calendars: [("c", [File("a.ics", calendar(event(["UID:u", "DTSTART:20240101T100000Z",
                                                              "RRULE:FREQ=WEEKLY;UNTIL=20240102T000000Z"])))])],
             expected: []),
        Case(label: "EXDATEs that remove every occurrence",
             calendars: [("c", [File("a.ics", calendar(event(["UID:x", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=2",
                                                              "EXDATE:20240101T100000Z,20240102T100000Z"])))])],
             expected: [Expected("c", "a.ics", 3, .neverOccurs, uid: "x")]),
        Case(label: "EXDATEs that leave one",
             calendars: [("c", [File("a.ics", calendar(event(["UID:x", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
                                                              "EXDATE:20240101T100000Z,20240102T100000Z"])))])],
             expected: []),
        Case(label: "every occurrence moved by an override is no event that never shows",
             calendars: [("c", [File("a.ics", calendar(event(["UID:s", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=1"])
                                                       + event(["UID:s", "RECURRENCE-ID:20240101T100000Z", "DTSTART:20240101T120000Z"])))])],
             expected: []),
        // 3 BEGIN, 4 UID, 5 DTSTART, 6 DTEND.
        Case(label: "a TZID nothing knows, once a file",
             calendars: [("c", [File("a.ics", calendar(event(["UID:z", "DTSTART;TZID=Mars/Olympus:20240101T100000",
                                                              "DTEND;TZID=Mars/Olympus:20240101T110000"])))])],
             expected: [Expected("c", "a.ics", 5, .unknownZone, uid: "z")]),
        Case(label: "Windows names and Outlook's display names are known",
             calendars: [("c", [File("a.ics", calendar(event(["UID:w", "DTSTART;TZID=W. Europe Standard Time:20240101T100000",
                                                              "DTEND;TZID=\"(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna\":20240101T110000"])))])],
             expected: []),
        Case(label: "a zone of the file's own VTIMEZONE",
             calendars: [("c", [File("a.ics", calendar(["BEGIN:VTIMEZONE", "TZID:My Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                                                        "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
                                                       + event(["UID:v", "DTSTART;TZID=My Zone:20240101T100000"])))])],
             expected: []),
        Case(label: "a text file", calendars: [("c", [File("notes.ics", ["hello", "world"])])],
             expected: [Expected("c", "notes.ics", nil, .notICalendar)]),
        // 3 BEGIN:VEVENT, 4 UID, 5 DTSTART, 6 BEGIN:VALARM, 7 ACTION, 8 TRIGGER.
        Case(label: "an alarm with an action nobody knows, and one without TRIGGER",
             calendars: [("c", [File("a.ics", calendar(event(["UID:a", "DTSTART:20240101T100000Z",
                                                              "BEGIN:VALARM", "ACTION:X-BUZZ", "TRIGGER:-PT5M", "END:VALARM",
                                                              "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM"])))])],
             expected: [Expected("c", "a.ics", 7, .alarm, uid: "a"), Expected("c", "a.ics", 10, .alarm, uid: "a")]),
        Case(label: "a rule's part read with a guess is a note",
             calendars: [("c", [File("a.ics", calendar(event(["UID:g", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=0"])))])],
             expected: [Expected("c", "a.ics", 6, .note, uid: "g")]),
    ]

    @Test(arguments: cases) func findings(_ c: Case) {
        let found = CalendarCheck.findings(Self.checked(c.calendars)).map { Expected($0.calendar, $0.file, $0.line, $0.kind, uid: $0.uid) }
        #expect(found == c.expected)
    }

    /// The messages name the other copy and say what is what, outside text inert.
    @Test func messagesNameTheOtherCopyInert() {
        let calendars = Self.checked([("v", [File("a.ics", Self.calendar(Self.event(["UID:e\u{1B}[31m", "DTSTART:20240101T100000Z"])
                                                                       + Self.event(["UID:e\u{1B}[31m", "DTSTART:20240101T100000Z"]))),
                                             File("b.ics", Self.calendar(Self.event(["UID:e\u{1B}[31m", "DTSTART:20240101T100000Z"])))])])
        let found = CalendarCheck.findings(calendars)
        #expect(found.map(\.message) == [
            "UID 'e\\x1b[31m' again in this file (first at line 3): a second copy of the event",
            "UID 'e\\x1b[31m' is also in a.ics:3: two files hold the same component",
        ])
        #expect(found.allSatisfy { $0.uid == "e\u{1B}[31m" })
    }

    /// What a file that could not be read says, and a calendar's own findings, last.
    @Test func filesNotReadAndTheCalendarsOwnFindings() {
        var calendar = CheckedCalendar(name: "v", location: "/v", files: [
            CheckedFile(name: "/v/big.ics", failure: .tooLarge, reason: "larger than 64 MiB"),
            CheckedFile(name: "/v/pipe.ics", failure: .specialFile, reason: "a FIFO, not a regular file"),
        ])
        calendar.leftovers = ["/v/.a.ics.infcal-99-1.tmp"]
        calendar.isEmptyDirectory = true
        var remote = CheckedCalendar(name: "feed", location: "https://example.org/feed.ics", files: [])
        remote.isNotFetched = true
        let found = CalendarCheck.findings([calendar, remote])
        #expect(found.map { "\($0.file) \($0.kind.rawValue) \($0.kind.severity)" } == [
            "/v/big.ics too-large error", "/v/pipe.ics special-file error", "/v empty-directory warning",
            "/v/.a.ics.infcal-99-1.tmp stale-temporary error", "https://example.org/feed.ics not-fetched warning",
        ])
    }

    /// The reader's records are the check's: every skipped event, problem and note of a file
    /// with many faults is a finding (of its own kind or said by another), none twice.
    @Test func everyRecordOfTheReaderIsReportedOnce() {
        let lines = Self.calendar(Self.event(["UID:1", "DTSTART;TZID=Nowhere/Land:20240101T100000", "RRULE:FREQ=DAILY;COUNT=0"])
                                  + Self.event(["UID:2", "DTSTART:2024"])
                                  + Self.event(["UID:3"])
                                  + Self.event(["UID:4", "DTSTART:20240101T100000Z", "X-BROKEN"]))
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        let file = EventReader.read(bytes)
        let found = CalendarCheck.findings(Self.checked([("c", [File("a.ics", lines)])]))
        let lines1 = Set(found.compactMap(\.line))
        for record in file.skipped.map(\.line) + file.problems.map(\.line) + file.notes.map(\.line) {
            #expect(lines1.contains(record) || found.contains { $0.kind == .missingStart && $0.line == record }, "\(record)")
        }
        #expect(Set(found.map { "\($0.line ?? 0) \($0.kind)" }).count == found.count, "\(found)")
    }

    // MARK: The report

    static let sample: [CheckFinding] = [
        CheckFinding(calendar: "work", file: "/w/a.ics", line: 7, kind: .duplicateUID, message: "UID 'x' again", uid: "x"),
        CheckFinding(calendar: "work", file: "/w/t.ics", line: nil, kind: .notICalendar, message: "no iCalendar data"),
    ]

    @Test func theTextGroupsByCalendarAndSums() {
        let report = CheckReport(calendars: [
            CheckReport.Calendar(name: "work", location: "/w", files: 2, findings: Self.sample),
            CheckReport.Calendar(name: "/h.ics", location: "/h.ics", files: 1, findings: []),
            CheckReport.Calendar(name: "feed", location: "https://f", files: 0, findings: [
                CheckFinding(calendar: "feed", file: "https://f", line: nil, kind: .notFetched, message: "no copy fetched yet"),
            ]),
        ])
        #expect(report.text() == """
            work (/w): 2 files, 2 errors
            /w/a.ics:7: duplicate-uid: UID 'x' again
            /w/t.ics: not-icalendar: no iCalendar data
            /h.ics: 1 file, clean
            feed (https://f): 0 files, 1 warning
            https://f: not-fetched: no copy fetched yet

            3 calendars, 3 files checked: 2 errors, 1 warning

            """)
        #expect(report.failed)
        let clean = CheckReport(calendars: [CheckReport.Calendar(name: "/h.ics", location: "/h.ics", files: 1, findings: [])])
        #expect(clean.text() == "/h.ics: 1 file, clean\n\n1 calendar, 1 file checked: no problems found\n")
        #expect(!clean.failed)
        #expect(clean.jsonLines().isEmpty)
    }

    @Test func jsonLinesHoldEveryField() throws {
        let report = CheckReport(calendars: [CheckReport.Calendar(name: "work", location: "/w", files: 2, findings: Self.sample)])
        let objects = try report.jsonLines().split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects[0]["calendar"] as? String == "work")
        #expect(objects[0]["file"] as? String == "/w/a.ics")
        #expect(objects[0]["line"] as? Int == 7)
        #expect(objects[0]["kind"] as? String == "duplicate-uid")
        #expect(objects[0]["severity"] as? String == "error")
        #expect(objects[0]["uid"] as? String == "x")
        #expect(objects[1]["line"] is NSNull)
        #expect(objects[1]["uid"] is NSNull)
        #expect(Set(objects[0].keys) == ["calendar", "file", "line", "kind", "severity", "message", "uid"])
    }

    /// The kinds' names are the stable machine names the man page lists.
    @Test func kindNamesAreStable() {
        #expect(CheckFinding.Kind.allCases.map(\.rawValue) == [
            "duplicate-uid", "split-uid", "duplicate-uid-across-calendars", "missing-uid", "missing-dtstart", "skipped-event",
            "skipped-line", "structure", "unknown-tzid", "rule-never-recurs", "never-occurs", "alarm", "note", "not-icalendar",
            "too-large", "unreadable", "special-file", "stale-temporary", "empty-directory", "not-fetched",
        ])
    }
}
