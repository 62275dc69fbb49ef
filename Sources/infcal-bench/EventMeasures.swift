import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalProcess

/// A generated iCalendar file like a large real one: single meetings in zones, and recurring
/// birthdays, series with UNTIL or COUNT, exceptions, padded with descriptions to a size.
enum EventFileGenerator {
    /// `events` VEVENTs, `recurring` of them with rules, about `bytes` long; the same text every time.
    static func text(events: Int, recurring: Int, bytes: Int) -> String {
        var seed: UInt64 = 42
        func random(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "W. Europe Standard Time"]
        let days = ["MO", "TU", "WE", "TH", "FR"]
        let padding = String(repeating: "Agenda and notes for the meeting, ", count: 2)
        var out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal-bench//EN\r\nX-WR-CALNAME:Generated\r\n"
        var written = out.utf8.count
        for index in 0..<events {
            // Each event's share of what is left, so that events longer than their share
            // (many lines, long zone names) are made up for and the file comes to `bytes`.
            let pad = (bytes - written - 15) / (events - index)
            let year = 2015 + random(20), month = 1 + random(12), day = 1 + random(28), hour = 7 + random(11)
            let date = "\(year)\(two(month))\(two(day))"
            var lines = ["BEGIN:VEVENT", "UID:event-\(index)@infcal-bench", "SUMMARY:Meeting \(index)"]
            if index < recurring {
                switch index % 10 {
                case 0, 1, 2, 3:
                    let born = 1950 + random(70)
                    lines += ["DTSTART;VALUE=DATE:\(born)\(two(month))\(two(day))", "RRULE:FREQ=YEARLY"]
                case 4, 5:
                    let end = "\(year)\(two(min(12, month + 1 + random(6))))28T235959Z"
                    lines += ["DTSTART;TZID=\(zones[random(zones.count)]):\(date)T\(two(hour))0000",
                              "DTEND;TZID=\(zones[random(zones.count)]):\(date)T\(two(hour + 1))0000",
                              "RRULE:FREQ=WEEKLY;BYDAY=\(days[random(5)]),\(days[random(5)]);UNTIL=\(end)",
                              "EXDATE;TZID=Europe/Berlin:\(date)T\(two(hour))0000"]
                case 6, 7:
                    lines += ["DTSTART:\(date)T\(two(hour))3000Z", "DURATION:PT45M",
                              "RRULE:FREQ=MONTHLY;BYDAY=\(1 + random(4))\(days[random(5)]);COUNT=\(6 + random(30))"]
                case 8:
                    lines += ["DTSTART;VALUE=DATE:\(date)", "RRULE:FREQ=DAILY;COUNT=\(3 + random(10))"]
                default:
                    lines += ["DTSTART;TZID=America/New_York:\(date)T\(two(hour))0000", "DTEND;TZID=America/New_York:\(date)T\(two(hour + 1))0000",
                              "RRULE:FREQ=MONTHLY;BYMONTHDAY=\(1 + random(28));UNTIL=\(year + 1 + random(3))0101T000000Z"]
                }
            } else {
                lines += ["DTSTART;TZID=\(zones[random(zones.count)]):\(date)T\(two(hour))\(two(random(4) * 15))00",
                          "DTEND;TZID=\(zones[random(zones.count)]):\(date)T\(two(hour + 1))\(two(random(4) * 15))00"]
            }
            // Descriptions fill the file to its size, folded at 75 octets as exporters do.
            // What the event takes besides its description: its lines, their CRLFs, END:VEVENT.
            let used = lines.reduce(0) { $0 + $1.utf8.count + 2 } + 12
            // A description line of `length` octets takes them, its CRLF, and three more octets
            // (CRLF and a space) for each continuation line, which holds 74 of them.
            func folded(_ length: Int) -> Int { length + 2 + (length > 75 ? 3 * ((length - 75 + 73) / 74) : 0) }
            var length = max(12, (pad - used) * 74 / 77 + 2)
            while length > 12, folded(length) > pad - used { length -= 1 }
            let room = length - 12
            var description = "DESCRIPTION:" + String(repeating: padding, count: room / padding.count + 1).prefix(room)
            var folded: [String] = []
            while description.count > 75 {
                folded.append(String(description.prefix(75)))
                description = " " + description.dropFirst(75)
            }
            folded.append(description)
            lines += folded
            lines.append("END:VEVENT")
            let event = lines.joined(separator: "\r\n") + "\r\n"
            written += event.utf8.count
            out += event
        }
        return out + "END:VCALENDAR\r\n"
    }
}

