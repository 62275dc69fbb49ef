import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalPTY
import InfCalProcess
import Foundation

/// The tools measured side by side.
enum Tool: Int, CaseIterable {
    case infcal, ncal, python
}

/// A command to time: the tool's full path and its arguments.
struct Command {
    let path: String
    let arguments: [String]
    /// Done before each run and not timed (emptying the event cache for a cold run).
    var prepare: (() -> Void)?

    init(path: String, arguments: [String], prepare: (() -> Void)? = nil) {
        self.path = path
        self.arguments = arguments
        self.prepare = prepare
    }

    var shown: String { ([path.split(separator: "/").last.map(String.init) ?? path] + arguments).joined(separator: " ") }
}

/// The runs of one command.
struct Runs {
    let command: Command
    var outcomes: [Processes.Outcome] = []
    /// The first failure's exit status and standard error, if any run failed.
    var failure: (status: Int32, message: String)?

    var medianSeconds: Double { median(outcomes.map(\.seconds)) }
    var cell: String? { failure.map { "failed (exit \($0.status))" } }
}

/// The whole benchmark: every measure, in the order the README's Performance section lists them.
struct Benchmark {
    let infcal: String
    let ncal: String?
    let python: String?
    /// GNU time, which measures peak RSS; nil when it is not installed.
    let time: String?
    let runs: Int
    let calendarMonths: Int
    var report = Report()

    /// Times `commands` (nil: the tool is missing) interleaved: one warm-up run each, then
    /// `runs` rounds of one run each in turn, A B C A B C.
    func interleave(_ commands: [Command?], runs: Int) -> [Runs?] {
        var results = commands.map { $0.map { Runs(command: $0) } }
        let stderrPath = Processes.temporaryPath("err")
        defer { unlink(stderrPath) }
        for round in -1..<runs {
            for index in results.indices {
                guard var result = results[index], result.failure == nil else { continue }
                do {
                    result.command.prepare?()
                    let outcome = try Processes.run(result.command.path, result.command.arguments, stderrPath: stderrPath)
                    Processes.waitForCacheWriters()
                    if outcome.status != 0 {
                        let message = Processes.readFile(stderrPath).split(separator: "\n").first.map(String.init) ?? ""
                        result.failure = (outcome.status, message)
                        log("\(result.command.shown) failed with exit status \(outcome.status): \(message)")
                    } else if round >= 0 {
                        result.outcomes.append(outcome)
                    }
                } catch {
                    result.failure = (-1, "\(error)")
                    log("\(error)")
                }
                results[index] = result
            }
        }
        return results
    }

    /// A cell for a tool's median time, "-" when it was not run.
    func timeCell(_ runs: Runs?, decimals: Int = 1) -> String {
        guard let runs else { return "-" }
        return runs.cell ?? milliseconds(runs.medianSeconds, decimals: decimals)
    }

    /// The ratio cell and whether `limit` is met, for infcal against ncal.
    func ratio(_ infcal: Runs?, _ ncal: Runs?, limit: Double) -> (cell: String, met: String) {
        guard let infcal, let ncal, infcal.failure == nil, ncal.failure == nil, ncal.medianSeconds > 0 else {
            return ("-", "-")
        }
        let value = infcal.medianSeconds / ncal.medianSeconds
        return (format(value, decimals: 2) + "x", value <= limit ? "met" : "NOT MET")
    }

    /// The ratio cell and whether `limit` is met, for infcal against ncal, from paired runs:
    /// the median of infcal's time over ncal's in each round of `interleave`.
    func pairedRatio(_ infcal: Runs?, _ ncal: Runs?, limit: Double) -> (cell: String, met: String) {
        guard let infcal, let ncal, infcal.failure == nil, ncal.failure == nil,
              infcal.outcomes.count == ncal.outcomes.count, !ncal.outcomes.contains(where: { $0.seconds <= 0 }) else {
            return ratio(infcal, ncal, limit: limit)
        }
        let value = median(zip(infcal.outcomes, ncal.outcomes).map { $0.seconds / $1.seconds })
        return (format(value, decimals: 2) + "x", value <= limit ? "met" : "NOT MET")
    }

    // MARK: Measure 1 and 2: stream throughput and memory

