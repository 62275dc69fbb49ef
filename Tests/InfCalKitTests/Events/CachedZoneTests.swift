import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// A Foundation zone read from a cache carries its changes of offset for the years the cache
/// stores; its occurrences are those reading the file gives (Foundation's offsets, the oracle),
/// inside those years and beyond them on both sides.
@Suite struct CachedZoneTests {
    @Test func aCachedZoneShowsWhatFoundationShows() throws {
        let bytes = EventFixture.calendar(["DTSTART;TZID=Europe/Berlin:19500326T023000", "DURATION:PT1H",
                                           "RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=600"])
        let fresh = EventReader.read(bytes)
        let decoded = try #require(EventCacheFormatTests.decoded(EventCacheFormatTests.encoded(bytes), window: nil))
        let events = decoded.flatMap(\.file.events)
        let zone = try #require(events.first?.zone)
        guard case .named("Europe/Berlin") = zone.source else {
            Issue.record("the cached zone is \(zone.source), not named")
            return
        }
        // The changes of offset fall on these days: 02:30 is skipped in March, repeated in October.
        for year in [1950, 1989, 1990, 1991, 2024, 2058, 2059, 2060, 2061, 2249] {
            let days = EventFixture.day(year, 1, 1)..<EventFixture.day(year + 1, 1, 1)
            let expected = EventStore(events: fresh.events, display: .utc).occurrences(startingOn: days).map { EventFixture.text($0.start) }
            let shown = EventStore(events: events, display: .utc).occurrences(startingOn: days).map { EventFixture.text($0.start) }
            #expect(shown == expected, "\(year)")
            #expect(expected.count == 2, "\(year): \(expected)")
        }
    }

    @Test func storedChangesThatAreNotRunsAreRefused() {
        let zone = EventZone(.named("Europe/Berlin"))
        #expect(!zone.store([], of: 0..<1))
        #expect(!zone.store([0, 3600], of: 0..<1), "no change at all")
        #expect(!zone.store([2, 3600, 100], of: 0..<1), "a change without its offset")
        #expect(!zone.store([1, 3600, 1, 7200], of: 0..<1), "more than one span")
        #expect(!zone.store([2, 3600, 40_000_000, 7200], of: 0..<1), "a change outside its span")
        #expect(EventZone(.named("Europe/Berlin")).store([2, 3600, 7_700_000, 7200], of: 0..<1))
    }
}