extension EventFileGenerator {
    /// A calendar of twelve all-day yearly events, one on the 15th of each month.
    static var yearly: String {
        var yearly = "BEGIN:VCALENDAR\r\n"
        for month in 1...12 {
            yearly += "BEGIN:VEVENT\r\nUID:y\(month)\r\nSUMMARY:Yearly \(month)\r\nDTSTART;VALUE=DATE:2000\(month < 10 ? "0" : "")\(month)15\r\nRRULE:FREQ=YEARLY\r\nEND:VEVENT\r\n"
        }
        return yearly + "END:VCALENDAR\r\n"
    }
}

/// A sink that only counts.
final class CountingSink: ByteSink {
    var count = 0
    func write(_ bytes: [UInt8]) throws { count += bytes.count }
}

extension Benchmark {
    // MARK: Measure 6: events

    mutating func measureEvents() {
        let path = Processes.temporaryPath("events.ics")
        let yearlyPath = Processes.temporaryPath("yearly.ics")
        defer { unlink(path); unlink(yearlyPath) }
        let text = EventFileGenerator.text(events: 50_000, recurring: 10_000, bytes: 10_000_000)
        let yearly = EventFileGenerator.yearly
        guard (try? text.write(toFile: path, atomically: true, encoding: .utf8)) != nil,
              (try? yearly.write(toFile: yearlyPath, atomically: true, encoding: .utf8)) != nil else {
            report.notes.append("events: could not write the generated files to \(path)")
            return
        }
        let size = Double(text.utf8.count) / 1_000_000

        // In-process: read and index; then twelve months of the agenda.
        var readTimes: [Double] = [], printTimes: [Double] = []
        var lines = 0
        let gregorian = MonthCalendar(.gregorian)
        let startDay = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 1, day: 1))
        for round in -1..<runs {
            let begin = Processes.now()
            guard let data = FileManager.default.contents(atPath: path) else { return }
            let file = EventReader.read([UInt8](data))
            let store = EventStore(events: file.events, display: DisplayZone(TimeZone(identifier: "Europe/Berlin") ?? .gmt))
            let read = Processes.now()
            guard let start = gregorian.month(containing: startDay) else { return }
            let sink = CountingSink()
            let plan = AgendaPlan(backward: false, startDay: startDay, months: 12, width: nil)
            try? AgendaPrinter(locale: nil, width: nil).print(MonthIndex(calendar: gregorian, start: start).forward.prefix(12),
                                                              store: store, plan: plan, bounds: MonthBounds(), to: sink)
            let printed = Processes.now()
            if round >= 0 {
                readTimes.append(read - begin)
                printTimes.append(printed - read)
            }
            lines = sink.count
        }
        let readMedian = median(readTimes), printMedian = median(printTimes)
        report.rows.append(Row(measure: "events: read + index 10 MB, 50,000 events", infcal: milliseconds(readMedian),
                               target: "< 150 ms", met: readMedian < 0.150 ? "met" : "NOT MET"))
        report.rows.append(Row(measure: "events: agenda of 12 months", infcal: milliseconds(printMedian),
                               target: "< 50 ms", met: printMedian < 0.050 ? "met" : "NOT MET"))

        // Whole processes: the month stream against the same stream with yearly events (their
        // days marked, each month's events listed under it), and against their agenda.
        let months = 120_000
        let streams = interleave([
            Command(path: infcal, arguments: ["--from", "0001-01", "--forward", "\(months)", "--columns", "3"]),
            Command(path: infcal, arguments: ["--events", yearlyPath, "--from", "0001-01", "--forward", "\(months)", "--columns", "3"]),
            Command(path: infcal, arguments: ["--events", yearlyPath, "--agenda", "--from", "0001-01", "--forward", "\(months)"]),
        ], runs: runs)
        if let plain = streams[0], let grids = streams[1], plain.failure == nil, grids.failure == nil {
            let (ratio, met) = pairedRatio(grids, plain, limit: 1.3)
            report.rows.append(Row(measure: "events: stream of 120,000 months, 12 yearly events", infcal: timeCell(grids),
                                   ratio: ratio + " stream (paired)", target: "<= 1.3x the month stream", met: met))
        }
        if let plain = streams[0], let agenda = streams[2], plain.failure == nil, agenda.failure == nil {
            let ratio = agenda.medianSeconds / plain.medianSeconds
            report.rows.append(Row(measure: "events: agenda of 120,000 months, 12 yearly events", infcal: timeCell(agenda),
                                   ratio: format(ratio, decimals: 2) + "x stream", target: "-", met: "-"))
        }
        if let time {
            let small = Processes.peakKiB(infcal, ["--events", yearlyPath, "--agenda", "--from", "0001-01", "--forward", "12"], time: time)
            let large = Processes.peakKiB(infcal, ["--events", yearlyPath, "--agenda", "--from", "0001-01", "--forward", "\(months)"], time: time)
            if let small, let large {
                let growth = Double(large - small)
                report.rows.append(Row(measure: "events: peak RSS growth, 12 -> 120,000 months", infcal: mebibytes(growth),
                                       target: "<= 2 MiB", met: growth <= 2048 ? "met" : "NOT MET"))
            }
        }

        // Against Python's recurring-ical-events, the same file and year, whole processes.
        let script = """
            import sys, icalendar, recurring_ical_events
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            events = recurring_ical_events.of(calendar).between((2024, 1, 1), (2025, 1, 1))
            print(len(events))
            """
        let hasModule = python.map { (try? Processes.output($0, ["-c", "import recurring_ical_events"]).status) == 0 } ?? false
        let compared = interleave([
            Command(path: infcal, arguments: ["--events", path, "--agenda", "--from", "2024-01", "--forward", "12"]),
            hasModule ? python.map { Command(path: $0, arguments: ["-c", script, path]) } : nil,
        ], runs: min(runs, 3))
        if let ours = compared[0], let theirs = compared[1], ours.failure == nil, theirs.failure == nil {
            let speedup = theirs.medianSeconds / ours.medianSeconds
            report.rows.append(Row(measure: "events: a year of the 10 MB file, whole process", infcal: timeCell(ours),
                                   python: timeCell(theirs), ratio: format(speedup, decimals: 0) + "x faster",
                                   target: ">= 20x recurring-ical-events", met: speedup >= 20 ? "met" : "NOT MET"))
        } else {
            report.notes.append("events: Python's recurring-ical-events is not installed (pip install recurring-ical-events): its row is left out.")
        }
        report.notes.append("events: a generated file of \(format(size, decimals: 1)) MB, 50,000 VEVENTs (10,000 recurring: yearly birthdays, "
            + "weekly series with UNTIL and EXDATE in four zones, monthly with COUNT or UNTIL, daily with COUNT), folded descriptions; "
            + "read + index and the 12-month agenda (\(lines) bytes) are timed in-process (file read, parse, index; then 2024 in "
            + "Europe/Berlin); the streams compare `infcal --events yearly.ics --from 0001-01 --forward \(months) --columns 3` "
            + "(and the same with --agenda) with the 3-column month stream without events; python3: `recurring_ical_events.of(cal).between(2024, 2025)` "
            + "after `icalendar.Calendar.from_ical`, median of \(min(runs, 3)) runs, against `infcal --events FILE --agenda --from 2024-01 --forward 12`.")
    }
}
