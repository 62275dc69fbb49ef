import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The lines of a month page's day cell: order, times first, `…` and `+N more`.
@Suite struct DayCellEventsTests {
    static let day = EventFixture.day(2024, 4, 2)
    static func at(_ hour: Int, _ minute: Int = 0, day: Int = day) -> Int {
        (day + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay + hour * 3600 + minute * 60
    }
    static func timed(_ summary: String, _ hour: Int, minutes: Int = 60) -> Occurrence {
        Occurrence(summary: summary, calendarName: nil, isAllDay: false, start: at(hour), end: at(hour) + minutes * 60)
    }
    static let holiday = Occurrence(summary: "Holiday", calendarName: nil, isAllDay: true, start: at(0), end: at(0, day: day + 1))
    /// From the evening before to noon: a timed event over two days.
    static let overnight = Occurrence(summary: "Night shift", calendarName: nil, isAllDay: false,
                                      start: at(22, day: day - 1), end: at(12))

    @Test func allDayAndMultiDayFirstThenTimesFirst() {
        let lines = DayCellEvents.lines([Self.timed("Standup", 9), Self.timed("Lunch", 12), Self.overnight, Self.holiday],
                                        day: Self.day, width: 20, height: 5)
        #expect(lines == ["Night shift", "Holiday", "09:00 Standup", "12:00 Lunch"])
    }

    @Test func summariesAreCutWithAnEllipsis() {
        let lines = DayCellEvents.lines([Self.timed("Quarterly planning", 9)], day: Self.day, width: 12, height: 3)
        #expect(lines == ["09:00 Quart…"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 12 })
        // Wide characters: two cells each, never half of one.
        let wide = DayCellEvents.lines([Self.timed("会議の準備", 9)], day: Self.day, width: 10, height: 1)
        #expect(wide == ["09:00 会…"])
    }

    /// The last line holds one more name and the count of the rest while two characters of
    /// the name fit beside the count (its time gives way first); only then a count alone.
    @Test func moreThanFitEndsWithANameAndACount() {
        let events = (8..<14).map { Self.timed("Meeting \($0)", $0) }
        #expect(DayCellEvents.lines(events, day: Self.day, width: 20, height: 3) == ["08:00 Meeting 8", "09:00 Meeting 9", "10:00 Meeting 10 +3"])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 20, height: 6).count == 6)
        #expect(DayCellEvents.lines(events, day: Self.day, width: 20, height: 1) == ["08:00 Meeting 8 +5"])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 10, height: 1) == ["Meetin… +5"])
        let rosa = Occurrence(summary: "Rosa Parks Day", calendarName: nil, isAllDay: true, start: Self.at(0), end: Self.at(0, day: Self.day + 1))
        #expect(DayCellEvents.lines([rosa, Self.timed("Lunch", 12)], day: Self.day, width: 10, height: 1) == ["Rosa P… +1"])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 6, height: 1) == ["Me… +5"])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 5, height: 1) == ["+6"])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 0, height: 4) == [])
        #expect(DayCellEvents.lines(events, day: Self.day, width: 10, height: 0) == [])
    }

    @Test func controlCharactersAndEmptySummaries() {
        let lines = DayCellEvents.lines([Self.timed("a\u{1B}[2Jb", 9), Self.timed("", 10)], day: Self.day, width: 30, height: 3)
        #expect(lines == ["09:00 a [2Jb", "10:00 (no title)"])
    }
}