    mutating func measureStreams() {
        let years = 10_000
        let months = years * 12
        let python3Columns = """
            import calendar, sys
            c = calendar.TextCalendar(calendar.SUNDAY)
            w = sys.stdout.write
            for y in range(1, int(sys.argv[1]) + 1):
                w(c.formatyear(y, 2, 1, 6, 3))
            """
        let python1Column = """
            import calendar, sys
            c = calendar.TextCalendar(calendar.SUNDAY)
            w = sys.stdout.write
            for y in range(1, int(sys.argv[1]) + 1):
                for m in range(1, 13):
                    w(c.formatmonth(y, m, 2, 1))
                    w("\\n")
            """
        // The floor: writing the same bytes (`cat` of infcal's output, kept in a file).
        let bytesPath = Processes.temporaryPath("stream.txt")
        defer { unlink(bytesPath) }
        let streamArguments = ["--from", "0001-01", "--forward", "\(months)", "--columns", "3"]
        let wroteBytes = (try? Processes.spawn(infcal, streamArguments, streams: .file(stdoutPath: bytesPath))).map { Processes.wait($0) == 0 } ?? false
        let three = interleave([
            Command(path: infcal, arguments: streamArguments),
            ncal.map { Command(path: $0, arguments: ["-C", "-A", "\(months - 1)", "1", "1"]) },
            python.map { Command(path: $0, arguments: ["-c", python3Columns, "\(years)"]) },
            wroteBytes ? Processes.find("cat").map { Command(path: $0, arguments: [bytesPath]) } : nil,
        ], runs: runs)
        let one = interleave([
            Command(path: infcal, arguments: ["--from", "0001-01", "--forward", "\(months)", "--columns", "1"]),
            nil,
            python.map { Command(path: $0, arguments: ["-c", python1Column, "\(years)"]) },
        ], runs: runs)
        let (threeRatio, threeMet) = pairedRatio(three[0], three[1], limit: 0.08)
        report.rows.append(Row(measure: "stream 120,000 months, 3 columns", infcal: timeCell(three[0]),
                               ncal: timeCell(three[1]), python: timeCell(three[2]),
                               ratio: threeRatio, target: "<= 0.08x ncal", met: threeMet))
        if three[3] != nil {
            report.rows.append(Row(measure: "cat of the same bytes (the floor)", infcal: timeCell(three[3]),
                                   ncal: timeCell(three[1]), ratio: pairedRatio(three[3], three[1], limit: 1).cell))
        }
        report.rows.append(Row(measure: "stream 120,000 months, 1 column", infcal: timeCell(one[0]),
                               ncal: ncal == nil ? "-" : "n/a", python: timeCell(one[2])))

        report.notes += [
            "stream, 3 columns: `\(three[0]?.command.shown ?? "")`; ncal: `ncal -C -A \(months - 1) 1 1` (the ratio of paired runs); cat: `cat` of infcal's output in a file; "
                + "python3: one process printing years 1-\(years) with `calendar.TextCalendar(SUNDAY).formatyear(y, 2, 1, 6, 3)`, "
                + "what `python3 -m calendar YEAR` prints for each year (proleptic Gregorian, no 1582 reform).",
            "stream, 1 column: `\(one[0]?.command.shown ?? "")`; ncal has no layout with one month a row "
                + "(`-C` always puts 3 side by side), so n/a; python3: `formatmonth(y, m, 2, 1)` for every month of years 1-\(years), "
                + "what `python3 -m calendar YEAR MONTH` prints.",
        ]
        measureMemory(large: three.prefix(Tool.allCases.count).map { $0?.command }, python3Columns: python3Columns)
    }

