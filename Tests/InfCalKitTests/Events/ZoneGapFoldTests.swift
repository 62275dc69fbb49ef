import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Local times a change of offset skips or repeats (RFC 5545 §3.3.5: a time in the gap "is
/// interpreted using the UTC offset before the gap"; one that exists twice is its first
/// occurrence), in an IANA zone through Foundation and in a file's own VTIMEZONE. The oracle is
/// the RFC's rule applied to Europe/Berlin's 2027 changes (28 March 01:00Z, +1 to +2; 31 October
/// 01:00Z, +2 to +1), the dates Python's `zoneinfo` gives for that zone.
@Suite struct ZoneGapFoldTests {
    static let ownZone = ["BEGIN:VTIMEZONE", "TZID:Own Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                          "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                          "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
                          "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"]

    /// The start of the one event, in UTC and as shown in Berlin.
    func start(_ zone: String, _ local: String) -> (utc: String, berlin: String) {
        let data = EventFixture.calendar(["DTSTART;TZID=\(zone):\(local)"], extra: Self.ownZone)
        let utc = EventFixture.starts(data, from: 2027, to: 2027, display: .utc)
        let berlin = EventFixture.starts(data, from: 2027, to: 2027, display: DisplayZone(TimeZone(identifier: "Europe/Berlin") ?? .gmt))
        return (utc.first ?? "none", berlin.first ?? "none")
    }

    @Test(arguments: ["Europe/Berlin", "Own Berlin"])
    func gapTakesTheOffsetBefore(_ zone: String) {
        let found = start(zone, "20270328T023000")
        #expect(found.utc == "2027-03-28T01:30")
        #expect(found.berlin == "2027-03-28T03:30")
    }

    @Test(arguments: ["Europe/Berlin", "Own Berlin"])
    func foldTakesTheFirst(_ zone: String) {
        #expect(start(zone, "20271031T023000").utc == "2027-10-31T00:30")
        // Either side of the changes, the one offset there is.
        #expect(start(zone, "20271031T033000").utc == "2027-10-31T02:30")
        #expect(start(zone, "20271031T013000").utc == "2027-10-30T23:30")
        #expect(start(zone, "20270328T033000").utc == "2027-03-28T01:30")
        #expect(start(zone, "20270328T013000").utc == "2027-03-28T00:30")
    }
}
