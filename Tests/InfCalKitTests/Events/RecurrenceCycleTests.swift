import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// A rule without end that can yield nothing after DTSTART ends where a walk forward asks
/// where the next instance can start (`EventStore.earliestStartDay`), and a rare rule is still
/// found where it next occurs. The next instance after DTSTART of each rule is python-dateutil's
/// (`rrulestr("RRULE:" + rule, dtstart=start).after(start)`; None: nothing up to year 9999,
/// where Python's dates end); those beyond 9999 are checked by the leap-year rule by hand.
@Suite struct RecurrenceCycleTests {
    struct Case: CustomStringConvertible, Sendable {
        let start: String
        let rule: String
        /// The next start after DTSTART, YYYY-MM-DDTHH:MM, or nil for none ever.
        let next: String?
        var description: String { rule }
    }

    static let cases: [Case] = [
        // dateutil: None.
        Case(start: "20240101T000000", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", next: nil),
        Case(start: "20240101T000000", rule: "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4", next: nil),
        Case(start: "20240101T000000", rule: "FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=30", next: nil),
        Case(start: "20240101T000000", rule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", next: nil),
        Case(start: "20240101T100000", rule: "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", next: nil),
        Case(start: "20240101T000000", rule: "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31;BYSETPOS=1", next: nil),
        Case(start: "20240301T000000", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20270101T000000", next: nil),
        // A COUNT does not make a rule that never yields walk for ever either.
        Case(start: "20240101T000000", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=5", next: nil),
        // Every seventh second of a 30 February: dateutil takes too long to say; none, as above.
        Case(start: "20240101T100000", rule: "FREQ=SECONDLY;INTERVAL=7;BYMONTH=2;BYMONTHDAY=30", next: nil),
        // dateutil: the dates given. 2100, 2200 and 2300 are no leap years: the fourth period,
        // the last of the rule's cycle (400 years in steps of 100).
        Case(start: "20000229T000000", rule: "FREQ=YEARLY;INTERVAL=100", next: "2400-02-29T00:00"),
        Case(start: "20240101T000000", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", next: "2044-02-29T00:00"),
        Case(start: "20240101T000000", rule: "FREQ=MONTHLY;INTERVAL=7;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", next: "2112-02-29T00:00"),
        Case(start: "20240101T000000", rule: "FREQ=WEEKLY;INTERVAL=5;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU", next: "2032-02-29T00:00"),
        Case(start: "20240101T000000", rule: "FREQ=DAILY;INTERVAL=11;BYMONTH=2;BYMONTHDAY=29", next: "2032-02-29T00:00"),
        Case(start: "20240101T100000", rule: "FREQ=HOURLY;INTERVAL=5;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3", next: "2040-02-29T03:00"),
        // Beyond dateutil's years: from 29 February 2024 every 4,799 months is one month
        // earlier each time, so February every 12th step (4,799 years), in the years 2024 + 4799k:
        // 6823, 11622 and 16421 are no leap years (not divisible by 4), 21220 is. Its cycle is
        // 4,800 periods, the longest of a monthly rule.
        Case(start: "20240229T000000", rule: "FREQ=MONTHLY;INTERVAL=4799;BYMONTH=2;BYMONTHDAY=29", next: "21220-02-29T00:00"),
    ]

    static func store(_ item: Case) -> EventStore {
        let file = EventReader.read(EventFixture.calendar(["DTSTART:" + item.start, "RRULE:" + item.rule]))
        return EventStore(events: file.events, display: .utc)
    }

    @Test(arguments: cases)
    func theNextStartAfterDTSTART(_ item: Case) throws {
        let store = Self.store(item)
        let event = try #require(store.events.first)
        let expander = try #require(event.expanders.first)
        #expect(expander.yieldsAfterStart == (item.next != nil))
        // Three days after DTSTART's: past the two days' margin the store keeps for zones.
        let after = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: event.start.seconds)) + 3
        guard let next = item.next else {
            #expect(store.earliestStartDay(from: after) == nil)
            return
        }
        let found = try #require(store.earliestStartDay(from: after))
        let day = try #require(store.firstDayWithOccurrence(in: found..<(found + 8_000_000)))
        let occurrence = try #require(store.occurrences(startingOn: day..<(day + 1)).first)
        #expect(EventFixture.text(occurrence.start) == next)
    }

    /// Another RSCALE follows no short cycle: no Hebrew month has a 31st day (the longest have
    /// 30), so nothing in the 10,000 years looked at; the 30th of Adar I comes in leap years.
    @Test func anotherScaleIsLookedAtForTenThousandYears() throws {
        let never = EventReader.read(EventFixture.calendar(["DTSTART;VALUE=DATE:20240101", "RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=31"]))
        #expect(never.events.first?.expanders.first?.yieldsAfterStart == false)
        let leap = EventReader.read(EventFixture.calendar(["DTSTART;VALUE=DATE:20240101", "RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=30"]))
        #expect(leap.events.first?.expanders.first?.yieldsAfterStart == true)
        #expect(InputLimits.farthestLook == 3_652_425)
    }
}