    /// Measure 2: the peak RSS of the `large` commands against the same for 12 months.
    mutating func measureMemory(large: [Command?], python3Columns: String) {
        guard let time else {
            report.rows.append(Row(measure: "peak RSS: not measured (needs GNU time, /usr/bin/time)", infcal: "-", target: "growth <= 2 MiB"))
            return
        }
        let small = [
            Command(path: infcal, arguments: ["--from", "0001-01", "--forward", "12", "--columns", "3"]),
            ncal.map { Command(path: $0, arguments: ["-C", "-A", "11", "1", "1"]) },
            python.map { Command(path: $0, arguments: ["-c", python3Columns, "1"]) },
        ]
        // The peak hardly varies between runs: fewer of them.
        let memoryRuns = min(runs, 5)
        var peaks = [[Double]](repeating: [], count: 2 * Tool.allCases.count)
        var failed = [Bool](repeating: false, count: peaks.count)
        for _ in 0..<memoryRuns {
            for (index, command) in (small + large).enumerated() {
                guard let command else { continue }
                if let kib = Processes.peakKiB(command.path, command.arguments, time: time) {
                    peaks[index].append(Double(kib))
                } else {
                    failed[index] = true
                }
            }
        }
        func peak(_ index: Int) -> Double? { failed[index] || peaks[index].isEmpty ? nil : median(peaks[index]) }
        func cell(_ index: Int) -> String {
            if failed[index] { return "failed" }
            return peak(index).map(mebibytes) ?? "-"
        }
        func growth(_ tool: Tool) -> Double? {
            guard let small = peak(tool.rawValue), let large = peak(tool.rawValue + Tool.allCases.count) else { return nil }
            return large - small
        }
        let count = Tool.allCases.count
        report.rows.append(Row(measure: "peak RSS, 12 months", infcal: cell(0), ncal: cell(1), python: cell(2)))
        report.rows.append(Row(measure: "peak RSS, 120,000 months", infcal: cell(count), ncal: cell(count + 1), python: cell(count + 2)))
        var row = Row(measure: "peak RSS growth, 12 -> 120,000 months", infcal: growth(.infcal).map(mebibytes) ?? "-",
                      ncal: growth(.ncal).map(mebibytes) ?? "-", python: growth(.python).map(mebibytes) ?? "-", target: "<= 2 MiB")
        if let growth = growth(.infcal) { row.met = growth <= 2048 ? "met" : "NOT MET" }
        report.rows.append(row)
        report.notes.append("peak RSS: maximum resident set size as GNU time reports it (`time -f %M`; its own 1 MiB is the floor), "
                            + "median of \(memoryRuns) runs, of the 3-column streams above against 12 months "
                            + "(`infcal --from 0001-01 --forward 12 --columns 3`, `ncal -C -A 11 1 1`, python3 year 1 only). "
                            + "Not wait4's ru_maxrss: a spawned child inherits the benchmark's own high-water mark at exec.")
    }

    // MARK: Measure 3: start-up

    mutating func measureStartUp() {
        let startRuns = max(runs * 5, 31)
        // infcal and ncal alone, so that each always runs right after the other; python3 (a
        // process a hundred times larger) in rounds of its own. Interleaved with the three,
        // infcal always ran right after python3 and paid for what python3 left in the caches.
        let pair = interleave([
            Command(path: infcal, arguments: ["-1"]),
            ncal.map { Command(path: $0, arguments: ["-C"]) },
        ], runs: startRuns)
        let results = pair + interleave([python.map { Command(path: $0, arguments: ["-m", "calendar", "2024", "1"]) }], runs: startRuns)
        let (cell, met) = pairedRatio(results[0], results[1], limit: 1.3)
        report.rows.append(Row(measure: "start-up, one month", infcal: timeCell(results[0], decimals: 2),
                               ncal: timeCell(results[1], decimals: 2), python: timeCell(results[2], decimals: 2),
                               ratio: cell, target: "<= 1.3x ncal", met: met))
        report.notes.append("start-up: `infcal -1`, `ncal -C` (this month), `python3 -m calendar 2024 1`, "
                            + "\(startRuns) interleaved runs each; the ratio is the median of the ratios of the runs "
                            + "made one after the other (infcal's run over the ncal run that followed it), so that "
                            + "the load of the moment weighs on both; python3 runs in rounds of its own, so that "
                            + "neither runs right after it.")
    }

    // MARK: Measure 4: the pager

