import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// A store whose events are all closed-form yearly rules shown as written answers the stream's
/// question (`withStarts`) from the forms a block of years at a time. Its answers must be the
/// occurrences the general path (`occurrences(startingOn:)`, the recurrence engine and the
/// instance window) gives for the same months, in the same order, whichever way the months
/// are asked: forward, backward, scattered, from BC years on.
struct YearlyStartsTests {
    /// A random calendar of yearly events: all-day or floating times, DTSTART on or off the
    /// rule's day (BYMONTH and BYMONTHDAY, from the end too), 29 February, INTERVAL, UNTIL, and
    /// summaries that tie, so that events starting at the same second are put in order by them.
    static func calendar(_ random: inout SplitMix64, events: Int, near: Int) -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
        let summaries = ["Birthday", "Anniversary", "Birthday", "Zeta", "alpha", "Anniversary"]
        for index in 0..<events {
            // A third of them on 15 March from a few years after `near` on, so that instances
            // meet at the same second.
            let shared = random.below(3) == 0
            let year = shared ? max(1, near + 5 + random.below(3)) : 1 + random.below(2400), month = shared ? 3 : 1 + random.below(12)
            let day = shared ? 15 : random.below(5) == 0 && month == 2 ? 29 : 1 + random.below(28)
            let date = String(format: "%04d%02d%02d", year, month, day)
            let time = shared ? (9, 0) : [(9, 0), (0, 0), (23, 59), (12, 30)][random.below(4)]
            let timed = random.below(3) == 0
            var rule = "RRULE:FREQ=YEARLY"
            if random.below(4) == 0 { rule += ";INTERVAL=\(2 + random.below(4))" }
            if random.below(3) == 0 {
                let ruleDay = random.below(4) == 0 ? -(1 + random.below(3)) : 1 + random.below(31)
                rule += ";BYMONTH=\(1 + random.below(12));BYMONTHDAY=\(ruleDay)"
            }
            if random.below(4) == 0 {
                let until = String(format: "%04d%02d%02d", year + random.below(300), 1 + random.below(12), 1 + random.below(28))
                rule += timed ? ";UNTIL=\(until)T120000" : ";UNTIL=\(until)"
            }
            lines += ["BEGIN:VEVENT", "UID:\(index)", "SUMMARY:\(summaries[random.below(summaries.count)])"]
            lines.append(timed ? String(format: "DTSTART:%@T%02d%02d00", date, time.0, time.1) : "DTSTART;VALUE=DATE:\(date)")
            if random.below(3) == 0 { lines.append(timed ? "DURATION:PT1H" : "DURATION:P2D") }
            lines += [rule, "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// The months from `year`-01 on, `count` of them, as ranges of grid day numbers.
    static func months(from year: Int, count: Int) -> [Range<Int>] {
        (0..<count).map { index in
            let (year, month) = (year + index / 12, index % 12 + 1)
            let next = month == 12 ? (year + 1, 1) : (year, month + 1)
            return EventFixture.day(year, month, 1)..<EventFixture.day(next.0, next.1, 1)
        }
    }

    static func starts(_ store: EventStore, _ range: Range<Int>) -> [String]? {
        var found: [String]?
        let answered = store.withStarts(startingOn: range) { starts in
            found = starts.map { "\($0.start) \($0.end) \($0.event)" }
            return true
        }
        return answered ? found : nil
    }

    @Test(arguments: 0..<12)
    func startsAreTheGeneralPathsOccurrences(seed: Int) {
        var random = SplitMix64(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D &+ 7)
        // Forward over years of the events (with rows of three months), back, and scattered,
        // some before year 1.
        let first = random.below(2400) - 100
        let data = Self.calendar(&random, events: 1 + random.below(14), near: first)
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let general = EventStore(events: EventReader.read(data).events, display: .utc)
        let forward = Self.months(from: first, count: 12 * 150)
        let rows = stride(from: 0, to: forward.count - 2, by: 3).map { forward[$0].lowerBound..<forward[$0 + 2].upperBound }
        let scattered = (0..<200).map { _ in Self.months(from: random.below(2600) - 150, count: 1 + random.below(14)).first ?? 0..<0 }
        var asked = 0
        for range in rows + forward.reversed() + scattered {
            let expected = general.occurrences(startingOn: range).map { "\($0.start) \($0.end) \($0.event ?? -1)" }
            #expect(Self.starts(store, range) == expected, "months \(range) of seed \(seed)")
            asked += 1
        }
        #expect(store.answersFromYearlyForms, "the closed forms did not answer for seed \(seed)")
        #expect(asked > 1000)
    }

    /// What the closed forms cannot give goes the general way: a COUNT, an EXDATE, a zoned
    /// time, or a single event beside the rules.
    @Test(arguments: ["RRULE:FREQ=YEARLY;COUNT=40", "RRULE:FREQ=YEARLY\r\nEXDATE;VALUE=DATE:20100315",
                      "RRULE:FREQ=YEARLY\r\nX-SINGLE:1"])
    func otherEventsGoTheGeneralWay(extra: String) {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:1", "SUMMARY:March", "DTSTART;VALUE=DATE:20000315"]
        lines += extra.components(separatedBy: "\r\n") + ["END:VEVENT"]
        if extra.contains("X-SINGLE") {
            lines += ["BEGIN:VEVENT", "UID:2", "SUMMARY:Once", "DTSTART;VALUE=DATE:20100320", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        let data = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        for range in Self.months(from: 1999, count: 12 * 50) {
            let expected = store.occurrences(startingOn: range).map { "\($0.start) \($0.end) \($0.event ?? -1)" }
            #expect(Self.starts(store, range) == expected)
        }
        #expect(!store.answersFromYearlyForms)
    }
    /// Years in which every rule has its instance (blocks after every DTSTART, the stream's
    /// common case) are filled apart from the others: a calendar of the benchmark's kind (one
    /// all-day event on the 15th of each month) with 29 February, 31 December and 1 January
    /// beside it and two summaries that tie, asked over centuries row by row and back, answers
    /// what the general path gives, and `yearlyStarts(startingOn:)` what `withStarts` lends.
    @Test func everyYearBlocksAreTheGeneralPathsOccurrences() {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
        var dates = (1...12).map { String(format: "2000%02d15", $0) }
        dates += ["20000229", "19991231", "20010101", "20010101"]
        for (index, date) in dates.enumerated() {
            lines += ["BEGIN:VEVENT", "UID:\(index)", "SUMMARY:\(index >= 14 ? "Tie" : "Yearly \(index)")",
                      "DTSTART;VALUE=DATE:\(date)", "RRULE:FREQ=YEARLY", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        let data = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let general = EventStore(events: EventReader.read(data).events, display: .utc)
        // Blocks of several hundred years for a few forms: 1,100 years cross some. The general
        // path is asked once a century, its answer cut into the months.
        let forward = Self.months(from: 1900, count: 12 * 1100)
        let centuries = stride(from: 0, to: forward.count, by: 1200).map { first in
            let days = forward[first].lowerBound..<forward[min(forward.count, first + 1200) - 1].upperBound
            return (days, general.occurrences(startingOn: days))
        }
        let rows = stride(from: 0, to: forward.count - 2, by: 3).map { forward[$0].lowerBound..<forward[$0 + 2].upperBound }
        for range in rows + forward.reversed() {
            let low = (range.lowerBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
            let high = (range.upperBound + CivilTime.dayNumberOffset) * CivilTime.secondsPerDay
            guard let century = centuries.first(where: { $0.0.contains(range.lowerBound) && $0.0.contains(range.upperBound - 1) }) else {
                Issue.record("months \(range) lie in no century asked")
                continue
            }
            let expected = century.1.filter { $0.start >= low && $0.start < high }.map { "\($0.start) \($0.end) \($0.event ?? -1)" }
            #expect(Self.starts(store, range) == expected, "months \(range)")
            #expect(store.yearlyStarts(startingOn: range).map { $0.map { "\($0.start) \($0.end) \($0.event)" } } == expected,
                    "months \(range)")
        }
        #expect(store.answersFromYearlyForms)
    }
}
