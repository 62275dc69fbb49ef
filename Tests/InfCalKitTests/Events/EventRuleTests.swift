import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// A rule as a write gives it: parsed once, serialized once, its UNTIL in the form of the
/// DTSTART it ends (RFC 5545 §3.3.10): a DATE for a DATE, UTC for a zoned or UTC time (the end
/// of that day on the start's wall clock), local for a floating one.
@Suite struct EventRuleTests {
    static let lastDay = CivilDay(year: 2027, month: 1, day: 31)

    /// Europe/Berlin in January and in July (CET, CEST), by the offsets RFC 5545's VTIMEZONE
    /// examples use and zoneinfo gives: 23:59:59 local is 22:59:59Z and 21:59:59Z.
    static func berlin(_ local: Int) -> Int {
        let month = CivilTime.date(ofDay: CivilTime.day(ofSeconds: local)).month
        return local - ((4...9).contains(month) ? 7200 : 3600)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let start: ICalTime
        let until: String
        var testDescription: String { "\(start.form) -> \(until)" }
    }

    static let day = CivilDay(year: 2026, month: 3, day: 2)
    static let cases = [
        Case(start: ICalTime(seconds: day.seconds, form: .date), until: "20270131"),
        Case(start: ICalTime(seconds: day.seconds + 36_000, form: .floating), until: "20270131T235959"),
        Case(start: ICalTime(seconds: day.seconds + 36_000, form: .zoned("Europe/Berlin")), until: "20270131T225959Z"),
        Case(start: ICalTime(seconds: day.seconds + 32_400, form: .utc), until: "20270131T225959Z"),
    ]

    @Test(arguments: cases)
    func untilTakesTheFormOfDTSTART(_ example: Case) throws {
        let rule = EventRule(rule: RecurrenceRule(frequency: .weekly), end: .day(Self.lastDay))
        #expect(rule.value(start: example.start, utcOfLocal: Self.berlin) == "FREQ=WEEKLY;UNTIL=" + example.until)
    }

    /// A rule's own UNTIL follows DTSTART's form too: a date against a timed start is the end of
    /// that day, a date-time against an all-day start its day, a floating one UTC for a zoned start.
    @Test func aWrittenUntilIsMadeToFit() throws {
        let dated = try #require(try EventRule.parse("FREQ=DAILY;UNTIL=20270131"))
        #expect(dated.end == .day(Self.lastDay))
        #expect(dated.value(start: Self.cases[2].start, utcOfLocal: Self.berlin) == "FREQ=DAILY;UNTIL=20270131T225959Z")
        let timed = try #require(try EventRule.parse("FREQ=DAILY;UNTIL=20270131T120000Z"))
        #expect(timed.value(start: Self.cases[0].start, utcOfLocal: Self.berlin) == "FREQ=DAILY;UNTIL=20270131")
        #expect(timed.value(start: Self.cases[2].start, utcOfLocal: Self.berlin) == "FREQ=DAILY;UNTIL=20270131T120000Z")
        let floating = try #require(try EventRule.parse("FREQ=DAILY;UNTIL=20270131T120000"))
        #expect(floating.value(start: Self.cases[2].start, utcOfLocal: Self.berlin) == "FREQ=DAILY;UNTIL=20270131T110000Z")
        #expect(floating.value(start: Self.cases[1].start, utcOfLocal: Self.berlin) == "FREQ=DAILY;UNTIL=20270131T120000")
    }

    /// One serializer, in the order RFC 5545 and RFC 7529 write rules (RSCALE first, COUNT or
    /// UNTIL last); what it writes reads back as the same rule, X- parts kept.
    @Test func serializesWhatItParses() throws {
        let start = Self.cases[2].start
        for (text, written) in [
            ("FREQ=YEARLY", "FREQ=YEARLY"),
            ("RSCALE=HEBREW;FREQ=YEARLY", "RSCALE=HEBREW;FREQ=YEARLY"),
            ("freq=weekly;byday=mo,-1fr;interval=2;wkst=su", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,-1FR;WKST=SU"),
            ("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;COUNT=3", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3"),
            ("FREQ=YEARLY;BYMONTH=2,5L;BYMONTHDAY=-1;RSCALE=CHINESE;SKIP=FORWARD", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=2,5L;SKIP=FORWARD"),
            ("FREQ=HOURLY;BYHOUR=9,17;BYMINUTE=0,30;BYSECOND=0;BYYEARDAY=1,-1;BYWEEKNO=20;X-NAME=kept",
             "FREQ=HOURLY;BYSECOND=0;BYMINUTE=0,30;BYHOUR=9,17;BYYEARDAY=1,-1;BYWEEKNO=20;X-NAME=kept"),
        ] {
            let rule = try #require(try EventRule.parse(text))
            let value = rule.value(start: start, utcOfLocal: Self.berlin)
            #expect(value == written)
            let again = try #require(try EventRule.parse(value))
            #expect(again == rule, "\(text)")
        }
    }

    /// The edit of a timed series: --every week --until writes UNTIL in UTC, the end of the day
    /// in the event's own zone (New York here, whoever edits), not the DATE it once wrote.
    @Test func editOfATimedSeries() throws {
        let data = EventFixture.calendar(["DTSTART;TZID=America/New_York:20260302T090000", "DTEND;TZID=America/New_York:20260302T100000"])
        var changes = EventChanges()
        changes.rule = EventRule(rule: RecurrenceRule(frequency: .weekly), end: .day(Self.lastDay))
        let berlin = WritingZone(zone: TimeZone(identifier: "Europe/Berlin"), offset: { _ in 3600 })
        let edited = try #require(try EventWrite.editing("test", occurrence: nil, changes: changes, stamp: 0, zone: berlin, in: data))
        // 2027-01-31 23:59:59 in New York (EST, UTC-5) is 2027-02-01 04:59:59Z.
        #expect(String(decoding: edited, as: UTF8.self).contains("RRULE:FREQ=WEEKLY;UNTIL=20270201T045959Z\r\n"))
        let all = EventFixture.calendar(["DTSTART;VALUE=DATE:20260302", "DTEND;VALUE=DATE:20260303"])
        let allDay = try #require(try EventWrite.editing("test", occurrence: nil, changes: changes, stamp: 0, zone: berlin, in: all))
        #expect(String(decoding: allDay, as: UTF8.self).contains("RRULE:FREQ=WEEKLY;UNTIL=20270131\r\n"))
    }
}
