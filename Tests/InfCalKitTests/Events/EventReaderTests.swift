import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Hand-written files, one quirk each, as real exports hold them. Expected values are worked
/// out by hand from the file text and the zones' published offsets (each test says which);
/// the random-rule comparison with python-dateutil covers the recurrence engine itself.
@Suite struct EventReaderTests {
    let utc = DisplayZone.utc

    func occurrences(_ text: String, from: (Int, Int, Int), to: (Int, Int, Int), display: DisplayZone = .utc) -> [Occurrence] {
        let file = EventReader.read(Array(text.utf8))
        let store = EventStore(events: file.events, display: display)
        return store.occurrences(startingOn: EventFixture.day(from.0, from.1, from.2)..<EventFixture.day(to.0, to.1, to.2))
    }

    func summaries(_ text: String, year: Int = 2024) -> [String] {
        occurrences(text, from: (year, 1, 1), to: (year + 1, 1, 1)).map(\.summary)
    }

    // MARK: Content lines

    @Test(arguments: ["\r\n", "\n", "\r"])
    func lineEnds(_ end: String) {
        let text = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:Hello", "DTSTART:20240105T100000Z", "END:VEVENT", "END:VCALENDAR"]
            .joined(separator: end) + end
        #expect(summaries(text) == ["Hello"])
    }

    @Test func foldingBomEscapesAndQuotedParameters() {
        let text = "\u{FEFF}BEGIN:VCALENDAR\r\n\r\nBEGIN:VEVENT\r\nSUMMARY;LANGUAGE=en;X-NOTE=\"a;b:c,d\":Caf\r\n é\\, bar\\; and\r\n\t \\\\ baz\\nnext\r\n"
            + "DTSTART;VALUE=DATE:20240105\r\nX-ANYTHING;FOO=\"::\":whatever\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(summaries(text) == ["Café, bar; and \\ baz next"])
    }

