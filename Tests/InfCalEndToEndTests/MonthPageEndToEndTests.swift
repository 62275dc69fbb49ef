import Foundation
import Glibc
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import Testing

/// The month page, the views and the mouse through a real pseudo-terminal. Every run pins
/// `--today` 2024-02-15, TZ=UTC and the locale (C, or C.UTF-8 for box drawing).
@Suite struct MonthPageEndToEndTests {
    typealias P = PagerEndToEndTests
    static let utf8 = ["LC_ALL": "C.UTF-8"]

    /// The columns of the grid's vertical lines on screen line `row`.
    static func bars(_ screen: TerminalScreen, row: Int) -> [Int] {
        var bars: [Int] = []
        for (column, character) in screen.line(row).enumerated() where "│┌┬┐├┼┤└┴┘".contains(character) {
            bars.append(column)
        }
        return bars
    }

    /// Waits until the whole page is on the screen: every line of its grid, as the layout for
    /// the screen's size has them, each with eight lines across, and the status line.
    static func waitForPage(_ session: PseudoTerminalSession) -> Bool {
        session.waitFor { screen in
            guard let layout = MonthPageLayout.filling(TerminalSize(columns: screen.columns, rows: screen.rows - 1),
                                                       numberWidth: 2, weekColumnWidth: 0) else { return false }
            let rows = (0..<screen.rows).map { bars(screen, row: $0) }.filter { !$0.isEmpty }
            return rows.count == layout.height - 2 && rows.allSatisfy { $0.count == 8 } && !screen.line(screen.rows - 1).isEmpty
        }
    }

    /// Checks that the screen shows a month page filling it: seven equal columns and six equal
    /// week rows, the margins left and right (above and below) differing by at most one.
    static func expectFilledPage(_ screen: TerminalScreen, title: String = "February 2024", sourceLocation: SourceLocation = #_sourceLocation) {
        let columns = screen.columns, rows = screen.rows
        let gridRows = (0..<rows).filter { !bars(screen, row: $0).isEmpty }
        guard let first = gridRows.first, let last = gridRows.last else {
            Issue.record("no grid: \(screen.text)", sourceLocation: sourceLocation)
            return
        }
        let edges = bars(screen, row: first)
        #expect(edges.count == 8, "\(edges)", sourceLocation: sourceLocation)
        let widths = Set(zip(edges, edges.dropFirst()).map { $1 - $0 })
        #expect(widths.count == 1, "unequal columns \(edges)", sourceLocation: sourceLocation)
        for row in gridRows { #expect(bars(screen, row: row) == edges, "row \(row)", sourceLocation: sourceLocation) }
        // Spans the screen: less than a column's width left, split evenly.
        let left = edges[0], right = columns - 1 - edges[7]
        #expect(abs(left - right) <= 1 && left + right < (widths.first ?? 0) + 7, "margins \(left), \(right)", sourceLocation: sourceLocation)
        // Six week rows: seven rules, evenly spaced; title and names above, status below.
        let rules = gridRows.filter { screen.line($0).contains("─") }
        #expect(rules.count == 7, sourceLocation: sourceLocation)
        let heights = Set(zip(rules, rules.dropFirst()).map { $1 - $0 })
        #expect(heights.count == 1, sourceLocation: sourceLocation)
        let above = first - 2, below = rows - 2 - last
        #expect(above >= 0 && abs(above - below) <= 1 && above + below < (heights.first ?? 0) + 6,
                "margins \(above), \(below)", sourceLocation: sourceLocation)
        #expect(screen.line(first - 2).trimmingCharacters(in: .whitespaces) == title, sourceLocation: sourceLocation)
        #expect(screen.line(first - 1).contains("Th"), sourceLocation: sourceLocation)
        // A narrow status line has room for the month alone.
        #expect(screen.line(rows - 1).hasPrefix(title + (columns >= 40 ? "  [month page]" : "")), sourceLocation: sourceLocation)
    }

