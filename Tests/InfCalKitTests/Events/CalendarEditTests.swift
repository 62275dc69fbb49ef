import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The surgical writer: what it writes follows RFC 5545 §3.1 and §3.3.11, and what it does not
/// change stays byte for byte.
@Suite struct CalendarEditTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every .ics file of the examples, and the fixtures of the reader's tests made in the
    /// forms files come in: CRLF, LF, a byte-order mark, folded lines, a file the reader
    /// reads only in part, unknown components, a last line without a line end.
    static var files: [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        let examples = root.appendingPathComponent("examples")
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted() where name.hasSuffix(".ics") {
            if let data = FileManager.default.contents(atPath: examples.appendingPathComponent(name).path) {
                result.append((name, Array(data)))
                result.append((name + " as CRLF", Array(String(decoding: data, as: UTF8.self)
                    .replacingOccurrences(of: "\n", with: "\r\n").utf8)))
            }
        }
        for example in RFC5545ExampleTests.examples {
            result.append(("RFC 5545 " + example.name,
                           EventFixture.calendar(["DTSTART;TZID=America/New_York:" + example.start] + example.lines)))
        }
        result.append(("BOM, folds, VTODO, unknown", Array(("\u{FEFF}BEGIN:VCALENDAR\nVERSION:2.0\nX-WR-CALNAME:Fol\n ded\n"
            + "BEGIN:VTODO\nUID:t1\nSUMMARY:Todo\nEND:VTODO\nBEGIN:X-THING\nFOO:bar\nEND:X-THING\n"
            + "BEGIN:VEVENT\nUID:e1\nDTSTART:20240301T100000Z\nSUMMARY:A long\n  folded summary\nEND:VEVENT\nEND:VCALENDAR").utf8)))
        result.append(("read in part", Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:bad\r\nDTSTART:notadate\r\n"
            + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:good\r\nDTSTART:20240301\r\nSUMMARY:Good\r\nEND:VEVENT\r\n"
            + "this is no content line\r\nEND:VCALENDAR\r\n\r\n").utf8)))
        return result
    }

    static let event = NewEvent(summary: "Coffee, with; Ana\\Bo", start: ICalTime(seconds: 1_709_656_200, form: .utc),
                                end: ICalTime(seconds: 1_709_658_900, form: .utc), location: "Café Lisboa")
    static let utc = WritingZone(zone: nil) { _ in 0 }

    /// Add then delete gives back the file byte for byte, and the add changes nothing but
    /// the bytes it inserts.
    @Test func addThenDeleteIsTheOriginal() throws {
        for (name, data) in Self.files {
            let added = try EventWrite.adding(Self.event, uid: "new@test", stamp: 1_700_000_000, zone: Self.utc, to: data)
            #expect(added.count > data.count, "\(name)")
            let reread = EventReader.read(added)
            #expect(reread.events.contains { $0.uid == "new@test" && $0.summary == "Coffee, with; Ana\\Bo" }, "\(name)")
            #expect(reread.events.count == EventReader.read(data).events.count + 1, "\(name)")
            let back = try EventWrite.deleting("new@test", occurrence: nil, stamp: 1_700_000_000, in: added)
            #expect(back == data, "\(name)")
        }
    }

    /// An edit changes only lines of that event: every line outside it is the same, in order.
    @Test func editChangesOnlyThatEvent() throws {
        for (name, data) in Self.files {
            let layout = ICalLayout(data)
            guard let span = layout.spans.first(where: { $0.name == "VEVENT" && $0.uid != nil && $0.end != nil }),
                  let uid = span.uid, let range = layout.range(of: span) else { continue }
            var changes = EventChanges()
            changes.summary = "Renamed"
            let edited = try #require(try EventWrite.editing(uid, occurrence: nil, changes: changes, stamp: 1_700_000_000,
                                                              zone: Self.utc, in: data), "\(name)")
            #expect(Array(edited[..<range.lowerBound]) == Array(data[..<range.lowerBound]), "\(name)")
            let tail = data.count - range.upperBound
            #expect(Array(edited.suffix(tail)) == Array(data.suffix(tail)), "\(name)")
            let newLayout = ICalLayout(edited)
            let newSpan = try #require(newLayout.components(uid: uid).first)
            let names = newLayout.ownLines(of: newSpan).map(\.line.name)
            #expect(names.filter { $0 == "SUMMARY" }.count == 1)
            #expect(names.contains("DTSTAMP") && names.contains("LAST-MODIFIED") && names.contains("SEQUENCE"))
        }
    }

    /// Alarms, attendees with unknown parameters, X- properties and the folds of lines the
    /// edit does not touch stay byte for byte; SEQUENCE goes up by one.
    @Test func untouchedPropertiesStayByteForByte() throws {
        let kept = ["ATTENDEE;CN=\"Ana, B\";X-UNKNOWN=1;RSVP=TRUE:mailto:ana@example.com",
                    "X-MOZ-SNOOZE:20240101T000000Z",
                    "CATEGORIES:A,B",
                    "DESCRIPTION:first part\r\n  second part"]
        let text = (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "SEQUENCE:3", "DTSTAMP:20200101T000000Z",
                     "DTSTART;TZID=Europe/Berlin:20240312T100000", "DTEND;TZID=Europe/Berlin:20240312T103000",
                     "SUMMARY:Old"] + kept + ["BEGIN:VALARM", "ACTION:DISPLAY", "SUMMARY:alarm", "TRIGGER:-PT15M", "END:VALARM",
                                              "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        var changes = EventChanges()
        changes.summary = "New"
        changes.day = CivilDay(year: 2024, month: 3, day: 14)
        let edited = try #require(try EventWrite.editing("x", occurrence: nil, changes: changes, stamp: 1_700_000_000,
                                                          zone: Self.utc, in: Array(text.utf8)))
        let result = String(decoding: edited, as: UTF8.self)
        for line in kept { #expect(result.contains(line + "\r\n"), "\(line)") }
        #expect(result.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nSUMMARY:alarm\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"))
        #expect(result.contains("SEQUENCE:4\r\n"))
        #expect(result.contains("DTSTAMP:20231114T221320Z\r\n") && result.contains("LAST-MODIFIED:20231114T221320Z\r\n"))
        #expect(result.contains("DTSTART;TZID=Europe/Berlin:20240314T100000\r\n"))
        #expect(result.contains("DTEND;TZID=Europe/Berlin:20240314T103000\r\n"))
        #expect(result.contains("SUMMARY:New\r\n") && !result.contains("SUMMARY:Old"))
    }

    /// RFC 5545 §3.3.11: backslash, semicolon, comma and line breaks are escaped; §3.1: lines
    /// are at most 75 octets and a fold never splits a UTF-8 character.
    @Test func escapingAndFolding() {
        // The RFC's own example of an escaped newline (§3.3.11).
        #expect(ICalText.escaped("Project XYZ Final Review\nConference Room - 3B\nCome Prepared.")
                == "Project XYZ Final Review\\nConference Room - 3B\\nCome Prepared.")
        #expect(ICalText.escaped("a\\b;c,d\r\ne") == "a\\\\b\\;c\\,d\\ne")
        for text in [String(repeating: "é", count: 200), String(repeating: "a", count: 74) + "日本語" + String(repeating: "😀", count: 40),
                     String(repeating: "x", count: 75), String(repeating: "x", count: 76)] {
            let folded = ICalText.folded("SUMMARY:" + text, end: .crlf)
            var physical: [[UInt8]] = [[]]
            var index = 0
            while index < folded.count {
                if folded[index] == 0x0D, index + 1 < folded.count, folded[index + 1] == 0x0A {
                    physical.append([])
                    index += 2
                } else {
                    physical[physical.count - 1].append(folded[index])
                    index += 1
                }
            }
            #expect(physical.last == [])
            for line in physical.dropLast() {
                #expect(line.count <= 75)
                #expect(String(validating: line, as: UTF8.self) != nil, "a fold split a character")
            }
            let unfolded = physical.dropLast().enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
            #expect(String(decoding: unfolded, as: UTF8.self) == "SUMMARY:" + text)
        }
    }

    /// LF is kept only when every line uses it; anything else writes CRLF.
    @Test func lineEnds() {
        #expect(ICalText.lineEnd(of: Array("A\nB\n".utf8)) == .lf)
        #expect(ICalText.lineEnd(of: Array("A\r\nB\n".utf8)) == .crlf)
        #expect(ICalText.lineEnd(of: Array("A\nB\r\n".utf8)) == .crlf)
        #expect(ICalText.lineEnd(of: Array("A".utf8)) == .crlf)
        let added = try? EventWrite.adding(Self.event, uid: "u", stamp: 0, zone: Self.utc, to: Array("BEGIN:VCALENDAR\nEND:VCALENDAR\n".utf8))
        #expect(added.map { !$0.contains(0x0D) } == true)
    }

    /// A component without END is refused, and the file is not touched.
    @Test func refusesWhatCannotBeCutOut() {
        let data = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:open\r\nDTSTART:20240101\r\n".utf8)
        #expect(throws: CalendarEdit.Refusal.self) { try EventWrite.deleting("open", occurrence: nil, stamp: 0, in: data) }
        #expect(throws: CalendarEdit.Refusal.self) { try EventWrite.adding(Self.event, uid: "u", stamp: 0, zone: Self.utc, to: data) }
        #expect((try? EventWrite.deleting("absent", occurrence: nil, stamp: 0, in: data)) == .some(nil))
    }

    /// One occurrence: deleting it adds an EXDATE in DTSTART's form; editing it adds an
    /// override with RECURRENCE-ID after the master; the reader then shows the change.
    @Test func occurrences() throws {
        let data = EventFixture.calendar(["DTSTART;TZID=America/New_York:20240102T090000", "DTEND;TZID=America/New_York:20240102T100000",
                                          "RRULE:FREQ=DAILY;COUNT=5"])
        let third = CivilDay(year: 2024, month: 1, day: 4)
        let deleted = try #require(try EventWrite.deleting("test", occurrence: third, stamp: 0, in: data))
        #expect(String(decoding: deleted, as: UTF8.self).contains("EXDATE;TZID=America/New_York:20240104T090000\r\n"))
        #expect(EventFixture.starts(deleted, from: 2024, to: 2024)
                == ["2024-01-02T09:00", "2024-01-03T09:00", "2024-01-05T09:00", "2024-01-06T09:00"])
        var changes = EventChanges()
        changes.summary = "Moved"
        changes.time = (start: 14 * 3600, end: 15 * 3600)
        let newYork = WritingZone(zone: TimeZone(identifier: "America/New_York")) { EventFixture.newYork.offset($0) }
        let edited = try #require(try EventWrite.editing("test", occurrence: third, changes: changes, stamp: 0, zone: newYork, in: data))
        let text = String(decoding: edited, as: UTF8.self)
        #expect(text.contains("RECURRENCE-ID;TZID=America/New_York:20240104T090000\r\n"))
        #expect(EventFixture.starts(edited, from: 2024, to: 2024)
                == ["2024-01-02T09:00", "2024-01-03T09:00", "2024-01-04T14:00", "2024-01-05T09:00", "2024-01-06T09:00"])
        // Deleting the whole event takes its override too, and gives back the original.
        let gone = try #require(try EventWrite.deleting("test", occurrence: nil, stamp: 0, in: edited))
        #expect(!String(decoding: gone, as: UTF8.self).contains("BEGIN:VEVENT"))
        #expect(throws: CalendarEdit.Refusal.self) {
            try EventWrite.deleting("test", occurrence: CivilDay(year: 2024, month: 2, day: 1), stamp: 0, in: data)
        }
    }

    /// The VTIMEZONE written for a zone gives the zone's offsets (Foundation, the oracle
    /// here, is what the times were made with) at every hour of the years it covers.
    @Test func timeZoneCoversItsSpan() throws {
        for name in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "America/Sao_Paulo", "Pacific/Apia"] {
            let zone = try #require(TimeZone(identifier: name))
            let start = 1_262_304_000 // 2010-01-01
            let lines = TimeZoneText.lines(for: zone, from: start, through: nil)
            let calendar = (["BEGIN:VCALENDAR"] + lines + ["BEGIN:VEVENT", "UID:z", "DTSTART;TZID=\(name):20100101T000000", "END:VEVENT",
                                                           "END:VCALENDAR"]).joined(separator: "\r\n")
            let document = ICalDocument.parse(Array(calendar.utf8))
            let definition = try #require(document.components.first?.children.first { $0.name == "VTIMEZONE" })
            let rules = try #require(VTimeZoneRules(definition, document: document))
            var utc = start
            while utc < start + 40 * 31_556_952 {
                #expect(rules.offset(atUTC: utc) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))),
                        "\(name) at \(utc)")
                utc += 7 * 3600 + 1013
            }
        }
    }
}
