import Foundation

extension Benchmark {
    // MARK: Before and after: this infcal against another build of it

    /// Times `infcal` against `baseline` (another build, such as the commit before a
    /// restructuring) in paired runs: the 120,000-month stream, without and with events, the
    /// start-up, reading the generated 9.4 MB calendar without the cache, through a warm
    /// one and building it, and ten years of its weeks printed. Each ratio is the median of this build's time
    /// over the baseline's in the same round, so the load of the moment weighs on both.
    mutating func measureAgainst(baseline: String) {
        let directory = Processes.temporaryPath("baseline")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard Self.writeCalendars(into: directory) else {
            report.notes.append("baseline: could not write the generated calendar to \(directory)")
            return
        }
        let big = directory + "/big.ics"
        let yearly = directory + "/yearly.ics"
        guard (try? EventFileGenerator.yearly.write(toFile: yearly, atomically: true, encoding: .utf8)) != nil else {
            report.notes.append("baseline: could not write the yearly calendar to \(directory)")
            return
        }
        func emptyCache() {
            Processes.waitForCacheWriters()
            try? FileManager.default.removeItem(atPath: Processes.cacheHome)
        }
        defer { emptyCache() }
        let month = ["--from", "2024-03", "-1", "--events", big]
        let measures: [(name: String, arguments: [String], runs: Int, prepare: (() -> Void)?)] = [
            ("stream 120,000 months, 3 columns", ["--from", "0001-01", "--forward", "120000", "--columns", "3"], runs, nil),
            ("stream 120,000 months with 12 yearly events, 3 columns",
             ["--events", yearly, "--from", "0001-01", "--forward", "120000", "--columns", "3", "--no-cache"], runs, nil),
            ("start-up, one month (-1)", ["-1"], max(runs * 5, 31), nil),
            ("events: -1 reading the 9.4 MB calendar, --no-cache", month + ["--no-cache"], runs, nil),
            // Both builds read and write the same cache (one format): the warm-up run writes it.
            ("events: -1 with the 9.4 MB calendar, warm cache", month, runs, nil),
            ("events: the same, cold (the cache built)", month, runs, emptyCache),
            ("events: --agenda of 12 months of the 9.4 MB calendar, --no-cache",
             ["--from", "2024-01", "--forward", "12", "--agenda", "--events", big, "--no-cache"], runs, nil),
            ("weeks: --week --forward 520 (ten years) of the 9.4 MB calendar, warm cache",
             ["--week", "2020-01-06", "--forward", "520", "-m", "--events", big], runs, nil),
        ]
        for measure in measures {
            log("baseline: \(measure.name)")
            let results = interleave([Command(path: infcal, arguments: measure.arguments, prepare: measure.prepare),
                                      Command(path: baseline, arguments: measure.arguments, prepare: measure.prepare)], runs: measure.runs)
            let (cell, met) = pairedRatio(results[0], results[1], limit: 1.05)
            report.rows.append(Row(measure: "before/after: " + measure.name, infcal: timeCell(results[0], decimals: 2),
                                   ratio: cell + " (" + timeCell(results[1], decimals: 2) + ")", target: "<= 1.05x", met: met))
        }
        report.notes.append("before/after: this infcal over `\(baseline)` (given with --baseline), the same arguments, "
            + "interleaved and paired; the ratio column gives this build over the baseline, the baseline's median in brackets. "
            + "The calendar is the cache measure's generated 9.4 MB file, read with --no-cache.")
    }
}
