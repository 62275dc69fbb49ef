import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import Testing

/// The month page with events through a real pseudo-terminal: each day's events in its cell,
/// cut with `…`, `+N more` where they do not fit, all-day and multi-day first, and the
/// month's agenda over the page with `a`. Today 2024-02-15, TZ=UTC, LC_ALL=C.UTF-8.
@Suite struct MonthPageEventsEndToEndTests {
    typealias P = PagerEndToEndTests
    typealias M = MonthPageEndToEndTests

    /// Events in February 2024, in UTC: four on Tuesday the 6th, a three-day all-day event
    /// from Tuesday the 13th, a long summary on the 20th, a timed and an all-day event on the
    /// 21st (the all-day one listed first), and a weekly one on Thursdays.
    static let calendar = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT\nUID:a\nSUMMARY:Alpha\nDTSTART:20240206T080000Z\nDTEND:20240206T090000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:b\nSUMMARY:Beta\nDTSTART:20240206T100000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:c\nSUMMARY:Gamma\nDTSTART:20240206T120000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:d\nSUMMARY:Delta\nDTSTART:20240206T160000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:e\nSUMMARY:Team offsite planning\nDTSTART;VALUE=DATE:20240213\nDTEND;VALUE=DATE:20240216\nEND:VEVENT
        BEGIN:VEVENT\nUID:f\nSUMMARY:Quarterly business review\nDTSTART:20240220T093000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:g\nSUMMARY:Call\nDTSTART:20240221T070000Z\nEND:VEVENT
        BEGIN:VEVENT\nUID:h\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20240221\nEND:VEVENT
        BEGIN:VEVENT\nUID:i\nSUMMARY:Gym\nDTSTART:20240201T180000Z\nRRULE:FREQ=WEEKLY;COUNT=4\nEND:VEVENT
        END:VCALENDAR

        """

    static func eventsFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-page-\(UUID().uuidString).ics")
        try Data(calendar.utf8).write(to: url)
        return url
    }

    /// The inside of the cell in column `column` on screen line `row`.
    static func cell(_ screen: TerminalScreen, row: Int, column: Int) -> String {
        let bars = M.bars(screen, row: row)
        guard bars.count == 8 else { return "?" }
        let characters = Array(screen.line(row))
        return String(characters[(bars[column] + 1)..<bars[column + 1]])
    }

    /// The screen line of the day numbered `day` in column `column`.
    static func numberRow(_ screen: TerminalScreen, day: Int, column: Int) -> Int? {
        // The selected day's number stands in brackets.
        (0..<screen.rows).first {
            [String(day), "[\(day)]"].contains(cell(screen, row: $0, column: column).trimmingCharacters(in: .whitespaces))
        }
    }

    /// At 100x30 a cell is 13 cells inside and 2 lines under its number: the lines below were
    /// worked out by hand from the file above (times in UTC, cut to 12 cells after a space).
    @Test func cellsListTheirEvents() throws {
        let file = try Self.eventsFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let session = try P.start(["--events", file.path], columns: 100, rows: 30, environment: M.utf8)
        #expect(M.waitForPage(session))
        let screen = session.screen
        M.expectFilledPage(screen)
        func lines(day: Int, column: Int) -> [String] {
            guard let row = Self.numberRow(screen, day: day, column: column) else { return ["day \(day) not found"] }
            return [Self.cell(screen, row: row + 1, column: column), Self.cell(screen, row: row + 2, column: column)]
        }
        // Tuesday 6th: four events, room for two lines: the first, then the second's name
        // (its time giving way) and the count of the other two.
        #expect(lines(day: 6, column: 2) == [" 08:00 Alpha ", " Beta +2     "])
        // The three days of the offsite, each cut with an ellipsis a space from the cell's
        // right line, as the day numbers are.
        #expect(lines(day: 13, column: 2) == [" Team offsi… ", "             "])
        #expect(lines(day: 14, column: 3) == [" Team offsi… ", "             "])
        // The 15th is also a Thursday of the weekly event: the all-day one first.
        #expect(lines(day: 15, column: 4) == [" Team offsi… ", " 18:00 Gym   "])
        #expect(lines(day: 20, column: 2) == [" 09:30 Quar… ", "             "])
        // All-day first, then the timed one.
        #expect(lines(day: 21, column: 3) == [" Holiday     ", " 07:00 Call  "])
        #expect(lines(day: 22, column: 4) == [" 18:00 Gym   ", "             "])
        #expect(lines(day: 29, column: 4) == ["             ", "             "])
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    /// `a` opens the month's agenda over the page and closes it; Esc closes it too; n moves
    /// the month under it; on a short screen j and k scroll it.
    @Test func agendaKeyOpensAndClosesTheList() throws {
        let file = try Self.eventsFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let session = try P.start(["--events", file.path], columns: 80, rows: 16, environment: M.utf8)
        #expect(M.waitForPage(session))
        #expect(!session.screen.contains("2024-02-06"))
        try session.send("a")
        // 12 occurrences in February; 15 lines above the status line leave 11 for the list,
        // an arrow on the box's edge says there is more below.
        #expect(session.waitFor { $0.line(15).hasPrefix("agenda of February 2024  lines 1-11/12") })
        // The three-day offsite shows its last day, which widens the box.
        #expect(session.screen.contains("┌─────────────────────── February 2024 ───────────────────────┐"))
        #expect(session.screen.contains("│ 2024-02-13 Tue  all-day → 2024-02-15  Team offsite planning │"))
        #expect(session.screen.contains("│ 2024-02-21 Wed  07:00        Call                           ↓"))
        #expect(session.screen.contains("│ 2024-02-01 Thu  18:00        Gym"))
        #expect(session.screen.contains("│ 2024-02-06 Tue  08:00-09:00  Alpha"))
        // j scrolls by a line, no further than the last line.
        try session.send("jj")
        #expect(session.waitFor { $0.line(15).hasPrefix("agenda of February 2024  lines 2-12/12") })
        #expect(session.screen.contains("│ 2024-02-06 Tue  08:00-09:00  Alpha                          ↑"))
        #expect(session.screen.contains("2024-02-22 Thu  18:00        Gym"))
        #expect(!session.screen.contains("2024-02-01 Thu"))
        try session.send("k")
        #expect(session.waitFor { $0.line(15).hasPrefix("agenda of February 2024  lines 1-11/12") })
        // a closes it: the page again.
        try session.send("a")
        #expect(session.waitFor { $0.line(15).hasPrefix("February 2024  [month page]") })
        #expect(M.waitForPage(session))
        // Open again, move to March (no events there), close with Esc.
        try session.send("an")
        #expect(session.waitFor { $0.line(15).hasPrefix("agenda of March 2024") && $0.contains("(no events this month)") })
        try session.send("\u{1B}")
        #expect(session.waitFor { $0.line(15).hasPrefix("March 2024  [month page]") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    /// Without events `a` says how to get some, and the page is the one without events.
    @Test func agendaWithoutEvents() throws {
        let session = try P.start([], columns: 80, rows: 24, environment: M.utf8)
        #expect(M.waitForPage(session))
        try session.send("a")
        #expect(session.waitFor { $0.contains("no events: start infcal with --events FILE") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
