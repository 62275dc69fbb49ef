import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// `delete` takes away the VTIMEZONE `add` wrote for the event once no other component names
/// its zone, so that an add then a delete in a zone gives back the file byte for byte, as
/// deleting the event's file does in a vdir (khal, vdirsyncer). A VTIMEZONE another
/// component names stays, and so does one infcal did not write, named or not. The files are
/// written out by hand; `CalendarEditTests.files` are the calendars of the round trip.
@Suite struct DeletedZoneTests {
    static let berlin = WritingZone(zone: TimeZone(identifier: "Europe/Berlin")) { utc in
        TimeZone(identifier: "Europe/Berlin")?.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))) ?? 0
    }
    /// 2024-03-05 16:30 to 17:15 on Berlin's wall clock.
    static let event = NewEvent(summary: "Coffee", start: ICalTime(seconds: 1_709_656_200, form: .zoned("Europe/Berlin")),
                                end: ICalTime(seconds: 1_709_658_900, form: .zoned("Europe/Berlin")))

    static func file(_ lines: [String]) -> [UInt8] {
        Array((["BEGIN:VCALENDAR", "VERSION:2.0"] + lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
    }

    /// Where no other event names the zone, the delete gives back the file; where one does
    /// (a file with Berlin events and no VTIMEZONE for them), the VTIMEZONE `add` wrote now
    /// serves it and stays, and the rest is the file as it was.
    @Test func addThenDeleteInAZoneIsTheOriginal() throws {
        var roundTrips = 0
        for (name, data) in CalendarEditTests.files {
            let added = try EventWrite.adding(Self.event, uid: "new@test", stamp: 1_700_000_000, zone: Self.berlin, to: data)
            let layout = ICalLayout(added)
            let zone = try #require(layout.spans.first { $0.name == "VTIMEZONE" }.flatMap { layout.range(of: $0) }, "\(name)")
            let back = try #require(try EventWrite.deleting("new@test", occurrence: nil, stamp: 1_700_000_000, in: added))
            if String(decoding: data, as: UTF8.self).contains("TZID=Europe/Berlin") {
                #expect(back.firstRange(of: Array(added[zone])) != nil, "\(name)")
                // `add` wrote the VTIMEZONE just before the event, so it has the same bytes' place.
                #expect(CalendarEdit.removing([zone], from: back) == data, "\(name)")
            } else {
                #expect(back == data, "\(name)")
                roundTrips += 1
            }
        }
        #expect(roundTrips > 0)
    }

    /// Two events in the zone: deleting the first keeps the VTIMEZONE the second names;
    /// deleting the second too takes it away.
    @Test func aZoneAnotherEventNamesStays() throws {
        let empty = Self.file([])
        let first = try EventWrite.adding(Self.event, uid: "a", stamp: 0, zone: Self.berlin, to: empty)
        let both = try EventWrite.adding(Self.event, uid: "b", stamp: 0, zone: Self.berlin, to: first)
        let onlyB = try #require(try EventWrite.deleting("a", occurrence: nil, stamp: 0, in: both))
        #expect(String(decoding: onlyB, as: UTF8.self).contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        #expect(try EventWrite.deleting("b", occurrence: nil, stamp: 0, in: onlyB) == empty)
    }

    /// A VTIMEZONE infcal did not write (here a hand-written one) stays after the last event
    /// that names it goes; so does one nothing named, and one the calendar's X-WR-TIMEZONE or
    /// a reference in another case names.
    @Test func aZoneInfcalDidNotWriteStays() throws {
        let handWritten = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                           "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                           "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
                           "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"]
        let spare = ["BEGIN:VTIMEZONE", "TZID:America/New_York", "BEGIN:STANDARD", "DTSTART:19701101T020000",
                     "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "END:STANDARD", "END:VTIMEZONE"]
        let event = ["BEGIN:VEVENT", "UID:e", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Europe/Berlin:20240305T163000",
                     "SUMMARY:Coffee", "END:VEVENT"]
        let data = Self.file(handWritten + spare + event)
        #expect(try EventWrite.deleting("e", occurrence: nil, stamp: 0, in: data) == Self.file(handWritten + spare))

        // The VTIMEZONE add wrote, kept while X-WR-TIMEZONE or a TZID in another case names it.
        let added = try EventWrite.adding(Self.event, uid: "new@test", stamp: 0, zone: Self.berlin, to: Self.file([]))
        let zone = ICalLayout(added).spans.first { $0.name == "VTIMEZONE" }
        let zoneBytes = try #require(zone.flatMap { ICalLayout(added).range(of: $0) }.map { Array(added[$0]) })
        let text = String(decoding: added, as: UTF8.self)
        for other in [["X-WR-TIMEZONE:Europe/Berlin"], ["BEGIN:VEVENT", "UID:o", "DTSTART;TZID=europe/berlin:20240306T100000", "END:VEVENT"]] {
            let withOther = Array(text.replacingOccurrences(of: "VERSION:2.0\r\n", with: "VERSION:2.0\r\n" + other.joined(separator: "\r\n") + "\r\n").utf8)
            let deleted = try #require(try EventWrite.deleting("new@test", occurrence: nil, stamp: 0, in: withOther))
            #expect(deleted.firstRange(of: zoneBytes) != nil, "\(other)")
        }
    }
}
