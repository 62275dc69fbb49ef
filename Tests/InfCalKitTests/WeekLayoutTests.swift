import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender

/// A week's events in a fixed zone (UTC), laid out by hand-checked arithmetic: the rows of
/// each time (a row a half-hour: 09:00 is row 18), the lanes of overlapping events, the hours
/// chosen for a height, the band. The zones' changes of offset are checked against Python's
/// zoneinfo in `WeekOracleTests`. Dates and weekdays: 2024-02-12 is a Monday (`cal 2 2024`).
@Suite struct WeekLayoutTests {
    /// 2024-02-12, a Monday, as a grid day number.
    static let monday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 2, day: 12))
    static let week = Array(monday..<(monday + 7))

    /// A timed occurrence in UTC, `day` days after the Monday, from `from` to `to` ("HH:MM";
    /// `to` may be on a later day with `days`).
    static func timed(_ summary: String, day: Int, _ from: String, _ to: String, days: Int = 0) -> Occurrence {
        func seconds(_ text: String) -> Int {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            return parts[0] * 3600 + parts[1] * 60
        }
        let midnight = CivilTime.day(ofGrid: monday + day) * CivilTime.secondsPerDay
        var occurrence = Occurrence(summary: summary, calendarName: nil, isAllDay: false, start: midnight + seconds(from),
                                    end: midnight + days * CivilTime.secondsPerDay + seconds(to))
        occurrence.startOffset = 0
        occurrence.endOffset = 0
        return occurrence
    }

    /// An all-day occurrence from `day` for `count` days.
    static func allDay(_ summary: String, day: Int, count: Int = 1) -> Occurrence {
        let midnight = CivilTime.day(ofGrid: monday + day) * CivilTime.secondsPerDay
        return Occurrence(summary: summary, calendarName: nil, isAllDay: true, start: midnight, end: midnight + count * CivilTime.secondsPerDay)
    }

    static func layout(_ occurrences: [Occurrence], hours: Range<Int> = 0..<24, top: Int? = nil, height: Int = 60) -> WeekLayout {
        WeekLayout(days: week, zone: .utc, occurrences: occurrences, hours: hours, top: top, height: height)
    }

    /// The block of `summary` in `column`.
    static func block(_ layout: WeekLayout, _ summary: String, column: Int) -> WeekLayout.Block? {
        layout.blocks.first { layout.occurrences[$0.occurrence].summary == summary && $0.column == column }
    }

    @Test func halfHourRowsWhereTheyFit() throws {
        let layout = Self.layout([Self.timed("Plan", day: 1, "09:00", "10:30")])
        #expect(layout.step == 30 && layout.hours == 0..<24 && layout.rows.count == 48)
        #expect(layout.rows[18] == WeekLayout.Row(minute: 540, fold: 0))
        let plan = try #require(Self.block(layout, "Plan", column: 1))
        // 09:00, 09:30 and 10:00: the rows its half-hours start in; it ends at 10:30.
        #expect((plan.firstRow, plan.lastRow, plan.lane, plan.lanes) == (18, 20, 0, 1))
        #expect(!plan.clippedAbove && !plan.clippedBelow && !plan.fromPreviousDay && !plan.toNextDay)
        #expect(layout.present.allSatisfy { $0.allSatisfy { $0 } })
        #expect(layout.clocks.allSatisfy { $0.end - $0.start == CivilTime.secondsPerDay && $0.slots.count == 48 })
    }

    /// Where half-hours of the hours wanted do not fit, hours; the hours wanted widened by
    /// turns, later first, to fill the rows; where even hours do not fit, as many as fit
    /// around the working day's middle (13:00); from a first hour given, as many as fit,
    /// earlier ones where the day's end comes first.
    @Test(arguments: [(8..<18, nil, 20, 30, 8..<18), (8..<18, nil, 19, 60, 4..<23), (9..<12, nil, 6, 30, 9..<12),
                      (0..<24, nil, 10, 60, 8..<18), (0..<24, nil, 3, 60, 12..<15), (8..<18, 20, 10, 60, 14..<24),
                      (8..<18, 2, 10, 60, 2..<12), (8..<18, nil, 60, 30, 0..<24)] as [(Range<Int>, Int?, Int, Int, Range<Int>)])
    func theHoursShown(wanted: Range<Int>, top: Int?, height: Int, step: Int, shown: Range<Int>) {
        let layout = Self.layout([], hours: wanted, top: top, height: height)
        #expect(layout.step == step)
        #expect(layout.hours == shown)
        #expect(layout.rows.count == shown.count * 60 / step)
        #expect(layout.rows.first?.minute == shown.lowerBound * 60)
    }

    /// Blocks whose rows meet share the column: each cluster has the lanes it uses at most at
    /// once, each block the lowest lane free when it starts (the longer first).
    @Test func overlapsShareTheColumn() throws {
        let layout = Self.layout([Self.timed("Long", day: 1, "09:00", "11:00"), Self.timed("Short", day: 1, "09:30", "10:00"),
                                  Self.timed("Later", day: 1, "10:30", "12:00"), Self.timed("Lunch", day: 1, "12:00", "13:00"),
                                  Self.timed("Same start", day: 1, "09:00", "09:30")])
        func place(_ summary: String) throws -> (Int, Int) {
            let block = try #require(Self.block(layout, summary, column: 1))
            return (block.lane, block.lanes)
        }
        // Long (09:00-11:00) first, the longer of the two at 09:00; Same start beside it; Short
        // (09:30) in the lane Same start left, Later (10:30) in it after Short: two lanes.
        #expect(try place("Long") == (0, 2))
        #expect(try place("Same start") == (1, 2))
        #expect(try place("Short") == (1, 2))
        #expect(try place("Later") == (1, 2))
        // Lunch starts where Later ends: its own cluster.
        #expect(try place("Lunch") == (0, 1))
    }

    @Test func pastMidnightGoesOnInTheNextColumn() throws {
        let layout = Self.layout([Self.timed("Night train", day: 3, "22:00", "02:00", days: 1)])
        let first = try #require(Self.block(layout, "Night train", column: 3))
        let second = try #require(Self.block(layout, "Night train", column: 4))
        #expect((first.firstRow, first.lastRow, first.toNextDay, first.fromPreviousDay) == (44, 47, true, false))
        #expect((second.firstRow, second.lastRow, second.toNextDay, second.fromPreviousDay) == (0, 3, false, true))
        #expect(layout.band.isEmpty)
    }

    /// Events before and after the hours shown are counted in their columns; one the hours cut
    /// says so; one of no length takes the row of its instant.
    @Test func theEdgesOfTheHours() throws {
        let layout = Self.layout([Self.timed("Early", day: 0, "06:00", "07:00"), Self.timed("Late", day: 0, "20:00", "21:00"),
                                  Self.timed("Across", day: 2, "07:00", "09:00"), Self.timed("Reminder", day: 2, "12:00", "12:00")],
                                 hours: 8..<18, height: 10)
        #expect(layout.hours == 8..<18 && layout.step == 60)
        #expect(layout.above == [1, 0, 0, 0, 0, 0, 0])
        #expect(layout.below == [1, 0, 0, 0, 0, 0, 0])
        let across = try #require(Self.block(layout, "Across", column: 2))
        #expect((across.firstRow, across.lastRow, across.clippedAbove, across.clippedBelow) == (0, 0, true, false))
        let reminder = try #require(Self.block(layout, "Reminder", column: 2))
        #expect((reminder.firstRow, reminder.lastRow) == (4, 4))
    }

    /// All-day events and those of 24 hours or more go in the band, one line each, lines shared
    /// where their days do not meet; where the height gives the band fewer lines than it
    /// needs, its last line counts the rest in each column.
    @Test func theBand() throws {
        // In order of start, as the store gives them.
        let occurrences = [Self.allDay("Before", day: -2, count: 3), Self.allDay("Holiday", day: 0), Self.allDay("Conference", day: 1, count: 3),
                           Self.timed("Retreat", day: 2, "12:00", "12:00", days: 3), Self.allDay("Trip", day: 5, count: 4)]
        let roomy = Self.layout(occurrences, height: 60)
        func item(_ layout: WeekLayout, _ summary: String) -> WeekLayout.BandItem? {
            layout.band.first { layout.occurrences[$0.occurrence].summary == summary }
        }
        #expect(roomy.bandLines == 2 && roomy.bandHidden == [0, 0, 0, 0, 0, 0, 0])
        let before = try #require(item(roomy, "Before"))
        #expect((before.firstColumn, before.lastColumn, before.line, before.startsBefore, before.endsAfter) == (0, 0, 0, true, false))
        #expect(item(roomy, "Holiday")?.line == 1)
        #expect(item(roomy, "Conference").map { ($0.firstColumn, $0.lastColumn, $0.line) } ?? (0, 0, 0) == (1, 3, 0))
        #expect(item(roomy, "Retreat").map { ($0.firstColumn, $0.lastColumn, $0.line) } ?? (0, 0, 0) == (2, 5, 1))
        #expect(item(roomy, "Trip").map { ($0.firstColumn, $0.lastColumn, $0.line, $0.endsAfter) } ?? (0, 0, 0, false) == (5, 6, 0, true))
        #expect(roomy.blocks.isEmpty)
        // Seven lines: a band of one, which counts.
        let tight = Self.layout(occurrences, height: 7)
        #expect(tight.bandLines == 1 && tight.band.isEmpty)
        #expect(tight.bandHidden == [2, 1, 2, 2, 1, 2, 1])
        #expect(tight.rows.count == 5)
    }

    /// The hours of the events, widened to eight by turns (later first), 8 to 18 without any.
    @Test func workingHours() {
        func hours(_ occurrences: [Occurrence]) -> Range<Int> {
            WeekLayout.workingHours(days: Self.week, zone: .utc, occurrences: occurrences)
        }
        #expect(hours([]) == 8..<18)
        #expect(hours([Self.allDay("Holiday", day: 0)]) == 8..<18)
        #expect(hours([Self.timed("A", day: 0, "09:00", "17:30"), Self.timed("B", day: 3, "07:15", "08:00")]) == 7..<18)
        #expect(hours([Self.timed("A", day: 0, "10:00", "12:00")]) == 7..<15)
        #expect(hours([Self.timed("Late", day: 0, "20:00", "23:00")]) == 16..<24)
        #expect(hours([Self.timed("Night", day: 6, "22:00", "02:00", days: 1)]) == 16..<24)
    }

    /// A day a zone skipped (Pacific/Apia went from 29 to 31 December 2011, zoneinfo) has no
    /// clock: its column is all rows it lacks, and an event of the days around it is placed.
    @Test func aDayTheZoneSkipped() throws {
        let apia = DisplayZone(try #require(TimeZone(identifier: "Pacific/Apia")))
        let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2011, month: 12, day: 29))
        let clock = DayClock(day: first + 1, zone: apia, step: 1800)
        #expect(clock.slots.isEmpty && clock.start == clock.end)
        let layout = WeekLayout(days: [first, first + 1, first + 2], zone: apia, occurrences: [], hours: 0..<24, height: 60)
        #expect(layout.present[1].allSatisfy { !$0 } && layout.present[0].allSatisfy { $0 } && layout.present[2].allSatisfy { $0 })
    }

    /// The clock of a day the clocks go forward and back (Europe/Berlin 2024, zoneinfo): 23 and
    /// 25 hours, the skipped hour missing, the repeated one there twice, second as fold 1.
    @Test func dayClocksOfTheChanges() throws {
        let berlin = DisplayZone(try #require(TimeZone(identifier: "Europe/Berlin")))
        let spring = DayClock(day: CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 3, day: 31)), zone: berlin, step: 3600)
        #expect(spring.slots.map(\.minute) == [0, 60] + (3..<24).map { $0 * 60 })
        #expect(spring.end - spring.start == 23 * 3600)
        let autumn = DayClock(day: CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 10, day: 27)), zone: berlin, step: 3600)
        #expect(autumn.slots.map { [$0.minute, $0.fold] } == [[0, 0], [60, 0], [120, 0], [120, 1]] + (3..<24).map { [$0 * 60, 0] })
        #expect(autumn.slots[2].offset == 7200 && autumn.slots[3].offset == 3600)
        // 01:30 UTC is 02:30 the second time.
        #expect(autumn.slot(containing: CivilTime.day(year: 2024, month: 10, day: 27) * 86_400 + 5400) == 3)
    }
}
