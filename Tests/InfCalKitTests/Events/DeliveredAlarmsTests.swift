import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// The record of delivered alarms: its text round-trips (any calendar name or UID), a damaged
/// one is refused, pruning keeps what it forgets done, and what is due follows from the
/// horizon, the record and ACKNOWLEDGED.
@Suite struct DeliveredAlarmsTests {
    static let now = 1_718_000_000

    @Test func theTextRoundTrips() throws {
        let hostile = ["", "tab\there", "line\nbreak", "carriage\r\nreturn", "back\\slash\\t", "ünïcode 日本", "\\", "trailing\\"]
        var state = DeliveredAlarms.firstRun(now: Self.now)
        for (number, text) in hostile.enumerated() {
            state.delivered[AlarmKey(calendar: text, uid: text + "-uid", occurrence: -number, alarm: "uid:" + text, repetition: number)] = Self.now - number
        }
        let bytes = Array(state.text.utf8)
        #expect(DeliveredAlarms(parsing: bytes) == state)
        #expect(state.text.split(separator: "\n").count == 2 + hostile.count, "one line a firing, whatever its texts hold")
        #expect(DeliveredAlarms(parsing: Array(DeliveredAlarms.firstRun(now: Self.now).text.utf8)) == .firstRun(now: Self.now))
    }

    @Test(arguments: ["", "infcal delivered alarms 2\nhorizon 0\n", "infcal delivered alarms 1\nhorizon x\n",
                      "infcal delivered alarms 1\nhorizon 0", "infcal delivered alarms 1\nhorizon 0\n1\t2\t3\ta\tb\n",
                      "infcal delivered alarms 1\nhorizon 0\n1\t2\t3\ta\tb\tc\\q\n", "infcal delivered alarms 1\nhorizon 0\nx\t2\t3\ta\tb\tc\n"])
    func damagedTextIsRefused(_ text: String) {
        #expect(DeliveredAlarms(parsing: Array(text.utf8)) == nil)
    }

    /// What fired more than six weeks ago is forgotten, and the horizon moves there, so that it
    /// still counts as done.
    @Test func pruningKeepsWhatItForgetsDone() {
        let old = AlarmKey(calendar: "c", uid: "old", occurrence: 0, alarm: "#0", repetition: 0)
        let recent = AlarmKey(calendar: "c", uid: "recent", occurrence: 0, alarm: "#0", repetition: 0)
        let oldTime = Self.now - DeliveredAlarms.keptFor - 1
        var state = DeliveredAlarms(horizon: Self.now - 100 * 86_400, delivered: [old: oldTime, recent: Self.now - 60])
        state.prune(now: Self.now)
        #expect(state.delivered == [recent: Self.now - 60])
        #expect(state.horizon == Self.now - DeliveredAlarms.keptFor)
        #expect(state.isDone(old, fires: oldTime) && state.isDone(recent, fires: Self.now - 60))
        let unknown = AlarmKey(calendar: "c", uid: "new", occurrence: 0, alarm: "#0", repetition: 0)
        #expect(!state.isDone(unknown, fires: Self.now - 60))
    }

    /// Due: at or after the horizon, not recorded, not acknowledged in the calendar.
    @Test func whatIsDue() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:e
            DTSTART:20240610T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT30M
            REPEAT:2
            DURATION:PT10M
            ACKNOWLEDGED:20240610T093000Z
            END:VALARM
            END:VEVENT
            END:VCALENDAR
            """
        let store = EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
        let nine = CivilTime.day(year: 2024, month: 6, day: 10) * 86_400 + 9 * 3600
        let found = AlarmSchedule(store: store).firing(from: nine, until: nine + 3600)
        #expect(found.count == 3)
        var state = DeliveredAlarms.firstRun(now: nine + 45 * 60)
        // 09:30 acknowledged; 09:40 and 09:50 after the horizon (09:35).
        #expect(found.map { state.isDue($0) } == [false, true, true])
        state.record(found[1])
        #expect(found.map { state.isDue($0) } == [false, false, true])
    }
}
