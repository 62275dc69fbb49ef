import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager

/// The pager's week view through `PagerState` and `PagerView`, without a terminal: its name,
/// its keys (the hours scrolled, days and weeks, the day view, the writes asked for, the zones
/// cycled), the "now" line, the day view's timeline. Today is 2024-02-15, a Thursday
/// (`cal 2 2024`); the events are in UTC, shown in UTC or, after `z`, in Asia/Tokyo (+09:00
/// all year, zoneinfo).
@Suite struct PagerWeekTests {
    typealias F = PagerFixture

    static func store() -> EventStore {
        let events = [
            ("plan", "Plan", "DTSTART:20240215T090000Z", "DTEND:20240215T103000Z"),
            ("lunch", "Lunch", "DTSTART:20240215T120000Z", "DTEND:20240215T130000Z"),
            ("late", "Late call", "DTSTART:20240215T200000Z", "DTEND:20240215T210000Z"),
            ("trip", "Trip", "DTSTART;VALUE=DATE:20240214", "DTEND;VALUE=DATE:20240217"),
            ("mon", "Standup", "DTSTART:20240212T083000Z", "DTEND:20240212T084500Z"),
        ]
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n" + events.map { uid, summary, start, end in
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:\(summary)\r\n\(start)\r\n\(end)\r\nEND:VEVENT\r\n"
        }.joined() + "END:VCALENDAR\r\n"
        return EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
    }

    static func view() -> PagerView {
        var view = F.view(box: .unicode)
        view.events = store()
        return view
    }

    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)]

    /// Each view has a name of its own for `--view` and the config file's `view =`.
    @Test func viewsHaveStableNames() {
        #expect(PagerState.View.allCases.map(\.name) == ["month", "strip", "year", "week"])
        for view in PagerState.View.allCases { #expect(PagerState.View(name: view.name) == view) }
        #expect(PagerState.View(name: "weekly") == nil && PagerState.View(name: "Week") == nil)
        #expect(PagerState.View.week.next == .monthPage && PagerState.View.yearPage.next == .week)
    }

    /// At 80x24, 120x40 and 200x60: exactly the size's lines, none wider than it, the week of
    /// the selected day (Sunday first) under its title, the status line naming it.
    @Test(arguments: sizes)
    func framesAtTheSizes(_ size: TerminalSize) throws {
        let state = try F.state(view: .week)
        let frame = Self.view().frame(for: state, size: size)
        #expect(frame.lines.count == size.rows)
        for line in frame.lines { #expect(visibleWidth(line) <= size.columns, "\(line)") }
        #expect(frame.lines[0].trimmingCharacters(in: .whitespaces) == "February 2024")
        #expect(frame.lines[1].contains("Sun 11") || frame.lines[1].contains("Sunday 11"))
        #expect(frame.lines[1].contains("Sat 17") || frame.lines[1].contains("Saturday 17"))
        #expect(frame.lines[size.rows - 1].hasPrefix("2024-02-11 – 17  [week]"))
        #expect(frame.lines.contains { $0.contains("Plan") } && frame.lines.contains { $0.contains("Trip") })
    }

    /// j and k scroll the hours an hour at a time (a count at once), as far as the day's ends;
    /// the hours stay as the days move.
    @Test func jAndKScrollTheHours() throws {
        var state = try F.state(view: .week)
        let view = Self.view()
        let size = TerminalSize(columns: 80, rows: 24)
        let room = TerminalSize(columns: 80, rows: 23)
        let first = try #require(view.weekLayout(for: state, room: room)).hours
        #expect(first.count < 24)
        _ = view.handle(.character("j"), in: &state, size: size)
        #expect(state.weekTop == first.lowerBound + 1)
        #expect(try #require(view.weekLayout(for: state, room: room)).hours.lowerBound == first.lowerBound + 1)
        _ = view.handle(.character("k"), in: &state, size: size)
        _ = view.handle(.character("k"), in: &state, size: size)
        #expect(state.weekTop == first.lowerBound - 1)
        for key in "30j" { _ = view.handle(.character(key), in: &state, size: size) }
        let last = try #require(view.weekLayout(for: state, room: room)).hours
        #expect(last.upperBound == 24 && state.weekTop == 24 - first.count)
        for key in "99k" { _ = view.handle(.character(key), in: &state, size: size) }
        #expect(state.weekTop == 0)
        #expect(state.selected == (try F.day(2024, 2, 15)))
    }

    /// h and l move the selected day (the week turns past its ends), n and p and Space and b a
    /// week, Enter opens the day view of the selected day and Esc comes back to the week.
    @Test func daysWeeksAndTheDayView() throws {
        var state = try F.state(view: .week)
        let view = Self.view()
        let size = TerminalSize(columns: 120, rows: 40)
        func press(_ keys: String) { for key in keys { _ = view.handle(key == "\r" ? .enter : .character(key), in: &state, size: size) } }
        press("ll")
        #expect(state.selected == (try F.day(2024, 2, 17)))
        press("l")
        #expect(state.selected == (try F.day(2024, 2, 18)))
        #expect(view.frame(for: state, size: size).lines[39].hasPrefix("2024-02-18 – 24  [week]"))
        press("n")
        #expect(state.selected == (try F.day(2024, 2, 25)))
        press("2p")
        #expect(state.selected == (try F.day(2024, 2, 11)))
        press(" ")
        #expect(state.selected == (try F.day(2024, 2, 18)))
        press("b4l")
        #expect(state.selected == (try F.day(2024, 2, 15)) && state.view == .week)
        press("\r")
        #expect(state.screen == .day)
        #expect(view.frame(for: state, size: size).lines.contains { $0.contains("Thursday 15 February 2024") })
        _ = view.handle(.escape, in: &state, size: size)
        #expect(state.screen == .months && state.view == .week)
    }

    /// Tab steps through the selected day's events in the day view's order (the band's first),
    /// scrolling the hours to them; +, e and d ask for the same writes as the day view and
    /// come back to the week.
    @Test func writesAsInTheDayView() throws {
        var state = try F.state(view: .week)
        let view = Self.view()
        let size = TerminalSize(columns: 80, rows: 24)
        let day = try F.day(2024, 2, 15)
        func press(_ key: Key) -> PagerState.Outcome { view.handle(key, in: &state, size: size) }
        func type(_ text: String) { for character in text { _ = press(.character(character)) } }
        #expect(view.dayOccurrences(for: state).map(\.summary) == ["Trip", "Plan", "Lunch", "Late call"])
        // + asks for a new event's time and summary; Enter asks for the write.
        _ = press(.character("+"))
        #expect(state.screen == .eventPrompt(.add, ""))
        type("14:00-15:00 Coffee")
        #expect(press(.enter) == .write(.add(day: day, text: "14:00-15:00 Coffee")))
        #expect(state.screen == .months && state.view == .week)
        // Tab highlights the next event: Plan, drawn reversed; e starts from what it has.
        _ = press(.control(0x09))
        #expect(state.highlightedEvent == 1)
        #expect(view.frame(for: state, size: size).lines.contains { $0.contains("\u{1B}[7m▌Plan") || $0.contains("\u{1B}[7m▌09:00") })
        _ = press(.character("e"))
        #expect(state.screen == .eventPrompt(.edit, "09:00-10:30 Plan"))
        _ = press(.control(0x15))
        type("09:30-11:00 Plan")
        #expect(press(.enter) == .write(.edit(day: day, event: 1, text: "09:30-11:00 Plan")))
        #expect(state.screen == .months)
        // Two Tabs on: Late call (20:00), its hours scrolled into sight at 80x24.
        _ = press(.control(0x09))
        _ = press(.control(0x09))
        #expect(state.highlightedEvent == 3)
        #expect(try #require(view.weekLayout(for: state, room: TerminalSize(columns: 80, rows: 23))).hours.contains(20))
        _ = press(.character("d"))
        #expect(state.screen == .confirmDelete)
        #expect(view.frame(for: state, size: size).lines[23].hasPrefix("delete '20:00-21:00 Late call'? (y or n)"))
        #expect(press(.character("y")) == .write(.delete(day: day, event: 3)))
        #expect(state.screen == .months)
        // Any other key keeps it.
        _ = press(.character("d"))
        #expect(press(.character("n")) == .draw && state.message?.text == "nothing deleted" && state.screen == .months)
        // A day without events: nothing to delete, and Tab says so.
        state.select(try F.day(2024, 2, 13))
        _ = press(.character("d"))
        #expect(state.screen == .months && state.message?.text == "no event to delete on this day")
        _ = press(.control(0x09))
        #expect(state.message?.text == "no event on this day")
    }

    /// z shows the times in the next zone and the status line names it; writes are refused in
    /// any zone but the first; the day view and the month page show the zone's times too.
    /// Without zones, z says there is no other.
    @Test func zCyclesTheZones() throws {
        var state = try F.state(view: .week)
        let view = Self.view()
        let size = TerminalSize(columns: 120, rows: 40)
        func press(_ key: Key) -> PagerState.Outcome { view.handle(key, in: &state, size: size) }
        _ = press(.character("z"))
        #expect(state.message?.text == "no other zone to show")
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        state.setZones([NamedZone(name: "UTC", zone: .utc), NamedZone(name: "Asia/Tokyo", zone: DisplayZone(tokyo))])
        _ = press(.character("l"))
        _ = press(.character("h"))
        #expect(view.frame(for: state, size: size).lines[39].hasPrefix("2024-02-11 – 17  UTC  [week]"))
        _ = press(.character("z"))
        let frame = view.frame(for: state, size: size)
        #expect(frame.lines[39].hasPrefix("2024-02-11 – 17  Asia/Tokyo  [week]"))
        // Plan, 09:00 UTC, is 18:00 in Tokyo; Late call (20:00 UTC) 05:00 on Friday.
        #expect(frame.lines.contains { $0.contains("18:00") && $0.contains("Plan") })
        #expect(view.dayOccurrences(for: state).map(\.summary) == ["Trip", "Plan", "Lunch"])
        for key in ["+", "e", "d"] {
            _ = press(.character(Character(key)))
            #expect(state.screen == .months && state.message?.text == "\(key): times are shown in Asia/Tokyo; writes only in the events' zone (UTC)")
        }
        // The day view in Tokyo's times; z there too, back to UTC, where writes are made.
        _ = press(.enter)
        #expect(view.frame(for: state, size: size).lines.contains { $0.contains("18:00-19:30  Plan") })
        _ = press(.character("z"))
        #expect(state.zoneIndex == 0 && view.frame(for: state, size: size).lines.contains { $0.contains("09:00-10:30  Plan") })
        _ = press(.character("+"))
        #expect(state.screen == .eventPrompt(.add, ""))
        _ = press(.escape)
        #expect(state.screen == .day)
        // Every view shows the zone's times: the month page's cells too, and its status line
        // names the zone.
        _ = press(.escape)
        _ = press(.character("v"))
        #expect(state.view == .monthPage)
        var page = view.frame(for: state, size: size)
        #expect(page.lines.contains { $0.contains("09:00 Plan") } && page.lines[39].contains("UTC"))
        _ = press(.character("z"))
        page = view.frame(for: state, size: size)
        #expect(page.lines.contains { $0.contains("18:00 Plan") } && !page.lines.contains { $0.contains("09:00 Plan") })
        #expect(page.lines[39].contains("Asia/Tokyo  [month page]"), "\(page.lines[39])")
    }

    /// The "now" line crosses the column of the day holding the instant, in its row, and moves
    /// with the clock; a minute later nothing changes; none without the clock.
    @Test func theNowLineFollowsTheClock() throws {
        var state = try F.state(view: .week)
        let view = Self.view()
        let size = TerminalSize(columns: 80, rows: 24)
        func nowRow() -> String? { view.frame(for: state, size: size).lines.first { $0.contains("│─────────│") } }
        #expect(nowRow() == nil)
        let thursday = CivilTime.day(year: 2024, month: 2, day: 15) * CivilTime.secondsPerDay
        let first = state.setNow(thursday + 14 * 3600 + 5 * 60)
        #expect(first)
        #expect(nowRow()?.hasPrefix(" 14:00 ") == true)
        let sameMinute = state.setNow(thursday + 14 * 3600 + 5 * 60 + 30)
        #expect(!sameMinute)
        let later = state.setNow(thursday + 15 * 3600)
        #expect(later)
        #expect(nowRow()?.hasPrefix(" 15:00 ") == true)
        // In Thursday's column: the fifth of seven.
        let row = try #require(nowRow())
        #expect(row.components(separatedBy: "│")[5] == String(repeating: "─", count: 9))
    }

    /// The day view puts a timeline of its day above the events where the screen has 30 lines
    /// or more; j still steps from event to event, below it.
    @Test func theDayViewsTimeline() throws {
        var state = try F.state(view: .monthPage)
        let view = Self.view()
        for (rows, timeline) in [(24, false), (29, false), (30, true), (60, true)] {
            let size = TerminalSize(columns: 100, rows: rows)
            state.open(try F.day(2024, 2, 15))
            state.room = view.room(for: state, size: size)
            let lines = view.frame(for: state, size: size).lines
            #expect(lines.contains { $0.contains("Thursday 15") && $0.contains("│") && !$0.contains("February") } == timeline, "\(rows) rows")
            if timeline {
                let starts = state.room.eventStarts
                let (overlay, _) = view.dayOverlay(for: state, room: TerminalSize(columns: 100, rows: rows - 1))
                #expect(starts.count == 4 && overlay.lines[starts[1]].contains("Plan") && overlay.lines[starts[0]].contains("Trip"))
            }
        }
    }
}
