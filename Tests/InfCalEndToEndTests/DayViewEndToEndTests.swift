import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import Testing

/// The day view at a real pseudo-terminal, at 80x24 and 200x60: a multi-day event, a long
/// description, scrolling, moving to the next day and closing. The events are khal's
/// `tests/ics/event_dt_long.ics` and `event_d_long.ics` (github.com/pimutils/khal) with a
/// description added, and twelve meetings on the same day, so that the view scrolls.
@Suite struct DayViewEndToEndTests {
    typealias P = PagerEndToEndTests

    static func eventsFile() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/khal/long-events.ics")
        var text = try String(contentsOf: fixture, encoding: .utf8).replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
        for hour in 8..<20 {
            text += "BEGIN:VEVENT\r\nUID:m\(hour)\r\nSUMMARY:Meeting \(hour)\r\nDTSTART:20140410T\(hour)1500\r\n"
                + "DTEND:20140410T\(hour)4500\r\nDESCRIPTION:Agenda of meeting \(hour)\\nand notes\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        // A name of its own per call: the two sizes run at once and each deletes its file.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-dayview-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: url)
        return url
    }

    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]

    @Test(arguments: sizes)
    func opensScrollsMovesAndCloses(size: TerminalSize) throws {
        let file = try Self.eventsFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let session = try P.start(["--events", file.path, "--from", "2014-04"], columns: size.columns, rows: size.rows,
                                  environment: MonthPageEndToEndTests.utf8, firstFrame: "April 2014")
        let status = { (screen: TerminalScreen) in screen.line(screen.rows - 1) }
        try session.send("g2014-04-10\r\r")
        // Waits for the whole frame: the status line is its last line written.
        #expect(session.waitFor { $0.contains("Thursday 10 April 2014") && $0.contains("day 2 of 3") && status($0).contains("Enter or Esc closes") },
                "\(session.screen.text)")
        #expect(session.screen.contains("> all day, 2014-04-09 → 2014-04-11  Another Event"))
        #expect(session.screen.contains("2014-04-09 09:30 → 2014-04-12 10:30  An Event"))
        #expect(session.screen.contains("First line of a long description"))
        #expect(status(session.screen).contains("Enter or Esc closes"))
        // 2 + 12 events, with their details, are taller than either screen: it scrolls.
        #expect(session.waitFor { status($0).contains("lines 1-") })
        try session.send(" ")
        #expect(session.waitFor { !status($0).contains("lines 1-") && status($0).contains("lines ") })
        try session.send("b")
        #expect(session.waitFor { status($0).contains("lines 1-") })
        // j goes from event to event: the highlight marker moves to the second.
        try session.send("j")
        #expect(session.waitFor { $0.contains("> 2014-04-09 09:30 → 2014-04-12 10:30  An Event") })
        // The next day.
        try session.send("l")
        #expect(session.waitFor { $0.contains("Friday 11 April 2014") && $0.contains("day 3 of 4") })
        #expect(!session.screen.contains("Meeting 9"))
        try session.send("p")
        #expect(session.waitFor { $0.contains("Thursday 10 April 2014") })
        // Esc closes, Enter opens again and closes.
        try session.send([0x1B])
        #expect(session.waitFor { !$0.contains("Thursday 10 April 2014") && status($0).hasPrefix("April 2014  [month page]") })
        #expect(session.screen.contains("[10]"))
        try session.send("\r")
        #expect(session.waitFor { $0.contains("Thursday 10 April 2014") })
        try session.send("\r")
        #expect(session.waitFor { !$0.contains("Thursday 10 April 2014") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test func withoutEventsItSaysHowToAddSome() throws {
        let session = try P.start([])
        try session.send("\r")
        #expect(session.waitFor { $0.contains("Thursday 15 February 2024") && $0.contains("--events FILE") })
    }

    @Test func aClickOnADayOpensItWithMouse() throws {
        let session = try P.start(["--mouse"])
        // At 80x24 the page's cells are 11 wide and 3 high, the grid's top line on screen line 3
        // and its left line in column 3 (from 0): the 20th (Tuesday, the fourth week) has its
        // number on line 3 + 3 * 3 + 1 = 13, and column 3 + 2 * 11 + 5 is inside its cell. The
        // report counts from 1. A click on a line of the grid opens nothing.
        try session.send("\u{1B}[<0;\(3 + 2 * 11 + 1 + 1);\(3 + 3 * 3 + 1)M")
        // Keys are read in order: once `n` shows the next month's page, the click before it
        // was read, and opened nothing (in a day view `n` is the next day). `p` comes back.
        try session.send("n")
        #expect(session.waitFor { $0.line($0.rows - 1).hasPrefix("March 2024  [month page]") }, "\(session.screen.text)")
        #expect(!session.screen.contains("February 2024  lines") && !session.screen.contains("Tuesday 20"))
        try session.send("p")
        #expect(session.waitFor { $0.line($0.rows - 1).hasPrefix("February 2024  [month page]") }, "\(session.screen.text)")
        try session.send("\u{1B}[<0;\(3 + 2 * 11 + 5 + 1);\(13 + 1)M")
        #expect(session.waitFor { $0.contains("Tuesday 20 February 2024") }, "\(session.screen.text)")
    }
}