    @Test(arguments: [(80, 24), (120, 40), (200, 60), (400, 150), (22, 16)])
    func monthPageFillsTheScreen(columns: Int, rows: Int) throws {
        let session = try P.start(["--color", "always"], columns: columns, rows: rows, environment: Self.utf8)
        #expect(Self.waitForPage(session))
        Self.expectFilledPage(session.screen)
        #expect(session.screen.reversedTexts == ["15"])
        if columns >= 80 {
            #expect(session.screen.contains("Wednesday"))
        }
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test func belowTheSmallestPageTheCompactGridThenOneLine() throws {
        let session = try P.start([], columns: 21, rows: 16, environment: Self.utf8)
        #expect(session.waitFor { $0.contains("Su Mo Tu We Th Fr Sa") && !$0.line(15).isEmpty })
        #expect(!session.screen.contains("│"))
        session.resize(columns: 22, rows: 16)
        #expect(Self.waitForPage(session))
        Self.expectFilledPage(session.screen)
        session.resize(columns: 80, rows: 8)
        #expect(session.waitFor { $0.line(0) == "terminal too short: 9 lines needed, 8 here" })
    }

    @Test func resizeLaysThePageOutAgain() throws {
        let session = try P.start([], columns: 80, rows: 24, environment: Self.utf8)
        #expect(Self.waitForPage(session))
        Self.expectFilledPage(session.screen)
        let before = Self.bars(session.screen, row: 3)
        session.resize(columns: 120, rows: 40)
        #expect(Self.waitForPage(session))
        Self.expectFilledPage(session.screen)
        #expect(Self.bars(session.screen, row: session.screen.rows - 3) != before)
    }

    @Test func vCyclesTheViews() throws {
        let session = try P.start([], columns: 100, rows: 40, environment: Self.utf8)
        #expect(session.waitFor { $0.line(39).hasPrefix("February 2024  [month page]") })
        try session.send("v")
        #expect(session.waitFor { $0.line(39).contains("[strip]") && $0.contains("Su Mo Tu") && $0.contains("May 2025") })
        try session.send("v")
        #expect(session.waitFor { $0.line(39).hasPrefix("2024  [year page]") && $0.contains("December") })
        try session.send("n")
        #expect(session.waitFor { $0.line(39).hasPrefix("2025  [year page]") })
        try session.send("v")
        #expect(session.waitFor { $0.line(39).hasPrefix("2025-02-09 – 15  [week]") && $0.contains("Saturday 15") })
        try session.send("v")
        #expect(session.waitFor { $0.line(39).hasPrefix("February 2025  [month page]") })
        #expect(Self.waitForPage(session))
        Self.expectFilledPage(session.screen, title: "February 2025")
    }

    @Test func stripPagesByScreenfulsAndTheYearPageScrolls() throws {
        // --columns 3 opens the strip: three a row, two rows at 80x24.
        let session = try P.start(["--columns", "3"])
        #expect(session.waitFor { $0.line(23).hasPrefix("February 2024 - July 2024  [strip]") })
        try session.send(" ")
        #expect(session.waitFor { $0.line(23).hasPrefix("August 2024 - January 2025  [strip]") })
        try session.send("b")
        #expect(session.waitFor { $0.line(23).hasPrefix("February 2024 - July 2024  [strip]") })
        try session.send("v")
        #expect(session.waitFor { $0.line(23).hasPrefix("2024  [year page]  lines 1-23/36") })
        // 30 weeks after 2024-02-15 is 2024-09-12 (Python's datetime), on the screen's last
        // line; a week later the page scrolls a line.
        try session.send("30j")
        #expect(session.waitFor { $0.line(23).hasPrefix("2024  [year page]  lines 1-23/36") && $0.reversedTexts == ["12"] })
        try session.send("j")
        #expect(session.waitFor { $0.line(23).hasPrefix("2024  [year page]  lines 2-24/36") && $0.reversedTexts == ["19"] },
                "\(session.screen.text)")
    }

    /// Alt+key arrives as Esc and the key in one write: it must not quit.
    @Test func altKeyDoesNotQuit() throws {
        let session = try P.start([])
        try session.send("\u{1B}x")
        try session.send("n")
        #expect(session.waitFor { $0.contains("March 2024  [month page]") })
        #expect(session.exit == nil)
    }

    @Test func helpWrapsAndScrollsOnASmallScreen() throws {
        let session = try P.start([], columns: 30, rows: 12)
        try session.send("?")
        #expect(session.waitFor { $0.line(11).hasPrefix("lines 1-11 of") })
        for line in session.screen.lines { #expect(line.count <= 30) }
        try session.send("j")
        #expect(session.waitFor { $0.line(11).hasPrefix("lines 2-12 of") })
        try session.send("x")
        #expect(session.waitFor { $0.line(11).hasPrefix("February 2024") })
    }

    @Test func goToPromptClearsWithCtrlU() throws {
        let session = try P.start([])
        try session.send("g1999-09")
        #expect(session.waitFor { $0.line(23).hasSuffix("1999-09") })
        try session.send([0x15])
        try session.send("2030-07\r")
        #expect(session.waitFor { $0.contains("July 2030  [month page]") })
    }

    // MARK: The mouse

    @Test func wheelPagesAndQuitSwitchesTheMouseOff() throws {
        let session = try P.start(["--mouse"], environment: Self.utf8)
        #expect(session.screen.reportsMouse)
        try session.send("\u{1B}[<65;40;12M")
        #expect(session.waitFor { $0.contains("March 2024  [month page]") })
        try session.send("\u{1B}[<64;40;12M\u{1B}[<64;40;12M")
        #expect(session.waitFor { $0.contains("January 2024  [month page]") })
        // A click is no key.
        try session.send("\u{1B}[<0;5;5M\u{1B}[<0;5;5m")
        try session.send("vv")
        #expect(session.waitFor { $0.contains("2024  [year page]") })
        try session.send("\u{1B}[<65;40;12M")
        #expect(session.waitFor { $0.contains("2025  [year page]") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
        #expect(!session.screen.reportsMouse)
    }

    @Test func withoutMouseNoReports() throws {
        let session = try P.start([])
        #expect(!session.screen.reportsMouse)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalsSwitchTheMouseOff(_ signal: Int32) throws {
        let session = try P.start(["--mouse"])
        #expect(session.screen.reportsMouse)
        session.signal(signal)
        #expect(session.waitForExit() == .signalled(signal))
        #expect(!session.screen.reportsMouse)
        #expect(!session.screen.usesAlternateScreen)
    }

    @Test func ctrlCAtTheTerminalSwitchesTheMouseOff() throws {
        let session = try P.start(["--mouse"])
        try session.send([0x03])
        #expect(session.waitForExit() == .signalled(SIGINT))
        #expect(!session.screen.reportsMouse)
    }

    @Test func ctrlZSwitchesTheMouseOffAndBackOn() throws {
        let session = try P.start(["--mouse"])
        #expect(try P.ctrlZ(session, writes: TerminalCodes.mouseOff, then: TerminalCodes.mouseOn))
        #expect(session.screen.reportsMouse)
    }

    // MARK: --wall

    @Test func wallIntoAFile() throws {
        let result = try BinaryRunner.run(["--wall", "--from", "2024-03", "--forward", "1", "--today", "2024-03-15"],
                                          environment: ["COLUMNS": "60"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.trimmingCharacters(in: .whitespaces) == "March 2024")
        #expect(lines.dropLast().allSatisfy { $0.count <= 60 })
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(lines.count == 2 + 13 + 1)
    }
}
