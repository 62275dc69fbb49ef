import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender

/// The week drawn: the days that fit a width, every line within it at any size, a golden week
/// in ASCII, the locale's clock, colour only when asked, the JSON form. The rows' times are
/// checked against Python's zoneinfo in `WeekOracleTests`; dates and weekdays here are
/// `cal 2 2024`'s (2024-02-12 a Monday).
@Suite struct WeekRendererTests {
    typealias L = WeekLayoutTests
    static let gregorian = MonthCalendar(.gregorian)

    static func renderer(firstWeekday: Int = 2, locale: Locale? = nil, box: BoxCharacters = .ascii,
                         clock: WeekClock = .twentyFourHour) -> WeekRenderer {
        var month = MonthRenderer(names: CalendarNames(locale: locale, calendar: gregorian), calendar: gregorian, firstWeekday: firstWeekday)
        month.attributes = .pager
        return WeekRenderer(renderer: month, box: box, clock: clock)
    }

    /// The week's events of `WeekLayoutTests`' kinds, in order of start, one in a calendar with
    /// a colour, one with a summary of wide characters.
    static let occurrences: [Occurrence] = {
        var list = [L.allDay("Holiday", day: 0), L.allDay("Conference", day: 1, count: 3), L.timed("Plan", day: 1, "09:00", "10:30"),
                    L.timed("Review with the whole team", day: 1, "09:30", "11:00"), L.timed("Lunch", day: 1, "12:00", "13:00"),
                    L.timed("Night train", day: 3, "22:00", "02:00", days: 1), L.timed("東京の会議 (Tokyo meeting)", day: 4, "15:00", "16:00"),
                    L.timed("Early", day: 5, "06:00", "07:00")]
        list[2].color = .indexed(2)
        return list
    }()

    /// 7 days from the first weekday where a column gets 8 cells, else 3 around the selected
    /// day, else the day alone, else none.
    @Test(arguments: [(200, 7), (80, 7), (71, 7), (70, 3), (60, 3), (35, 3), (34, 1), (15, 1), (14, 0)])
    func daysThatFit(width: Int, count: Int) {
        let renderer = Self.renderer()
        #expect(renderer.dayCount(width: width) == (count == 0 ? nil : count))
        #expect(renderer.scaleWidth == 7)
    }

    @Test func whichDays() {
        let thursday = L.monday + 3
        #expect(WeekRenderer.days(count: 7, selected: thursday, firstWeekday: 2) == Array(L.monday..<(L.monday + 7)))
        // Sunday first: the week of Sunday 11 February.
        #expect(WeekRenderer.days(count: 7, selected: thursday, firstWeekday: 1) == Array((L.monday - 1)..<(L.monday + 6)))
        #expect(WeekRenderer.days(count: 7, selected: L.monday - 1, firstWeekday: 2) == Array((L.monday - 7)..<L.monday))
        #expect(WeekRenderer.days(count: 3, selected: thursday, firstWeekday: 2) == [thursday - 1, thursday, thursday + 1])
        #expect(WeekRenderer.days(count: 1, selected: thursday, firstWeekday: 2) == [thursday])
    }

