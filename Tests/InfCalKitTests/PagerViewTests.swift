import Testing
@testable import InfCalKit

/// The width of `line` on screen: escape sequences take no cells.
func visibleWidth(_ line: String) -> Int {
    var width = 0
    var inEscape = false
    for scalar in line.unicodeScalars {
        if inEscape {
            if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
        } else if scalar == "\u{1B}" {
            inEscape = true
        } else {
            width += DisplayWidth.of(scalar)
        }
    }
    return width
}

@Suite struct PagerViewTests {
    typealias F = PagerFixture

    @Test func oneMonthCentredAt80x24() throws {
        let frame = F.view().frame(for: try F.state(), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines.count == 24)
        // 20 cells wide, 8 lines high, above a status line: left (80-20)/2, top (23-8)/2.
        let left = String(repeating: " ", count: 30)
        #expect(frame.lines[6] == "")
        #expect(frame.lines[7] == left + "   February 2024")
        #expect(frame.lines[8] == left + "Su Mo Tu We Th Fr Sa")
        #expect(frame.lines[9] == left + "             1  2  3")
        #expect(frame.lines[13] == left + "25 26 27 28 29")
        #expect(frame.lines[14] == "")
        #expect(frame.lines[23] == "February 2024   n next  p previous  t today  g go to  ? help  q quit")
        #expect(frame.cursor == nil)
    }

    @Test func titleStaysPutForShortAndLongMonths() throws {
        var state = try F.state(start: (2015, 2)) // four weeks
        let view = F.view()
        let size = TerminalSize(columns: 40, rows: 20)
        let short = view.frame(for: state, size: size)
        F.type("g2024-03", into: &state)         // six weeks
        _ = state.handle(.enter)
        let long = view.frame(for: state, size: size)
        #expect(short.lines.firstIndex { $0.contains("February 2015") } == long.lines.firstIndex { $0.contains("March 2024") })
    }

    @Test func oddSizesCentreDownAndLeft() throws {
        let frame = F.view().frame(for: try F.state(), size: TerminalSize(columns: 21, rows: 10))
        // One spare column goes right, one spare row (10 - 1 - 8) goes below.
        #expect(frame.lines[0] == "   February 2024")
        #expect(frame.lines[8] == "")
        #expect(frame.lines[9].hasPrefix("February 2024"))
    }

    @Test(arguments: [(19, 24), (80, 8), (5, 1), (1, 30)])
    func tooSmallShowsOneLine(columns: Int, rows: Int) throws {
        let frame = F.view().frame(for: try F.state(), size: TerminalSize(columns: columns, rows: rows))
        #expect(frame.lines.count == rows)
        #expect("terminal too small: 20x9 needed, \(columns)x\(rows) here".hasPrefix(frame.lines[0]))
        #expect(frame.lines.dropFirst().allSatisfy { $0.isEmpty })
        #expect(visibleWidth(frame.lines[0]) <= (rows == 1 ? columns - 1 : columns))
    }

    @Test func smallestThatFits() throws {
        let frame = F.view().frame(for: try F.state(), size: TerminalSize(columns: 20, rows: 9))
        #expect(frame.lines[0] == "   February 2024")
        // No hint fits in the 19 cells the status line may take.
        #expect(frame.lines[8] == "February 2024")
        let message = F.view().frame(for: try F.state(start: (2024, 9)), size: TerminalSize(columns: 20, rows: 9))
        #expect(message.lines[8] == "September 2024")
    }

    @Test func automaticColumnsFollowTheWidth() throws {
        let view = F.view(columns: nil)
        #expect(view.columnCount(width: 19) == 1)
        #expect(view.columnCount(width: 41) == 1)
        #expect(view.columnCount(width: 42) == 2)
        #expect(view.columnCount(width: 64) == 3)
        #expect(view.columnCount(width: 300) == 3)
        #expect(F.view(columns: 5).columnCount(width: 80) == 5)
        let frame = view.frame(for: try F.state(), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines[7].contains("February 2024") && frame.lines[7].contains("April 2024"))
        #expect(frame.lines[23].hasPrefix("February to April 2024   n next"))
        // Four fixed columns need 86 cells.
        let four = F.view(columns: 4).frame(for: try F.state(), size: TerminalSize(columns: 80, rows: 24))
        #expect(four.lines[0].hasPrefix("terminal too small: 86x9 needed"))
    }

    @Test func positionAcrossAYear() throws {
        let frame = F.view(columns: 3).frame(for: try F.state(start: (2024, 12)), size: TerminalSize(columns: 100, rows: 24))
        #expect(frame.lines[23].hasPrefix("December 2024 to February 2025"))
    }

    @Test func atTheUpperBoundFewerMonthsShow() throws {
        let frame = F.view(columns: 3).frame(for: try F.state(until: (2024, 3, 1)), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines[7].contains("March 2024"))
        #expect(!frame.lines[7].contains("April"))
    }

