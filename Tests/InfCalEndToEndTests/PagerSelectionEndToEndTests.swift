import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import Testing

/// The selected day at a real pseudo-terminal, at 80x24 and 200x60: moving, turning pages,
/// bounds, counts and resizes. The selected day is the one reverse-video run on the screen
/// (its number also stands in brackets on the month page); without colour it is the same.
/// Expected days are Python's `datetime.date` arithmetic.
@Suite struct PagerSelectionEndToEndTests {
    typealias P = PagerEndToEndTests

    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]

    /// Types `keys` and waits until the title reads `title` and the selected day is `day`.
    static func press(_ keys: String, in session: PseudoTerminalSession, title: String, day: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        try session.send(keys)
        let shown = session.waitFor { P.title($0) == title && $0.reversedTexts == [String(day)] }
        #expect(shown, "after \(keys.debugDescription): \(session.screen.text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: sizes)
    func movesTurnsPagesAndCounts(size: TerminalSize) throws {
        let session = try P.start(["--color", "never"], columns: size.columns, rows: size.rows,
                                  environment: MonthPageEndToEndTests.utf8)
        #expect(session.waitFor { $0.reversedTexts == ["15"] && $0.contains("[15]") })
        try Self.press("l", in: session, title: "February 2024", day: 16)
        // 2024-02-16 + 2 weeks = 2024-03-01: the page turns.
        try Self.press("2j", in: session, title: "March 2024", day: 1)
        try Self.press("h", in: session, title: "February 2024", day: 29)
        try Self.press("\u{1B}[A", in: session, title: "February 2024", day: 22)
        // 2024-02-22 + 40 days = 2024-04-02.
        try Self.press("40l", in: session, title: "April 2024", day: 2)
        try Self.press("n", in: session, title: "May 2024", day: 2)
        try Self.press("t", in: session, title: "February 2024", day: 15)
        try session.send("g2030-07-04\r")
        #expect(session.waitFor { P.title($0) == "July 2030" && $0.reversedTexts == ["4"] })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test(arguments: sizes)
    func stopsAtTheBounds(size: TerminalSize) throws {
        let session = try P.start(["--since", "2024-02-10", "--until", "2024-03-05"], columns: size.columns, rows: size.rows)
        try Self.press("9j", in: session, title: "March 2024", day: 5)
        #expect(session.waitFor { $0.line($0.rows - 1).hasPrefix(PagerState.dayBoundAfter) })
        try Self.press("30h", in: session, title: "February 2024", day: 10)
        #expect(session.waitFor { $0.line($0.rows - 1).hasPrefix(PagerState.dayBoundBefore) })
    }

    @Test(arguments: sizes)
    func theStripKeepsTheSelectionThroughAResize(size: TerminalSize) throws {
        let session = try P.start(["--columns", "1"], columns: size.columns, rows: size.rows)
        // One column, as many rows as fit: 2 months at 24 lines, 6 at 60. The selection moves
        // within them without turning the strip.
        try Self.press("3j", in: session, title: "February 2024", day: 7)
        #expect(session.screen.contains("March 2024"))
        // A terminal too small for two months: the strip turns to keep the selected day.
        session.resize(columns: 40, rows: 12)
        #expect(session.waitFor { P.title($0) == "March 2024" && $0.reversedTexts == ["7"] }, "\(session.screen.text)")
        session.resize(columns: size.columns, rows: size.rows)
        #expect(session.waitFor { P.title($0) == "March 2024" && $0.reversedTexts == ["7"] && $0.contains("April 2024") })
        try Self.press("k", in: session, title: "February 2024", day: 29)
    }
}
