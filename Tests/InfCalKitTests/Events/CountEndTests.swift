import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalCLI

/// A COUNT rule whose end is known (as the cache stores it: the last period and how many of
/// its instances count) gives the instances that counting from DTSTART gives, for any range;
/// and a series read from the cache shows what reading the file shows.
@Suite struct CountEndTests {
    /// Two expanders of `rule` from `start`: one that counts, one told where the count ends.
    static func expanders(_ rule: RecurrenceRule, start: ICalTime) -> (counting: RecurrenceExpander, bounded: RecurrenceExpander) {
        let until = rule.until.map { until in
            until.isDate && !start.isDate ? until.seconds + CivilTime.secondsPerDay - 1 : until.seconds
        }
        func make() -> RecurrenceExpander {
            RecurrenceExpander(rule: rule, start: start.seconds, isDate: start.isDate, until: until,
                               scale: RecurrenceScales.scale(named: rule.scale))
        }
        let counting = make(), bounded = make()
        bounded.setCountEnd(make().countEnd)
        return (counting, bounded)
    }

    /// Every COUNT rule of libical's test tables (RSCALE and SKIP, BYSETPOS, DTSTART out of
    /// step with its rule among them), asked for ranges that begin and end at every instance
    /// and between them. The oracle is the counting walk, which `LibicalTableTests` checks
    /// against libical's instances.
    @Test(arguments: LibicalTableTests.files)
    func aKnownEndGivesWhatCountingGives(_ file: String) throws {
        var bounded = 0
        var failures: [String] = []
        for item in LibicalTableTests.cases(file) where !item.instances.hasPrefix(" ***") {
            guard let rule = try? RecurrenceRule.parse(item.rule), rule.count != nil,
                  let start = ICalTime.parse(item.start, isDate: nil, zone: nil) else { continue }
            let (counting, known) = Self.expanders(rule, start: start)
            if known.knownLastBatch != nil { bounded += 1 }
            let end = CivilTime.day(year: 3000, month: 1, day: 1) * CivilTime.secondsPerDay
            let all = Self.expanders(rule, start: start).counting.instances(in: start.seconds..<end)
            // Ranges from each instance, and from a day before each, to the next but one.
            for (place, instance) in all.enumerated().prefix(400) {
                let upper = place + 2 < all.count ? all[place + 2] : end
                for lower in [instance, instance - CivilTime.secondsPerDay, instance + 1] where lower < upper {
                    let a = counting.instances(in: lower..<upper), b = known.instances(in: lower..<upper)
                    if a != b { failures.append("\(item) in \(lower)..<\(upper): \(b) instead of \(a)") }
                }
            }
            // Past the end, and the whole of it.
            if let last = all.last {
                #expect(known.instances(in: (last + 1)..<end).isEmpty, "\(item)")
                #expect(known.instances(in: start.seconds..<end) == all, "\(item)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // Not vacuous: the tables' COUNT rules mostly end within the walk.
        #expect(bounded >= (file == "icalrecur_test.txt" ? 60 : 5), "\(file): only \(bounded) rules with a known end")
    }

    /// The series below, read from a cache decoded for March 2024 alone, as a run of that
    /// month decodes it: the same occurrences as reading the file, and those the rules give.
    /// Dates from python-dateutil (`rrule(MONTHLY, byweekday=TU(2), count=3, dtstart=2024-01-05)`
    /// gives 9 January, 13 February, 12 March; infcal counts DTSTART, which the rule does not
    /// produce, as the first of COUNT=4, RFC 5545 §3.8.5.3), weekdays checked with Python's
    /// `calendar`: 29 March 2024 is the last weekday of its month.
    @Test func aCountSeriesFromTheCacheShowsWhatReadingShows() throws {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0",
            // DTSTART, a Friday, is no second Tuesday.
            "BEGIN:VEVENT", "UID:out-of-step", "SUMMARY:Out of step", "DTSTART:20240105T090000Z",
            "RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=4", "END:VEVENT",
            // EXDATE removes instances that COUNT counted: ten days less two.
            "BEGIN:VEVENT", "UID:excluded", "SUMMARY:Excluded", "DTSTART:20240301T100000Z", "RRULE:FREQ=DAILY;COUNT=10",
            "EXDATE:20240303T100000Z,20240305T100000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:last-weekday", "SUMMARY:Last weekday", "DTSTART:20240131T170000Z",
            "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", "END:VEVENT",
            // 144 a day, of which the day limit keeps 48: COUNT=200 ends on the second day.
            "BEGIN:VEVENT", "UID:dense", "SUMMARY:Dense", "DTSTART:20240310T000000Z",
            "RRULE:FREQ=MINUTELY;INTERVAL=10;COUNT=200", "END:VEVENT",
            // Past March: nothing of it shows.
            "BEGIN:VEVENT", "UID:over", "SUMMARY:Over", "DTSTART:20240201T080000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        let bytes = Array(text.utf8)
        let fresh = EventReader.read(bytes)
        let cache = EventCacheFormatTests.encoded(bytes)
        let low = CivilTime.day(year: 2024, month: 3, day: 1) * CivilTime.secondsPerDay
        let high = CivilTime.day(year: 2024, month: 4, day: 1) * CivilTime.secondsPerDay
        let decoded = try #require(EventCacheFormatTests.decoded(cache, window: low..<high))
        let events = decoded.flatMap(\.file.events)
        #expect(events.filter { $0.rule?.count != nil }.allSatisfy { $0.expanders.allSatisfy { $0.knownLastBatch != nil } },
                "every COUNT rule read from the cache knows its end")
        func shown(_ events: [Event]) -> [String] {
            let store = EventStore(events: events, display: .utc)
            return store.occurrences(startingOn: EventFixture.day(2024, 3, 1)..<EventFixture.day(2024, 4, 1)).map {
                EventFixture.text($0.start) + " " + $0.summary + ($0.more > 0 ? " +\($0.more)" : "")
            }
        }
        let expected = shown(fresh.events)
        #expect(shown(events) == expected)
        let days = expected.filter { !$0.contains("Dense") }
        #expect(days == [
            "2024-03-01T10:00 Excluded", "2024-03-02T10:00 Excluded", "2024-03-04T10:00 Excluded",
            "2024-03-06T10:00 Excluded", "2024-03-07T10:00 Excluded", "2024-03-08T10:00 Excluded",
            "2024-03-09T10:00 Excluded", "2024-03-10T10:00 Excluded", "2024-03-12T09:00 Out of step",
            "2024-03-29T17:00 Last weekday",
        ])
        let dense = expected.filter { $0.contains("Dense") }
        #expect(dense.count == 96)
        #expect(dense.first == "2024-03-10T00:00 Dense")
        #expect(dense.last?.hasPrefix("2024-03-11T07:50 Dense") == true)
    }
}
