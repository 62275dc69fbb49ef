import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The parsed-event cache's format: a cache decodes to what reading the file gives, in every
/// view, with or without a window of months; any changed, truncated or foreign byte makes it
/// unreadable rather than wrong; and the format's version moves with the model it stores.
/// The oracle is the reader itself (a fresh `EventReader.read` of the same bytes).
@Suite struct EventCacheFormatTests {
    static let key = [CacheKeyEntry(path: "", isDirectory: false,
                                    identity: FileIdentity(device: 2049, inode: 12, size: 100, seconds: 1_700_000_000, nanoseconds: 5))]

    /// Every calendar text the unit tests hold, and the repository's examples.
    static var corpus: [(name: String, bytes: [UInt8])] {
        var texts: [(String, [UInt8])] = [
            ("fuzz sample", Array(EventFuzzTests.sample.utf8)),
            ("instance window", Array(InstanceWindowTests.calendar.utf8)),
            ("colour", EventFixture.calendar(["DTSTART;VALUE=DATE:19970905", "RRULE:FREQ=YEARLY"], extra: ["COLOR:teal"])),
            ("details", EventFixture.calendar(["DTSTART:20240305T100000Z", "RRULE:FREQ=WEEKLY;COUNT=8", "LOCATION:Room 4\\, second floor",
                                               "DESCRIPTION:Bring the slides.\\nAnd the minutes."])),
            ("alarms", alarmCalendar),
        ]
        for example in RFC5545ExampleTests.examples {
            texts.append(("RFC 5545 " + example.name,
                          EventFixture.calendar(["DTSTART;TZID=America/New_York:" + example.start] + example.lines)))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path).sorted()) ?? [] where name.hasSuffix(".ics") {
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) {
                texts.append((name, [UInt8](data)))
            }
        }
        return texts
    }

    /// Alarms of every kind (relative to start and end, absolute, floating, repeated,
    /// acknowledged, snoozed), on a recurring event with overrides (one with alarms of its
    /// own, one without), a yearly all-day event, a single far from its absolute alarm, and a
    /// bad alarm (a problem of the file).
    static let alarmCalendar = Array("""
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:weekly\r
        SUMMARY:Weekly\r
        DTSTART;TZID=Europe/Berlin:20240304T090000\r
        DURATION:PT1H\r
        RRULE:FREQ=WEEKLY;COUNT=20\r
        BEGIN:VALARM\r
        UID:w1\r
        ACTION:DISPLAY\r
        DESCRIPTION:Fifteen minutes\\, then again\r
        TRIGGER:-PT15M\r
        REPEAT:2\r
        DURATION:PT5M\r
        ACKNOWLEDGED:20240304T075000Z\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:AUDIO\r
        TRIGGER;RELATED=END:-P1DT2H\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Snoozed\r
        TRIGGER;VALUE=DATE-TIME:20240311T080000Z\r
        RELATED-TO;RELTYPE=SNOOZE:w1\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:soon\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly\r
        RECURRENCE-ID;TZID=Europe/Berlin:20240318T090000\r
        SUMMARY:Moved\r
        DTSTART;TZID=Europe/Berlin:20240318T140000\r
        DURATION:PT1H\r
        BEGIN:VALARM\r
        ACTION:EMAIL\r
        SUMMARY:Subject\r
        DESCRIPTION:Body\r
        TRIGGER:-PT2H\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly\r
        RECURRENCE-ID;TZID=Europe/Berlin:20240325T090000\r
        SUMMARY:Quiet\r
        DTSTART;TZID=Europe/Berlin:20240325T090000\r
        DURATION:PT1H\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:birthday\r
        SUMMARY:Birthday\r
        DTSTART;VALUE=DATE:19800612\r
        RRULE:FREQ=YEARLY\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:A week ahead\r
        TRIGGER:-P1W\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:far\r
        SUMMARY:Far\r
        DTSTART:20300101T120000Z\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Years ahead\r
        TRIGGER;VALUE=DATE-TIME:20240601T120000Z\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Floating\r
        TRIGGER;VALUE=DATE-TIME:20240602T120000\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.utf8)

    /// A sink that keeps the bytes.
    final class Collect: ByteSink {
        var bytes: [UInt8] = []
        func write(_ bytes: [UInt8]) throws { self.bytes += bytes }
    }

    /// What every view shows of `files` for the months `from` ..< `from + count` of 2-year
    /// steps: the agenda, its JSON Lines, the months' JSON and each day's cell lines.
    static func views(_ files: [(name: String, file: EventFile)], from year: Int, months count: Int) throws -> String {
        let store = EventStore(events: files.flatMap(\.file.events), display: EventFixture.newYork,
                               sources: files.flatMap { file in file.file.events.map { _ in file.name } })
        let calendar = MonthCalendar(.gregorian)
        let startDay = EventFixture.day(year, 1, 1)
        guard let start = calendar.month(containing: startDay) else { return "" }
        let months = Array(MonthIndex(calendar: calendar, start: start).forward.prefix(count))
        let plan = AgendaPlan(backward: false, startDay: startDay, months: count, width: nil)
        let agenda = Collect(), json = Collect(), grids = Collect()
        try AgendaPrinter(locale: nil, width: nil).print(months, store: store, plan: plan, bounds: MonthBounds(), to: agenda)
        try JSONLinesPrinter.printAgenda(months, store: store, plan: plan, bounds: MonthBounds(), to: json)
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: calendar), calendar: calendar, firstWeekday: 1)
        try JSONLinesPrinter(renderer: renderer, locale: nil, store: store).print(months, to: grids)
        var cells: [String] = []
        for month in months {
            let byDay = store.occurrencesByDay((month.firstDay - 7)..<(month.endDay + 7))
            for day in byDay.keys.sorted() {
                cells.append("\(day): " + DayCellEvents.lines(byDay[day] ?? [], day: day, width: 14, height: 4).joined(separator: "|"))
            }
        }
        return [agenda.bytes, json.bytes, grids.bytes].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n--\n")
            + cells.joined(separator: "\n")
    }

    static func warnings(_ files: [(name: String, file: EventFile)]) -> String {
        files.map { "\($0.name) \($0.file.hasCalendarData) \($0.file.skipped) \($0.file.notes) \(String(describing: $0.file.calendarColor))" }.joined(separator: "\n")
    }

    static func decoded(_ bytes: [UInt8], window: Range<Int>?) -> [(name: String, file: EventFile)]? {
        bytes.withUnsafeBytes { raw in
            EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: window) }
        }
    }

    static func encoded(_ text: [UInt8], name: String = "calendar.ics") -> [UInt8] {
        EventCacheFormat.encode(source: "/calendars/" + name, key: key, files: [(name, EventReader.read(text))])
    }

    @Test func theCacheShowsWhatReadingShowsInEveryView() throws {
        for (name, bytes) in Self.corpus {
            let fresh = [(name: name, file: EventReader.read(bytes))]
            let cache = Self.encoded(bytes, name: name)
            let all = try #require(Self.decoded(cache, window: nil), "\(name): the cache does not decode")
            #expect(Self.warnings(all) == Self.warnings(fresh), "\(name)")
            for year in [1997, 2024] {
                let expected = try Self.views(fresh, from: year, months: 30)
                #expect(try Self.views(all, from: year, months: 30) == expected, "\(name), from \(year)")
                // Decoded for those months alone, as a run of them decodes it.
                let low = CivilTime.day(year: year, month: 1, day: 1) * CivilTime.secondsPerDay - 20 * CivilTime.secondsPerDay
                let high = CivilTime.day(year: year + 3, month: 1, day: 1) * CivilTime.secondsPerDay
                let windowed = try #require(Self.decoded(cache, window: low..<high))
                #expect(try Self.views(windowed, from: year, months: 30) == expected, "\(name), window from \(year)")
            }
        }
    }

    /// Decoded without details (for a run that shows no location or description): the same
    /// events in the same order, every view the same, and their details empty; with them,
    /// the details reading gives.
    @Test func detailsComeOnlyWhenAskedFor() throws {
        var detailed = 0
        for (name, bytes) in Self.corpus {
            let fresh = [(name: name, file: EventReader.read(bytes))]
            let cache = Self.encoded(bytes, name: name)
            let (bare, full) = cache.withUnsafeBytes { raw in
                (EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: nil, details: false) },
                 EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: nil) })
            }
            let without = try #require(bare, "\(name)"), with = try #require(full, "\(name)")
            let events = fresh.flatMap(\.file.events)
            #expect(without.flatMap(\.file.events).map(\.uid) == events.map(\.uid), "\(name)")
            #expect(without.flatMap(\.file.events).allSatisfy { $0.details == EventDetails() }, "\(name)")
            #expect(with.flatMap(\.file.events).map(\.details) == events.map(\.details), "\(name)")
            #expect(try Self.views(without, from: 2024, months: 12) == Self.views(fresh, from: 2024, months: 12), "\(name)")
            detailed += events.filter { $0.details != EventDetails() }.count
        }
        #expect(detailed > 0, "no event of the corpus has a location or description")
    }

    /// An event's alarms come back from the cache as reading gives them: whole, for a window,
    /// and without details (events the table holds are then read without their rules, but with
    /// their alarms); and the schedule of the decoded events fires as that of the read ones.
    @Test func alarmsComeBackFromTheCache() throws {
        let fresh = EventReader.read(Self.alarmCalendar)
        #expect(fresh.events.filter { !$0.alarms.isEmpty }.count == 4)
        #expect(fresh.problems.count == 1, "\(fresh.problems)")
        let cache = EventCacheSideWorkTests.bytes(of: EventCacheFormat.layout(source: "/calendars/alarms.ics", key: Self.key,
                                                                               files: [("alarms.ics", fresh)],
                                                                               occurrenceYears: EventCacheFormat.occurrenceYears(around: 2024)))
        let low = CivilTime.day(year: 2024, month: 3, day: 1) * CivilTime.secondsPerDay
        let window = AlarmSchedule.decodingWindow(from: low, until: low + 120 * CivilTime.secondsPerDay)
        func schedule(_ events: [Event]) -> [String] {
            let store = EventStore(events: events, display: EventFixture.newYork)
            return AlarmSchedule(store: store).firing(from: low, until: low + 120 * CivilTime.secondsPerDay).map {
                "\($0.fires) \($0.alarmIndex) \($0.repetition) \($0.occurrence.summary) \($0.start) \($0.snoozed ?? 0)"
            }
        }
        let expected = schedule(fresh.events)
        #expect(expected.count > 20)
        for (label, window, details) in [("whole", nil, true), ("window", window, true), ("bare", window, false)] as [(String, Range<Int>?, Bool)] {
            let decoded = try #require(cache.withUnsafeBytes { raw in
                EventCacheFormat.open(raw).flatMap { EventCacheFormat.decode($0, window: window, details: details) }
            }, "\(label): the cache does not decode")
            let events: [Event] = decoded.flatMap { $0.file.events }
            #expect(Self.warnings(decoded) == Self.warnings([("alarms.ics", fresh)]), "\(label)")
            #expect(decoded.first?.file.problems.map { $0.line } == fresh.problems.map { $0.line }, "\(label)")
            let byUID = Dictionary(grouping: events, by: { $0.uid }).mapValues { $0.map { $0.alarms } }
            #expect(byUID == Dictionary(grouping: fresh.events, by: { $0.uid }).mapValues { $0.map { $0.alarms } }, "\(label)")
            if details { #expect(schedule(events) == expected, "\(label)") }
        }
    }

    /// A cache read only in the parts asked for, as `Platform.CacheFile` reads one (a buffer
    /// of zeros into which `load` copies the ranges it is given): every view decodes as from
    /// the whole buffer, with and without a window, so no byte is read that was not asked for
    /// first (a zero read in place of a record fails its checksum, and the decode gives nil).
    static func decodedInPart(_ bytes: [UInt8], window: Range<Int>?, details: Bool = true)
        -> (files: [(name: String, file: EventFile)]?, loaded: Set<Int>) {
        let sparse = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { sparse.deallocate() }
        sparse.initializeMemory(as: UInt8.self, repeating: 0)
        var loaded = Set<Int>()
        let files = bytes.withUnsafeBytes { whole in
            EventCacheFormat.open(UnsafeRawBufferPointer(sparse), load: { spans in
                for span in spans {
                    guard span.start >= 0, span.end <= whole.count else { return false }
                    for index in span.start..<max(span.start, span.end) where loaded.insert(index).inserted { sparse[index] = whole[index] }
                }
                return true
            }).flatMap { EventCacheFormat.decode($0, window: window, details: details) }
        }
        return (files, loaded)
    }

    @Test func aCacheReadInPartDecodesAsTheWhole() throws {
        for (name, bytes) in Self.corpus {
            let cache = Self.encoded(bytes, name: name)
            let whole = try #require(Self.decoded(cache, window: nil), "\(name)")
            let part = try #require(Self.decodedInPart(cache, window: nil).files, "\(name): read in part, the cache does not decode")
            #expect(Self.warnings(part) == Self.warnings(whole), "\(name)")
            #expect(try Self.views(part, from: 2024, months: 24) == Self.views(whole, from: 2024, months: 24), "\(name)")
            let low = CivilTime.day(year: 1997, month: 1, day: 1) * CivilTime.secondsPerDay
            let windowed = try #require(Self.decodedInPart(cache, window: low..<(low + 400 * 86_400)).files, "\(name), windowed")
            #expect(try Self.views(windowed, from: 1997, months: 12) == Self.views(whole, from: 1997, months: 12), "\(name), windowed")
        }
    }

    /// A month of a large cache reads a small part of it: 2,400 single events over 20 years
    /// (ten a month), one month's window.
    @Test func aMonthOfALargeCacheReadsLittleOfIt() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        for number in 0..<2_400 {
            let month = number / 10, year = 2010 + month / 12, inMonth = 1 + month % 12
            let date = "\(year)" + (inMonth < 10 ? "0" : "") + "\(inMonth)" + "1\(number % 10)"
            text += "BEGIN:VEVENT\r\nUID:e\(number)\r\nSUMMARY:Event \(number)\r\nDTSTART:\(date)T120000Z\r\n"
                + "DESCRIPTION:A description that the month grid never shows\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let cache = Self.encoded(Array(text.utf8))
        let march = CivilTime.day(year: 2020, month: 3, day: 1) * CivilTime.secondsPerDay
        let (files, loaded) = Self.decodedInPart(cache, window: march..<(march + 31 * 86_400), details: false)
        let events = try #require(files, "read in part, the cache does not decode").flatMap(\.file.events)
        #expect(events.map(\.uid) == (1_220..<1_230).map { "e\($0)" })
        #expect(loaded.count * 10 < cache.count, "read \(loaded.count) of \(cache.count) bytes for one month")
    }

    @Test func aWindowDecodesOnlyTheEventsThatCanFallInIt() throws {
        let text = EventFixture.calendar(["DTSTART:20240301T100000Z"]) // one single, March 2024
        let cache = Self.encoded(text)
        let march = CivilTime.day(year: 2024, month: 3, day: 1) * CivilTime.secondsPerDay
        #expect(try #require(Self.decoded(cache, window: march..<(march + 31 * 86_400))).first?.file.events.count == 1)
        let later = CivilTime.day(year: 2025, month: 3, day: 1) * CivilTime.secondsPerDay
        #expect(try #require(Self.decoded(cache, window: later..<(later + 31 * 86_400))).isEmpty)
        // A rule with COUNT ends where its walk says (ten Tuesdays from 1997-09-02).
        let counted = Self.encoded(EventFixture.calendar(["DTSTART:19970902T090000Z", "RRULE:FREQ=WEEKLY;COUNT=10"]))
        let november = CivilTime.day(year: 1997, month: 11, day: 1) * CivilTime.secondsPerDay
        #expect(try #require(Self.decoded(counted, window: november..<(november + 30 * 86_400))).first?.file.events.count == 1)
        #expect(try #require(Self.decoded(counted, window: (november + 30 * 86_400)..<(november + 60 * 86_400))).isEmpty)
    }

    /// More events than one block of the index holds, in no order of time, with yearly
    /// events among them: a window of one month gives the events that can fall in it (singles
    /// on the 15th of months, so that the window's margin reaches no other month's), in the
    /// order the file has them, and no window gives them all in that order.
    @Test func aWindowOverManyBlocksKeepsTheFilesOrder() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        var expected: [String] = []
        for number in 0..<300 {
            // A walk through 25 years by a step prime to 300, so that file order is not time order.
            let month = (number * 7) % 300, year = 2010 + month / 12, inMonth = 1 + month % 12
            let date = "\(year)" + (inMonth < 10 ? "0" : "") + "\(inMonth)15"
            let yearly = number % 10 == 3
            text += "BEGIN:VEVENT\r\nUID:e\(number)\r\nSUMMARY:E\r\n"
                + (yearly ? "DTSTART;VALUE=DATE:2000" + (inMonth < 10 ? "0" : "") + "\(inMonth)15\r\nRRULE:FREQ=YEARLY\r\n"
                          : "DTSTART:\(date)T120000Z\r\n") + "END:VEVENT\r\n"
            // A yearly event is chosen by its half of the month: those of March, and of April's
            // first half, which the window's margin of days reaches.
            if (yearly && (inMonth == 3 || inMonth == 4)) || (!yearly && year == 2020 && inMonth == 3) { expected.append("e\(number)") }
        }
        text += "END:VCALENDAR\r\n"
        let cache = Self.encoded(Array(text.utf8))
        let march = CivilTime.day(year: 2020, month: 3, day: 1) * CivilTime.secondsPerDay
        let inMarch = try #require(Self.decoded(cache, window: march..<(march + 31 * 86_400)))
        #expect(inMarch.flatMap(\.file.events).map(\.uid) == expected)
        let all = try #require(Self.decoded(cache, window: nil))
        #expect(all.flatMap(\.file.events).map(\.uid) == (0..<300).map { "e\($0)" })
    }

    /// The bound of a COUNT rule's last instance that the cache's index takes without walking
    /// the rule is never before the last instance the expander's own walk finds, and is that
    /// instance for a rule that repeats DTSTART by days or weeks; a rule some of whose periods
    /// can be empty (the 31st, a fifth Monday, 29 February, BYSETPOS, another RSCALE) gets no
    /// bound and is walked.
    @Test func aCountBoundIsNeverBeforeTheWalkedLastInstance() throws {
        let bounded: [(start: String, rule: String, exact: Bool)] = [
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;COUNT=12", true),
            ("DTSTART;VALUE=DATE:20231230", "FREQ=DAILY;INTERVAL=3;COUNT=40", true),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;COUNT=10", true),
            ("DTSTART:20240229T233000Z", "FREQ=WEEKLY;INTERVAL=2;COUNT=30", true),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;BYDAY=MO,FR;COUNT=9", false),
            ("DTSTART:20240301T100000Z", "FREQ=WEEKLY;BYDAY=SU;WKST=SU;COUNT=5", false),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;COUNT=7", false),
            ("DTSTART:20240128T100000Z", "FREQ=MONTHLY;INTERVAL=5;COUNT=13", false),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=4TH;COUNT=20", false),
            ("DTSTART:20240331T100000Z", "FREQ=MONTHLY;BYDAY=-4MO,1FR;COUNT=35", false),
            ("DTSTART:20240331T100000Z", "FREQ=MONTHLY;BYDAY=WE;COUNT=11", false),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYMONTHDAY=28,-28,1;COUNT=17", false),
            ("DTSTART:20240101T100000Z", "FREQ=YEARLY;COUNT=4", false),
            ("DTSTART;VALUE=DATE:20240115", "FREQ=YEARLY;BYMONTH=2,11;COUNT=9", false),
        ]
        for (start, rule, exact) in bounded {
            let event = try #require(EventReader.read(EventFixture.calendar([start, "RRULE:" + rule])).events.first, "\(rule)")
            let expander = try #require(event.expanders.first)
            let walked = try #require(expander.countEnd?.latest, "\(rule)")
            let bound = try #require(EventCacheFormat.countBound(of: expander), "\(rule) has no bound")
            #expect(exact ? bound == walked : bound >= walked, "\(rule): \(EventFixture.text(bound)) against \(EventFixture.text(walked))")
        }
        let walkedOnly: [(start: String, rule: String)] = [
            ("DTSTART:20240131T100000Z", "FREQ=MONTHLY;COUNT=7"),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=7"),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=5MO;COUNT=7"),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=MO;BYMONTHDAY=13;COUNT=3"),
            ("DTSTART;VALUE=DATE:20240229", "FREQ=YEARLY;COUNT=3"),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1;COUNT=3"),
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;BYDAY=MO;COUNT=3"),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;BYMONTH=3;COUNT=3"),
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;BYHOUR=9,10;COUNT=3"),
            ("DTSTART:20240305T100000Z", "FREQ=HOURLY;COUNT=3"),
            ("DTSTART:20240305T100000Z", "RSCALE=HEBREW;FREQ=MONTHLY;COUNT=3"),
        ]
        for (start, rule) in walkedOnly {
            let event = try #require(EventReader.read(EventFixture.calendar([start, "RRULE:" + rule])).events.first, "\(rule)")
            #expect(EventCacheFormat.countBound(of: try #require(event.expanders.first)) == nil, "\(rule)")
        }
    }

    /// Where a COUNT rule ends, as the cache records it, is what the expander's walk from
    /// DTSTART finds (the last period, how many of its instances count, the last start),
    /// also for the rules whose end is computed from two periods without the walk: DTSTART
    /// out of step with the rule, periods before DTSTART's instance, intervals, negative days.
    @Test func aCountEndWithoutTheWalkIsTheWalks() throws {
        let rules: [(start: String, rule: String, closed: Bool)] = [
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;COUNT=12", true),
            ("DTSTART;VALUE=DATE:20231230", "FREQ=DAILY;INTERVAL=3;COUNT=40", true),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;COUNT=10", true),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;BYDAY=MO;COUNT=10", true),
            ("DTSTART:20240307T100000Z", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;WKST=SU;COUNT=7", true),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;COUNT=7", true),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=1MO;COUNT=7", true),
            ("DTSTART:20240329T100000Z", "FREQ=MONTHLY;INTERVAL=5;BYDAY=-4SU;COUNT=13", true),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYMONTHDAY=-28;COUNT=9", true),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYMONTHDAY=2;COUNT=9", true),
            ("DTSTART;VALUE=DATE:19500115", "FREQ=YEARLY;COUNT=80", true),
            ("DTSTART;VALUE=DATE:20240115", "FREQ=YEARLY;BYMONTH=2;COUNT=9", true),
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;COUNT=1", true),
            ("DTSTART:20240305T100000Z", "FREQ=WEEKLY;BYDAY=MO,FR;COUNT=9", false),
            ("DTSTART:20240131T100000Z", "FREQ=MONTHLY;COUNT=7", false),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=5MO;COUNT=7", false),
            ("DTSTART:20240305T100000Z", "FREQ=MONTHLY;BYDAY=TU;COUNT=7", false),
            ("DTSTART;VALUE=DATE:20240229", "FREQ=YEARLY;COUNT=3", false),
            ("DTSTART:20240305T100000Z", "FREQ=DAILY;BYHOUR=9,10;COUNT=3", false),
        ]
        for (start, rule, closed) in rules {
            let lines = [start, "RRULE:" + rule]
            let walked = try #require(EventReader.read(EventFixture.calendar(lines)).events.first?.expanders.first, "\(rule)")
            let computed = try #require(EventReader.read(EventFixture.calendar(lines)).events.first?.expanders.first, "\(rule)")
            #expect((EventCacheFormat.rule(ofOneInstanceAPeriod: computed) != nil) == closed, "\(rule)")
            let end = EventCacheFormat.countEnd(of: computed)
            #expect(end != nil && end == walked.countEnd, "\(rule): \(String(describing: end)) against \(String(describing: walked.countEnd))")
        }
    }

    @Test func everyChangedOrMissingByteIsDetected() {
        let cache = Self.encoded(Array(EventFuzzTests.sample.utf8))
        #expect(Self.decoded(cache, window: nil) != nil)
        for position in cache.indices {
            var changed = cache
            changed[position] ^= 0x5A
            #expect(Self.decoded(changed, window: nil) == nil, "a changed byte at \(position) went unnoticed")
        }
        for length in 0..<cache.count {
            #expect(Self.decoded(Array(cache[..<length]), window: nil) == nil, "truncated to \(length)")
        }
        #expect(Self.decoded(cache + [0], window: nil) == nil)
    }

    @Test func randomBytesNeverCrashTheReader() {
        var random = SplitMix64(state: 20)
        let cache = Self.encoded(Array(EventFuzzTests.sample.utf8))
        for _ in 0..<500 {
            var bytes = cache
            for _ in 0..<(1 + random.below(20)) { bytes[random.below(bytes.count)] = UInt8(random.below(256)) }
            _ = Self.decoded(bytes, window: nil)
            _ = Self.decoded((0..<random.below(4096)).map { _ in UInt8(random.below(256)) }, window: nil)
        }
    }

    /// Sets the header word at `offset` and its checksum again, as a cache of another version
    /// or machine would have them: only the check of that field can refuse it.
    static func withHeaderWord(_ cache: [UInt8], at offset: Int, _ transform: (UInt64) -> UInt64) -> [UInt8] {
        var writer = CacheWriter(bytes: cache)
        let word = cache.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        writer.setWord(transform(word), at: offset)
        writer.setWord(CacheChecksum.of(writer.bytes, 0..<48), at: 48)
        return writer.bytes
    }

    @Test func anotherVersionOrByteOrderIsRefused() {
        let cache = Self.encoded(Array(EventFuzzTests.sample.utf8))
        #expect(Self.decoded(Self.withHeaderWord(cache, at: 0) { $0 }, window: nil) != nil)
        #expect(Self.decoded(Self.withHeaderWord(cache, at: 16) { $0 + 1 }, window: nil) == nil)
        #expect(Self.decoded(Self.withHeaderWord(cache, at: 8) { $0.byteSwapped }, window: nil) == nil)
    }

    @Test func theKeyAndSourceComeBack() throws {
        let cache = Self.encoded(Array(EventFuzzTests.sample.utf8))
        try cache.withUnsafeBytes { raw in
            let contents = try #require(EventCacheFormat.open(raw))
            #expect(contents.source == "/calendars/calendar.ics")
            #expect(contents.key == Self.key)
        }
    }

    // MARK: The version moves with the model

    /// The stored fields of the types the cache writes, with their types, as reflection sees
    /// them on instances read from the fuzz sample (which has every kind of zone, rules,
    /// RDATE, EXDATE and an override).
    static func modelLayout() -> [String] {
        func fields(_ value: Any) -> [String] {
            let mirror = Mirror(reflecting: value)
            return mirror.children.map { "\(mirror.subjectType).\($0.label ?? "?"): \(type(of: $0.value))" }
        }
        let file = EventReader.read(Array(EventFuzzTests.sample.utf8))
        var layout = fields(file)
        if let event = file.events.first(where: { !$0.expanders.isEmpty }) {
            layout += fields(event) + fields(event.start)
            if let expander = event.expanders.first { layout += fields(expander.rule) }
        }
        // The sample has no alarm: one made here stands for them.
        let alarm = EventAlarm(action: .display, trigger: .start(EventAlarm.Offset(days: 0, seconds: -900)))
        layout += fields(alarm) + fields(alarm.interval)
        if let zone = file.events.compactMap(\.zone).first(where: { if case .rules = $0.source { true } else { false } }) {
            if case .rules(let rules) = zone.source, let observance = rules.observances.first { layout += fields(observance) }
        }
        return layout
    }

    /// FNV-1a of the text, as a short fingerprint.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        return String(hash, radix: 16)
    }

    /// When this test fails, the model or the encoding changed: bump
    /// `EventCacheFormat.version` (so that old caches are rebuilt, not misread), then record
    /// the new fingerprints for the new version here.
    @Test func theFormatVersionMovesWithTheModel() {
        let layout = Self.modelLayout().joined(separator: "\n")
        let encoding = Self.encoded(Array(EventFuzzTests.sample.utf8)).map { String($0) }.joined(separator: ",")
        let recorded: [UInt64: (layout: String, encoding: String)] = [
            1: ("a975bbd8e5541679", "a82270e817f0ce79"),
            2: ("68454db98c9ece59", "682fb41ee20dc0bd"),
            // 5: with the day view's details, the calendar colour, structural problems, the halves of months.
            5: ("c604bc54e77ceef2", "8ff8fc501578112"),
            // 6: the index sorted and cut into blocks, with a directory of them.
            6: ("c604bc54e77ceef2", "60b4f022a17efc5b"),
            // 7: records in the index's order, each event's details in a record of their own.
            7: ("c604bc54e77ceef2", "328305ff09559032"),
            // 8: where a COUNT rule ends; a Foundation zone's changes of offset from 1970 to 2100, with
            // the version of the zone data they come from (so this changes with the toolchain's zone data too);
            // details before zones in the body.
            8: ("c604bc54e77ceef2", "a4715899fcd55f87"),
            // 9: the zone's changes of offset from 1990 to 2059 only.
            9: ("c604bc54e77ceef2", "2e3503c7ed680b83"),
            // 10: checksums in four lanes.
            10: ("c604bc54e77ceef2", "dc7bba7cb823f35e"),
            // 11: a table of the recurring events' occurrences in the years around the writing,
            // marked in the index; a file's instances taken from it.
            11: ("29faa1c50f234966", "749f4e729c524aa2"),
            // 12: an event's record holds where its details lie before its rules, which a run
            // that takes its instances from the table does not read.
            12: ("3c4ef892f10bbbfc", "baa33f6d7b8e636d"),
            // 13: the events the table holds last in the index, their blocks marked in the directory;
            // RSCALE rules in calendars with eras (Japanese, R.O.C., Coptic, Ethiopic) count their years
            // on across eras, so a table of 12 holds other instances.
            13: ("3c4ef892f10bbbfc", "eb0b64856d7e66e7"),
            // 14: an event's STATUS and the addresses that declined it in its record, its
            // organizer and attendees in its details.
            14: ("1abd83d39efe9543", "edcbb929e92b6ced"),
            // 14 on the alarms branch: an event's alarms (VALARM), in its record before its rules
            // (layout 3861d75cb4fef574); both met in 15.
            // 15: STATUS and who declined, then the alarms, in an event's record.
            15: ("e78afc6ae786ed45", "919bc527bc3ce127"),
            // 16: a DTEND lasts the exact time between its instants; the days of a DURATION of a
            // zoned start, which are days of the calendar (Event.nominalDays), after the duration.
            16: ("417445eb79330b15", "283586a4ebfaf13a"),
        ]
        let now = (Self.fingerprint(layout), Self.fingerprint(encoding))
        #expect(recorded[EventCacheFormat.version]?.layout == now.0,
                "the model's stored fields changed (\(now.0)): bump EventCacheFormat.version and record it\n\(layout)")
        #expect(recorded[EventCacheFormat.version]?.encoding == now.1,
                "the encoding of the sample changed (\(now.1)): bump EventCacheFormat.version and record it")
    }
}
