import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPTY

/// The week view through the real binary at a pseudo-terminal (`--paged --view week`), at
/// 80x24, 120x40 and 200x60, in the weeks the clocks change in Europe/Berlin (March, October)
/// and America/New_York (March, November): the screen's grid against the week grid's oracle
/// (`Tests/Oracles/week_oracle.py`, Python's `zoneinfo`): for every row its label reads and
/// every day, the bars drawn in the cell are the blocks the oracle puts on that slot (so the
/// blocks' rows match their times: overlapping events side by side, all-day and multi-day
/// ones in the band, one past midnight in the next column), the hour a day lacks shaded, the
/// repeated hour twice; `z` shows the other zone (`--zones`), and the blocks move to where
/// the oracle puts them there; `n` the next week. `--also hebrew`'s headings against
/// convertdate. Skips, saying so, without python3 3.9 or later (or convertdate).
@Suite struct WeekViewEndToEndTests {
    typealias Oracle = WeekOracleTests

    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)]

    /// Starts the pager in the week view on `today` (the week's Sunday, selected), in `zone`,
    /// with `arguments`, at `size`, and waits for the week.
    static func start(_ arguments: [String], today: String, zone: String, size: TerminalSize) throws -> PseudoTerminalSession {
        let environment = PseudoTerminalSession.pinnedEnvironment.merging(["XDG_CACHE_HOME": BinaryRunner.cacheHome, "TZ": zone,
                                                                           "LC_ALL": "C.UTF-8"]) { $1 }
        let session = try PseudoTerminalSession(executable: BinaryRunner.executable.path,
                                                arguments: ["--no-config", "--paged", "--view", "week", "--color", "never", "-m",
                                                            "--today", today] + arguments,
                                                environment: environment, columns: size.columns, rows: size.rows)
        try #require(session.waitFor { Self.status($0).contains("[week]") }, "no week: \(session.screen.text)")
        return session
    }

    static func status(_ screen: TerminalScreen) -> String { screen.line(screen.rows - 1) }

    /// What the screen's grid shows: the minutes a row stands for and the hours its labels
    /// cover (the oracle's question), from the labels down the scale.
    static func scale(_ lines: [String], scaleWidth: Int) -> (step: Int, hours: [Int])? {
        var labelled: [(row: Int, hour: Int)] = []
        for (row, line) in lines.enumerated() {
            let label = line.prefix(scaleWidth).trimmingCharacters(in: .whitespaces)
            if label.count >= 5, label.first?.isNumber == true, let hour = Int(label.prefix(2)) { labelled.append((row, hour)) }
        }
        guard labelled.count >= 2, let first = labelled.first, let last = labelled.last else { return nil }
        return (labelled[1].row - first.row == 2 ? 30 : 60, [first.hour, last.hour + 1])
    }

    /// Compares the screen's week with the oracle for its days shown in `zone`.
    static func compare(_ session: PseudoTerminalSession, days: [Int], zone: String, events: [Oracle.TestEvent],
                        scaleWidth: Int, _ context: String) throws {
        let lines = Array(session.screen.lines.dropLast())
        let (step, hours) = try #require(scale(lines, scaleWidth: scaleWidth), "\(context): no scale in \(session.screen.text)")
        let answer = try #require(try Oracle.oracle([Oracle.Request(zone: zone, days: days.map { ISODate.text(dayNumber: $0) },
                                                                    step: step, hours: hours, events: events)]).first)
        Oracle.compareGrid(lines, answer: answer, days: days, step: step, scaleWidth: scaleWidth, context)
        // The headings: each day's weekday and number (as many letters as the width gives).
        let headings = lines[1].split(separator: "│", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(headings.count == 7, "\(context): \(lines[1])")
        for (heading, expected) in zip(headings, answer.headings) {
            let (name, number) = (expected.split(separator: " ")[0], expected.split(separator: " ")[1])
            #expect(heading.hasSuffix(" " + number) && name.hasPrefix(heading.split(separator: " ")[0]), "\(context): \(heading), \(expected)")
        }
    }

    @Test(.enabled(if: Oracle.hasOracle, "python3 with zoneinfo is not installed; skipping the week view's oracle"),
          arguments: Oracle.weeks.prefix(4))
    func theWeekAtThreeSizes(_ week: Oracle.Week) throws {
        let events = Oracle.events(week)
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:week"] + events.flatMap(\.lines) + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-weekview-\(getpid())-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let monday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: week.monday.0, month: week.monday.1, day: week.monday.2))
        let days = Array(monday..<(monday + 7))
        let scaleWidth = WeekRenderer(renderer: Oracle.renderer(), box: .unicode, clock: .twentyFourHour).scaleWidth
        for size in Self.sizes {
            let context = "\(week) at \(size.columns)x\(size.rows)"
            let session = try Self.start(["--events", file.path, "--zones", week.other], today: ISODate.text(dayNumber: monday + 6),
                                         zone: week.zone, size: size)
            let position = ISODate.text(dayNumber: monday)
            #expect(session.waitFor { Self.status($0).hasPrefix(position) && Self.status($0).contains(week.zone) }, "\(context): \(Self.status(session.screen))")
            try Self.compare(session, days: days, zone: week.zone, events: events, scaleWidth: scaleWidth, context)
            let before = session.screen.lines
            // z: the other zone, the blocks where its clock puts them.
            try session.send("z")
            #expect(session.waitFor { Self.status($0).contains(week.other + "  [week]") }, "\(context): \(Self.status(session.screen))")
            try Self.compare(session, days: days, zone: week.other, events: events, scaleWidth: scaleWidth, context + " in " + week.other)
            #expect(session.screen.lines != before, "\(context): z moved nothing")
            // z again: back; n: the next week, in the events' zone.
            try session.send("zn")
            let next = ISODate.text(dayNumber: monday + 7)
            #expect(session.waitFor { Self.status($0).hasPrefix(next) && Self.status($0).contains(week.zone + "  [week]") },
                    "\(context): \(Self.status(session.screen))")
            try Self.compare(session, days: Array((monday + 7)..<(monday + 14)), zone: week.zone, events: events, scaleWidth: scaleWidth,
                             context + ", the next week")
            try session.send("q")
            #expect(session.waitForExit() == .exited(0))
        }
    }

    /// The headings with `--also hebrew`: under each day's weekday and number, its Hebrew
    /// date as PyPI's convertdate has it; the title names the Hebrew months the week spans.
    @Test(.enabled(if: AlsoCalendarTests.hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the Hebrew headings"),
          arguments: [TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)])
    func hebrewHeadings(size: TerminalSize) throws {
        // The week of Rosh Hashanah 5785 (2024-10-03), Tishri after Elul.
        let session = try Self.start(["--also", "hebrew"], today: "2024-10-04", zone: "UTC", size: size)
        #expect(session.waitFor { Self.status($0).hasPrefix("2024-09-30") })
        let table = try AlsoCalendarTests.oracle("hebrew", first: (2024, 9, 30), count: 7)
        let headings = session.screen.line(2).split(separator: "│", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(headings.count == 7, "\(session.screen.text)")
        var months: [String] = []
        for (offset, heading) in headings.enumerated() {
            let date = ISODate.text(civilDay: CivilTime.day(year: 2024, month: 9, day: 30) + offset)
            let hebrew = try #require(table[date])
            let name = AlsoCalendarTests.hebrewNames[hebrew.month - 1]
            #expect(heading == "\(hebrew.day) \(name)", "\(date): '\(heading)', convertdate \(hebrew)")
            if months.last != "\(name) \(hebrew.year)" { months.append("\(name) \(hebrew.year)") }
        }
        // The Hebrew year turns with Tishri: Elul 5784, Tishri 5785.
        #expect(months == ["Elul 5784", "Tishri 5785"])
        #expect(session.screen.line(0).hasSuffix("September 2024 – October 2024 · " + months.joined(separator: " – ")), "\(session.screen.line(0))")
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