    @Test func todayIsHighlightedAndFollowsTheDate() throws {
        var state = try F.state()
        let size = TerminalSize(columns: 40, rows: 12)
        let on = MonthRenderer.highlightOn, off = MonthRenderer.highlightOff
        let mark = { (day: String) in String(decoding: on, as: UTF8.self) + day + String(decoding: off, as: UTF8.self) }
        let before = F.view(highlight: true).frame(for: state, size: size)
        #expect(before.lines.contains { $0.contains(mark("15")) })
        state.setToday(try F.day(2024, 2, 16))
        let after = F.view(highlight: true).frame(for: state, size: size)
        #expect(after.lines.contains { $0.contains(mark("16")) })
        #expect(!after.lines.contains { $0.contains(mark("15")) })
        // Only the week holding both days changes.
        #expect(zip(before.lines, after.lines).filter { $0 != $1 }.count == 1)
        let plain = F.view(highlight: false).frame(for: state, size: size)
        #expect(!plain.lines.contains { $0.contains("\u{1B}") })
    }

    @Test func statusLineShowsMessagesAndCounts() throws {
        var state = try F.state(until: (2024, 2, 29))
        let size = TerminalSize(columns: 80, rows: 24)
        F.type("n", into: &state)
        #expect(F.view().frame(for: state, size: size).lines[23].hasPrefix("no later month   n next"))
        F.type("12", into: &state)
        #expect(F.view().frame(for: state, size: size).lines[23].hasPrefix("February 2024  count: 12   "))
    }

    @Test func statusLineDropsHintsThatDoNotFit() throws {
        let state = try F.state()
        let line = F.view().frame(for: state, size: TerminalSize(columns: 40, rows: 10)).lines[9]
        #expect(line == "February 2024   n next  ? help  q quit")
    }

    @Test func promptShowsTheCursorAfterTheText() throws {
        var state = try F.state()
        F.type("g2024-0", into: &state)
        let frame = F.view().frame(for: state, size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines[23] == PagerView.promptLabel + "2024-0")
        #expect(frame.cursor == ScreenPosition(row: 23, column: PagerView.promptLabel.count + 6))
    }

    @Test func helpScreenListsEveryKey() throws {
        var state = try F.state()
        F.type("?", into: &state)
        let frame = F.view().frame(for: state, size: TerminalSize(columns: 80, rows: 24))
        let text = frame.lines.joined(separator: "\n")
        for binding in PagerBindings.all {
            #expect(text.contains(binding.summary))
            #expect(text.contains(binding.keys.map(\.name).joined(separator: " ")))
        }
        #expect(frame.lines[23] == "Press any key to return")
        #expect(!text.contains("February 2024"))
    }

    @Test(arguments: [(20, 9), (30, 12), (80, 24), (200, 50), (64, 9), (41, 30)])
    func everyLineFitsTheScreen(columns: Int, rows: Int) throws {
        var state = try F.state()
        for keys in ["", "?", "g2024-02-1", "99"] {
            state = try F.state()
            F.type(keys, into: &state)
            for view in [F.view(columns: nil, highlight: true), F.view(columns: 2)] {
                let frame = view.frame(for: state, size: TerminalSize(columns: columns, rows: rows))
                #expect(frame.lines.count == rows)
                for line in frame.lines.dropLast() { #expect(visibleWidth(line) <= columns) }
                #expect(visibleWidth(frame.lines[rows - 1]) < columns)
            }
        }
    }
}

@Suite struct FrameDiffTests {
    static let size = TerminalSize(columns: 10, rows: 3)

    func frame(_ lines: [String], cursor: ScreenPosition? = nil) -> Frame {
        var frame = Frame(size: Self.size)
        frame.lines = lines
        frame.cursor = cursor
        return frame
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func firstFrameClearsAndWritesEveryLine() {
        let bytes = text(FrameDiff.bytes(from: nil, to: frame(["a", "", "c"])))
        #expect(bytes == "\u{1B}[H\u{1B}[2J" + "\u{1B}[1;1Ha" + "\u{1B}[3;1Hc" + "\u{1B}[?25l")
    }

    @Test func sameFrameWritesNothing() {
        #expect(FrameDiff.bytes(from: frame(["a", "b", "c"]), to: frame(["a", "b", "c"])).isEmpty)
    }

    @Test func onlyChangedLinesAreRewritten() {
        let bytes = text(FrameDiff.bytes(from: frame(["a", "b", "c"]), to: frame(["a", "B", "c"])))
        #expect(bytes == "\u{1B}[2;1H\u{1B}[2K" + "B" + "\u{1B}[?25l")
        let emptied = text(FrameDiff.bytes(from: frame(["a", "b", "c"]), to: frame(["a", "", "c"])))
        #expect(emptied == "\u{1B}[2;1H\u{1B}[2K" + "\u{1B}[?25l")
    }

    @Test func cursorAloneIsAChange() {
        let bytes = text(FrameDiff.bytes(from: frame(["a", "b", "c"]), to: frame(["a", "b", "c"], cursor: ScreenPosition(row: 2, column: 1))))
        #expect(bytes == "\u{1B}[3;2H\u{1B}[?25h")
    }

    @Test func newSizeRedrawsEverything() {
        var bigger = Frame(size: TerminalSize(columns: 12, rows: 3))
        bigger.lines = ["a", "b", "c"]
        let bytes = text(FrameDiff.bytes(from: frame(["a", "b", "c"]), to: bigger))
        #expect(bytes.hasPrefix("\u{1B}[H\u{1B}[2J"))
        #expect(bytes.contains("\u{1B}[2;1Hb"))
    }
}
