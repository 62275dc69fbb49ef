import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Recurrence sets and their changes, and what real files contain: several RRULEs and EXRULE,
/// versions of one component, RECURRENCE-ID;RANGE=THISANDFUTURE, RECURRENCE-IDs of the other
/// value type, mixed DTSTART and DTEND, a non-positive COUNT and a broken line nothing reads.
/// The oracles are the test calendars of python-recurring-ical-events with what its own tests
/// expect of them (`Tests/Fixtures/recurring-ical-events`), python-dateutil's `rruleset`, and
/// the RFCs.
@Suite struct RecurrenceSetTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/recurring-ical-events")

    static func fixture(_ name: String) -> [UInt8] {
        (try? Array(Data(contentsOf: fixtures.appendingPathComponent(name)))) ?? []
    }

    /// The occurrences touching the day `year-month-day`, shown in UTC, as "HH:MM summary".
    static func on(_ data: [UInt8], _ year: Int, _ month: Int, _ day: Int) -> [String] {
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let number = EventFixture.day(year, month, day)
        return (store.occurrencesByDay(number..<(number + 1))[number] ?? []).map {
            String(EventFixture.text($0.start).suffix(5)) + " " + $0.summary
        }
    }

    static func starts(_ data: [UInt8], from: Int, to: Int) -> [String] {
        EventFixture.starts(data, from: from, to: to, display: .utc)
    }

    /// Several RRULEs make one set (RFC 5545 §3.8.5.3). recurring-ical-events'
    /// `test_multiple_rrule` finds 20 + 2 instances in 2023, with 9, 13 and 16 February and
    /// 13 March; RFC 5545 §3.3.10 counts DTSTART (Thursday 12 January) as the first of the
    /// second rule's COUNT=2 too, so infcal has 21 and not 13 March (libical's table likewise
    /// counts DTSTART in `LibicalTableTests`' documented cases).
    @Test func severalRulesUnite() {
        let found = Self.starts(Self.fixture("multiple_rrule.ics"), from: 2023, to: 2023).map { String($0.prefix(10)) }
        #expect(found.count == 21)
        #expect(found.contains("2023-02-09") && found.contains("2023-02-13") && found.contains("2023-02-16"))
        #expect(!found.contains("2023-03-13"))
        #expect(Set(found).count == found.count, "DTSTART once, though both rules have it")
    }

    /// EXRULE (RFC 2445 §4.8.5.2) removes its instances; python-dateutil's
    /// `rruleset.rrule(FREQ=DAILY;COUNT=20)` with `exrule(FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4)` from
    /// 1997-09-02 09:00 gives these 16 days of September.
    @Test func exclusionRuleRemoves() {
        let data = EventFixture.calendar(["DTSTART:19970902T090000", "RRULE:FREQ=DAILY;COUNT=20",
                                          "EXRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4"])
        #expect(Self.starts(data, from: 1997, to: 1997).map { String($0.prefix(10)) }
                == EventFixture.dates("1997-09 3,5,6,7,8,10,12,13,14,15,16,17,18,19,20,21").map { String($0.prefix(10)) })
    }

    /// The copy with the higher SEQUENCE wins, its EXDATE and RDATE replacing the other's
    /// (recurring-ical-events `issue_148_exdate_and_rdate_updated.ics`: 1 July once and
    /// edited, 15 July back, 17 July gone, 29 July excluded, 30 July added).
    @Test func highestSequenceWins() {
        let data = Self.fixture("issue_148_exdate_and_rdate_updated.ics")
        #expect(Self.on(data, 2024, 7, 1) == ["00:00 test123 - edited"])
        #expect(Self.on(data, 2024, 7, 15).count == 1)
        #expect(Self.on(data, 2024, 7, 17).isEmpty)
        #expect(Self.on(data, 2024, 7, 29).isEmpty)
        #expect(Self.on(data, 2024, 7, 30).count == 1)
    }

    /// An override the winning master excludes is dropped (`issue_163_deleted_modification.ics`:
    /// nothing on 19 August); one with a lower SEQUENCE than the master that names an instance
    /// still applies (`recurrence_sequence_number.ics`: 22 September is the modified event).
    @Test func overridesAgainstTheWinningMaster() {
        #expect(Self.on(Self.fixture("issue_163_deleted_modification.ics"), 2024, 8, 19).isEmpty)
        #expect(Self.on(Self.fixture("recurrence_sequence_number.ics"), 2020, 9, 22) == ["00:00 Modified event"])
        #expect(Self.on(Self.fixture("recurrence_sequence_number.ics"), 2020, 9, 15) == ["00:00 Base event"])
    }

    /// A stale override (SEQUENCE below the master's, RECURRENCE-ID no longer an instance: the
    /// series moved from Mondays to Tuesdays) is dropped; one the master does not know but as
    /// new as it stays (RFC 5545 §3.8.4.4 leaves it; libical, ical.js and sabre/vobject keep it).
    @Test func staleOverrideIsDropped() {
        let master = ["BEGIN:VEVENT", "UID:m", "SUMMARY:Series", "SEQUENCE:2", "DTSTART:20240102T100000Z",
                      "RRULE:FREQ=WEEKLY;COUNT=4", "END:VEVENT"]
        let stale = ["BEGIN:VEVENT", "UID:m", "SUMMARY:Old change", "SEQUENCE:1", "RECURRENCE-ID:20240108T100000Z",
                     "DTSTART:20240108T120000Z", "END:VEVENT"]
        let text = (["BEGIN:VCALENDAR"] + master + stale + ["END:VCALENDAR"]).joined(separator: "\r\n")
        #expect(Self.on(Array(text.utf8), 2024, 1, 8).isEmpty)
        let current = text.replacingOccurrences(of: "SEQUENCE:1", with: "SEQUENCE:2")
        #expect(Self.on(Array(current.utf8), 2024, 1, 8) == ["12:00 Old change"])
    }

    /// RANGE=THISANDFUTURE moves that instance and every later one, RDATEs included, and gives
    /// them the override's duration and summary, until the next such override
    /// (recurring-ical-events `issue_75_range_parameter.ics` and `test_issue_75_RANGE_AT_parameter`).
    @Test func thisAndFuture() {
        let data = Self.fixture("issue_75_range_parameter.ics")
        let expected: [(Int, String)] = [(1, "12:00 ORIGINAL EVENT"), (11, "12:00 ORIGINAL EVENT"), (13, "09:00 MODIFIED EVENT"),
                                         (14, "06:00 MODIFIED EVENT"), (15, "17:00 MODIFIED EVENT"), (17, "09:00 MODIFIED EVENT"),
                                         (19, "09:00 MODIFIED EVENT"), (22, "14:22 EDITED EVENT"), (24, "14:22 EDITED EVENT"),
                                         (26, "14:22 EDITED EVENT")]
        for (day, occurrence) in expected {
            #expect(Self.on(data, 2024, 9, day) == [occurrence], "2024-09-\(day)")
        }
        // `test_issue_75_RANGE_BETWEEN_parameter`: 13 from 1 to 25 September.
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        #expect(store.occurrences(startingOn: EventFixture.day(2024, 9, 1)..<EventFixture.day(2024, 9, 26)).count == 13)
        // The moved ones keep the override's duration (7 hours).
        let moved = store.occurrences(startingOn: EventFixture.day(2024, 9, 17)..<EventFixture.day(2024, 9, 18))
        #expect(moved.map { $0.end - $0.start } == [7 * 3600])
    }

    /// A DATE-TIME RECURRENCE-ID on an all-day series (Exchange writes
    /// `RECURRENCE-ID;TZID=GMT Standard Time:20200416T000000`) names the instance of its own
    /// date, and a DATE one on a timed series the instance on that date; RFC 5545 §3.8.4.4
    /// wants the types to match, so this is what readers do with such files.
    @Test func recurrenceIDOfTheOtherType() {
        let allDay = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "SUMMARY:Daily", "DTSTART;VALUE=DATE:20200414",
                      "RRULE:FREQ=DAILY;COUNT=5", "END:VEVENT", "BEGIN:VEVENT", "UID:x", "SUMMARY:Changed",
                      "RECURRENCE-ID;TZID=GMT Standard Time:20200416T000000", "DTSTART;VALUE=DATE:20200416", "END:VEVENT",
                      "END:VCALENDAR"].joined(separator: "\r\n")
        #expect(Self.on(Array(allDay.utf8), 2020, 4, 16) == ["00:00 Changed"])
        #expect(Self.on(Array(allDay.utf8), 2020, 4, 15) == ["00:00 Daily"])
        let timed = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:y", "SUMMARY:Daily", "DTSTART;TZID=Europe/London:20200414T090000",
                     "RRULE:FREQ=DAILY;COUNT=5", "END:VEVENT", "BEGIN:VEVENT", "UID:y", "SUMMARY:Changed",
                     "RECURRENCE-ID;VALUE=DATE:20200416", "DTSTART;TZID=Europe/London:20200416T150000", "END:VEVENT",
                     "END:VCALENDAR"].joined(separator: "\r\n")
        #expect(Self.on(Array(timed.utf8), 2020, 4, 16) == ["14:00 Changed"])
    }

    /// `DTSTART;VALUE=DATE` with a DATE-TIME DTEND is all-day to DTEND's date
    /// (recurring-ical-events `issue_201_mixed_datetime_and_date.ics`: 24 July to
    /// 17 August 2023 00:00, `test_can_calculate_times_of_issue_example`).
    @Test func dateStartWithDateTimeEnd() {
        let data = Self.fixture("issue_201_mixed_datetime_and_date.ics")
        #expect(Self.on(data, 2023, 8, 16) == ["00:00 Congés"])
        #expect(Self.on(data, 2023, 8, 17).isEmpty)
        #expect(Self.on(data, 2023, 7, 24) == ["00:00 Congés"])
    }

    /// A non-positive COUNT (Confluence writes `COUNT=-1` beside UNTIL; RFC 5545 §3.3.10 wants
    /// a positive integer) is ignored with a note, and the event kept.
    @Test func nonPositiveCountIsIgnored() {
        let file = EventReader.read(EventFixture.calendar(["DTSTART:20240101T100000Z",
                                                           "RRULE:FREQ=WEEKLY;COUNT=-1;UNTIL=20240122T100000Z"]))
        #expect(file.skipped.isEmpty)
        #expect(file.notes.contains { $0.message.contains("COUNT=-1") })
        let store = EventStore(events: file.events, display: .utc)
        #expect(store.occurrences(startingOn: EventFixture.day(2024, 1, 1)..<EventFixture.day(2024, 2, 1)).count == 4)
    }

    /// A malformed line in a property infcal does not read (a fold that lost its space inside
    /// ORGANIZER, RFC 5545 §3.1) skips that line with a note, not the event; one in DTSTART
    /// still skips the event.
    @Test func brokenLineNothingReads() {
        let file = EventReader.read(EventFixture.calendar(["DTSTART:20240101T100000Z", "ORGANIZER;CN=\"John",
                                                           "Doe\":mailto:john@example.com"]))
        #expect(file.events.count == 1)
        #expect(file.skipped.isEmpty)
        #expect(file.notes.count == 2)
        let broken = EventReader.read(EventFixture.calendar(["DTSTART;TZID=\"Europe/Berlin:20240101T100000"]))
        #expect(broken.events.isEmpty && broken.skipped.count == 1)
    }

    /// The parsed-event cache keeps what these sets need (several rules, EXRULE, the parts of a
    /// THISANDFUTURE series): decoded, each fixture shows what reading it shows.
    @Test func cacheKeepsSetsAndParts() {
        let cases: [[UInt8]] = [Self.fixture("issue_75_range_parameter.ics"), Self.fixture("multiple_rrule.ics"),
                                EventFixture.calendar(["DTSTART:19970902T090000", "RRULE:FREQ=DAILY;COUNT=20",
                                                       "EXRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4"])]
        for data in cases {
            let file = EventReader.read(data)
            let bytes = EventCacheFormat.encode(source: "/x", key: [], files: [("x.ics", file)])
            let decoded = bytes.withUnsafeBytes { buffer in
                EventCacheFormat.open(buffer).flatMap { EventCacheFormat.decode($0, window: nil) }
            }
            let days = EventFixture.day(1997, 1, 1)..<EventFixture.day(2025, 1, 1)
            let fresh = EventStore(events: file.events, display: .utc).occurrences(startingOn: days)
            let cached = EventStore(events: decoded?.first?.file.events ?? [], display: .utc).occurrences(startingOn: days)
            #expect(!fresh.isEmpty && cached == fresh)
        }
    }
}