    mutating func measurePager(help: String) {
        guard help.contains("--paged") else {
            report.rows.append(Row(measure: "pager: not measured (no --paged in this build)", infcal: "-", target: "< 1 ms median"))
            return
        }
        // The pseudo-terminal driver the pager's end-to-end tests use: n and p pressed in
        // turn, each timed from the write of the key to the end of the frame it caused.
        let presses = max(runs * 20, 200)
        let eventsPath = Self.writeMonthsOfEvents()
        defer { if let eventsPath { unlink(eventsPath) } }
        var cases: [(measure: String, arguments: [String], columns: Int, rows: Int, environment: [String: String],
                     note: String, target: Double)] = [
            ("pager key press to repaint, median (worst)", ["--columns", "3"], 80, 24, [:],
             "the strip (`--paged --columns 3`) at 80x24", 0.001),
            ("month page key press to repaint, 200x60", [], 200, 60, ["LC_ALL": "C.UTF-8"],
             "the month page (`--paged`, box drawing, LC_ALL=C.UTF-8) at 200x60", 0.001),
        ]
        if let eventsPath, help.contains("--events") {
            cases.append(("month page with 50 events a month, 200x60", ["--events", eventsPath], 200, 60, ["LC_ALL": "C.UTF-8"],
                          "the month page with `--events` (50 events in February and 50 in March 2024: singles, all-day, "
                          + "multi-day and recurring, 11 on the 15th) at 200x60", 0.002))
        }
        for run in cases {
            let target = "< \(format(run.target * 1000, decimals: 0)) ms median"
            do {
                let summary = try PagerLatency.run(executable: infcal, arguments: run.arguments, presses: presses,
                                                   columns: run.columns, rows: run.rows, environment: run.environment)
                report.rows.append(Row(measure: run.measure,
                                       infcal: milliseconds(summary.median, decimals: 3) + " (" + milliseconds(summary.worst, decimals: 3) + ")",
                                       target: target, met: summary.median < run.target ? "met" : "NOT MET"))
                report.notes.append("pager: \(presses) presses of n and p in \(run.note) under a pseudo-terminal, from writing "
                                    + "the key to reading the end of its frame; 99th percentile \(milliseconds(summary.percentile(0.99), decimals: 3)).")
            } catch {
                report.rows.append(Row(measure: "\(run.measure): not measured (\(error))", infcal: "-", target: target))
            }
        }
    }

    /// Writes an iCalendar file with 50 events in each of February and March 2024 (the months
    /// the pager measure flips between) and returns its path, or nil when it cannot be written.
    /// In each month: a weekly rule (5 times), a three-day all-day event, 4 all-day ones and
    /// 40 timed singles, 10 of them on the 15th, so that cells fill and one overflows with
    /// `+N more`.
    static func writeMonthsOfEvents() -> String? {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        func event(_ uid: String, _ lines: [String]) {
            text += "BEGIN:VEVENT\r\nUID:\(uid)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
        }
        for (month, days) in [(2, 29), (3, 31)] {
            func date(_ day: Int) -> String { "2024" + (month < 10 ? "0" : "") + "\(month)" + (day < 10 ? "0" : "") + "\(day)" }
            event("weekly-\(month)", ["SUMMARY:Weekly planning meeting", "DTSTART:\(date(1))T090000Z",
                                      "RRULE:FREQ=WEEKLY;UNTIL=\(date(days))T235959Z"])
            let weekly = 5  // the 1st, 8th, 15th, 22nd and 29th
            event("trip-\(month)", ["SUMMARY:Trip to the coast", "DTSTART;VALUE=DATE:\(date(10))", "DTEND;VALUE=DATE:\(date(13))"])
            for number in 0..<4 {
                event("day-\(month)-\(number)", ["SUMMARY:Holiday number \(number + 1)", "DTSTART;VALUE=DATE:\(date(3 + 7 * number))"])
            }
            for number in 0..<(50 - weekly - 1 - 4) {
                // Ten on the 15th, more than its cell holds; the rest spread over the month.
                let day = number < 10 ? 15 : 1 + (number * 7) % days
                let hour = 8 + number % 10
                event("single-\(month)-\(number)", ["SUMMARY:Appointment \(number + 1) with a long description",
                                                    "DTSTART:\(date(day))T\(hour < 10 ? "0" : "")\(hour)3000Z",
                                                    "DURATION:PT45M"])
            }
        }
        text += "END:VCALENDAR\r\n"
        let path = Processes.temporaryPath("events.ics")
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { return nil }
        return path
    }

    // MARK: Measure 5: every calendar

    mutating func measureCalendars() {
        let calendarRuns = min(runs, 5)
        // Every calendar this platform's Foundation computes, as infcal's --calendar names them.
        for name in CalendarChoice.usableNames {
            let arguments = ["--calendar", name, "--from", "2001-01", "--forward", "\(calendarMonths)", "--columns", "3"]
            let result = interleave([Command(path: infcal, arguments: arguments)], runs: calendarRuns)[0]
            var row = Row(measure: "calendar \(name)", infcal: "failed", target: ">= 10,000 months/s")
            if let result, result.failure == nil, result.medianSeconds > 0 {
                let rate = Double(calendarMonths) / result.medianSeconds
                row.infcal = format(rate, decimals: 0) + " months/s"
                row.met = rate >= 10_000 ? "met" : "NOT MET"
            }
            report.rows.append(row)
        }
        report.notes.append("calendars: `infcal --calendar NAME --from 2001-01 --forward \(calendarMonths) --columns 3`, whole process, "
                            + "start-up included, median of \(calendarRuns) runs.")
    }
}
