import Foundation
import InfCalProcess

/// A directory of one-event `.ics` files named for their UIDs, as vdirsyncer writes a
/// calendar: single events spread over 2015-2034 (timed in UTC or a zone, or all-day), one
/// in twenty a weekly series with COUNT; the same files every time.
enum VdirGenerator {
    /// Writes `count` files into `directory` (which must exist); false when a write fails.
    static func write(count: Int, into directory: String) -> Bool {
        var seed: UInt64 = 7
        func random(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for index in 0..<count {
            let uid = "vdir-\(index)-\(random(1_000_000))"
            let date = "\(2015 + random(20))\(two(1 + random(12)))\(two(1 + random(28)))"
            let hour = 7 + random(12)
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal-bench//vdir//EN", "BEGIN:VEVENT", "UID:\(uid)",
                         "DTSTAMP:20240101T000000Z", "SUMMARY:Appointment \(index)"]
            switch index % 20 {
            case 0:
                lines += ["DTSTART:\(date)T\(two(hour))0000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=\(4 + random(20))"]
            case 1, 2, 3:
                lines += ["DTSTART;VALUE=DATE:\(date)"]
            case 4, 5, 6, 7:
                lines += ["DTSTART;TZID=Europe/Berlin:\(date)T\(two(hour))3000", "DTEND;TZID=Europe/Berlin:\(date)T\(two(hour + 1))3000"]
            default:
                lines += ["DTSTART:\(date)T\(two(hour))0000Z", "DTEND:\(date)T\(two(hour + 1))0000Z"]
            }
            lines += ["DESCRIPTION:Generated for the benchmark", "END:VEVENT", "END:VCALENDAR"]
            let text = lines.joined(separator: "\r\n") + "\r\n"
            guard FileManager.default.createFile(atPath: directory + "/" + uid + ".ics", contents: Data(text.utf8)) else { return false }
        }
        return true
    }
}

extension Benchmark {
    // MARK: Measure 7: the parsed-event cache

