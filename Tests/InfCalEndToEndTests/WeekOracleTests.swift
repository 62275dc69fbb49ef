import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The week grid against an independent computation: `Tests/Oracles/week_oracle.py` works out
/// each day's clock (by brute force over the minutes of the day, with Python's `zoneinfo`),
/// which slots each event's block covers, its lane, the events before and after the hours
/// shown, and the band's lines. The tests compare the layout (`WeekLayout`, as `WeekRenderer`
/// and the pager make it) and the frames the pager draws (`PagerView` at 80x24, 120x40 and
/// 200x60: the bars of the blocks counted in each cell, the shaded cells of the hours a day
/// lacks) with it, in the weeks the clocks change in Europe/Berlin (March, October) and
/// America/New_York (March, November), and a week when one has changed and the other not. The
/// layout's own choices (which days, the step, the hours) are the oracle's input; what it
/// places is checked. Skips, saying so, without python3 3.9 or later (`zoneinfo`).
@Suite struct WeekOracleTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/week_oracle.py").path

    /// A python3 with `zoneinfo` and the zone data.
    static let python = DateutilOracleTests.python(running: "import zoneinfo; zoneinfo.ZoneInfo('Europe/Berlin')")
    static let hasOracle = python != nil

    /// An event as the oracle and the .ics file both take it.
    struct TestEvent: Encodable {
        let summary: String
        /// "zoned" (in `tz`), "utc", "floating" or "date".
        let kind: String
        var tz: String?
        /// Local (or UTC) times `YYYY-MM-DDTHH:MM:SS`, or dates `YYYY-MM-DD` (the end exclusive).
        let start: String
        let end: String
        /// Where given, the event lasts this many minutes (DURATION, exact) instead of ending at `end`.
        var minutes: Int?

        /// The VEVENT's lines.
        var lines: [String] {
            func stamp(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") }
            let (start, end) = (stamp(self.start), stamp(self.end))
            var lines = ["BEGIN:VEVENT", "UID:\(summary.replacingOccurrences(of: " ", with: "-"))@week", "SUMMARY:\(summary)"]
            switch kind {
            case "zoned" where minutes != nil: lines += ["DTSTART;TZID=\(tz ?? "UTC"):\(start)", "DURATION:PT\(minutes ?? 0)M"]
            case "zoned": lines += ["DTSTART;TZID=\(tz ?? "UTC"):\(start)", "DTEND;TZID=\(tz ?? "UTC"):\(end)"]
            case "utc": lines += ["DTSTART:\(start)Z", "DTEND:\(end)Z"]
            case "date": lines += ["DTSTART;VALUE=DATE:\(start)", "DTEND;VALUE=DATE:\(end)"]
            default: lines += ["DTSTART:\(start)", "DTEND:\(end)"]
            }
            return lines + ["END:VEVENT"]
        }
    }

    /// A week the clocks change in: the zone it is shown in, its Monday, the day of the
    /// change (a Sunday), the other zone of the cross-zone call, and the instant (UTC) of the
    /// local time the clocks skip or repeat, the second time where they repeat it.
    struct Week: CustomStringConvertible {
        let zone: String
        let monday: (Int, Int, Int)
        let other: String
        let changeLocal: String
        let secondUTC: String
        var description: String { "\(zone) week of \(monday)" }
    }

    static let weeks = [
        // The dates of the changes are zoneinfo's: Berlin 2024-03-31 02:00 -> 03:00 and
        // 2024-10-27 03:00 -> 02:00; New York 2024-03-10 02:00 -> 03:00 and 2024-11-03 02:00 -> 01:00.
        Week(zone: "Europe/Berlin", monday: (2024, 3, 25), other: "America/New_York", changeLocal: "02:30", secondUTC: "2024-03-31T01:30:00"),
        Week(zone: "Europe/Berlin", monday: (2024, 10, 21), other: "America/New_York", changeLocal: "02:30", secondUTC: "2024-10-27T01:30:00"),
        Week(zone: "America/New_York", monday: (2024, 3, 4), other: "Europe/Berlin", changeLocal: "02:30", secondUTC: "2024-03-10T07:30:00"),
        Week(zone: "America/New_York", monday: (2024, 10, 28), other: "Europe/Berlin", changeLocal: "01:30", secondUTC: "2024-11-03T06:30:00"),
        // New York has changed, Berlin not yet: the New York call moves an hour in Berlin.
        Week(zone: "Europe/Berlin", monday: (2024, 3, 11), other: "America/New_York", changeLocal: "02:30", secondUTC: "2024-03-17T01:30:00"),
    ]

    /// The ISO date `days` after `monday`.
    static func date(_ monday: (Int, Int, Int), plus days: Int) -> String {
        ISODate.text(civilDay: CivilTime.day(year: monday.0, month: monday.1, day: monday.2) + days)
    }

    /// The week's events: overlaps, all-day and multi-day ones, past midnight, a floating one,
    /// the changed night's, a call in another zone, one at an instant, early and late ones.
    static func events(_ week: Week) -> [TestEvent] {
        func day(_ offset: Int) -> String { date(week.monday, plus: offset) }
        func zoned(_ summary: String, _ start: String, _ end: String, tz: String? = nil) -> TestEvent {
            TestEvent(summary: summary, kind: "zoned", tz: tz ?? week.zone, start: start, end: end)
        }
        // The changed night's event lasts an hour of real time (a DURATION: its start may be a
        // time the clocks skip, whose DTEND an hour on the clock would end it where it starts);
        // the night before's lasts from DTSTART to DTEND across the change, each in its zone.
        var changed = zoned("Changed night", day(6) + "T" + week.changeLocal + ":00", "")
        changed.minutes = 60
        return [
            changed,
            TestEvent(summary: "Second time", kind: "utc", start: week.secondUTC, end: String(week.secondUTC.prefix(14)) + "59:00"),
            zoned("Call", day(2) + "T09:00:00", day(2) + "T10:00:00", tz: week.other),
            zoned("Plan", day(1) + "T09:00:00", day(1) + "T10:30:00"),
            zoned("Review", day(1) + "T09:30:00", day(1) + "T11:00:00"),
            zoned("Coffee", day(1) + "T10:00:00", day(1) + "T10:15:00"),
            zoned("Lunch", day(1) + "T12:00:00", day(1) + "T13:00:00"),
            zoned("Night train", day(3) + "T22:00:00", day(4) + "T02:00:00"),
            zoned("Across", day(5) + "T23:00:00", day(6) + "T05:00:00"),
            TestEvent(summary: "Holiday", kind: "date", start: day(0), end: day(1)),
            TestEvent(summary: "Conference", kind: "date", start: day(1), end: day(4)),
            TestEvent(summary: "Trip", kind: "date", start: day(5), end: day(9)),
            TestEvent(summary: "Long run", kind: "date", start: day(-3), end: day(1)),
            zoned("Retreat", day(2) + "T12:00:00", day(5) + "T12:00:00"),
            TestEvent(summary: "Yoga", kind: "floating", start: day(4) + "T07:00:00", end: day(4) + "T08:00:00"),
            zoned("Early", day(5) + "T05:00:00", day(5) + "T06:00:00"),
            zoned("Late", day(5) + "T21:00:00", day(5) + "T23:00:00"),
            zoned("Reminder", day(2) + "T12:00:00", day(2) + "T12:00:00"),
            zoned("Midnight", day(6) + "T00:00:00", day(6) + "T01:00:00"),
        ]
    }

    static func store(_ week: Week, events: [TestEvent]) throws -> EventStore {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:week"] + events.flatMap(\.lines) + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
        let zone = try #require(TimeZone(identifier: week.zone))
        return EventStore(events: EventReader.read(Array(text.utf8)).events, display: DisplayZone(zone))
    }

    // MARK: The oracle's answer

    struct Answer: Decodable {
        struct Block: Decodable, Hashable, CustomStringConvertible {
            let summary: String
            let date: String
            let first: [Int]
            let last: [Int]
            let lane: Int
            let lanes: Int
            let clipTop: Bool
            let clipBottom: Bool
            var description: String { "\(summary) \(date) \(first)-\(last) lane \(lane)/\(lanes)\(clipTop ? " ^" : "")\(clipBottom ? " v" : "")" }
        }
        struct BandItem: Decodable, Hashable {
            let summary: String
            let first: String
            let last: String
            let line: Int
        }
        let days: [String: [[Int]]]
        let hours: [String: Double]
        let blocks: [Block]
        let above: [String: Int]
        let below: [String: Int]
        let cover: [String: [String: Int]]
        let band: [BandItem]
        /// Each day's "Monday 25", and the months the days lie in ("March 2024").
        let headings: [String]
        let title: [String]
    }

    /// A question to the oracle: `days` shown in `zone`, `step` minutes a row, `hours` shown.
    struct Request: Encodable {
        let zone: String
        let days: [String]
        let step: Int
        let hours: [Int]
        let events: [TestEvent]

        /// `days` shown in `zone`, `step` minutes a row, `hours` (from, to) shown, with `events`.
        init(zone: String, days: [String], step: Int, hours: [Int], events: [TestEvent]) {
            (self.zone, self.days, self.step, self.hours, self.events) = (zone, days, step, hours, events)
        }

        /// The question `layout` answers, its days shown in `zone`.
        init(_ layout: WeekLayout, zone: String, events: [TestEvent]) {
            self.zone = zone
            days = layout.days.map { ISODate.text(dayNumber: $0) }
            step = layout.step
            hours = [layout.hours.lowerBound, layout.hours.upperBound]
            self.events = events
        }
    }

    /// What the oracle says to each of `requests`, in one run of it.
    static func oracle(_ requests: [Request]) throws -> [Answer] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-week-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json")
        try JSONEncoder().encode(requests).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: try #require(python)), [script, file.path], environment: [:], deadline: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let answers = try JSONDecoder().decode([Answer].self, from: Data(result.stdout.utf8))
        #expect(answers.count == requests.count)
        return answers
    }

    // MARK: The layout

    /// The layout's blocks as the oracle writes them: each block's first and last row among
    /// those its day has (a block going on through a row its day lacks is drawn through it).
    static func blocks(_ layout: WeekLayout) -> Set<Answer.Block> {
        Set(layout.blocks.compactMap { block in
            let present = layout.present[block.column]
            guard let first = (block.firstRow...block.lastRow).first(where: { present[$0] }),
                  let last = (block.firstRow...block.lastRow).last(where: { present[$0] }) else { return nil }
            let key = { (row: Int) in [layout.rows[row].minute, layout.rows[row].fold] }
            return Answer.Block(summary: layout.occurrences[block.occurrence].summary, date: ISODate.text(dayNumber: layout.days[block.column]),
                                first: key(first), last: key(last), lane: block.lane, lanes: block.lanes,
                                clipTop: block.clippedAbove, clipBottom: block.clippedBelow)
        })
    }

    /// Compares `layout` with the oracle's answer for its days, step and hours.
    static func compare(_ layout: WeekLayout, answer: Answer, _ context: String) {
        for (column, day) in layout.days.enumerated() {
            let date = ISODate.text(dayNumber: day)
            let rows = layout.rows.indices.filter { layout.present[column][$0] }.map { [layout.rows[$0].minute, layout.rows[$0].fold] }
            #expect(rows == answer.days[date], "\(context): the rows of \(date)")
            let hours = Double(layout.clocks[column].end - layout.clocks[column].start) / 3600
            #expect(hours == answer.hours[date], "\(context): the length of \(date)")
            #expect(layout.above[column] == answer.above[date], "\(context): events before the hours on \(date)")
            #expect(layout.below[column] == answer.below[date], "\(context): events after the hours on \(date)")
        }
        let found = blocks(layout), expected = Set(answer.blocks)
        #expect(found == expected, "\(context): blocks only in the layout \(found.subtracting(expected).sorted { $0.description < $1.description }), only in the oracle \(expected.subtracting(found).sorted { $0.description < $1.description })")
        // The band's lines shown, and the events it has no line for counted in their days.
        let shownLines = layout.band.map(\.line).max().map { $0 + 1 } ?? 0
        let band = Set(layout.band.map { item in
            Answer.BandItem(summary: layout.occurrences[item.occurrence].summary, first: ISODate.text(dayNumber: layout.days[item.firstColumn]),
                            last: ISODate.text(dayNumber: layout.days[item.lastColumn]), line: item.line)
        })
        #expect(band == Set(answer.band.filter { $0.line < shownLines }), "\(context): the band")
        for (column, day) in layout.days.enumerated() {
            let date = ISODate.text(dayNumber: day)
            let left = answer.band.filter { $0.line >= shownLines && $0.first <= date && date <= $0.last }.count
            #expect(layout.bandHidden[column] == left, "\(context): band events without a line on \(date)")
        }
    }

    static func renderer(firstWeekday: Int = 2) -> MonthRenderer {
        let gregorian = MonthCalendar(.gregorian)
        return MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: firstWeekday)
    }

    /// Sizes from the whole day in half-hours (7 days) to one day in a few hours' rows.
    static let sizes = [TerminalSize(columns: 200, rows: 70), TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 80, rows: 24),
                        TerminalSize(columns: 60, rows: 30), TerminalSize(columns: 40, rows: 14)]

    @Test(.enabled(if: hasOracle, "python3 with zoneinfo is not installed; skipping the week grid's oracle"), arguments: weeks)
    func layoutMatchesZoneinfo(_ week: Week) throws {
        let events = Self.events(week)
        let store = try Self.store(week, events: events)
        let renderer = WeekRenderer(renderer: Self.renderer(), box: .unicode, clock: .twentyFourHour)
        let monday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: week.monday.0, month: week.monday.1, day: week.monday.2))
        var layouts: [(layout: WeekLayout, zone: String, context: String)] = []
        for size in Self.sizes {
            for (selected, hours) in [(monday + 6, nil), (monday + 3, 8..<20), (monday + 5, 20..<24) as (Int, Range<Int>?)] {
                let layout = try #require(renderer.layout(selected: selected, store: store, zone: nil, hours: hours, top: nil, size: size))
                layouts.append((layout, week.zone, "\(week) at \(size.columns)x\(size.rows), hours \(String(describing: hours))"))
            }
            // Scrolled to the night.
            let night = try #require(renderer.layout(selected: monday + 6, store: store, zone: nil, hours: nil, top: 1, size: size))
            // From 01:00, or earlier where the rows reach the day's end first.
            #expect(night.hours.lowerBound == 1 || (night.hours.upperBound == 24 && night.hours.contains(1)))
            layouts.append((night, week.zone, "\(week) at \(size.columns)x\(size.rows) from 01:00"))
        }
        // Shown in the other zone (the key z).
        let other = try #require(TimeZone(identifier: week.other))
        let layout = try #require(renderer.layout(selected: monday + 6, store: store, zone: DisplayZone(other), hours: nil, top: nil,
                                                  size: TerminalSize(columns: 200, rows: 70)))
        layouts.append((layout, week.other, "\(week) in \(week.other)"))
        let answers = try Self.oracle(layouts.map { Request($0.layout, zone: $0.zone, events: events) })
        for (place, answer) in answers.enumerated() { Self.compare(layouts[place].layout, answer: answer, layouts[place].context) }
    }

    /// The day the clocks change alone (the day view's timeline): its scale skips the hour or
    /// has it twice, labelled so, and the event at the repeated time is in the second.
    @Test(.enabled(if: hasOracle, "python3 with zoneinfo is not installed; skipping the week grid's oracle"), arguments: weeks.prefix(4))
    func theChangedDayAlone(_ week: Week) throws {
        let events = Self.events(week)
        let store = try Self.store(week, events: events)
        var renderer = WeekRenderer(renderer: Self.renderer(), box: .unicode, clock: .twentyFourHour)
        renderer.showsTitle = false
        let sunday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: week.monday.0, month: week.monday.1, day: week.monday.2)) + 6
        let layout = try #require(renderer.layout(selected: sunday, count: 1, store: store, zone: nil, hours: 0..<24, top: nil,
                                                  size: TerminalSize(columns: 60, rows: 80)))
        let answer = try #require(try Self.oracle([Request(layout, zone: week.zone, events: events)]).first)
        Self.compare(layout, answer: answer, "\(week): the day alone")
        let lines = renderer.lines(for: layout, width: 60)
        let labels = lines.compactMap { line -> String? in
            let label = line.prefix(renderer.scaleWidth).trimmingCharacters(in: .whitespaces)
            return label.isEmpty || label.hasPrefix("─") ? nil : label
        }
        let hour = String(week.changeLocal.prefix(2)) + ":00"
        let hours = try #require(answer.hours[ISODate.text(dayNumber: sunday)])
        if hours == 23 {
            #expect(!labels.contains(hour), "\(week): \(labels)")
            #expect(labels.count == 23)
        } else {
            #expect(labels.filter { $0 == hour }.count == 1 && labels.contains(hour + "²"), "\(week): \(labels)")
            #expect(labels.count == 25)
            let second = try #require(answer.blocks.first { $0.summary == "Second time" })
            #expect(second.first[1] == 1, "the event at the repeated time is in the second one")
        }
    }

    // MARK: The pager's frames

    /// The lines of a frame without escape sequences, as the cells show them.
    static func cells(_ line: String) -> [Character] {
        var result: [Character] = []
        var inEscape = false
        for character in line {
            if inEscape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Checks the grid of the week view in `frame` against the oracle: for each row (read from
    /// its label) and each day's column, the bars of the blocks drawn in the cell are as many
    /// as the blocks the oracle puts on that slot, and the cell is shaded where the day lacks it.
    static func compareFrame(_ frame: Frame, answer: Answer, days: [Int], step: Int, scaleWidth: Int, _ context: String) {
        compareGrid(frame.lines, answer: answer, days: days, step: step, scaleWidth: scaleWidth, context)
    }

    /// `compareFrame` for the lines of one week's grid, as the pager or `--week` draws it.
    static func compareGrid(_ text: [String], answer: Answer, days: [Int], step: Int, scaleWidth: Int, _ context: String) {
        let lines = text.map(cells)
        guard let bottom = lines.lastIndex(where: { $0.contains("┴") }),
              let top = lines[..<bottom].lastIndex(where: { $0.first == "─" && $0.contains("┼") }) else {
            Issue.record("\(context): no grid in \(text.joined(separator: "\n"))")
            return
        }
        // The columns: between the crossings of the rule above the rows.
        let crossings = lines[top].indices.filter { lines[top][$0] == "┼" || lines[top][$0] == "┤" }
        #expect(crossings.count == days.count + 1, "\(context)")
        var key: (minute: Int, fold: Int)?
        var checked = 0
        for line in lines[(top + 1)..<bottom] {
            let label = String(line.prefix(scaleWidth)).trimmingCharacters(in: .whitespaces)
            if !label.isEmpty {
                let fold = label.hasSuffix("²") ? 1 : 0
                let parts = label.replacingOccurrences(of: "²", with: "").split(separator: ":").compactMap { Int($0) }
                key = parts.count == 2 ? (parts[0] * 60 + parts[1], fold) : nil
            } else if let last = key {
                key = (last.minute + step, last.fold)
            }
            guard let key else {
                Issue.record("\(context): a row without a time: \(String(line))")
                continue
            }
            for (column, day) in days.enumerated() where column + 1 < crossings.count {
                let date = ISODate.text(dayNumber: day)
                let cell = line[(crossings[column] + 1)..<crossings[column + 1]]
                let bars = cell.filter { "▌▲▼".contains($0) }.count
                let cover = answer.cover[date]?["\(key.minute),\(key.fold)"] ?? 0
                let present = answer.days[date]?.contains([key.minute, key.fold]) ?? false
                // A block going on through a row its day lacks is drawn through it.
                if present { #expect(bars == cover, "\(context): \(date) \(key): \(bars) bars, the oracle \(cover): \(String(line))") }
                #expect(cell.contains("░") == !present, "\(context): \(date) \(key) shaded: \(String(line))")
                checked += 1
            }
        }
        #expect(checked > 0, "\(context)")
    }

    static let frameSizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)]

    @Test(.enabled(if: hasOracle, "python3 with zoneinfo is not installed; skipping the week grid's oracle"), arguments: weeks)
    func pagerFramesMatchZoneinfo(_ week: Week) throws {
        let events = Self.events(week)
        let gregorian = MonthCalendar(.gregorian)
        var view = PagerView(renderer: Self.renderer(), highlightToday: false, columns: nil, box: .unicode)
        view.events = try Self.store(week, events: events)
        let sunday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: week.monday.0, month: week.monday.1, day: week.monday.2)) + 6
        let month = try #require(gregorian.month(containing: sunday))
        let own = try #require(TimeZone(identifier: week.zone)), other = try #require(TimeZone(identifier: week.other))
        var drawn: [(frame: Frame, layout: WeekLayout, zone: String, context: String)] = []
        for size in Self.frameSizes {
            var state = PagerState(calendar: gregorian, start: month, bounds: MonthBounds(), today: sunday - 3, view: .week)
            state.select(sunday)
            state.setZones([NamedZone(name: week.zone, zone: DisplayZone(own)), NamedZone(name: week.other, zone: DisplayZone(other))])
            let room = TerminalSize(columns: size.columns, rows: size.rows - 1)
            for zone in [week.zone, week.other] {
                let layout = try #require(view.weekLayout(for: state, room: room))
                let frame = view.frame(for: state, size: size)
                #expect(frame.lines[size.rows - 1].contains(zone) && frame.lines[size.rows - 1].contains("[week]"), "\(frame.lines[size.rows - 1])")
                for line in frame.lines { #expect(DisplayWidth.of(String(Self.cells(line))) <= size.columns, "\(line)") }
                drawn.append((frame, layout, zone, "\(week) at \(size.columns)x\(size.rows) in \(zone)"))
                // z shows the next zone: the blocks move.
                _ = view.handle(.character("z"), in: &state, size: size)
            }
        }
        let answers = try Self.oracle(drawn.map { Request($0.layout, zone: $0.zone, events: events) })
        let scaleWidth = WeekRenderer(renderer: Self.renderer(), box: .unicode, clock: .twentyFourHour).scaleWidth
        for (place, answer) in answers.enumerated() {
            let (frame, layout, _, context) = drawn[place]
            Self.compareFrame(frame, answer: answer, days: layout.days, step: layout.step, scaleWidth: scaleWidth, context)
        }
    }
}