    /// At every size from the smallest up, in ASCII and box drawing, with colour and the
    /// pager's marks: lines as many as the size has, none wider than it; below the smallest
    /// size no layout.
    @Test func everyLineFitsEverySize() {
        for box in [BoxCharacters.ascii, .unicode] {
            var renderer = Self.renderer(box: box)
            (renderer.color, renderer.marks, renderer.today, renderer.selected, renderer.highlighted) = (true, true, L.monday + 1, L.monday + 3, 2)
            renderer.now = CivilTime.day(ofGrid: L.monday + 1) * CivilTime.secondsPerDay + 10 * 3600
            let smallest = renderer.smallestSize
            for width in stride(from: 1, through: 220, by: 3) {
                for rows in [1, 5, 6, 7, 9, 12, 24, 40, 60] {
                    let size = TerminalSize(columns: width, rows: rows)
                    let store = EventStore(events: [], display: .utc)
                    guard let count = renderer.dayCount(width: width), rows >= smallest.rows else {
                        #expect(renderer.layout(selected: L.monday + 3, store: store, zone: nil, hours: nil, top: nil, size: size) == nil)
                        continue
                    }
                    let days = WeekRenderer.days(count: count, selected: L.monday + 3, firstWeekday: 2)
                    let layout = WeekLayout(days: days, zone: .utc, occurrences: Self.occurrences, hours: 8..<18,
                                            height: rows - renderer.fixedLines)
                    let lines = renderer.lines(for: layout, width: width)
                    #expect(lines.count <= rows, "\(width)x\(rows)")
                    for line in lines { #expect(visibleWidth(line) <= width, "\(width)x\(rows): \(line)") }
                }
            }
        }
    }

    /// A week in ASCII at 60 columns: three days around Tuesday 13, hours 8 to 18 in rows of
    /// an hour (their half-hours need 20 rows, the height leaves 14 after the band), widened by
    /// turns, later first, to 14 hours: 6 to 20. Plan (09:00-10:30) takes the rows of 09:00
    /// and 10:00 beside Review (09:30-11:00: the same rows), each in half the column, too
    /// narrow for their times: Review's summary wraps and is cut. Lunch (12:00-13:00) has
    /// room for its time. Early (Saturday) is not among the days; the conference spans the
    /// two columns it has of its three days and goes on after them (`>`).
    @Test func goldenWeekAt60Columns() {
        let renderer = Self.renderer()
        let days = WeekRenderer.days(count: 3, selected: L.monday + 1, firstWeekday: 2)
        let layout = WeekLayout(days: days, zone: .utc, occurrences: Self.occurrences, hours: 8..<18, height: 20 - renderer.fixedLines)
        #expect(renderer.lines(for: layout, width: 60) == [
            "                       February 2024",
            "       |   Monday 12    |   Tuesday 13   |  Wednesday 14  |",
            "-------+----------------+----------------+----------------+",
            "       |Holiday         |Conference                      >|",
            "-------+----------------+----------------+----------------+",
            " 06:00 |                |                |                |",
            " 07:00 |                |                |                |",
            " 08:00 |                |                |                |",
            " 09:00 |                |#Plan   #Review |                |",
            " 10:00 |                |#       #with t…|                |",
            " 11:00 |                |                |                |",
            " 12:00 |                |#12:00 Lunch    |                |",
            " 13:00 |                |                |                |",
            " 14:00 |                |                |                |",
            " 15:00 |                |                |                |",
            " 16:00 |                |                |                |",
            " 17:00 |                |                |                |",
            " 18:00 |                |                |                |",
            " 19:00 |                |                |                |",
            "-------+----------------+----------------+----------------+",
        ])
    }

    /// The locale's clock, as CLDR's preferred hour (`j`) gives it: 12-hour with AM and PM in
    /// the United States (and the mark first in Korean), 24-hour in Britain, Germany and
    /// Japan; the POSIX locale's is 24-hour.
    @Test func theLocalesClock() {
        let us = WeekClock(locale: Locale(identifier: "en_US"))
        #expect(us.isTwelveHour)
        #expect([0, 9 * 60, 12 * 60, 21 * 60 + 30].map(us.time) == ["12 AM", "9 AM", "12 PM", "9:30 PM"])
        for identifier in ["en_GB", "de_DE", "ja_JP"] {
            let clock = WeekClock(locale: Locale(identifier: identifier))
            #expect(!clock.isTwelveHour, "\(identifier)")
            #expect(clock.time(minute: 9 * 60) == "09:00" && clock.time(minute: 21 * 60 + 30) == "21:30", "\(identifier)")
        }
        #expect(WeekClock(locale: nil) == .twentyFourHour)
        let korean = WeekClock(locale: Locale(identifier: "ko_KR"))
        #expect(korean.isTwelveHour && korean.time(minute: 9 * 60).hasSuffix(" 9") && korean.time(minute: 21 * 60).hasSuffix(" 9"))
        #expect(korean.time(minute: 9 * 60) != korean.time(minute: 21 * 60))
        // The scale is as wide as the widest label and its mark, and a space.
        #expect(Self.renderer(clock: us).scaleWidth == 7)
        let lines = Self.renderer(clock: us).lines(for: WeekLayout(days: [L.monday], zone: .utc, occurrences: [], hours: 8..<18, height: 10), width: 30)
        #expect(lines.contains { $0.hasPrefix("  8 AM |") } && lines.contains { $0.hasPrefix(" 12 PM |") })
    }

    /// Escape sequences only when asked: plain without colour and marks; with colour the
    /// calendar's colour around its event and the "now" line in red; with the pager's marks
    /// today underlined and the selected day reversed.
    @Test func colourOnlyWhenAsked() {
        var renderer = Self.renderer(box: .unicode)
        renderer.today = L.monday + 1
        renderer.selected = L.monday + 2
        renderer.now = CivilTime.day(ofGrid: L.monday + 1) * CivilTime.secondsPerDay + 14 * 3600 + 600
        let layout = WeekLayout(days: Array(L.monday..<(L.monday + 7)), zone: .utc, occurrences: Self.occurrences, hours: 8..<18, height: 30)
        let plain = renderer.lines(for: layout, width: 100)
        #expect(!plain.joined().contains("\u{1B}"))
        // The "now" line: 14:10 on Tuesday, in the row of 14:00, across the column.
        let now = plain.first { $0.hasPrefix(" 14:00 ") } ?? ""
        #expect(now.contains("│" + String(repeating: "─", count: 12) + "│"))
        renderer.color = true
        let coloured = renderer.lines(for: layout, width: 100).joined(separator: "\n")
        #expect(coloured.contains(CalendarColor.indexed(2).foreground(trueColor: false) + "▌Plan"))
        #expect(coloured.contains(WeekRenderer.nowOn + String(repeating: "─", count: 12)))
        renderer.color = false
        renderer.marks = true
        let marked = renderer.lines(for: layout, width: 100)[1]
        #expect(marked.contains("\u{1B}[7mWednesday 14\u{1B}[27m") && marked.contains("\u{1B}[4mTuesday 13\u{1B}[24m"))
    }

    /// The JSON form of a week, read back: its days (with the length of their clocks), then
    /// each event as `--json` writes it, with its lanes or its band line.
    struct WeekObject: Decodable {
        struct Day: Decodable {
            let date: String
            let weekday: String
            let hours: Double
        }
        struct Place: Decodable, Equatable {
            let date: String
            let column: Int
            let of: Int
        }
        struct Band: Decodable, Equatable {
            let line: Int
            let first: String
            let last: String
        }
        struct Event: Decodable {
            let summary: String
            let start: String
            let allDay: Bool
            let columns: [Place]?
            let band: Band?
        }
        let first: String
        let last: String
        let zone: String?
        let firstWeekday: String
        let days: [Day]
        let events: [Event]
    }

    @Test func jsonOfAWeek() throws {
        let layout = WeekLayout(days: Array(L.monday..<(L.monday + 7)), zone: .utc, occurrences: Self.occurrences,
                                hours: 0..<24, height: WeekJSON.layoutHeight)
        let buffer = ByteBuffer()
        WeekJSON.appendWeek(layout, renderer: Self.renderer().renderer, zoneName: "UTC", to: buffer)
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1)
        let week = try JSONDecoder().decode(WeekObject.self, from: Data(text.utf8))
        #expect((week.first, week.last, week.zone, week.firstWeekday) == ("2024-02-12", "2024-02-18", "UTC", "monday"))
        #expect(week.days.map(\.date) == (12...18).map { "2024-02-\($0)" })
        #expect(week.days.map(\.weekday) == ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        #expect(week.days.allSatisfy { $0.hours == 24 })
        #expect(week.events.map(\.summary) == Self.occurrences.map(\.summary))
        func event(_ summary: String) throws -> WeekObject.Event { try #require(week.events.first { $0.summary == summary }) }
        #expect(try event("Plan").columns == [.init(date: "2024-02-13", column: 0, of: 2)])
        let plan = try event("Plan"), conference = try event("Conference"), holiday = try event("Holiday")
        #expect(plan.start == "2024-02-13T09:00:00+00:00" && plan.band == nil)
        #expect(try event("Review with the whole team").columns == [.init(date: "2024-02-13", column: 1, of: 2)])
        #expect(try event("Night train").columns == [.init(date: "2024-02-15", column: 0, of: 1), .init(date: "2024-02-16", column: 0, of: 1)])
        #expect(conference.band == .init(line: 0, first: "2024-02-13", last: "2024-02-15"))
        #expect(conference.columns == nil && conference.allDay && holiday.start == "2024-02-12")
    }
}
