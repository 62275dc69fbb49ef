import Foundation
import InfCalModel
import InfCalEvents
import Testing

/// The cache's table of occurrences (the instances of recurring events in the years around
/// the cache's writing) gives what expanding the rules gives, at its edges too: a month just
/// inside its first and last years, one straddling its end, over a zone's changes of clock,
/// an EXDATE, an override, all-day and timed events, spans that started before the month.
/// The oracle is the same binary with `--no-cache`, which reads the file and expands the rules.
@Suite struct EventCacheTableTests {
    /// The year the cache is written in, as infcal takes it (UTC).
    static var year: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.component(.year, from: Date())
    }

    /// Rules that run across the table's years, in zones with changes of clock.
    static func calendar(_ year: Int) -> String {
        let (first, last) = (EventCacheFormat.occurrenceYears(around: year).lowerBound, EventCacheFormat.occurrenceYears(around: year).upperBound - 1)
        return """
            BEGIN:VCALENDAR
            X-WR-CALNAME:Edges
            BEGIN:VEVENT
            UID:daily-berlin
            SUMMARY:Daily at half past two
            DTSTART;TZID=Europe/Berlin:\(first - 2)0105T023000
            DTEND;TZID=Europe/Berlin:\(first - 2)0105T033000
            RRULE:FREQ=DAILY
            EXDATE;TZID=Europe/Berlin:\(last)1124T023000
            EXDATE;TZID=Europe/Berlin:\(first)0203T023000
            BEGIN:VALARM
            UID:daily-alarm
            ACTION:DISPLAY
            DESCRIPTION:Wake up
            TRIGGER:-PT15M
            REPEAT:1
            DURATION:PT5M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:daily-berlin
            RECURRENCE-ID;TZID=Europe/Berlin:\(last)1125T023000
            SUMMARY:Daily moved
            DTSTART;TZID=Europe/Berlin:\(last)1126T150000
            DTEND;TZID=Europe/Berlin:\(last)1126T160000
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:yearly-span
            SUMMARY:Holidays
            DTSTART;VALUE=DATE:\(first - 10)1230
            DTEND;VALUE=DATE:\(first - 9)0103
            RRULE:FREQ=YEARLY
            BEGIN:VALARM
            ACTION:EMAIL
            SUMMARY:Pack
            DESCRIPTION:Pack the bags
            TRIGGER:-P1W
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:no time at all
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:monthly-span
            SUMMARY:Monthly trip
            DTSTART:\(first - 5)0128T200000Z
            DTEND:\(first - 5)0202T080000Z
            RRULE:FREQ=MONTHLY
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly-new-york
            SUMMARY:Weekly in New York
            DTSTART;TZID=America/New_York:\(first - 1)1103T013000
            DTEND;TZID=America/New_York:\(first - 1)1103T020000
            RRULE:FREQ=WEEKLY;UNTIL=\(last)1115T000000Z
            RDATE;TZID=America/New_York:\(last)1227T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:new-year
            SUMMARY:New Year's party
            DTSTART;TZID=Europe/Berlin:\(last)1231T230000
            DTEND;TZID=Europe/Berlin:\(last + 1)0101T020000
            END:VEVENT
            BEGIN:VEVENT
            UID:all-day-week
            SUMMARY:Week away
            DTSTART;VALUE=DATE:\(first)0101
            DTEND;VALUE=DATE:\(first)0108
            RRULE:FREQ=YEARLY;COUNT=20
            END:VEVENT
            END:VCALENDAR

            """
    }

    /// The views compared: months just inside the table's first and last years, months
    /// straddling its start and its end, the changes of clock of this year, in every view.
    static func views(_ year: Int) -> [[String]] {
        let (first, last) = (EventCacheFormat.occurrenceYears(around: year).lowerBound, EventCacheFormat.occurrenceYears(around: year).upperBound - 1)
        return [
            ["--from", "\(last)-11", "-1"],
            ["--from", "\(last)-12", "-1"],
            ["--agenda", "--from", "\(last)-10", "--forward", "3"],
            ["--json", "--from", "\(last)-12", "--forward", "2"],
            ["--json", "--agenda", "--from", "\(last)-11", "--forward", "1"],
            ["--wall", "--from", "\(last)-11", "--forward", "1", "--width", "120"],
            ["--wall", "--from", "\(first)-02", "--forward", "1", "--width", "120"],
            ["--from", "\(first)-01", "-1"],
            ["--agenda", "--from", "\(first)-02", "--forward", "1"],
            ["-3", "--from", "\(year)-03"],
            ["--agenda", "--from", "\(year)-10", "--forward", "1"],
            ["--json", "--from", "\(year)-03", "--forward", "1"],
            ["--year", "\(last)"],
        ]
    }

    @Test func theTableGivesWhatExpandingGivesAtItsEdges() throws {
        let place = try EventCacheTests.Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let year = Self.year
        let path = try place.write(Self.calendar(year), to: "edges.ics")
        try EventCacheTests.expectSameViews(place, path, "edges", views: Self.views(year))
        // The same in a zone of its own changes of clock, on the other side of the world.
        try EventCacheTests.expectSameViews(place, path, "edges in Sydney", views: Self.views(year), environment: ["TZ": "Australia/Sydney"])
        // The cache holds a table, of the years around this one.
        let cache = try place.cache()
        let data = try #require(FileManager.default.contents(atPath: cache.path))
        let range = data.withUnsafeBytes { EventCacheFormat.open($0)?.tableRange }
        let years = EventCacheFormat.occurrenceYears(around: year)
        #expect(range == (CivilTime.day(year: years.lowerBound, month: 1, day: 1) * CivilTime.secondsPerDay)
                         ..< (CivilTime.day(year: years.upperBound, month: 1, day: 1) * CivilTime.secondsPerDay))
    }

    /// The alarms of the cache the binary wrote are those reading gives: decoded whole, for a
    /// window inside the table's years with details (every event with its rules) and without
    /// (the table's events then come without their rules, but with their alarms); the
    /// schedule of alarms is the same from the cached events as from the read ones.
    @Test func theCacheKeepsTheAlarms() throws {
        let place = try EventCacheTests.Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let year = Self.year
        let text = Self.calendar(year)
        let path = try place.write(text, to: "edges.ics")
        let view = ["--agenda", "--from", "\(year)-03", "--forward", "2"]
        let fresh = try place.run(["--events", path, "--no-cache"] + view)
        #expect(fresh.stderr.contains("TRIGGER: 'no time at all' is no duration or date-time; alarm left out"), "\(fresh.stderr)")
        for _ in 0..<2 { #expect(try place.run(["--events", path] + view).stderr == fresh.stderr) }
        let read = EventReader.read(Array(text.utf8)).events
        #expect(read.map(\.alarms.count) == [1, 1, 1, 0, 0, 0, 0])
        let data = try #require(FileManager.default.contents(atPath: try place.cache().path))
        let from = CivilTime.day(year: year, month: 3, day: 1) * CivilTime.secondsPerDay
        let until = from + 61 * CivilTime.secondsPerDay
        let window = AlarmSchedule.decodingWindow(from: from, until: until)
        for (label, window, details) in [("whole", nil, true), ("window", window, true), ("bare", window, false)] as [(String, Range<Int>?, Bool)] {
            let files = try #require(data.withUnsafeBytes { raw in
                EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: window, details: details) }
            }, "\(label): the cache does not decode")
            let events = files.flatMap { $0.file.events }
            for event in events {
                let same = read.filter { $0.uid == event.uid && $0.summary == event.summary }
                #expect(same.count == 1 && same.first?.alarms == event.alarms, "\(label): \(event.uid)")
            }
            #expect(Set(events.filter { !$0.alarms.isEmpty }.map(\.uid)) == ["daily-berlin", "yearly-span"], "\(label)")
            guard details else { continue }
            let display = DisplayZone(try #require(TimeZone(identifier: "Europe/Berlin")))
            func firings(_ events: [Event]) -> [String] {
                AlarmSchedule(store: EventStore(events: events, display: display)).firing(from: from, until: until)
                    .map { "\($0.fires) \($0.occurrence.uid) \($0.alarmIndex) \($0.repetition)" }
            }
            let expected = firings(read)
            #expect(expected.count > 100)
            #expect(firings(events) == expected, "\(label)")
        }
    }

    @Test func aDamagedTableIsNoticedAndTheCacheBuiltAgain() throws {
        let place = try EventCacheTests.Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let year = Self.year
        let last = EventCacheFormat.occurrenceYears(around: year).upperBound - 1
        let path = try place.write(Self.calendar(year), to: "edges.ics")
        // The last month of the table's last year, whose occurrences lie in its last block.
        let view = ["--agenda", "--from", "\(last)-12", "--forward", "1"]
        let fresh = try place.run(["--events", path, "--no-cache"] + view)
        _ = try place.run(["--events", path] + view)
        let intact = try place.cache()
        let original = try #require(FileManager.default.contents(atPath: intact.path))
        // The table lies at the end of the cache: its last entry's last byte.
        var damaged = original
        damaged[damaged.count - 1] ^= 0x40
        try damaged.write(to: URL(fileURLWithPath: intact.path))
        let result = try place.run(["--events", path] + view)
        #expect(result.stdout == fresh.stdout)
        #expect(FileManager.default.contents(atPath: intact.path) == original, "the cache was not built again")
    }
}
