import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Broken input never crashes the reader or the engine, and never makes them hang: truncated,
/// binary and randomly mutated files (fixed seeds), and rules that never produce.
@Suite struct EventFuzzTests {
    static let sample = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Fuzz
        X-WR-TIMEZONE:Europe/Paris
        BEGIN:VTIMEZONE
        TZID:Custom
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
        UID:1
        SUMMARY;LANGUAGE=en:Weekly\\, with "quotes"
        DTSTART;TZID=Custom:20240102T090000
        DTEND;TZID=Custom:20240102T100000
        RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=40
        EXDATE;TZID=Custom:20240104T090000,20240116T090000
        RDATE;VALUE=PERIOD:20240105T140000Z/PT3H
        END:VEVENT
        BEGIN:VEVENT
        UID:1
        RECURRENCE-ID;TZID=Custom:20240118T090000
        DTSTART;TZID=Custom:20240119T090000
        SUMMARY:Moved
        END:VEVENT
        BEGIN:VEVENT
        UID:2
        SUMMARY:Monthly
        DTSTART;VALUE=DATE:20240131
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,15;BYSETPOS=1,-1
        END:VEVENT
        BEGIN:VEVENT
        UID:3
        SUMMARY:Hebrew
        DTSTART;VALUE=DATE:20240311
        RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=30;SKIP=FORWARD
        END:VEVENT
        BEGIN:VEVENT
        UID:4
        SUMMARY:Hourly
        DTSTART:20240101T000000
        RRULE:FREQ=HOURLY;INTERVAL=7;BYMINUTE=0,30;BYSETPOS=-1
        DURATION:PT15M
        END:VEVENT
        END:VCALENDAR

        """

    /// Reads `bytes` and asks for the occurrences of a few months, near and far.
    func exercise(_ bytes: [UInt8]) {
        let file = EventReader.read(bytes)
        let store = EventStore(events: file.events, display: .utc)
        for (year, month) in [(2024, 1), (2024, 3), (2031, 7), (40_000, 2), (-100, 5)] {
            let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: year, month: month, day: 1))
            _ = store.occurrencesByDay(first..<first + 31)
        }
    }

    @Test func truncatedFiles() {
        let bytes = Array(Self.sample.utf8)
        for end in Swift.stride(from: 0, through: bytes.count, by: 7) { exercise(Array(bytes[0..<end])) }
    }

    @Test func binaryFiles() {
        var random = SplitMix64(state: 1)
        for _ in 0..<40 {
            exercise((0..<random.below(4000)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        exercise([0xEF, 0xBB, 0xBF])
        exercise(Array(repeating: 0x20, count: 10_000))
        exercise(Array(repeating: 0x0A, count: 10_000))
        exercise(Array(repeating: UInt8(ascii: "\\"), count: 1000))
    }

    @Test func mutatedFiles() {
        var random = SplitMix64(state: 2024)
        let original = Array(Self.sample.utf8)
        let specials = Array(";:,=\"\\\r\n -+0123456789TZL".utf8)
        for _ in 0..<300 {
            exercise(random.mutated(original, specials: specials))
        }
    }

    /// Rules that never produce, or produce only far away, end quickly.
    @Test(arguments: [
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31;COUNT=5",
        "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2;COUNT=3",
        "FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31;COUNT=2",
        "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30;COUNT=10",
        "FREQ=WEEKLY;BYYEARDAY=366;BYMONTH=1;COUNT=4",
        "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6;COUNT=2",
        "FREQ=SECONDLY;COUNT=2000000000",
        "FREQ=MINUTELY;INTERVAL=1000000;COUNT=100000",
    ])
    func barrenRulesEnd(_ rule: String) {
        let text = "BEGIN:VEVENT\nDTSTART:20240101T000000\nRRULE:\(rule)\nEND:VEVENT\n"
        let file = EventReader.read(Array(text.utf8))
        #expect(file.events.count == 1)
        let store = EventStore(events: file.events, display: .utc)
        let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 9000, month: 2, day: 1))
        let found = store.occurrences(startingOn: first..<first + 29)
        #expect(found.count <= 29 * 86_400)
    }
}
