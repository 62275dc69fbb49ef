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

    /// Reads `bytes` and asks for the occurrences of a few months, near and far; and has
    /// `infcal check` look the file over (twice in one calendar, so that it is compared too).
    func exercise(_ bytes: [UInt8]) {
        let twice = [CheckedFile(name: "a.ics", bytes: bytes), CheckedFile(name: "b.ics", bytes: bytes)]
        _ = CalendarCheck.findings([CheckedCalendar(name: "fuzz", location: "fuzz", files: twice)])
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
        // `infcal check` looks at the rule without its COUNT, which ends as quickly.
        _ = CalendarCheck.findings([CheckedCalendar(name: "c", location: "c", files: [CheckedFile(name: "c.ics", bytes: Array(text.utf8))])])
        let store = EventStore(events: file.events, display: .utc)
        let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 9000, month: 2, day: 1))
        let found = store.occurrences(startingOn: first..<first + 29)
        #expect(found.count <= 29 * 86_400)
    }
}

/// Events that last long and repeat often, from any DTSTART, in any month: every day lists of
/// each event at most the day limit under way and at most the day limit beginning, the last of
/// each saying how many more; one day asked alone lists what the month lists for it.
@Suite struct LastingEventFuzzTests {
    static let rules = [
        "FREQ=SECONDLY", "FREQ=MINUTELY;INTERVAL=7;BYSECOND=0,30", "FREQ=HOURLY;BYMINUTE=0,1,2,3,4,5,6,7,8,9;BYDAY=MO,FR",
        "FREQ=DAILY;BYHOUR=0,6,12,18", "FREQ=WEEKLY;BYDAY=SA;COUNT=100000", "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20300101T000000",
        "FREQ=YEARLY;RSCALE=HEBREW;BYMONTH=5L;BYMONTHDAY=30;SKIP=FORWARD",
    ]

    @Test(arguments: rules)
    func everyDayStaysWithinTheDayLimit(_ rule: String) throws {
        let limit = InputLimits.instancesPerDay
        for (start, end) in [("00000101T000000", "DTEND:20241220T140000"), ("20240101T083000Z", "DURATION:P9000D"), ("19691231T235959", "DURATION:PT2H")] {
            let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:r\nDTSTART:\(start)\n\(end)\nRRULE:\(rule)\n"
                + "RRULE:FREQ=DAILY;INTERVAL=3\nEXDATE:20240301T083000Z\nEND:VEVENT\n"
                + "BEGIN:VEVENT\nUID:s\nDTSTART:\(start)\n\(end)\nRRULE:\(rule)\nEXRULE:FREQ=DAILY;BYDAY=SU\nEND:VEVENT\nEND:VCALENDAR\n"
            let store = EventStore(events: EventReader.read(Array(text.utf8)).events, display: EventFixture.newYork)
            for (year, month) in [(1847, 1), (2024, 3), (9999, 12)] {
                let first = EventFixture.day(year, month, 1)
                let byDay = store.occurrencesByDay(first..<(first + 31))
                for (day, list) in byDay {
                    for uid in ["r", "s"] {
                        let underWay = list.filter { $0.uid == uid && $0.startDay < day }
                        let beginning = list.filter { $0.uid == uid && $0.startDay == day }
                        #expect(underWay.count <= limit && beginning.count <= limit, "\(rule) \(start) \(uid) \(day)")
                        // (A rule's cut of its own day, shown in another zone, can fall inside a
                        // day's list of those beginning: only those under way are the display day's.)
                        #expect(underWay.dropLast().allSatisfy { $0.more == 0 }, "\(rule) \(start) \(uid) \(day)")
                        #expect(underWay.count == limit || (underWay.last?.more ?? 0) == 0, "\(rule) \(start) \(uid) \(day)")
                    }
                    #expect(store.occurrences(touching: day) == list, "\(rule) \(start) \(day)")
                }
                #expect(store.daysTouched(first..<(first + 31)) == Set(byDay.keys))
            }
        }
    }
}
