import Foundation

extension Benchmark {
    // MARK: Measure 6b: an event lasting for millennia that repeats every second

    /// A month of the event of issue 34 (every second from 0000-01-01, each lasting until
    /// 2024-12-20: on each day of December 2024 some 6e10 instances are under way) against a
    /// month of a plain daily event, whole processes, paired: the stream (grid and lists) and
    /// `--agenda --days`, read without the cache; and the peak RSS of the lasting one.
    mutating func measureLasting() {
        let lastingPath = Processes.temporaryPath("lasting.ics")
        let dailyPath = Processes.temporaryPath("daily.ics")
        defer { unlink(lastingPath); unlink(dailyPath) }
        let event = { (start: String, end: String, rule: String) in
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d1\r\nDTSTART:\(start)\r\nDTEND:\(end)\r\nRRULE:\(rule)\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        guard (try? event("00000101T000000", "20241220T140000", "FREQ=SECONDLY").write(toFile: lastingPath, atomically: true, encoding: .utf8)) != nil,
              (try? event("20240101T090000", "20240101T100000", "FREQ=DAILY").write(toFile: dailyPath, atomically: true, encoding: .utf8)) != nil else {
            report.notes.append("lasting: could not write the generated files to \(lastingPath)")
            return
        }
        let month = ["--from", "2024-12", "--forward", "1", "--no-cache"]
        let views: [(name: String, arguments: [String])] = [("stream", []), ("agenda --days", ["--agenda", "--days"])]
        for view in views {
            let measured = interleave([
                Command(path: infcal, arguments: ["--events", lastingPath] + month + view.arguments),
                Command(path: infcal, arguments: ["--events", dailyPath] + month + view.arguments),
            ], runs: runs)
            guard let lasting = measured[0], let daily = measured[1], lasting.failure == nil, daily.failure == nil else {
                report.notes.append("lasting: the \(view.name) of a month failed: \(measured[0]?.failure?.message ?? measured[1]?.failure?.message ?? "")")
                continue
            }
            let (ratio, met) = pairedRatio(lasting, daily, limit: 2)
            report.rows.append(Row(measure: "events: a month (\(view.name)) of a secondly event lasting since year 0", infcal: timeCell(lasting),
                                   ratio: ratio + " daily (paired)", target: "< 2x a plain daily event", met: met))
        }
        if let time, let peak = Processes.peakKiB(infcal, ["--events", lastingPath, "--agenda", "--days"] + month, time: time) {
            report.rows.append(Row(measure: "events: peak RSS, a month of the secondly event lasting since year 0", infcal: mebibytes(Double(peak)),
                                   target: "< 256 MiB", met: peak < 256 * 1024 ? "met" : "NOT MET"))
        }
        report.notes.append("lasting: `infcal --events F --from 2024-12 --forward 1 --no-cache` (and with `--agenda --days`) where F holds "
            + "`DTSTART:00000101T000000`, `DTEND:20241220T140000`, `RRULE:FREQ=SECONDLY` (issue 34), against the same month of "
            + "`DTSTART:20240101T090000`, `DTEND:20240101T100000`, `RRULE:FREQ=DAILY`; the ratio is the median of the rounds' ratios.")
    }
}
