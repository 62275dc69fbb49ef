import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalPTY
import InfCalProcess

extension Benchmark {
    // MARK: Measure 9: the week view

    /// Key to repaint in the week view at 200x60 with 60 events in the week (timed ones in a
    /// zone, overlapping, past midnight; all-day and multi-day ones; weekly rules), shown in
    /// Europe/Berlin: in process (the key handled, with the room it needs worked out, a layout
    /// of its own; the frame composed and the bytes that bring the screen to it, as the
    /// pager's loop does for each key), and through the built infcal under a pseudo-terminal
    /// (opened with `--view week`); then ten years of weeks printed against ten years of months.
    mutating func measureWeekView() {
        var text = "BEGIN:VCALENDAR\r\n"
        func event(_ number: Int, _ lines: [String]) {
            text += "BEGIN:VEVENT\r\nUID:w\(number)\r\nSUMMARY:Meeting \(number) with a longer title\r\n"
                + lines.joined(separator: "\r\n") + "\r\nEND:VEVENT\r\n"
        }
        // 2024-02-12 (Monday) to 2024-02-18: 48 timed events, seven a day, overlapping in pairs.
        for number in 0..<48 {
            let day = 12 + number % 7, hour = 7 + number / 7 * 2 + number % 2
            let start = "202402\(day)T\(hour < 10 ? "0" : "")\(hour)\(number % 3 == 0 ? "30" : "00")00"
            var lines = ["DTSTART;TZID=Europe/Berlin:\(start)", "DURATION:PT\(45 + 15 * (number % 4))M"]
            if number % 8 == 0 { lines.append("RRULE:FREQ=WEEKLY") }
            event(number, lines)
        }
        // Past midnight, all-day and multi-day ones.
        for number in 48..<52 { event(number, ["DTSTART;TZID=America/New_York:202402\(number - 36)T170000", "DURATION:PT5H"]) }
        for number in 52..<60 {
            let first = 12 + (number - 52) % 7
            event(number, ["DTSTART;VALUE=DATE:202402\(first)", "DTEND;VALUE=DATE:202402\(first + 1 + (number - 52) % 3)"])
        }
        text += "END:VCALENDAR\r\n"
        let gregorian = MonthCalendar(.gregorian)
        let day = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 2, day: 15))
        guard let month = gregorian.month(containing: day), let berlin = TimeZone(identifier: "Europe/Berlin") else { return }
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: 2)
        var view = PagerView(renderer: renderer, highlightToday: true, columns: nil, box: .unicode)
        let store = EventStore(events: EventReader.read(Array(text.utf8)).events, display: DisplayZone(berlin))
        view.events = store
        var state = PagerState(calendar: gregorian, start: month, bounds: MonthBounds(), today: day, view: .week)
        let size = TerminalSize(columns: 200, rows: 60)
        let shown = view.weekLayout(for: state, room: TerminalSize(columns: 200, rows: 59))?.occurrences.count ?? 0
        var frame = view.frame(for: state, size: size)
        func presses(_ keys: [Key]) -> Double {
            var times: [Double] = []
            for round in -10..<max(50, runs * 10) {
                let begin = Processes.now()
                _ = view.handle(keys[(round + 10) % keys.count], in: &state, size: size)
                let next = view.frame(for: state, size: size)
                let bytes = FrameDiff.bytes(from: frame, to: next)
                frame = next
                if round >= 0, !bytes.isEmpty { times.append(Processes.now() - begin) }
            }
            return median(times)
        }
        // l and h in turn: the selected day moves within the week, so every key repaints.
        let days = presses([.character("l"), .character("h")])
        report.rows.append(Row(measure: "pager: key to repaint, week view of \(shown) events at 200x60, l/h (in process)",
                               infcal: milliseconds(days, decimals: 2), target: "< 2 ms", met: days < 0.002 ? "met" : "NOT MET"))
        // n and p in turn: a week on and back, its events asked of the store each time.
        let weeks = presses([.character("n"), .character("p")])
        report.rows.append(Row(measure: "pager: key to repaint, week view at 200x60, n/p: a week on, back (in process)",
                               infcal: milliseconds(weeks, decimals: 2), target: "< 2 ms", met: weeks < 0.002 ? "met" : "NOT MET"))
        measureWeekViewAtATerminal(calendar: text, events: shown)
        measureWeekPrinting(calendar: text)
    }

    /// `--week --forward 520` (ten years of weeks into a pipe) against `--forward 120` (ten
    /// years of month grids) with the same events (`calendar`, whose weekly rules go on),
    /// paired runs interleaved, the events' cache used by both.
    mutating func measureWeekPrinting(calendar: String) {
        let measure = "--week --forward 520 (ten years of weeks) against --forward 120 months, same events"
        let path = Processes.temporaryPath("week-events.ics")
        guard FileManager.default.createFile(atPath: path, contents: Data(calendar.utf8)) else {
            report.rows.append(Row(measure: measure + ": not measured (cannot write \(path))", infcal: "-", target: "<= 3x"))
            return
        }
        defer { unlink(path) }
        // Aged past the cache's wait for a file that may still change, so that both read the cache.
        try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        let common = ["--events", path, "--today", "2024-02-15"]
        let weeks = Command(path: infcal, arguments: ["--week", "2024-02-12", "--forward", "520", "-m"] + common)
        let months = Command(path: infcal, arguments: ["--from", "2024-02", "--forward", "120"] + common)
        let results = interleave([weeks, months], runs: max(runs, 5))
        let (cell, met) = pairedRatio(results[0], results[1], limit: 3)
        report.rows.append(Row(measure: measure, infcal: timeCell(results[0]), ncal: timeCell(results[1]), ratio: cell,
                               target: "<= 3x the months", met: met))
        report.notes.append("weeks printed: `\(results[0]?.command.shown ?? "")` against `\(results[1]?.command.shown ?? "")` "
                            + "(its time in the ncal column; the ratio is the median of paired runs' ratios).")
    }

    /// The week view of `calendar` (`events` in the week) in the built infcal under a
    /// pseudo-terminal of 200x60: l and h pressed in turn, each timed from the write of the key
    /// to the end of the frame it caused.
    mutating func measureWeekViewAtATerminal(calendar: String, events: Int) {
        let measure = "pager: key to repaint, week view of \(events) events at 200x60, l/h (pseudo-terminal)"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-bench-week-\(getpid()).ics").path
        guard FileManager.default.createFile(atPath: path, contents: Data(calendar.utf8)) else {
            report.rows.append(Row(measure: measure + ": not measured (cannot write \(path))", infcal: "-", target: "< 2 ms"))
            return
        }
        defer { unlink(path) }
        do {
            let environment = PseudoTerminalSession.pinnedEnvironment.merging(["LC_ALL": "C.UTF-8", "TZ": "Europe/Berlin"]) { $1 }
            let session = try PseudoTerminalSession(executable: infcal, arguments: ["--paged", "--view", "week", "--today", "2024-02-15",
                                                                                   "--events", path],
                                                    environment: environment, columns: 200, rows: 60)
            guard session.waitFor({ $0.line(59).contains("[week]") && $0.text.contains("Meeting") }) else {
                throw BenchError.failed("the week view did not show")
            }
            let presses = max(runs * 20, 200)
            let summary = try PagerLatency.measure(session, keys: ["l", "h"], presses: presses)
            try session.send("q")
            _ = session.waitForExit(timeout: 5)
            report.rows.append(Row(measure: measure, infcal: milliseconds(summary.median, decimals: 3) + " (" + milliseconds(summary.worst, decimals: 3) + ")",
                                   target: "< 2 ms", met: summary.median < 0.002 ? "met" : "NOT MET"))
            report.notes.append("week view: \(presses) presses of l and h at 200x60 under a pseudo-terminal (infcal --paged --view week); "
                                + "99th percentile \(milliseconds(summary.percentile(0.99), decimals: 3)).")
        } catch {
            report.rows.append(Row(measure: measure + ": not measured (\(error))", infcal: "-", target: "< 2 ms"))
        }
    }
}
