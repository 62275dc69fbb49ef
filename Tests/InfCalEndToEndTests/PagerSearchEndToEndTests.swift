import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalPager
import InfCalPTY
import Testing

/// The pager's search at a real pseudo-terminal, at 80x24 and 200x60: `/` finds the next day
/// with a match, `f` and `F` go on and back, a search that finds nothing says so, and Esc stops
/// a long one. The days are expanded by hand from Tests/Fixtures/search/search.ics (see its
/// README); the selected day is the one reverse-video run on the screen.
@Suite struct PagerSearchEndToEndTests {
    typealias P = PagerEndToEndTests
    typealias S = PagerSelectionEndToEndTests

    static func start(_ events: String, size: TerminalSize) throws -> PseudoTerminalSession {
        try P.start(["--no-cache", "--events", events, "--color", "never"], columns: size.columns, rows: size.rows)
    }

    static func status(_ screen: TerminalScreen) -> String { screen.line(screen.rows - 1) }

    @Test(arguments: S.sizes)
    func forwardAndBackward(size: TerminalSize) throws {
        let session = try Self.start(SearchEndToEndTests.fixture, size: size)
        try S.press("/DENTIST\r", in: session, title: "March 2024", day: 5)
        try S.press("f", in: session, title: "March 2024", day: 12)
        try S.press("f", in: session, title: "April 2024", day: 5)
        try S.press("F", in: session, title: "March 2024", day: 12)
        // Across years: the yearly rule's next day is a year on.
        try S.press("/zahnarztin\r", in: session, title: "April 2024", day: 10)
        try S.press("f", in: session, title: "April 2025", day: 10)
        try S.press("F", in: session, title: "April 2024", day: 10)
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test(arguments: S.sizes)
    func nothingFound(size: TerminalSize) throws {
        let session = try Self.start(SearchEndToEndTests.fixture, size: size)
        try session.send("/nobody\r")
        #expect(session.waitFor { Self.status($0).hasPrefix("no later match for 'nobody'") },
                "\(session.screen.text)")
        #expect(session.screen.reversedTexts == ["15"])
        // After the last of the yearly rule's days (UNTIL 2026-04-10) nothing can match.
        try session.send("g2026-05-01\r/zahn\r")
        #expect(session.waitFor { Self.status($0).hasPrefix("no later match for 'zahn'") }, "\(session.screen.text)")
        try S.press("F", in: session, title: "April 2026", day: 10)
    }

    /// A rule that matches and next occurs after 10,000 years (every 20,000 years from 2023):
    /// 10,000 years are looked at, then the message names the year of the horizon; Esc typed
    /// with the search stops it.
    @Test(arguments: S.sizes)
    func horizonAndEsc(size: TerminalSize) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-search-\(getpid())-\(size.columns)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("never.ics")
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:n\r\nSUMMARY:Never\r\nDTSTART;VALUE=DATE:20230301\r\n"
                  + "RRULE:FREQ=YEARLY;INTERVAL=20000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8).write(to: file)
        let session = try Self.start(file.path, size: size)
        // Esc in the same write as Enter: the pager reads it after the first slice.
        try session.send("/never\r\u{1B}")
        #expect(session.waitFor { Self.status($0).hasPrefix("search stopped") }, "\(session.screen.text)")
        #expect(session.screen.reversedTexts == ["15"] && P.title(session.screen) == "February 2024")
        try session.send("f")
        #expect(session.waitFor(timeout: 60) { Self.status($0).hasPrefix("no match for 'never' before 12024") },
                "\(session.screen.text)")
        #expect(session.screen.reversedTexts == ["15"])
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