    @Test func foldInsideAMultiByteCharacter() {
        // "é" is C3 A9; a fold between its bytes must join them again.
        var bytes = Array("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20240105\nSUMMARY:Caf".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xA9]
        bytes += Array("\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
        let file = EventReader.read(bytes)
        #expect(file.events.map(\.summary) == ["Café"])
    }

    @Test func severalCalendarsUnknownComponentsAndNames() {
        let text = """
            BEGIN:VCALENDAR
            X-WR-CALNAME:Work
            BEGIN:VTODO
            SUMMARY:Not an event
            DTSTART:20240105
            END:VTODO
            BEGIN:VEVENT
            SUMMARY:Meeting
            DTSTART:20240105T100000Z
            BEGIN:VALARM
            TRIGGER:-PT15M
            SUMMARY:Alarm text
            END:VALARM
            END:VEVENT
            END:VCALENDAR
            BEGIN:VCALENDAR
            X-WR-CALNAME:Home
            BEGIN:VEVENT
            SUMMARY:Dinner
            DTSTART:20240106T180000Z
            END:VEVENT
            END:VCALENDAR
            """
        let found = occurrences(text, from: (2024, 1, 1), to: (2024, 2, 1))
        #expect(found.map(\.summary) == ["Meeting", "Dinner"])
        #expect(found.map(\.calendarName) == ["Work", "Home"])
    }

    // MARK: Dates and zones

    @Test func dateForms() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            SUMMARY:Value date
            DTSTART;VALUE=DATE:20240105
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Bare date
            DTSTART:20240106
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Floating
            DTSTART:20240107T233000
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:UTC
            DTSTART:20240107T233000Z
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Tokyo
            DTSTART;TZID=Asia/Tokyo:20240108T080000
            END:VEVENT
            END:VCALENDAR
            """
        // Shown in New York (UTC-5 in January): floating stays 23:30 on the 7th, 23:30 UTC is
        // 18:30, 08:00 in Tokyo (UTC+9) is 18:00 the day before.
        let found = occurrences(text, from: (2024, 1, 1), to: (2024, 2, 1), display: EventFixture.newYork)
        #expect(found.map { "\($0.summary) \(EventFixture.text($0.start))" } == [
            "Value date 2024-01-05T00:00", "Bare date 2024-01-06T00:00", "Tokyo 2024-01-07T18:00",
            "UTC 2024-01-07T18:30", "Floating 2024-01-07T23:30",
        ])
        #expect(found.map(\.isAllDay) == [true, true, false, false, false])
    }

    @Test func windowsZoneVTimeZoneAndUnknownZone() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTIMEZONE
            TZID:My Own Zone
            BEGIN:STANDARD
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19700329T020000
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            SUMMARY:Windows
            DTSTART;TZID=W. Europe Standard Time:20240701T090000
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Own summer
            DTSTART;TZID=My Own Zone:20240702T090000
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Own winter
            DTSTART;TZID=My Own Zone:20240103T090000
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Nowhere
            DTSTART;TZID=Mars/Olympus:20240704T090000
            END:VEVENT
            END:VCALENDAR
            """
        let file = EventReader.read(Array(text.utf8))
        #expect(file.notes.count == 1)
        #expect(file.notes.first?.message.contains("Mars/Olympus") == true)
        // Shown in UTC: Berlin (W. Europe Standard Time) and the file's own zone are UTC+2 in
        // July and UTC+1 in January; the unknown zone is read as UTC.
        let found = occurrences(text, from: (2024, 1, 1), to: (2025, 1, 1))
        #expect(found.map { "\($0.summary) \(EventFixture.text($0.start))" } == [
            "Own winter 2024-01-03T08:00", "Windows 2024-07-01T07:00", "Own summer 2024-07-02T07:00", "Nowhere 2024-07-04T09:00",
        ])
    }

    @Test func calendarTimeZoneAppliesToFloatingTimes() {
        let text = """
            BEGIN:VCALENDAR
            X-WR-TIMEZONE:Europe/Berlin
            BEGIN:VEVENT
            SUMMARY:Weekly
            DTSTART:20240321T090000
            RRULE:FREQ=WEEKLY;COUNT=2
            END:VEVENT
            END:VCALENDAR
            """
        // 09:00 in Berlin: 08:00 UTC before the change on 31 March, 07:00 after.
        let found = occurrences(text, from: (2024, 3, 1), to: (2024, 5, 1))
        #expect(found.map { EventFixture.text($0.start) } == ["2024-03-21T08:00", "2024-03-28T08:00"])
        let later = occurrences(text.replacingOccurrences(of: "COUNT=2", with: "COUNT=3"), from: (2024, 3, 1), to: (2024, 5, 1))
        #expect(later.last.map { EventFixture.text($0.start) } == "2024-04-04T07:00")
    }

    // MARK: Ends

    @Test func endsAndDurations() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            SUMMARY:Three days
            DTSTART;VALUE=DATE:20240110
            DTEND;VALUE=DATE:20240113
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:No end
            DTSTART;VALUE=DATE:20240115
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Backward end
            DTSTART;VALUE=DATE:20240117
            DTEND;VALUE=DATE:20240116
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Instant
            DTSTART:20240118T120000Z
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Duration
            DTSTART:20240119T230000Z
            DURATION:PT2H30M
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Empty rule
            DTSTART:20240120T100000Z
            RRULE:
            END:VEVENT
            END:VCALENDAR
            """
        let file = EventReader.read(Array(text.utf8))
        let store = EventStore(events: file.events, display: utc)
        let byDay = store.occurrencesByDay(EventFixture.day(2024, 1, 1)..<EventFixture.day(2024, 2, 1))
        func names(_ day: Int) -> [String] { (byDay[EventFixture.day(2024, 1, day)] ?? []).map(\.summary) }
        #expect(names(9) == [])
        #expect(names(10) == ["Three days"])
        #expect(names(12) == ["Three days"])
        #expect(names(13) == [])
        #expect(names(15) == ["No end"])
        #expect(names(16) == [])
        #expect(names(17) == ["Backward end"])
        #expect(names(18) == ["Instant"])
        #expect(names(19) == ["Duration"])
        #expect(names(20) == ["Duration", "Empty rule"])
        #expect(names(21) == [])
        #expect(file.skipped.isEmpty)
    }

    // MARK: Recurrence sets

    @Test func rdatesExdatesAndOverrides() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:a
            SUMMARY:Class
            DTSTART:20240102T100000Z
            DTEND:20240102T110000Z
            RRULE:FREQ=WEEKLY;COUNT=6
            EXDATE:20240109T100000Z,20240116T100000Z
            EXDATE:20240123T100000Z
            RDATE:20240104T100000Z
            RDATE;VALUE=PERIOD:20240105T140000Z/PT3H,20240106T080000Z/20240106T083000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:a
            RECURRENCE-ID:20240130T100000Z
            SUMMARY:Class (moved)
            DTSTART:20240131T150000Z
            DTEND:20240131T160000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:a
            RECURRENCE-ID:20240206T100000Z
            STATUS:CANCELLED
            DTSTART:20240206T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            SUMMARY:Cancelled altogether
            STATUS:CANCELLED
            DTSTART:20240103T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            SUMMARY:Holidays
            DTSTART;VALUE=DATE:20240101
            RDATE;VALUE=DATE:20240301,20240401
            EXDATE;VALUE=DATE:20240301
            END:VEVENT
            END:VCALENDAR
            """
        let found = occurrences(text, from: (2024, 1, 1), to: (2025, 1, 1))
        #expect(found.map { "\(EventFixture.text($0.start))-\(EventFixture.text($0.end).suffix(5)) \($0.summary)" } == [
            "2024-01-01T00:00-00:00 Holidays",
            "2024-01-02T10:00-11:00 Class",
            "2024-01-04T10:00-11:00 Class",
            "2024-01-05T14:00-17:00 Class",
            "2024-01-06T08:00-08:30 Class",
            "2024-01-31T15:00-16:00 Class (moved)",
            "2024-04-01T00:00-00:00 Holidays",
        ])
    }

    // MARK: Bad input

    @Test func badEventsAreSkippedWithTheirLines() {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            SUMMARY:Good one
            DTSTART:20240105
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Fortnightly
            DTSTART:20240105
            RRULE:FREQ=FORTNIGHTLY
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Impossible
            DTSTART:20240230
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:No start
            END:VEVENT
            BEGIN:VEVENT
            this line is no content line
            DTSTART:20240107
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Good two
            DTSTART:20240108
            END:VEVENT
            BEGIN:VEVENT
            SUMMARY:Cut off
            DTSTART:20240109
            """
        let file = EventReader.read(Array(text.utf8))
        // The line that is no content line names no property infcal reads: it is left out
        // with a note, and its event kept.
        #expect(file.events.map(\.summary) == ["Good one", "", "Good two"])
        #expect(file.skipped.map(\.line) == [9, 13, 15, 26])
        #expect(file.notes.map(\.line) == [19])
        #expect(file.skipped.first?.reason == "RRULE: unknown FREQ 'FORTNIGHTLY'; event skipped")
        #expect(file.skipped[1].reason.hasPrefix("DTSTART: '20240230' is no date"))
    }

    @Test(arguments: [
        ("FREQ=DAILY;COUNT=3;UNTIL=20240101", "COUNT and UNTIL together"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY"),
        ("FREQ=YEARLY;BYMONTH=5L", "RSCALE"),
        ("FREQ=YEARLY;RSCALE=KLINGON", "RSCALE"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY"),
        ("INTERVAL=2", "no FREQ"),
        ("FREQ=DAILY;FOO=1", "unknown part"),
    ])
    func badRules(_ rule: String, _ reason: String) {
        #expect(throws: ICalError.self) { try RecurrenceRule.parse(rule) }
        do {
            _ = try RecurrenceRule.parse(rule)
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
