import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The store keeps the recurring instances of a window of time around the last range asked (a
/// stream asks month after month). Whatever order the months are asked in, a month's
/// occurrences must be those a store that was never asked anything else gives for it, and a
/// yearly rule must give its day each year (2000-03-15, 2001-03-15, ...: the RRULE's meaning
/// by RFC 5545, as python-dateutil's rrule expands it).
struct InstanceWindowTests {
    static let calendar = """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:1
        SUMMARY:March
        DTSTART;VALUE=DATE:20000315
        RRULE:FREQ=YEARLY
        END:VEVENT
        BEGIN:VEVENT
        UID:2
        SUMMARY:Twice a year
        DTSTART:20010110T090000
        RRULE:FREQ=YEARLY;BYMONTH=1,7;BYDAY=2MO
        END:VEVENT
        BEGIN:VEVENT
        UID:3
        SUMMARY:Leap month
        DTSTART;VALUE=DATE:20000229
        RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD
        END:VEVENT
        BEGIN:VEVENT
        UID:4
        SUMMARY:Weekly, three days long
        DTSTART;VALUE=DATE:20050107
        DURATION:P3D
        RRULE:FREQ=WEEKLY;COUNT=300
        END:VEVENT
        BEGIN:VEVENT
        UID:5
        SUMMARY:Daily
        DTSTART:20100101T070000
        RRULE:FREQ=DAILY;UNTIL=20120101T000000
        END:VEVENT
        END:VCALENDAR

        """

    static func store() -> EventStore {
        EventStore(events: EventReader.read(Array(calendar.utf8)).events, display: .utc)
    }

    /// The months from January 1999 on, `count` of them, as ranges of grid day numbers.
    static func months(_ count: Int) -> [Range<Int>] {
        (0..<count).map { index in
            let (year, month) = (1999 + index / 12, index % 12 + 1)
            let next = month == 12 ? (year + 1, 1) : (year, month + 1)
            return EventFixture.day(year, month, 1)..<EventFixture.day(next.0, next.1, 1)
        }
    }

    static func summary(_ occurrences: [Occurrence]) -> [String] {
        occurrences.map { "\(EventFixture.text($0.start)) \($0.summary)" }
    }

    @Test func monthsForwardThenBackwardAsAlone() {
        let store = Self.store()
        let months = Self.months(24 * 12)
        let scattered = months.enumerated().filter({ $0.offset % 37 == 0 }).map(\.element)
        for range in months + months.reversed() + scattered {
            #expect(Self.summary(store.occurrences(startingOn: range)) == Self.summary(Self.store().occurrences(startingOn: range)))
            let touching = store.occurrencesByDay(range).mapValues(Self.summary)
            #expect(touching == Self.store().occurrencesByDay(range).mapValues(Self.summary))
        }
    }

    @Test func yearlyDateRuleEachYear() {
        let store = Self.store()
        var march: [String] = []
        for range in Self.months(30 * 12) {
            march += store.occurrences(startingOn: range).filter { $0.summary == "March" }.map { EventFixture.text($0.start) }
        }
        #expect(march == (2000..<2029).map { "\($0)-03-15T00:00" })
    }

    /// The stream's lean question gives the occurrences `occurrences(startingOn:)` gives, in
    /// the same order, as starts, ends and events; and refuses when an occurrence says how many
    /// more a day holds, which only an occurrence can say. The calendars: this suite's, every
    /// test calendar of python-recurring-ical-events, and one with a rule denser than the day
    /// limit and two events on one day that come out of the order of their summaries.
    @Test func startsAreTheOccurrences() {
        let dense = EventFixture.calendar([
            "DTSTART;VALUE=DATE:20240312", "END:VEVENT",
            "BEGIN:VEVENT", "UID:d", "SUMMARY:Every minute", "DTSTART:20240310T000000Z", "RRULE:FREQ=MINUTELY;COUNT=2000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:a", "SUMMARY:Alpha", "DTSTART;VALUE=DATE:20240312", "RRULE:FREQ=YEARLY",
        ])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RecurrenceSetTests.fixtures.path)) ?? []
        let calendars = [Array(Self.calendar.utf8), dense] + names.filter { $0.hasSuffix(".ics") }.sorted().map(RecurrenceSetTests.fixture)
        #expect(calendars.count > 3, "the test calendars of python-recurring-ical-events were not found")
        var refused = 0
        for data in calendars {
            let store = EventStore(events: EventReader.read(data).events, display: EventFixture.newYork)
            for range in Self.months(30 * 12) {
                let occurrences = store.occurrences(startingOn: range)
                var starts: [String] = []
                let answered = store.withStarts(startingOn: range) { found in
                    starts = found.map { "\($0.start) \($0.end) \($0.event)" }
                    return true
                }
                if occurrences.contains(where: { $0.more > 0 }) {
                    #expect(!answered)
                    refused += 1
                } else {
                    #expect(answered)
                    #expect(starts == occurrences.map { "\($0.start) \($0.end) \($0.event ?? -1)" })
                }
            }
        }
        #expect(refused > 0)
    }
}
