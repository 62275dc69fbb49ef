import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalCLI
@testable import InfCalPager

/// The pager's search without a terminal: `/` and its prompt, `f` and `F`, the slices the view
/// looks at, the messages at the horizon, and Esc. The fixture's days are expanded by hand
/// from its rules (Tests/Fixtures/search/README.md).
@Suite struct PagerSearchTests {
    typealias F = PagerFixture

    static func view() throws -> PagerView {
        var view = F.view()
        view.events = try EventSearchTests.store()
        return view
    }

    /// Types `text` into the search prompt and lets the view search until it ends (at most
    /// `slices` slices).
    static func search(_ keys: [Key], in state: inout PagerState, view: inout PagerView, slices: Int = 1000) -> Int {
        for key in keys { _ = state.handle(key) }
        var taken = 0
        while state.search != nil, taken < slices {
            view.continueSearch(&state)
            taken += 1
        }
        return taken
    }

    static func typed(_ text: String) -> [Key] { [.character("/")] + text.map { .character($0) } + [.enter] }

    @Test func forwardAndBackAcrossMonthsAndYears() throws {
        var state = try F.state()
        var view = try Self.view()
        _ = Self.search(Self.typed("DENTIST"), in: &state, view: &view)
        #expect(state.selected == (try F.day(2024, 3, 5)))
        #expect(state.message == nil)
        #expect(state.position == (2024, 3))
        _ = Self.search([.character("f")], in: &state, view: &view)
        // The lunch's description names the dentist.
        #expect(state.selected == (try F.day(2024, 3, 12)))
        _ = Self.search([.character("f")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2024, 4, 5)))
        _ = Self.search([.character("F")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2024, 3, 12)))
        // Years on: the yearly rule's second day.
        _ = Self.search(Self.typed("zahnarztin"), in: &state, view: &view)
        #expect(state.selected == (try F.day(2024, 4, 10)))
        _ = Self.search([.character("f")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2025, 4, 10)))
        #expect(state.position == (2025, 4))
    }

    /// Past the last match of finite rules nothing can match: said after a slice or two (the
    /// store's bounds of a rule are a day wide), not after 10,000 years. A text no event holds:
    /// said at once.
    @Test func noLaterMatch() throws {
        var state = try F.state()
        var view = try Self.view()
        _ = Self.search(Self.typed("zahn"), in: &state, view: &view)
        _ = Self.search([.character("f")], in: &state, view: &view)
        _ = Self.search([.character("f")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2026, 4, 10)))
        let slices = Self.search([.character("f")], in: &state, view: &view)
        #expect(slices <= 2)
        #expect(state.message?.text == "no later match for 'zahn'")
        #expect(state.selected == (try F.day(2026, 4, 10)))
        #expect(Self.search(Self.typed("nobody"), in: &state, view: &view) == 1)
        #expect(state.message?.text == "no later match for 'nobody'")
        #expect(Self.search([.character("F")], in: &state, view: &view) == 1)
        #expect(state.message?.text == "no earlier match for 'nobody'")
    }

    /// A view of one all-day event "Never" from 2023-03-01 with `rule`.
    static func view(ofOneEvent rule: String) -> PagerView {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:n\r\nSUMMARY:Never\r\nDTSTART;VALUE=DATE:20230301\r\n"
            + "RRULE:" + rule + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        var view = F.view()
        view.events = EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
        return view
    }

    /// A rule that matches and next occurs after 10,000 years (every 20,000 years from
    /// 2023) is looked for up to 10,000 years on, in slices, and the message names the year of
    /// the horizon.
    @Test func noMatchBeforeTheHorizon() throws {
        var view = Self.view(ofOneEvent: "FREQ=YEARLY;INTERVAL=20000")
        var state = try F.state()
        let slices = Self.search(Self.typed("never"), in: &state, view: &view)
        // 10,000 years in slices of 16,384 days.
        #expect(slices == (PagerState.searchReach + PagerView.searchSlice - 1) / PagerView.searchSlice)
        #expect(state.message?.text == "no match for 'never' before 12024")
        #expect(state.selected == (try F.day(2024, 2, 15)))
        // Back from today: DTSTART itself (2023-03-01) is the one instance.
        _ = Self.search([.character("F")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2023, 3, 1)))
        _ = Self.search([.character("F")], in: &state, view: &view)
        #expect(state.message?.text == "no earlier match for 'never'")
    }

    /// A rule that matches and can never occur after DTSTART (30 February, every year without
    /// end) is no later match at once: nothing can come in any later 400 years.
    @Test func aRuleThatNeverOccursIsNoLaterMatch() throws {
        var view = Self.view(ofOneEvent: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")
        var state = try F.state()
        #expect(Self.search(Self.typed("never"), in: &state, view: &view) == 1)
        #expect(state.message?.text == "no later match for 'never'")
        #expect(state.selected == (try F.day(2024, 2, 15)))
        // Back from today: DTSTART itself (2023-03-01) is the one instance.
        _ = Self.search([.character("F")], in: &state, view: &view)
        #expect(state.selected == (try F.day(2023, 3, 1)))
    }

    @Test func escStopsASearchAndKeysWait() throws {
        var state = try F.state()
        var view = try Self.view()
        for key in Self.typed("standup") { _ = state.handle(key) }
        #expect(state.search != nil)
        #expect(state.message?.text == "searching for 'standup' (Esc stops)")
        _ = state.handle(.character("n"))
        #expect(state.search != nil && state.position == (2024, 2))
        _ = state.handle(.escape)
        #expect(state.search == nil)
        #expect(state.message?.text == "search stopped")
        view.continueSearch(&state)
        #expect(state.selected == (try F.day(2024, 2, 15)))
        #expect(state.handle(.character("/")) == .draw)
        #expect(state.screen == .searchPrompt(""))
        _ = state.handle(.interrupt)
        var searching = try F.state()
        for key in Self.typed("x") { _ = searching.handle(key) }
        #expect(searching.handle(.interrupt) == .quit)
    }

    /// The search prompt edits as the go-to prompt does; Esc leaves it, Enter on nothing too.
    @Test func thePromptEditsItsLine() throws {
        var state = try F.state()
        for key: Key in [.character("/"), .character("a"), .character(" "), .character("b"), .control(0x17)] { _ = state.handle(key) }
        #expect(state.screen == .searchPrompt("a "))
        _ = state.handle(.control(0x15))
        #expect(state.screen == .searchPrompt(""))
        _ = state.handle(.enter)
        #expect(state.screen == .months && state.search == nil)
        _ = state.handle(.character("f"))
        #expect(state.message?.text == "no search yet: / searches")
        let frame = F.view().frame(for: { var s = state; _ = s.handle(.character("/")); _ = s.handle(.character("x")); return s }(),
                                   size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines[23].hasPrefix(PagerView.searchLabel + "x"))
        #expect(frame.cursor == ScreenPosition(row: 23, column: PagerView.searchLabel.count + 1))
    }

    /// In the day view `f` shows the next matching day in it.
    @Test func theDayViewFollows() throws {
        var state = try F.state()
        var view = try Self.view()
        _ = Self.search(Self.typed("dentist"), in: &state, view: &view)
        _ = state.handle(.enter)
        #expect(state.screen == .day)
        _ = Self.search([.character("f")], in: &state, view: &view)
        #expect(state.screen == .day)
        #expect(state.selected == (try F.day(2024, 3, 12)))
    }
}