    /// Writes the generated 9.4 MB calendar (`big.ics`) and the vdir of 20,000 files (`vdir`)
    /// into `directory`, dated an hour back; false when a write fails.
    static func writeCalendars(into directory: String) -> Bool {
        let (big, vdir) = (directory + "/big.ics", directory + "/vdir")
        let text = EventFileGenerator.text(events: 25_000, recurring: 2_500, bytes: 9_400_000)
        guard (try? FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)) != nil,
              (try? text.write(toFile: big, atomically: true, encoding: .utf8)) != nil,
              VdirGenerator.write(count: 20_000, into: vdir) else { return false }
        // Sources changed in the last seconds are not cached (the clock's tick): these were
        // written a while ago, as a user's calendar was.
        Processes.setModified([big, vdir] + ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).map { vdir + "/" + $0 },
                              secondsAgo: 3600)
        return true
    }

    mutating func measureCache() {
        let directory = Processes.temporaryPath("calendars")
        let (big, vdir) = (directory + "/big.ics", directory + "/vdir")
        let khalHome = Processes.temporaryPath("khal")
        defer {
            for path in [directory, khalHome, Processes.cacheHome] { try? FileManager.default.removeItem(atPath: path) }
        }
        guard Self.writeCalendars(into: directory) else {
            report.notes.append("cache: could not write the generated calendar and vdir to \(directory)")
            return
        }
        func emptyCache() {
            Processes.waitForCacheWriters()
            try? FileManager.default.removeItem(atPath: Processes.cacheHome)
        }
        emptyCache()

        let month = ["--from", "2024-03", "-1"]
        // Each pair in rounds of its own (the warm-up run builds the cache): a pair's runs are
        // made one right after the other, with no run of a third command, a third of a second
        // long and a hundred megabytes large, between them to empty the processor's caches
        // before one of them alone.
        let results = interleave([
            Command(path: infcal, arguments: month + ["--events", big]),
            Command(path: infcal, arguments: month),
        ], runs: runs) + interleave([
            Command(path: infcal, arguments: month + ["--events", big], prepare: emptyCache),
            Command(path: infcal, arguments: month + ["--events", big, "--no-cache"]),
        ], runs: runs)
        let (warmRatio, warmMet) = pairedRatio(results[0], results[1], limit: 2)
        report.rows.append(Row(measure: "cache: -1 with the 9.4 MB calendar, warm / without events", infcal: timeCell(results[0], decimals: 2),
                               ratio: warmRatio + " (" + timeCell(results[1], decimals: 2) + ")", target: "<= 2x", met: warmMet))
        let (coldRatio, coldMet) = pairedRatio(results[2], results[3], limit: 1.1)
        report.rows.append(Row(measure: "cache: the same, cold (cache built) / --no-cache", infcal: timeCell(results[2]),
                               ratio: coldRatio + " (" + timeCell(results[3]) + ")", target: "<= 1.1x", met: coldMet))
        // The cold run until its cache is in place: infcal ends before the process it leaves
        // the writing to, which this waits for.
        var untilWritten: [Double] = []
        for _ in 0..<runs {
            emptyCache()
            let start = Processes.now()
            guard let outcome = try? Processes.run(infcal, month + ["--events", big], stderrPath: "/dev/null"), outcome.status == 0,
                  Processes.waitForCacheWriters(), FileManager.default.fileExists(atPath: Processes.cacheHome + "/infcal") else { break }
            untilWritten.append(Processes.now() - start)
        }
        if untilWritten.count == runs, let noCache = results[3], noCache.failure == nil, noCache.medianSeconds > 0 {
            let seconds = median(untilWritten)
            report.rows.append(Row(measure: "cache: the same, cold, until its cache is written / --no-cache", infcal: milliseconds(seconds),
                                   ratio: format(seconds / noCache.medianSeconds, decimals: 2) + "x (" + timeCell(noCache) + ")"))
        }
        if let time {
            let withEvents = (0..<min(runs, 5)).compactMap { _ in Processes.peakKiB(infcal, month + ["--events", big], time: time) }
            let without = (0..<min(runs, 5)).compactMap { _ in Processes.peakKiB(infcal, month, time: time) }
            if !withEvents.isEmpty, !without.isEmpty {
                let (a, b) = (median(withEvents.map(Double.init)), median(without.map(Double.init)))
                report.rows.append(Row(measure: "cache: peak RSS of -1 with the 9.4 MB calendar, warm / without events",
                                       infcal: mebibytes(a), ratio: format(a / b, decimals: 2) + "x (" + mebibytes(b) + ")",
                                       target: "<= 2x", met: a / b <= 2 ? "met" : "NOT MET"))
            }
        }

        // The vdir against khal, each with its own cache warm (khal's SQLite database in its
        // own directory), the same month and files.
        let agenda = ["--events", vdir, "--agenda", "--from", "2024-03", "--forward", "1"]
        let khal = Self.khalCommand(vdir: vdir, home: khalHome)
        let vdirResults = interleave([
            Command(path: infcal, arguments: agenda),
            khal,
            Command(path: infcal, arguments: agenda + ["--no-cache"]),
        ], runs: min(runs, 5))
        let (khalRatio, khalMet) = pairedRatio(vdirResults[0], vdirResults[1], limit: 0.1)
        report.rows.append(Row(measure: "cache: --agenda --forward 1 over a vdir of 20,000 files, warm / khal list",
                               infcal: timeCell(vdirResults[0]),
                               ratio: khal == nil ? "-" : khalRatio + " (" + timeCell(vdirResults[1]) + ")",
                               target: "<= 0.1x", met: khal == nil ? "-" : khalMet))
        report.rows.append(Row(measure: "cache: the same vdir with --no-cache", infcal: timeCell(vdirResults[2])))
        if khal == nil {
            report.notes.append("cache: khal is not installed (pip install khal): the vdir row has no ratio.")
        }
        report.notes.append("cache: a generated calendar of 25,000 VEVENTs (2,500 recurring, as in the events measure) and "
            + "9.4 MB, and a vdir of 20,000 one-event files (one in twenty weekly with COUNT), both dated an hour back; "
            + "`infcal --from 2024-03 -1 --events FILE` with its cache warm over `infcal --from 2024-03 -1` (paired), then in "
            + "rounds of their own the same with the cache emptied before each run over `--no-cache` (infcal ends before the process "
            + "it leaves the cache's writing to; no run is timed before that process has ended, and a row of its own times the "
            + "cold run until its cache is written); `infcal --events VDIR --agenda --from 2024-03 --forward 1` "
            + "over `khal list 2024-03-01 2024-03-31` (khal's own interpreter, `python -m khal`, its database warm), "
            + "\(min(runs, 5)) paired runs; peak RSS from GNU time.")
    }

    /// `khal list` for March 2024 over `vdir` with a configuration and database in `home`, run
    /// by the Python that has khal (not through a shim); nil when khal is not installed.
    static func khalCommand(vdir: String, home: String) -> Command? {
        guard let python = Processes.find("python3"),
              let (status, executable) = try? Processes.output(python, ["-c", "import sys, khal; print(sys.executable)"]),
              status == 0 else { return nil }
        let interpreter = executable.trimmingCharacters(in: .whitespacesAndNewlines)
        let config = KhalConfig.text(name: "bench", vdir: vdir, database: home + "/khal.db", zone: "UTC")
        guard (try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)) != nil,
              (try? config.write(toFile: home + "/config", atomically: true, encoding: .utf8)) != nil else { return nil }
        return Command(path: interpreter, arguments: ["-m", "khal", "-c", home + "/config", "list", "2024-03-01", "2024-03-31"])
    }
}
