import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// A whole series moved (`infcal edit UID DAY`, or a new time) takes its overrides along:
/// RFC 5545 §3.8.4.4 names an overridden instance by its original start, so each
/// RECURRENCE-ID moves by the distance DTSTART moved; an override still at the time it
/// overrides (its text changed) moves with it, one moved on its own stays where it was put;
/// the master's EXDATEs and RDATEs move the same distance.
/// The expected bytes are written out by hand; the instances after the move are checked with
/// recurring-ical-events in `WriteCommandEndToEndTests.aMovedSeriesTakesItsOverrides`.
@Suite struct SeriesMoveTests {
    static let master = [
        "BEGIN:VEVENT", "UID:s", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Europe/Berlin:20240304T100000",
        "DTEND;TZID=Europe/Berlin:20240304T110000", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Weekly", "END:VEVENT",
    ]
    static let guests = [
        "BEGIN:VEVENT", "UID:s", "DTSTAMP:20240101T000000Z", "RECURRENCE-ID;TZID=Europe/Berlin:20240311T100000",
        "DTSTART;TZID=Europe/Berlin:20240311T100000", "DTEND;TZID=Europe/Berlin:20240311T110000", "SUMMARY:Weekly with guests", "END:VEVENT",
    ]
    static let tuesday = [
        "BEGIN:VEVENT", "UID:s", "DTSTAMP:20240101T000000Z", "RECURRENCE-ID;TZID=Europe/Berlin:20240318T100000",
        "DTSTART;TZID=Europe/Berlin:20240319T150000", "DTEND;TZID=Europe/Berlin:20240319T160000", "SUMMARY:Weekly moved to Tuesday",
        "END:VEVENT",
    ]
    static let berlin = WritingZone(zone: TimeZone(identifier: "Europe/Berlin")) { utc in
        TimeZone(identifier: "Europe/Berlin")?.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))) ?? 0
    }

    static func file(_ components: [[String]]) -> [UInt8] {
        Array((["BEGIN:VCALENDAR", "VERSION:2.0"] + components.flatMap { $0 } + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
    }

    static func text(_ lines: [String]) -> String { lines.joined(separator: "\r\n") + "\r\n" }

    /// Two days later (Monday to Wednesday): the overrides name the Wednesdays.
    @Test func aDayLaterMovesTheRecurrenceIDs() throws {
        var changes = EventChanges()
        changes.day = CivilTime.day(year: 2024, month: 3, day: 6)
        let edited = try #require(try EventWrite.editing("s", occurrence: nil, changes: changes, stamp: 1_700_000_000, zone: Self.berlin,
                                                          in: Self.file([Self.master, Self.guests, Self.tuesday])))
        let result = String(decoding: edited, as: UTF8.self)
        #expect(result.contains("DTSTART;TZID=Europe/Berlin:20240306T100000\r\nDTEND;TZID=Europe/Berlin:20240306T110000\r\n"), "\(result)")
        // Each override changed is stamped (DTSTAMP, LAST-MODIFIED at 1_700_000_000, 2023-11-14
        // 22:13:20 UTC) and its SEQUENCE goes one above its own and the master's (0, none written).
        #expect(result.contains(Self.text([
            "BEGIN:VEVENT", "UID:s", "DTSTAMP:20231114T221320Z", "RECURRENCE-ID;TZID=Europe/Berlin:20240313T100000",
            "DTSTART;TZID=Europe/Berlin:20240313T100000", "DTEND;TZID=Europe/Berlin:20240313T110000", "SUMMARY:Weekly with guests",
            "LAST-MODIFIED:20231114T221320Z", "SEQUENCE:1", "END:VEVENT",
        ])), "\(result)")
        #expect(result.contains(Self.text([
            "BEGIN:VEVENT", "UID:s", "DTSTAMP:20231114T221320Z", "RECURRENCE-ID;TZID=Europe/Berlin:20240320T100000",
            "DTSTART;TZID=Europe/Berlin:20240319T150000", "DTEND;TZID=Europe/Berlin:20240319T160000", "SUMMARY:Weekly moved to Tuesday",
            "LAST-MODIFIED:20231114T221320Z", "SEQUENCE:1", "END:VEVENT",
        ])), "\(result)")
        // Berlin is UTC+1 in March before the 31st: 10:00 is 09:00 UTC.
        #expect(EventFixture.starts(edited, from: 2024, to: 2024, display: .utc)
                == ["2024-03-06T09:00", "2024-03-13T09:00", "2024-03-19T14:00", "2024-03-27T09:00"])
    }

    /// A new time of day (10:00 to 14:00): the RECURRENCE-IDs move by four hours, a RANGE
    /// parameter stays.
    @Test func aNewTimeMovesTheRecurrenceIDs() throws {
        var guests = Self.guests
        guests[3] = "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20240311T100000"
        var changes = EventChanges()
        changes.time = (start: 14 * 3600, end: 15 * 3600)
        let edited = try #require(try EventWrite.editing("s", occurrence: nil, changes: changes, stamp: 1_700_000_000, zone: Self.berlin,
                                                          in: Self.file([Self.master, guests, Self.tuesday])))
        let result = String(decoding: edited, as: UTF8.self)
        #expect(result.contains("DTSTART;TZID=Europe/Berlin:20240304T140000\r\n"), "\(result)")
        #expect(result.contains("RECURRENCE-ID;TZID=Europe/Berlin;RANGE=THISANDFUTURE:20240311T140000\r\n"
                                + "DTSTART;TZID=Europe/Berlin:20240311T140000\r\nDTEND;TZID=Europe/Berlin:20240311T150000\r\n"), "\(result)")
        #expect(result.contains("RECURRENCE-ID;TZID=Europe/Berlin:20240318T140000\r\nDTSTART;TZID=Europe/Berlin:20240319T150000\r\n"),
                "\(result)")
    }

    /// An all-day series and its override (VALUE=DATE) a week later; a UTC RECURRENCE-ID of
    /// a zoned series read on the series' wall clock.
    @Test func datesAndUTCRecurrenceIDs() throws {
        let master = ["BEGIN:VEVENT", "UID:d", "DTSTART;VALUE=DATE:20240301", "RRULE:FREQ=MONTHLY;COUNT=3", "SUMMARY:Rent", "END:VEVENT"]
        let override = ["BEGIN:VEVENT", "UID:d", "RECURRENCE-ID;VALUE=DATE:20240401", "DTSTART;VALUE=DATE:20240401",
                        "SUMMARY:Rent, late", "END:VEVENT"]
        var changes = EventChanges()
        changes.day = CivilTime.day(year: 2024, month: 3, day: 8)
        let edited = try #require(try EventWrite.editing("d", occurrence: nil, changes: changes, stamp: 0, zone: Self.berlin,
                                                          in: Self.file([master, override])))
        #expect(String(decoding: edited, as: UTF8.self).contains(Self.text([
            "BEGIN:VEVENT", "UID:d", "RECURRENCE-ID;VALUE=DATE:20240408", "DTSTART;VALUE=DATE:20240408", "SUMMARY:Rent, late",
            "DTSTAMP:19700101T000000Z", "LAST-MODIFIED:19700101T000000Z", "SEQUENCE:1", "END:VEVENT",
        ])), "\(String(decoding: edited, as: UTF8.self))")
        #expect(EventFixture.starts(edited, from: 2024, to: 2024, display: .utc) == ["2024-03-08T00:00", "2024-04-08T00:00", "2024-05-08T00:00"])

        var utcGuests = Self.guests
        utcGuests[3] = "RECURRENCE-ID:20240311T090000Z"
        var later = EventChanges()
        later.day = CivilTime.day(year: 2024, month: 3, day: 5)
        let moved = try #require(try EventWrite.editing("s", occurrence: nil, changes: later, stamp: 0, zone: Self.berlin,
                                                         in: Self.file([Self.master, utcGuests])))
        // 09:00 UTC is 10:00 in Berlin, the series' 11 March: written as the series writes its start.
        #expect(String(decoding: moved, as: UTF8.self).contains("RECURRENCE-ID;TZID=Europe/Berlin:20240312T100000\r\n"))
    }

    /// The master's EXDATEs move too, every value of every line, so the excluded instances
    /// stay excluded.
    @Test func theExclusionsMoveToo() throws {
        var master = Self.master
        master.insert(contentsOf: ["EXDATE;TZID=Europe/Berlin:20240311T100000,20240318T100000", "EXDATE:20240325T090000Z"], at: 6)
        var changes = EventChanges()
        changes.day = CivilTime.day(year: 2024, month: 3, day: 5)
        let edited = try #require(try EventWrite.editing("s", occurrence: nil, changes: changes, stamp: 0, zone: Self.berlin,
                                                          in: Self.file([master])))
        let result = String(decoding: edited, as: UTF8.self)
        #expect(result.contains("RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE;TZID=Europe/Berlin:20240312T100000,20240319T100000\r\n"), "\(result)")
        #expect(result.contains("EXDATE;TZID=Europe/Berlin:20240326T100000\r\n"), "\(result)")
        #expect(EventFixture.starts(edited, from: 2024, to: 2024, display: .utc) == ["2024-03-05T09:00"])
    }

    /// The master's RDATEs move by the same distance (RFC 5545 §3.8.5.2): a DATE-TIME list in
    /// the series' zone, a UTC one read on the series' wall clock, and PERIODs, whose explicit
    /// end moves with their start and whose duration stays as written.
    @Test func theAddedDatesMoveToo() throws {
        var master = Self.master
        master.insert(contentsOf: ["RDATE;TZID=Europe/Berlin:20240308T120000,20240309T120000",
                                   "RDATE;VALUE=PERIOD:20240310T090000Z/20240310T100000Z,20240312T090000Z/PT2H"], at: 6)
        var changes = EventChanges()
        changes.day = CivilTime.day(year: 2024, month: 3, day: 6)
        let edited = try #require(try EventWrite.editing("s", occurrence: nil, changes: changes, stamp: 0, zone: Self.berlin,
                                                          in: Self.file([master])))
        let result = String(decoding: edited, as: UTF8.self)
        #expect(result.contains("RRULE:FREQ=WEEKLY;COUNT=4\r\nRDATE;TZID=Europe/Berlin:20240310T120000,20240311T120000\r\n"), "\(result)")
        // Folded after 75 octets (RFC 5545 §3.1), in the second line's place: after the
        // component's own properties.
        #expect(result.contains("SEQUENCE:1\r\nRDATE;VALUE=PERIOD;TZID=Europe/Berlin:20240312T100000/20240312T110000,20240\r\n"
                                + " 314T100000/PT2H\r\nEND:VEVENT\r\n"), "\(result)")
        // Berlin is UTC+1 in March before the 31st.
        #expect(EventFixture.starts(edited, from: 2024, to: 2024, display: .utc)
                == ["2024-03-06T09:00", "2024-03-10T11:00", "2024-03-11T11:00", "2024-03-12T09:00", "2024-03-13T09:00",
                    "2024-03-14T09:00", "2024-03-20T09:00", "2024-03-27T09:00"])
    }

    /// An all-day series' RDATE;VALUE=DATE moves by whole days and stays a date.
    @Test func anAllDaySeriesMovesItsAddedDays() throws {
        let master = ["BEGIN:VEVENT", "UID:d", "DTSTART;VALUE=DATE:20240301", "RRULE:FREQ=MONTHLY;COUNT=2",
                      "RDATE;VALUE=DATE:20240315,20240415", "SUMMARY:Rent", "END:VEVENT"]
        var changes = EventChanges()
        changes.day = CivilTime.day(year: 2024, month: 3, day: 8)
        let edited = try #require(try EventWrite.editing("d", occurrence: nil, changes: changes, stamp: 0, zone: Self.berlin,
                                                          in: Self.file([master])))
        #expect(String(decoding: edited, as: UTF8.self).contains("RRULE:FREQ=MONTHLY;COUNT=2\r\nRDATE;VALUE=DATE:20240322,20240422\r\n"))
        #expect(EventFixture.starts(edited, from: 2024, to: 2024, display: .utc)
                == ["2024-03-08T00:00", "2024-03-22T00:00", "2024-04-08T00:00", "2024-04-22T00:00"])
    }

    /// A change that does not move DTSTART (the summary, the length) leaves the overrides be.
    @Test func noMoveNoChange() throws {
        var changes = EventChanges()
        changes.summary = "Weekly, renamed"
        changes.duration = 7200
        let data = Self.file([Self.master, Self.guests, Self.tuesday])
        let edited = try #require(try EventWrite.editing("s", occurrence: nil, changes: changes, stamp: 0, zone: Self.berlin, in: data))
        let result = String(decoding: edited, as: UTF8.self)
        #expect(result.contains(Self.text(Self.guests)) && result.contains(Self.text(Self.tuesday)))
    }
}
