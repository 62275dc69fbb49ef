import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender

/// `infcal --week` through the built binary against an independent computation: the oracle of
/// the week grid (`Tests/Oracles/week_oracle.py`: each day's clock and every block's slots from
/// Python's `zoneinfo`, the headings and the months from its `calendar`) for the weeks the
/// clocks change in Berlin and New York, printed in their own zone (TZ) and in the other
/// (`--zone`): the grid's rows and the bars in each cell, the headings and the title of each
/// week, and `--week --json`'s lanes, band lines and day lengths. Skips, saying so, without
/// python3 3.9 or later.
@Suite struct WeekPrintTests {
    typealias Oracle = WeekOracleTests

    /// The events' file of `week`.
    static func file(_ week: Oracle.Week, events: [Oracle.TestEvent]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-weekprint-\(getpid())-\(UUID().uuidString).ics")
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:week"] + events.flatMap(\.lines) + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The events of `week`, their file (the caller removes it) and the week's Monday.
    static func setUp(_ week: Oracle.Week) throws -> (events: [Oracle.TestEvent], file: URL, monday: Int) {
        let events = Oracle.events(week)
        let monday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: week.monday.0, month: week.monday.1, day: week.monday.2))
        return (events, try file(week, events: events), monday)
    }

    /// The weeks printed: the output cut at its blank lines.
    static func weeks(_ output: String) -> [[String]] {
        output.components(separatedBy: "\n\n").map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
            .filter { !$0.isEmpty }
    }

    @Test(.enabled(if: Oracle.hasOracle, "python3 with zoneinfo is not installed; skipping the printed weeks' oracle"),
          arguments: Oracle.weeks)
    func printedWeeksMatchZoneinfo(_ week: Oracle.Week) throws {
        let (events, file, monday) = try Self.setUp(week)
        defer { try? FileManager.default.removeItem(at: file) }
        let start = ISODate.text(dayNumber: monday)
        var printed: [(lines: [String], days: [Int], zone: String, hours: [Int], context: String)] = []
        for (zone, tz, arguments) in [(week.zone, week.zone, [String]()), (week.other, "UTC", ["--zone", week.other])] {
            for hours in [[0, 24], [7, 19]] {
                let result = try BinaryRunner.run(["--no-config", "--events", file.path, "--week", start, "--forward", "2", "-m",
                                                   "--hours", "\(hours[0])-\(hours[1])", "--width", "120"] + arguments,
                                                  environment: ["TZ": tz, "LC_ALL": "C.UTF-8"])
                #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
                let weeks = Self.weeks(result.stdout)
                #expect(weeks.count == 2, "\(result.stdout)")
                for (index, lines) in weeks.enumerated() {
                    for line in lines { #expect(DisplayWidth.of(line) <= 120, "\(line)") }
                    printed.append((lines, Array((monday + 7 * index)..<(monday + 7 * index + 7)), zone, hours,
                                    "\(week), week \(index + 1), shown in \(zone), hours \(hours)"))
                }
            }
        }
        let answers = try Oracle.oracle(printed.map { item in
            Oracle.Request(zone: item.zone, days: item.days.map { ISODate.text(dayNumber: $0) }, step: 30, hours: item.hours, events: events)
        })
        let scaleWidth = WeekRenderer(renderer: Oracle.renderer(), box: .unicode, clock: .twentyFourHour).scaleWidth
        for (item, answer) in zip(printed, answers) {
            Oracle.compareGrid(item.lines, answer: answer, days: item.days, step: 30, scaleWidth: scaleWidth, item.context)
            // The headings, between the column lines; the title, the months and the zone --zone names.
            let headings = item.lines[1].split(separator: "│", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(headings == answer.headings, "\(item.context): \(item.lines[1])")
            let title = item.lines[0].trimmingCharacters(in: .whitespaces)
            let zone = item.zone == week.zone ? "" : " (\(item.zone))"
            #expect(title == answer.title.joined(separator: " – ") + zone, "\(item.context): \(title)")
            // Every hour asked, and no other, labels the scale (twice the repeated one).
            let labels = item.lines.compactMap { line -> Int? in
                let label = line.prefix(scaleWidth).trimmingCharacters(in: .whitespaces)
                return label.count >= 5 && label.first?.isNumber == true ? Int(label.prefix(2)) : nil
            }
            #expect(Set(labels) == Set(answer.days.values.flatMap { $0 }.map { $0[0] / 60 }), "\(item.context): \(labels)")
        }
    }

    /// A week's JSON object: where the grid puts each event.
    struct WeekObject: Decodable {
        struct Day: Decodable { let date: String; let weekday: String; let hours: Double }
        struct Place: Decodable { let date: String; let column: Int; let of: Int }
        struct Band: Decodable { let line: Int; let first: String; let last: String }
        struct Event: Decodable {
            let summary: String
            let columns: [Place]?
            let band: Band?
        }
        let first: String
        let last: String
        let zone: String?
        let days: [Day]
        let events: [Event]
    }

    @Test(.enabled(if: Oracle.hasOracle, "python3 with zoneinfo is not installed; skipping the printed weeks' oracle"),
          arguments: Oracle.weeks)
    func weekJSONMatchesZoneinfo(_ week: Oracle.Week) throws {
        let (events, file, monday) = try Self.setUp(week)
        defer { try? FileManager.default.removeItem(at: file) }
        var objects: [(object: WeekObject, zone: String)] = []
        for (zone, tz, arguments) in [(week.zone, week.zone, [String]()), (week.other, "UTC", ["--zone", week.other])] {
            let result = try BinaryRunner.run(["--no-config", "--events", file.path, "--week", ISODate.text(dayNumber: monday + 3),
                                               "--backward", "2", "-m", "--json"] + arguments, environment: ["TZ": tz])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            for line in lines { objects.append((try JSONDecoder().decode(WeekObject.self, from: Data(line.utf8)), zone)) }
        }
        let answers = try Oracle.oracle(objects.map { item in
            Oracle.Request(zone: item.zone, days: item.object.days.map(\.date), step: 30, hours: [0, 24], events: events)
        })
        for ((object, zone), answer) in zip(objects, answers) {
            let context = "\(week) from \(object.first) in \(zone)"
            #expect(object.zone == zone, "\(context)")
            #expect(object.days.map(\.weekday) == ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
            for day in object.days { #expect(day.hours == answer.hours[day.date], "\(context): \(day.date)") }
            struct Lane: Hashable { let summary: String, date: String, lane: Int, lanes: Int }
            let lanes = Set(object.events.flatMap { event in (event.columns ?? []).map { Lane(summary: event.summary, date: $0.date, lane: $0.column, lanes: $0.of) } })
            let expected = Set(answer.blocks.map { Lane(summary: $0.summary, date: $0.date, lane: $0.lane, lanes: $0.lanes) })
            #expect(lanes == expected, "\(context): only infcal \(lanes.subtracting(expected)), only zoneinfo \(expected.subtracting(lanes))")
            let band = Set(object.events.compactMap { event in event.band.map { Oracle.Answer.BandItem(summary: event.summary, first: $0.first, last: $0.last, line: $0.line) } })
            #expect(band == Set(answer.band), "\(context): \(band) against \(answer.band)")
        }
    }
}
