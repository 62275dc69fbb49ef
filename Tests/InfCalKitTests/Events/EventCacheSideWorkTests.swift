import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// The table of occurrences and the zones' changes of offset built apart, from copies of the
/// recurring events and fresh zones (`EventCacheFormat.sideWork`, as a cache's writing builds
/// them on another thread), give the cache byte for byte that building them from the files'
/// own events and zones gives, for every calendar text of the cache's tests and the
/// recurring-ical-events fixtures, in tables around several years. The oracle is the layout
/// built from the events that reading gave (the path the format's tests check against the
/// reader), not from copies.
@Suite struct EventCacheSideWorkTests {
    /// Rules whose copies must keep everything that shapes their instances: EXDATE (dates and
    /// times), RDATE with a period, EXRULE, COUNT and UNTIL, an override, a series moved
    /// from an instance on (RANGE=THISANDFUTURE), several RRULEs, a zone with changes of clock.
    static let shaped = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:weekly
        DTSTART;TZID=Europe/Berlin:20230306T093000
        DTEND;TZID=Europe/Berlin:20230306T100000
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20250630T000000Z
        EXDATE;TZID=Europe/Berlin:20230309T093000,20240325T093000
        RDATE;VALUE=PERIOD:20240601T120000Z/PT3H
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20230313T093000
        DTSTART;TZID=Europe/Berlin:20230314T150000
        DTEND;TZID=Europe/Berlin:20230314T160000
        END:VEVENT
        BEGIN:VEVENT
        UID:monthly
        DTSTART:20221231T200000Z
        DURATION:PT45M
        RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=30
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=12
        EXRULE:FREQ=MONTHLY;BYMONTH=6,12;BYDAY=2TU
        END:VEVENT
        BEGIN:VEVENT
        UID:daily
        DTSTART;VALUE=DATE:20240227
        RRULE:FREQ=DAILY;COUNT=400
        EXDATE;VALUE=DATE:20240229,20240301
        END:VEVENT
        BEGIN:VEVENT
        UID:moved
        DTSTART:20230102T080000Z
        DURATION:PT1H
        RRULE:FREQ=WEEKLY;INTERVAL=2
        END:VEVENT
        BEGIN:VEVENT
        UID:moved
        RECURRENCE-ID;RANGE=THISANDFUTURE:20240101T080000Z
        DTSTART:20240103T100000Z
        DURATION:PT2H
        END:VEVENT
        BEGIN:VEVENT
        UID:birthday
        DTSTART;VALUE=DATE:19800229
        RRULE:FREQ=YEARLY
        END:VEVENT
        END:VCALENDAR

        """

    static var texts: [(name: String, bytes: [UInt8])] {
        var texts = EventCacheFormatTests.corpus
        texts.append(("shaped", Array(shaped.utf8)))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/recurring-ical-events")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()) ?? [] where name.hasSuffix(".ics") {
            if let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(name).path) {
                texts.append((name, [UInt8](data)))
            }
        }
        return texts
    }

    static func bytes(of layout: CacheLayout) -> [UInt8] {
        var pieces: [(offset: Int, bytes: [UInt8])] = []
        #expect(EventCacheFormat.encode(layout, into: { bytes, offset in pieces.append((offset, Array(bytes))) }))
        var whole = [UInt8](repeating: 0, count: pieces.map { $0.offset + $0.bytes.count }.max() ?? 0)
        for piece in pieces { whole.replaceSubrange(piece.offset..<(piece.offset + piece.bytes.count), with: piece.bytes) }
        return whole
    }

    @Test func whatIsBuiltApartGivesTheSameCache() throws {
        var (tables, zones) = (0, 0)
        for (name, text) in Self.texts {
            for year in [1998, 2024, 2026] {
                let years = EventCacheFormat.occurrenceYears(around: year)
                // Read twice: each path has events no other has used.
                let own = [(name: name, file: EventReader.read(text))]
                let expected = Self.bytes(of: EventCacheFormat.layout(source: "/c/" + name, key: EventCacheFormatTests.key,
                                                                      files: own, occurrenceYears: years))
                let files = [(name: name, file: EventReader.read(text))]
                guard let work = EventCacheFormat.sideWork(of: files, years: years) else {
                    // Only where nothing recurs and no zone is Foundation's, or a rule counts in
                    // another calendar.
                    let events = files.flatMap(\.file.events)
                    #expect(!events.contains { $0.isRecurring || $0.zone?.foundationIdentifier != nil } || events.contains { event in
                        (event.expanders + event.exclusionRules).contains { !($0.scale is GregorianScale) }
                    }, "\(name): no table source")
                    continue
                }
                let results = EventCacheFormat.results(of: work)
                if let table = results.table, !table.instances.isEmpty { tables += 1 }
                zones += results.zoneRuns.count
                let built = Self.bytes(of: EventCacheFormat.layout(source: "/c/" + name, key: EventCacheFormatTests.key,
                                                                   files: files) { results })
                let same = built == expected
                #expect(same, "\(name), years \(years): the caches differ")
            }
        }
        #expect(tables > 10, "too few tables with instances to compare")
        #expect(zones > 10, "too few zones' changes built apart to compare")
    }

    /// A copy shares no expander with its event, and keeps no text.
    @Test func aCopyHasFreshExpanders() throws {
        let event = try #require(EventReader.read(Array(Self.shaped.utf8)).events.first { $0.uid == "monthly" })
        _ = event.instances(in: 0..<Int(Int32.max))
        let copy = try #require(event.instanceCopy())
        #expect(copy.expanders.count == 2 && copy.exclusionRules.count == 1)
        #expect(zip(copy.expanders + copy.exclusionRules, event.expanders + event.exclusionRules).allSatisfy { $0 !== $1 })
        #expect((copy.expanders + copy.exclusionRules).allSatisfy { $0.cachedBatch == nil && $0.knownCountEnd == nil })
        #expect(copy.instances(in: 0..<Int(Int32.max)).elementsEqual(event.instances(in: 0..<Int(Int32.max))) { $0 == $1 })
        #expect(copy.uid.isEmpty && copy.zone == nil)
    }
}
