import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

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

    @Test func stripOfOneColumnAt80x24() throws {
        let frame = F.view().frame(for: try F.state(view: .strip), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines.count == 24)
        // Two rows of one month fit 23 lines: 17 lines high, left (80-20)/2, top (23-17)/2.
        let left = String(repeating: " ", count: 30)
        #expect(frame.lines[2] == "")
        #expect(frame.lines[3] == left + "   February 2024")
        #expect(frame.lines[4] == left + "Su Mo Tu We Th Fr Sa")
        #expect(frame.lines[5] == left + "             1  2  3")
        #expect(frame.lines[9] == left + "25 26 27 28 29")
        #expect(frame.lines[10] == "" && frame.lines[11] == "")
        #expect(frame.lines[12] == left + "     March 2024")
        #expect(frame.lines[23] == "February 2024 - March 2024  [strip]" + String(repeating: " ", count: 14)
                + "n next  v view  ? help  q quit")
        #expect(frame.cursor == nil)
    }

    @Test func titleStaysPutForShortAndLongMonths() throws {
        var state = try F.state(start: (2015, 2), view: .strip) // four weeks
        let view = F.view()
        let size = TerminalSize(columns: 40, rows: 20)
        let short = view.frame(for: state, size: size)
        F.type("g2024-03", into: &state)         // six weeks
        _ = state.handle(.enter)
        let long = view.frame(for: state, size: size)
        #expect(short.lines.firstIndex { $0.contains("February 2015") } == long.lines.firstIndex { $0.contains("March 2024") })
    }

    @Test func oddSizesCentreDownAndLeft() throws {
        let frame = F.view().frame(for: try F.state(view: .strip), size: TerminalSize(columns: 21, rows: 10))
        // One spare column goes right, one spare row (10 - 1 - 8) goes below.
        #expect(frame.lines[0] == "   February 2024")
        #expect(frame.lines[8] == "")
        #expect(frame.lines[9].hasPrefix("February 2024"))
    }

    /// The message fits the width and names only the dimension that is short (the issue saw
    /// "terminal too small: 20x9 needed, 40x8 he" and 64 columns asked for at 100x8).
    @Test(arguments: [(19, 24, "need 20 columns"), (80, 8, "terminal too short: 9 lines needed, 8 here"),
                      (100, 8, "terminal too short: 9 lines needed, 8 here"), (40, 8, "too short: 9 lines needed"),
                      (5, 1, "20x9"), (15, 6, "need 20x9"), (1, 30, "2")])
    func tooSmallShowsOneLine(columns: Int, rows: Int, message: String) throws {
        for view in PagerState.View.allCases {
            let frame = F.view().frame(for: try F.state(view: view), size: TerminalSize(columns: columns, rows: rows))
            #expect(frame.lines.count == rows)
            #expect(frame.lines[0] == message)
            #expect(frame.lines.dropFirst().allSatisfy { $0.isEmpty })
            #expect(visibleWidth(frame.lines[0]) <= (rows == 1 ? columns - 1 : columns))
        }
    }

    @Test func smallestThatFits() throws {
        let frame = F.view().frame(for: try F.state(view: .strip), size: TerminalSize(columns: 20, rows: 9))
        #expect(frame.lines[0] == "   February 2024")
        // No hint fits in the 19 cells the status line may take, nor the view's name.
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
        // The strip fills the screen: no limit of three.
        #expect(view.columnCount(width: 300) == 13)
        #expect(F.view(columns: 5).columnCount(width: 80) == 5)
        let frame = view.frame(for: try F.state(view: .strip), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines[3].contains("February 2024") && frame.lines[3].contains("April 2024"))
        #expect(frame.lines[12].contains("May 2024") && frame.lines[12].contains("July 2024"))
        #expect(frame.lines[23].hasPrefix("February 2024 - July 2024  [strip]  "))
        // Four fixed columns need 86 cells: only the width is short.
        let four = F.view(columns: 4).frame(for: try F.state(view: .strip), size: TerminalSize(columns: 80, rows: 24))
        #expect(four.lines[0] == "terminal too narrow: 86 columns needed, 80 here")
    }

    @Test func positionAcrossAYear() throws {
        let frame = F.view(columns: 3).frame(for: try F.state(start: (2024, 12), view: .strip), size: TerminalSize(columns: 100, rows: 12))
        #expect(frame.lines[11].hasPrefix("December 2024 - February 2025  [strip]"))
        // A range is two titles and a dash, in every locale: no English glue words.
        let japanese = MonthRenderer(names: CalendarNames(locale: Locale(identifier: "ja_JP"), calendar: F.gregorian),
                                     calendar: F.gregorian, firstWeekday: 1)
        let view = PagerView(renderer: japanese, highlightToday: false, columns: 3, box: .unicode)
        let line = view.frame(for: try F.state(start: (2024, 1), view: .strip), size: TerminalSize(columns: 100, rows: 12)).lines[11]
        #expect(line.hasPrefix("2024年1月 – 2024年3月  [strip]"))
    }

    @Test func atTheUpperBoundFewerMonthsShow() throws {
        let frame = F.view(columns: 3).frame(for: try F.state(until: (2024, 3, 1), view: .strip), size: TerminalSize(columns: 80, rows: 24))
        #expect(frame.lines.joined().contains("March 2024"))
        #expect(!frame.lines.joined().contains("April"))
    }

    @Test func todayIsHighlightedAndFollowsTheDate() throws {
        var state = try F.state()
        let size = TerminalSize(columns: 40, rows: 12)
        // ECMA-48: SGR 4/24 underline on/off (today), 7/27 reverse on/off (the selected day).
        let (underline, noUnderline, reverse, noReverse) = ("\u{1B}[4m", "\u{1B}[24m", "\u{1B}[7m", "\u{1B}[27m")
        let before = F.view(highlight: true).frame(for: state, size: size)
        // Today is selected when the pager opens on its month.
        #expect(before.lines.contains { $0.contains(underline + reverse + "15" + noReverse + noUnderline) })
        state.setToday(try F.day(2024, 2, 16))
        let after = F.view(highlight: true).frame(for: state, size: size)
        #expect(after.lines.contains { $0.contains(" " + underline + "16" + noUnderline) })
        #expect(after.lines.contains { $0.contains(" " + reverse + "15" + noReverse + " ") })
        // Only the week holding both days changes.
        #expect(zip(before.lines, after.lines).filter { $0 != $1 }.count == 1)
        // Without colour the attributes stay: they are not colours.
        let plain = F.view(highlight: false).frame(for: state, size: size)
        #expect(plain == after)
    }

    @Test func statusLineShowsMessagesAndCounts() throws {
        var state = try F.state(until: (2024, 2, 29))
        let size = TerminalSize(columns: 80, rows: 24)
        F.type("n", into: &state)
        let bound = F.view().frame(for: state, size: size).lines[23]
        #expect(bound.hasPrefix("no later month  ") && bound.hasSuffix("  n next  v view  ? help  q quit"))
        F.type("12", into: &state)
        #expect(F.view().frame(for: state, size: size).lines[23].hasPrefix("February 2024  count: 12  [month page]  "))
        F.type("3456", into: &state)
        #expect(F.view().frame(for: state, size: size).lines[23].hasPrefix("February 2024  count: 9999 (capped)   "))
    }

    /// The hints depend on the width alone: the same set, at the same place, for every month
    /// and view (the issue saw "g go to" come and go as the title's length changed).
    @Test(arguments: [40, 60, 80, 100, 120, 200])
    func hintsAreStableForAWidth(columns: Int) throws {
        var hints: Set<String> = []
        for (start, view) in [((2024, 2), PagerState.View.monthPage), ((2024, 9), .monthPage), ((2024, 9), .strip), ((2024, 5), .yearPage)] {
            let line = F.view(columns: nil).frame(for: try F.state(start: start, view: view), size: TerminalSize(columns: columns, rows: 30)).lines[29]
            hints.insert(String(line.suffix(PagerView.hints(width: columns - 1).count)))
            #expect(visibleWidth(line) == columns - 1 || PagerView.hints(width: columns - 1).isEmpty)
        }
        #expect(hints.count == 1)
        #expect(hints.first == PagerView.hints(width: columns - 1))
    }

    @Test func statusLineDropsHintsThatDoNotFit() throws {
        let state = try F.state()
        let line = F.view().frame(for: state, size: TerminalSize(columns: 40, rows: 10)).lines[9]
        #expect(line == "February 2024" + String(repeating: " ", count: 12) + "? help  q quit")
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
        let frame = F.view().frame(for: state, size: TerminalSize(columns: 120, rows: 40))
        let text = frame.lines.joined(separator: "\n")
        for binding in PagerBindings.all {
            #expect(text.contains(binding.summary))
            #expect(text.contains(binding.keys.map(\.name).joined(separator: " ")))
        }
        #expect(frame.lines[39] == "Press any key to return")
        #expect(!text.contains("February 2024"))
        #expect(text.contains("Keys (showing the month page; v shows the next view)"))
        // At 80 columns each key's line holds its summary, all summaries in one column.
        let rows = view80(state).filter { line in PagerBindings.all.contains { line.hasSuffix("  " + $0.summary) } }
        #expect(rows.count == PagerBindings.all.count)
        #expect(Set(rows.map { line in PagerBindings.all.first { line.hasSuffix($0.summary) }.map { line.count - $0.summary.count } ?? 0 }).count == 1)
        // A narrow help puts the keys on a line and what they do under them.
        let narrow = F.view().helpLines(width: 30, view: .monthPage)
        #expect(narrow.contains("  j Down") && narrow.contains { $0.hasPrefix("    select a week later") })
    }

    /// The help is shown whole whenever its lines fit the screen: with the blank lines between
    /// its parts where they fit, without them where only that fits, on the status line's row
    /// too where it is one line short (its own last line says how to leave), and scrolled
    /// (`lines 1-R of N`) only beyond that. Sizes from the table's own line counts at 80
    /// columns, so that the test holds as keys join the table.
    @Test func helpFitsTheScreenWhenItsLinesDo() throws {
        var state = try F.state()
        F.type("?", into: &state)
        let view = F.view()
        let full = view.helpLines(width: 80, view: .monthPage)
        let written = full.filter { !$0.isEmpty }
        func frame(rows: Int) -> [String] {
            let size = TerminalSize(columns: 80, rows: rows)
            state.room = view.room(for: state, size: size)
            return view.frame(for: state, size: size).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let roomy = frame(rows: full.count + 1)
        #expect(roomy.last == "Press any key to return")
        #expect(roomy.filter { !$0.isEmpty }.count == written.count + 1)
        #expect(state.room.scrollLimit == 0)
        let compact = frame(rows: written.count + 1)
        #expect(compact.last == "Press any key to return")
        #expect(Array(compact.dropLast()) == written.map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(state.room.scrollLimit == 0)
        let tight = frame(rows: written.count)
        #expect(tight == written.map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(tight.last == "Any other key leaves this help.")
        #expect(state.room.scrollLimit == 0)
        // Shorter than that, the keys in two columns with their short summaries, whole where
        // they fit (80x24 among those sizes), the status line's row too where they need it.
        let twoColumns = try #require(view.compactHelpLines(width: 80, view: .monthPage)).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(twoColumns.count <= 24)
        for rows in [written.count - 1, 24, twoColumns.count] {
            let shown = frame(rows: rows)
            let expected = twoColumns.filter { !$0.isEmpty } + (twoColumns.count < rows ? ["Press any key to return"] : [])
            #expect(shown.filter { !$0.isEmpty } == expected, "\(rows) rows")
            #expect(state.room.scrollLimit == 0)
        }
        #expect(frame(rows: twoColumns.count).last == "Any other key leaves this help.")
        // Shorter still, the full help scrolls.
        let short = frame(rows: twoColumns.count - 1)
        #expect(short.last == "lines 1-\(twoColumns.count - 2) of \(written.count): j, k, Space, b scroll; any other key returns")
        #expect(state.room.scrollLimit == written.count - (twoColumns.count - 2))
    }

    /// The two columns hold every binding's keys and short summary (each short one within
    /// `PagerBindings.shortSummaryWidth`), and every note.
    @Test func theTwoColumnHelpHoldsEveryKey() throws {
        let lines = try #require(F.view().compactHelpLines(width: 80, view: nil))
        for binding in PagerBindings.all {
            #expect(DisplayWidth.of(binding.short) <= PagerBindings.shortSummaryWidth, "\(binding.action)")
            let keys = PagerBindings.keyNames(binding)
            #expect(lines.contains { line in
                guard let found = line.range(of: keys + "  ") else { return false }
                return line[found.upperBound...].drop { $0 == " " }.hasPrefix(binding.short)
            }, "\(binding.action)")
        }
        let words = Set(lines.joined(separator: " ").split(separator: " "))
        for note in PagerBindings.helpNotes { for word in note.split(separator: " ") { #expect(words.contains(word), "\(word)") } }
        #expect(lines.last == PagerBindings.helpNotes.last)
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(line)") }
        #expect(F.view().compactHelpLines(width: 60, view: nil) == nil)
    }

    func view80(_ state: PagerState) -> [String] {
        F.view().frame(for: state, size: TerminalSize(columns: 80, rows: 40)).lines.map { $0.trimmingCharacters(in: .whitespaces) == "" ? "" : $0 }
    }

    /// On a narrow, short screen the help wraps to the width and scrolls (the issue saw it cut
    /// off): every word of it can be reached, and no line is wider than the screen.
    @Test func helpWrapsAndScrollsOnASmallScreen() throws {
        var state = try F.state()
        let view = F.view()
        let size = TerminalSize(columns: 30, rows: 12)
        F.type("?", into: &state)
        var seen: [String] = []
        for _ in 0..<200 {
            state.room = view.room(for: state, size: size)
            let frame = view.frame(for: state, size: size)
            for line in frame.lines { #expect(visibleWidth(line) <= 30) }
            seen += frame.lines.dropLast()
            #expect(frame.lines[11].hasPrefix("lines "))
            if frame.lines[11].contains("-\(view.helpLines(width: 30, view: .monthPage, rows: 11).count) of") { break }
            _ = state.handle(.character("j"))
        }
        #expect(state.screen == .help)
        let words = Set(seen.joined(separator: " ").split(separator: " "))
        for row in PagerBindings.helpRows {
            for word in row.text.split(separator: " ") { #expect(words.contains(word), "\(word)") }
        }
        // Space pages back up with b; q leaves.
        _ = state.handle(.character("b"))
        _ = state.handle(.character("q"))
        #expect(state.screen == .months)
    }

    @Test(arguments: [(20, 9), (30, 12), (80, 24), (200, 50), (64, 9), (41, 30)])
    func everyLineFitsTheScreen(columns: Int, rows: Int) throws {
        var state = try F.state()
        for keys in ["", "?", "g2024-02-1", "99", "v", "vv", "vvj"] {
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

/// The status line's messages are never cut: the key hints give way to them.
@Suite struct StatusLineMessageTests {
    @Test func aLongErrorPushesTheHintsAside() throws {
        var state = try PagerFixture.state()
        PagerFixture.type("gmarch 2030", into: &state)
        _ = state.handle(.enter)
        let line = PagerFixture.view().frame(for: state, size: TerminalSize(columns: 80, rows: 24)).lines[23]
        #expect(line == "not a date: 'march 2030' (YYYY-MM or YYYY-MM-DD)")
        // A short message keeps the hints.
        PagerFixture.type("999N", into: &state)
        _ = state.handle(.escape)
        PagerFixture.type("h", into: &state)
        let short = PagerFixture.view().frame(for: state, size: TerminalSize(columns: 80, rows: 24)).lines[23]
        #expect(short.hasSuffix("q quit"))
    }
}
