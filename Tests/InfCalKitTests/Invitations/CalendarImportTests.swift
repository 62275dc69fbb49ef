import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Importing a calendar into another (issue 35.1's decisions): added, updated (newer by
/// SEQUENCE, then DTSTAMP/LAST-MODIFIED: RFC 5545 §3.8.7.4, §3.8.7.2), unchanged (the same
/// property set without DTSTAMP), kept newer; overrides (RECURRENCE-ID, §3.8.4.4) joining their
/// series; the VTIMEZONEs the events need, once; every byte outside the touched components as
/// it was. What is written is read back by infcal's reader and by Python's icalendar.
@Suite struct CalendarImportTests {
    static func data(_ text: String, name: String = "in.ics") -> CalendarData {
        CalendarData.read(Array(text.utf8), name: name)
    }

    static func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }

    /// A calendar of `events` (each the lines of one VEVENT), CRLF.
    static func calendar(_ events: [[String]], zones: [String] = [], extra: [String] = []) -> [UInt8] {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + extra + zones
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"]
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    static func outcomes(_ result: ImportResult) -> [String] {
        result.decisions.map { "\($0.uid) \($0.outcome.rawValue)" }
    }

    /// A calendar of its own (no METHOD) from the invitation: both components, Berlin's
    /// VTIMEZONE once, read back with the same instances.
    @Test func anEmptyCalendarTakesEverything() throws {
        let incoming = InvitationFixtures.data("google-series-request.ics")
        let result = try CalendarImport.merge(incoming, into: [])
        #expect(Self.outcomes(result) == ["0a1b2c3d4e5f6g7h8i9j0k1l2m_R20250317T080000@google.com added"])
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(!text.contains("METHOD:"))
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 3)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal//infcal//EN\r\n"))
        let before = EventStore(events: EventReader.read(incoming.layout.data).events, display: .utc)
        let after = EventStore(events: EventReader.read(result.bytes).events, display: .utc)
        let days = EventFixture.day(2025, 1, 1)..<EventFixture.day(2026, 1, 1)
        #expect(after.occurrences(startingOn: days) == before.occurrences(startingOn: days))
        // The same file again: nothing changes.
        let again = try CalendarImport.merge(incoming, into: result.bytes)
        #expect(Self.outcomes(again) == ["0a1b2c3d4e5f6g7h8i9j0k1l2m_R20250317T080000@google.com unchanged"])
        #expect(!again.changed && again.bytes == result.bytes)
    }

    /// A newer version (higher SEQUENCE) replaces the stored one and only its bytes; an older
    /// one is reported and changes nothing; the file keeps its LF line ends.
    @Test func newerReplacesOlderIsKept() throws {
        let other = "BEGIN:VEVENT\nUID:mine-1\nDTSTAMP:20240101T000000Z\nDTSTART;VALUE=DATE:20250301\nSUMMARY:Mine\\, untouched\nX-ODD:  spaces kept  \nEND:VEVENT\n"
        let head = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//someone else//EN\nX-WR-CALNAME:Home\n"
        let start = try CalendarImport.merge(InvitationFixtures.data("google-request.ics"), into: Array((head + other + "END:VCALENDAR\n").utf8))
        #expect(Self.outcomes(start) == ["5k3o2p9q8r7s6t5u4v3w2x1y0z@google.com added"])
        let stored = String(decoding: start.bytes, as: UTF8.self)
        #expect(stored.hasPrefix(head + other))
        #expect(!stored.contains("\r"))
        let update = try CalendarImport.merge(InvitationFixtures.data("google-update.ics"), into: start.bytes)
        #expect(Self.outcomes(update) == ["5k3o2p9q8r7s6t5u4v3w2x1y0z@google.com updated"])
        let updated = String(decoding: update.bytes, as: UTF8.self)
        #expect(updated.hasPrefix(head + other) && updated.hasSuffix("END:VEVENT\nEND:VCALENDAR\n"))
        #expect(updated.contains("DTSTART:20250314T120000Z") && !updated.contains("DTSTART:20250314T113000Z"))
        #expect(updated.components(separatedBy: "BEGIN:VEVENT").count == 3)
        let old = try CalendarImport.merge(InvitationFixtures.data("google-request.ics"), into: update.bytes)
        #expect(Self.outcomes(old) == ["5k3o2p9q8r7s6t5u4v3w2x1y0z@google.com kept newer"])
        #expect(!old.changed)
    }

    /// Without a higher SEQUENCE, the later DTSTAMP or LAST-MODIFIED decides; the same
    /// properties in another order, folded otherwise, stamped at another time, are the same.
    @Test func theSameEventWrittenOtherwiseIsUnchanged() throws {
        let stored = Self.calendar([["UID:x", "DTSTAMP:20250101T000000Z", "DTSTART:20250301T100000Z", "SUMMARY:A rather long summary that folds somewhere"]])
        let same = Array(Self.crlf("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:A rather long summary\n  that folds somewhere\nDTSTART:20250301T100000Z\nUID:x\nDTSTAMP:20250301T000000Z\nEND:VEVENT\nEND:VCALENDAR\n").utf8)
        #expect(Self.outcomes(try CalendarImport.merge(CalendarData.read(same, name: "s"), into: stored)) == ["x unchanged"])
        let later = Self.calendar([["UID:x", "DTSTAMP:20250101T000000Z", "LAST-MODIFIED:20250102T000000Z", "DTSTART:20250301T110000Z"]])
        let result = try CalendarImport.merge(CalendarData.read(later, name: "l"), into: stored)
        #expect(Self.outcomes(result) == ["x updated"])
        let earlier = Self.calendar([["UID:x", "DTSTAMP:20241231T000000Z", "DTSTART:20250301T120000Z"]])
        #expect(Self.outcomes(try CalendarImport.merge(CalendarData.read(earlier, name: "e"), into: stored)) == ["x kept newer"])
        let higher = Self.calendar([["UID:x", "SEQUENCE:1", "DTSTAMP:20241231T000000Z", "DTSTART:20250301T120000Z"]])
        #expect(Self.outcomes(try CalendarImport.merge(CalendarData.read(higher, name: "h"), into: stored)) == ["x updated"])
    }

    /// An override joins its series, right after it; one older than the series (a lower
    /// SEQUENCE) is stale and kept out; a newer master drops the overrides it no longer has.
    @Test func overridesJoinTheirSeries() throws {
        let master = ["UID:s", "SEQUENCE:1", "DTSTAMP:20250101T000000Z", "DTSTART:20250303T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Daily"]
        let stored = Self.calendar([master, ["UID:other", "DTSTAMP:20250101T000000Z", "DTSTART:20250310T090000Z"]])
        let moved = Self.calendar([["UID:s", "SEQUENCE:1", "DTSTAMP:20250102T000000Z", "RECURRENCE-ID:20250304T090000Z",
                                    "DTSTART:20250304T150000Z", "DURATION:PT1H", "SUMMARY:Daily, later"]])
        let joined = try CalendarImport.merge(CalendarData.read(moved, name: "m"), into: stored)
        #expect(Self.outcomes(joined) == ["s updated"])
        let text = String(decoding: joined.bytes, as: UTF8.self)
        #expect(text.range(of: "RECURRENCE-ID")!.lowerBound < text.range(of: "UID:other")!.lowerBound)
        let store = EventStore(events: EventReader.read(joined.bytes).events, display: .utc)
        let starts = store.occurrences(startingOn: EventFixture.day(2025, 3, 1)..<EventFixture.day(2025, 4, 1)).map { InvitationFixtures.text($0.start) }
        #expect(starts == ["20250303T090000Z", "20250304T150000Z", "20250305T090000Z", "20250306T090000Z", "20250307T090000Z", "20250310T090000Z"])
        #expect(Self.outcomes(try CalendarImport.merge(CalendarData.read(moved, name: "m"), into: joined.bytes)) == ["s unchanged"])

        let stale = Self.calendar([["UID:s", "SEQUENCE:0", "DTSTAMP:20250102T000000Z", "RECURRENCE-ID:20250305T090000Z", "DTSTART:20250305T150000Z"]])
        let kept = try CalendarImport.merge(CalendarData.read(stale, name: "st"), into: stored)
        #expect(Self.outcomes(kept) == ["s kept newer"] && !kept.changed)

        var newMaster = master
        newMaster[1] = "SEQUENCE:2"
        newMaster[2] = "DTSTAMP:20250103T000000Z"
        let series = try CalendarImport.merge(CalendarData.read(Self.calendar([newMaster]), name: "n"), into: joined.bytes)
        #expect(Self.outcomes(series) == ["s updated"])
        let after = String(decoding: series.bytes, as: UTF8.self)
        #expect(!after.contains("RECURRENCE-ID") && after.contains("SEQUENCE:2") && after.contains("UID:other"))
    }

    /// The VTIMEZONEs the written events name come along once, and only when the calendar
    /// lacks them (compared by TZID with its escapes read).
    @Test func zonesComeAlongOnce() throws {
        let outlook = InvitationFixtures.data("outlook-request.ics")
        let counter = InvitationFixtures.data("outlook-counter.ics")
        let first = try CalendarImport.merge(outlook, into: Self.calendar([["UID:a", "DTSTART:20250101T000000Z"]]))
        let text = String(decoding: first.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
        #expect(text.contains("TZID:(UTC+01:00) Amsterdam\\, Berlin"))
        // Another event in the same zone: no second VTIMEZONE.
        var other = String(decoding: counter.layout.data, as: UTF8.self).replacingOccurrences(of: "METHOD:COUNTER", with: "METHOD:PUBLISH")
        other = other.replacingOccurrences(of: "UID:0400000082", with: "UID:another-0400000082") // a folded line: its start
        let second = try CalendarImport.merge(Self.data(other), into: first.bytes)
        #expect(second.decisions.map(\.outcome) == [.added] && second.decisions.first?.uid.hasPrefix("another-") == true)
        #expect(String(decoding: second.bytes, as: UTF8.self).components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
        let events = EventReader.read(second.bytes)
        #expect(events.notes.isEmpty && events.events.count == 3)
    }

    /// What cannot be read is a finding with file and line; the rest can be imported.
    @Test func badInputIsFoundWithItsLine() throws {
        #expect(Self.data("hello\nworld\n", name: "note.txt").findings.map(\.description)
                == ["note.txt:1: not iCalendar data (no BEGIN:VCALENDAR or BEGIN:VEVENT)"])
        #expect(Self.data("", name: "empty.ics").findings.map(\.description) == ["empty.ics: empty: no iCalendar data"])
        let text = Self.crlf("""
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        DTSTART:20250301T100000Z
        SUMMARY:no UID
        END:VEVENT
        BEGIN:VEVENT
        UID:broken
        DTSTART:20250302T100000Z
        this line is no content line
        END:VEVENT
        BEGIN:VEVENT
        UID:fine
        DTSTART:20250303T100000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:open
        DTSTART:20250304T100000Z
        END:VCALENDAR
        """)
        let incoming = Self.data(text, name: "mixed.ics")
        #expect(incoming.findings.map(\.description) == [
            "mixed.ics:3: VEVENT without UID; left out (infcal cannot tell it from another, nor update it)",
            "mixed.ics:10: 'this line is no content line' is no content line (NAME:value); the VEVENT of line 7 is left out",
            "mixed.ics:16: BEGIN:VEVENT has no END:VEVENT; left out",
        ])
        #expect(incoming.uids == ["fine"])
        let result = try CalendarImport.merge(incoming, into: [])
        #expect(Self.outcomes(result) == ["fine added"])
    }

    /// A calendar whose bytes end without END:VCALENDAR is not written into.
    @Test func aCalendarWithoutEndIsRefused() {
        #expect(throws: CalendarEdit.Refusal.self) {
            try CalendarImport.merge(InvitationFixtures.data("google-request.ics"), into: Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n".utf8))
        }
    }

    /// Into a vdir: an event into the item that holds its UID, a new one into a new item
    /// named from its UID; nothing written for what does not change.
    @Test func aVdirGetsOneItemPerEvent() throws {
        let items = [ImportItem(name: "a.ics", bytes: Self.calendar([["UID:x", "DTSTAMP:20250101T000000Z", "DTSTART:20250301T100000Z"]])),
                     ImportItem(name: "b.ics", bytes: Self.calendar([["UID:y", "DTSTAMP:20250101T000000Z", "DTSTART:20250302T100000Z"]]))]
        let incoming = CalendarData.read(Self.calendar([["UID:y", "DTSTAMP:20250101T000000Z", "DTSTART:20250302T100000Z"],
                                                        ["UID:x", "SEQUENCE:1", "DTSTAMP:20250101T000000Z", "DTSTART:20250301T110000Z"],
                                                        ["UID:a", "DTSTAMP:20250101T000000Z", "DTSTART:20250303T100000Z"]]), name: "n")
        let (decisions, writes) = try CalendarImport.merge(incoming, intoItems: items)
        #expect(decisions.map { "\($0.uid) \($0.outcome.rawValue)" } == ["y unchanged", "x updated", "a added"])
        #expect(writes.map { "\($0.name) \($0.isNew)" } == ["a.ics false", "a-1.ics true"])
        #expect(CalendarImport.itemName(forUID: "../x/y z") == "%2E.%2Fx%2Fy%20z.ics")
        #expect(CalendarImport.itemName(forUID: "ana@example.org") == "ana@example.org.ics")
        #expect(CalendarImport.itemName(forUID: String(repeating: "é", count: 200)).utf8.count < 255)
    }

    /// Issue 35's measure: a 1,000-event file imported twice leaves 1,000 events; a newer export
    /// with 10 changed updates exactly those.
    @Test func aThousandEventsTwice() throws {
        func export(changed: Set<Int>) -> [UInt8] {
            Self.calendar((0..<1000).map { index in
                let day = CivilTime.day(year: 2025, month: 1, day: 1) + index
                return ["UID:event-\(index)@example.org", "SEQUENCE:\(changed.contains(index) ? 1 : 0)", "DTSTAMP:20250101T000000Z",
                        "DTSTART:" + ICalText.date(ofDay: day) + "T090000Z", "SUMMARY:Event \(index)" + (changed.contains(index) ? " (moved)" : "")]
            })
        }
        let first = try CalendarImport.merge(CalendarData.read(export(changed: []), name: "e"), into: [])
        #expect(first.decisions.allSatisfy { $0.outcome == .added } && first.decisions.count == 1000)
        let second = try CalendarImport.merge(CalendarData.read(export(changed: []), name: "e"), into: first.bytes)
        #expect(second.decisions.allSatisfy { $0.outcome == .unchanged } && !second.changed)
        let changed: Set<Int> = [3, 99, 100, 250, 500, 501, 777, 800, 998, 999]
        let third = try CalendarImport.merge(CalendarData.read(export(changed: changed), name: "e"), into: second.bytes)
        #expect(Set(third.decisions.filter { $0.outcome == .updated }.map(\.uid)) == Set(changed.map { "event-\($0)@example.org" }))
        #expect(third.decisions.filter { $0.outcome == .unchanged }.count == 990)
        let events = EventReader.read(third.bytes).events
        #expect(events.count == 1000 && events.filter { $0.summary.hasSuffix("(moved)") }.count == 10)
    }

    /// What import writes, icalendar reads: every component once (no UID and RECURRENCE-ID
    /// twice), every VTIMEZONE once, with the times infcal reads.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func icalendarReadsWhatImportWrites() throws {
        var bytes: [UInt8] = []
        for name in InvitationFixtures.calendars where !name.contains("legacy") {
            bytes = try CalendarImport.merge(InvitationFixtures.data(name), into: bytes).bytes
        }
        for name in InvitationFixtures.calendars where !name.contains("legacy") {
            #expect(try CalendarImport.merge(InvitationFixtures.data(name), into: bytes).changed == false, "\(name) twice")
        }
        let result = try #require(PythonOracle.withFile(bytes) { PythonOracle.run(script: "ical_times.py", [$0]) })
        #expect(result.status == 0)
        let rows = result.output.split(separator: "\n").map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
        #expect(Set(rows).count == rows.count, "\(rows)")
        let ours = CalendarData.read(bytes, name: "")
        #expect(rows.count == ours.components.count)
        let text = String(decoding: bytes, as: UTF8.self)
        for zone in ours.zones { #expect(text.components(separatedBy: "TZID:" + ICalText.escaped(zone.tzid) + "\r\n").count == 2, "\(zone.tzid)") }
    }
}
