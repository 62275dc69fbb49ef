import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The pager's list of calendars (key `c`): what it shows, how its keys toggle calendars, and
/// that every view and the status line follow.
@Suite struct PagerCalendarsTests {
    typealias F = PagerFixture

    /// Two named calendars in February 2024: home (Market, the 3rd) and work (Review, the 15th).
    static func store() -> EventStore {
        let home = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nSUMMARY:Market\r\nDTSTART;VALUE=DATE:20240203\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let work = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:t\r\nSUMMARY:Review\r\nDTSTART:20240215T140000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let events = EventReader.read(Array(home.utf8)).events + EventReader.read(Array(work.utf8)).events
        return EventStore(events: events, display: .utc, calendars: [EventCalendar(name: "home", color: nil), EventCalendar(name: "work", color: nil)],
                          calendarOfEvent: [0, 1])
    }

    /// The frame of `state`, the events following it first as the session makes them after
    /// each key (a frame itself changes nothing).
    func text(_ view: PagerView, _ state: PagerState) -> [String] {
        view.follow(state)
        return view.frame(for: state, size: TerminalSize(columns: 80, rows: 24)).lines
    }

    @Test func theListShowsAndHidesCalendars() throws {
        var view = F.view()
        view.events = Self.store()
        var state = try F.state()
        state.setCalendars([(0, "home"), (1, "work")], hidden: [])
        #expect(text(view, state).joined().contains("Market"))
        F.type("c", into: &state)
        #expect(state.screen == .calendars)
        var lines = text(view, state)
        #expect(lines.contains { $0.contains("> [x] 1 home") })
        #expect(lines.contains { $0.contains("  [x] 2 work") })
        #expect(lines[23].hasPrefix("all calendars shown"))
        // Space hides the chosen row; the page under the list follows at once.
        F.type(" ", into: &state)
        #expect(state.hiddenCalendars == [0])
        lines = text(view, state)
        #expect(lines.contains { $0.contains("> [ ] 1 home") })
        #expect(lines[23].hasPrefix("1 of 2 calendars hidden"))
        // j moves down, Enter hides work too; 1 shows home again.
        F.type("j", into: &state)
        _ = state.handle(.enter)
        #expect(state.hiddenCalendars == [0, 1])
        F.type("1", into: &state)
        #expect(state.hiddenCalendars == [1])
        #expect(state.calendarCursor == 0)
        // A digit past the list does nothing.
        F.type("7", into: &state)
        #expect(state.hiddenCalendars == [1])
        // c closes; the page shows home's event and not work's, the status line says so.
        F.type("c", into: &state)
        #expect(state.screen == .months)
        lines = text(view, state)
        let page = lines.joined(separator: "\n")
        #expect(page.contains("Market"))
        #expect(!page.contains("Review"))
        #expect(lines[23].contains("1 of 2 calendars hidden"))
        // Esc closes too, q quits from the list.
        F.type("c", into: &state)
        _ = state.handle(.escape)
        #expect(state.screen == .months)
        F.type("c", into: &state)
        #expect(F.type("q", into: &state) == .quit)
    }

    @Test func theAgendaAndTheStripFollow() throws {
        var view = F.view(columns: 1, highlight: true)
        view.events = Self.store()
        var state = try F.state(view: .strip)
        // A day with events is bold in the pager: hiding work unmarks its day, and only its.
        func marks() -> Int { text(view, state).joined(separator: "\n").components(separatedBy: "\u{1B}[1m").count - 1 }
        state.setCalendars([(0, "home"), (1, "work")], hidden: [])
        let bothShown = marks()
        state.setCalendars([(0, "home"), (1, "work")], hidden: [1])
        #expect(bothShown >= 1)
        #expect(marks() == bothShown - 1)
        // Only home's day (the 3rd) is marked, bold, in the strip; work's (the 15th, today) is not.
        let strip = text(view, state).joined(separator: "\n")
        #expect(strip.contains(" \u{1B}[1m3\u{1B}[22m"))
        #expect(strip.components(separatedBy: "\u{1B}[1m").count - 1 == 1)
        F.type("a", into: &state)
        let agenda = text(view, state).joined(separator: "\n")
        #expect(agenda.contains("home  Market"))
        #expect(!agenda.contains("Review"))
    }

    /// Drawing a frame leaves the events as they were: only `follow` hides calendars.
    @Test func aFrameChangesNothing() throws {
        var view = F.view()
        let store = Self.store()
        view.events = store
        var state = try F.state()
        state.setCalendars([(0, "home"), (1, "work")], hidden: [1])
        _ = view.frame(for: state, size: TerminalSize(columns: 80, rows: 24))
        #expect(store.hidden.isEmpty)
        _ = view.handle(.character("t"), in: &state, size: TerminalSize(columns: 80, rows: 24))
        #expect(store.hidden == [1])
    }

    @Test func withoutCalendarsTheKeySaysSo() throws {
        var state = try F.state()
        F.type("c", into: &state)
        #expect(state.screen == .months)
        #expect(state.message?.text == "no calendars configured (see CONFIGURATION in the manual)")
    }
}
