import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Events in the pager without a terminal: marks in the compact grids and on the page with
/// colour, the cells' lines, and the agenda key's states.
@Suite struct PagerEventsTests {
    typealias F = PagerFixture

    /// A store with an all-day event on Saturday 2024-02-03 and a timed one on 2024-02-15.
    static func store() -> EventStore {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nSUMMARY:Market\r\nDTSTART;VALUE=DATE:20240203\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:t\r\nSUMMARY:Review\r\nDTSTART:20240215T140000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        return EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
    }

    @Test func pageMarksDaysWithEventsOnlyWithColour() throws {
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: F.gregorian), calendar: F.gregorian,
                                     firstWeekday: 1, highlightedDay: try F.day(2024, 2, 15))
        let month = try #require(F.gregorian.month(containing: try F.day(2024, 2, 1)))
        let layout = try #require(MonthPageLayout.filling(TerminalSize(columns: 80, rows: 23), numberWidth: 2, weekColumnWidth: 0))
        var page = MonthPage(renderer: renderer, box: .unicode, weekendDays: [1, 7], color: true)
        page.events = Self.store().occurrencesByDay(month.firstDay..<month.endDay)
        let text = page.lines(for: month, layout: layout).joined(separator: "\n")
        // Saturday the 3rd: marked, not dimmed; today the 15th: marked and reversed.
        #expect(text.contains("\u{1B}[1;4m3\u{1B}[22;24m"))
        #expect(text.contains("\u{1B}[1;4m\u{1B}[7m15\u{1B}[27m\u{1B}[22;24m"))
        #expect(text.contains("\u{1B}[2m4\u{1B}[22m"))
        #expect(text.contains(" Market ") && text.contains(" 14:00 R… "))
        var plain = MonthPage(renderer: renderer, box: .unicode, weekendDays: [1, 7], color: false)
        plain.events = page.events
        let plainLines = plain.lines(for: month, layout: layout)
        #expect(!plainLines.joined().contains("\u{1B}"))
        // Cells keep their width: every line of the grid has its eight lines where the rules have them.
        let rule = try #require(plainLines.first { $0.contains("┌") })
        let bars = MonthPageTests.bars(rule)
        for line in plainLines where line.contains("│") { #expect(MonthPageTests.bars(line) == bars, "\(line)") }
        // Without events the page is the page it was.
        let none = MonthPage(renderer: renderer, box: .unicode, weekendDays: [1, 7], color: false).lines(for: month, layout: layout)
        #expect(none.count == plainLines.count)
        #expect(!none.joined().contains("Market"))
    }

    @Test func stripAndYearPageMarkEventsTodayAndTheSelection() throws {
        var view = F.view(columns: 1, highlight: true)
        view.events = Self.store()
        var plainView = F.view(columns: 1, highlight: false)
        plainView.events = Self.store()
        for viewKind in [PagerState.View.strip, .yearPage] {
            var state = try F.state(view: viewKind)
            let size = TerminalSize(columns: 80, rows: 40)
            let text = view.frame(for: state, size: size).lines.joined(separator: "\n")
            // SGR 1 bold: a day with events; 4 underline: today; 7 reverse: the selected day.
            #expect(text.contains(" \u{1B}[1m3\u{1B}[22m"), "\(viewKind)")
            #expect(text.contains("\u{1B}[4m\u{1B}[1m\u{1B}[7m15\u{1B}[27m\u{1B}[22m\u{1B}[24m"), "\(viewKind)")
            #expect(text.components(separatedBy: "\u{1B}[1m").count - 1 == 2, "\(viewKind)")
            // Without colour nothing is lost: bold, underline and reverse are attributes.
            #expect(plainView.frame(for: state, size: size) == view.frame(for: state, size: size), "\(viewKind)")
            F.type("l", into: &state)
            let moved = view.frame(for: state, size: size).lines.joined(separator: "\n")
            #expect(moved.contains("\u{1B}[4m\u{1B}[1m15\u{1B}[22m\u{1B}[24m \u{1B}[7m16\u{1B}[27m"), "\(viewKind)")
        }
    }

    @Test func agendaKeyStates() throws {
        var state = try F.state()
        state.room = PagerState.Room(monthsPerScreen: 1, scrollLimit: 3, linesPerScreen: 5)
        F.type("a", into: &state)
        #expect(state.screen == .agenda)
        F.type("jjjjj", into: &state)
        #expect(state.scroll == 3)
        F.type("k", into: &state)
        #expect(state.scroll == 2)
        // n moves the month under the agenda, which stays open, scrolled to the top.
        F.type("n", into: &state)
        #expect(state.screen == .agenda && state.position == (2024, 3) && state.scroll == 0)
        F.type("a", into: &state)
        #expect(state.screen == .months)
        F.type("a", into: &state)
        #expect(state.handle(.escape) == .draw)
        #expect(state.screen == .months)
        F.type("a", into: &state)
        #expect(state.handle(.character("q")) == .quit)
    }

    /// The README's picture of the month page with events is this frame: the example files in
    /// Europe/Berlin at 100x30 (`ReadmeTests` checks the same picture on a real terminal). Checked by eye against the files: Tuesday standups at 09:00
    /// (on the 12th with three more: 10:00, 12:30, 16:30), Monday and Thursday gym at 07:00,
    /// fortnightly reviews from the 8th, the conference from the 19th to the 21st before the
    /// day's timed events, the 11:00 Lisbon talk at 12:00 Berlin time, Easter on the 31st.
    @Test func readmePictureOfTheMonthPageWithEvents() throws {
        let environment = RunEnvironment(variables: ["TERM": "xterm", "LC_ALL": "C.UTF-8"], stdoutIsTerminal: true,
                                         terminalWidth: 100, localToday: (2024, 3, 15), keyboardIsAvailable: true)
        let configuration = try Configuration.resolve(ArgumentParser.parse(["--today", "2024-03-15", "--from", "2024-03",
                                                                            "--color", "never"]), environment: environment)
        let examples = DocumentationTests.root.appendingPathComponent("examples")
        var events: [Event] = []
        for name in ["holidays.ics", "team.ics"] {
            let data = try Data(contentsOf: examples.appendingPathComponent(name))
            events += EventReader.read(Array(data)).events
        }
        var view = PagerView(configuration: configuration)
        view.events = EventStore(events: events, display: DisplayZone(try #require(TimeZone(identifier: "Europe/Berlin"))))
        let state = PagerState(calendar: configuration.calendar, start: configuration.start, bounds: configuration.bounds,
                               today: configuration.today, view: configuration.page.initialView)
        let frame = view.frame(for: state, size: TerminalSize(columns: 100, rows: 30))
        let text = frame.lines.map { MonthPage.trimmed(MonthPageTests.plain($0)) }.joined(separator: "\n")
        #expect(text.contains("│ Easter Sun… │"))
        let readme = try String(contentsOf: DocumentationTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("\n" + text + "\n```"), "\(text)")
    }

    @Test func agendaOverlayDrawsAndScrolls() {
        let overlay = AgendaOverlay(title: "May", lines: (1...9).map { "line \($0)" })
        let room = TerminalSize(columns: 30, rows: 8)
        let body = Array(repeating: "x", count: 8)
        // 8 lines less the borders and a line above and below: 4 lines of the list.
        #expect(overlay.visibleLines(in: room) == 4)
        #expect(overlay.scrollLimit(in: room) == 5)
        #expect(overlay.draw(over: body, room: room, scroll: 0, box: .ascii) == [
            "x",
            "          +- May --+",
            "          | line 1 |",
            "          | line 2 |",
            "          | line 3 |",
            "          | line 4 v",
            "          +--------+",
            "x",
        ])
        let end = overlay.draw(over: body, room: room, scroll: 99, box: .ascii)
        #expect(end[2] == "          | line 6 ^" && end[5] == "          | line 9 |")
        #expect(AgendaOverlay(title: "May", lines: []).lines == ["(no events this month)"])
    }

    /// At every size from the smallest upwards, with and without the agenda, in every view:
    /// each line of the frame fits the width (escape sequences take none), the frame has the
    /// screen's height, and the last line leaves its last cell free.
    @Test func framesFitEverySize() throws {
        var view = F.view(columns: nil, highlight: true, box: .unicode)
        view.events = Self.store()
        for viewKind in PagerState.View.allCases {
            for agenda in [false, true] {
                var state = try F.state(view: viewKind)
                if agenda { F.type("a", into: &state) }
                for columns in stride(from: 1, through: 130, by: 3) {
                    for rows in stride(from: 1, through: 45, by: 2) {
                        let size = TerminalSize(columns: columns, rows: rows)
                        let frame = view.frame(for: state, size: size)
                        #expect(frame.lines.count == rows)
                        for (row, line) in frame.lines.enumerated() {
                            let width = DisplayWidth.of(line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression))
                            #expect(width <= (row == rows - 1 ? columns - 1 : columns), "\(viewKind) \(agenda) \(size) row \(row)")
                        }
                    }
                }
            }
        }
    }

    /// The day view's write keys: each ends in the `Write` the session carries out, with the
    /// day and the highlighted event; Esc, an empty line and a no write nothing.
    @Test func dayViewWriteKeysAskThenWrite() throws {
        var state = try F.state()
        var view = F.view()
        view.events = Self.store()
        let size = TerminalSize(columns: 80, rows: 24)
        func press(_ key: Key) -> PagerState.Outcome { view.handle(key, in: &state, size: size) }
        func type(_ text: String) { for character in text { _ = press(.character(character)) } }
        // Outside the day view the keys say where they work.
        #expect(press(.character("+")) == .draw)
        #expect(state.message?.text == "+: in the day view (Enter opens it) and the week view")
        _ = press(.enter)
        #expect(state.screen == .day)
        // + asks on the status line; Esc cancels; an empty line writes nothing.
        _ = press(.character("+"))
        #expect(state.screen == .eventPrompt(.add, ""))
        type("9:00 Tea")
        _ = press(.escape)
        #expect(state.screen == .day)
        _ = press(.character("+"))
        #expect(press(.enter) == .draw)
        _ = press(.character("+"))
        type("14:00-15:00 Coffee  with Ana")
        // Ctrl-W erases a word, as in the go-to prompt.
        _ = press(.control(0x17))
        type("Bo")
        let frame = view.frame(for: state, size: size)
        #expect(frame.lines[23] == "add (TIME[-TIME] SUMMARY): 14:00-15:00 Coffee  with Bo")
        #expect(press(.enter) == .write(.add(day: try F.day(2024, 2, 15), text: "14:00-15:00 Coffee  with Bo")))
        #expect(state.screen == .day)
        // e starts from the event's time and summary (Review, 14:00, no end).
        _ = press(.character("e"))
        #expect(state.screen == .eventPrompt(.edit, "14:00 Review"))
        _ = press(.control(0x15))
        type("15:00 Review moved")
        #expect(press(.enter) == .write(.edit(day: try F.day(2024, 2, 15), event: 0, text: "15:00 Review moved")))
        // d asks; n keeps it, y deletes it.
        _ = press(.character("d"))
        #expect(state.screen == .confirmDelete)
        #expect(view.frame(for: state, size: size).lines[23] == "delete '14:00 Review'? (y or n) ")
        #expect(press(.character("n")) == .draw)
        #expect(state.screen == .day && state.message?.text == "nothing deleted")
        _ = press(.character("d"))
        #expect(press(.character("y")) == .write(.delete(day: try F.day(2024, 2, 15), event: 0)))
        // A day without events has nothing to change or delete.
        _ = press(.character("l"))
        _ = press(.character("d"))
        #expect(state.screen == .day && state.message?.text == "no event to delete on this day")
        _ = press(.character("e"))
        #expect(state.screen == .day && state.message?.text == "no event to change on this day")
    }
}
