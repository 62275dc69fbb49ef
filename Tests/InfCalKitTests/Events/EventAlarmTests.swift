import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// VALARMs read (RFC 5545 §3.6.6, §3.8.6; RFC 9074) and when they fire. Expected values are
/// worked out by hand from the file text and the zones' published offsets (each test says
/// which); the comparison with Python's icalendar and recurring-ical-events over a year, and
/// the clock-change nights with zoneinfo, are `AlarmOracleTests` (end-to-end target).
@Suite struct EventAlarmTests {
    static let berlin = DisplayZone(TimeZone(identifier: "Europe/Berlin") ?? .gmt)

    /// A calendar of the VEVENTs `events` (each a list of lines, BEGIN and END added).
    static func calendar(_ events: [[String]]) -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
        for event in events { lines += ["BEGIN:VEVENT"] + event + ["END:VEVENT"] }
        return Array(((lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n").utf8)
    }

    static func alarm(_ lines: [String]) -> [String] { ["BEGIN:VALARM"] + lines + ["END:VALARM"] }

    /// UTC civil seconds of a date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int {
        CivilTime.day(year: year, month: month, day: day) * CivilTime.secondsPerDay + hour * 3600 + minute * 60
    }

    /// The firings of `data` from `from` for `days` days, as `YYYY-MM-DDTHH:MM description#repetition` (UTC).
    static func firings(_ data: [UInt8], from: Int, days: Int = 366, display: DisplayZone = .utc) -> [String] {
        let store = EventStore(events: EventReader.read(data).events, display: display)
        return AlarmSchedule(store: store).firing(from: from, until: from + days * CivilTime.secondsPerDay).map {
            EventFixture.text($0.fires) + " " + $0.alarm.description + ($0.repetition > 0 ? "#\($0.repetition)" : "")
                + ($0.isAcknowledged ? " ack" : "") + ($0.snoozed != nil ? " snooze" : "")
        }
    }

    // MARK: Reading

    @Test func everyPartIsRead() throws {
        let file = EventReader.read(Self.calendar([[
            "UID:e1", "SUMMARY:Meeting", "DTSTART:20240610T100000Z", "DTEND:20240610T110000Z",
        ] + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:Soon\\, really", "UID:a1",
                        "ACKNOWLEDGED:20240610T094600Z", "REPEAT:2", "DURATION:PT5M"])
          + Self.alarm(["ACTION:AUDIO", "TRIGGER;RELATED=END:PT0S"])
          + Self.alarm(["action:email", "TRIGGER;VALUE=DATE-TIME:20240609T080000Z", "SUMMARY:Subject", "DESCRIPTION:Body",
                        "ATTENDEE:mailto:a@example.com"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20240610T095100Z", "RELATED-TO;RELTYPE=SNOOZE:a1",
                        "DESCRIPTION:Snoozed"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER;VALUE=DURATION;RELATED=START:-P1DT2H", "DESCRIPTION:x"])]))
        let alarms = try #require(file.events.first).alarms
        #expect(file.problems.isEmpty && file.notes.isEmpty, "\(file.problems) \(file.notes)")
        #expect(alarms.count == 5)
        #expect(alarms[0] == EventAlarm(action: .display, trigger: .start(.init(seconds: -900)), repeatCount: 2,
                                        interval: .init(seconds: 300), description: "Soon, really", uid: "a1",
                                        acknowledged: Self.utc(2024, 6, 10, 9, 46), line: 9))
        #expect(alarms[1].action == .audio && alarms[1].trigger == .end(.init()))
        #expect(alarms[2].action == .email && alarms[2].summary == "Subject" && alarms[2].trigger == .absolute(Self.utc(2024, 6, 9, 8)))
        #expect(alarms[3].snoozes == "a1")
        // Nominal days apart from exact seconds (RFC 5545 §3.3.6), both negative.
        #expect(alarms[4].trigger == .start(.init(days: -1, seconds: -7200)))
    }

    /// Durations in days and weeks are nominal, the rest exact; written back the same way.
    @Test(arguments: [("-PT15M", 0, -900, "-PT15M"), ("P1D", 1, 0, "P1D"), ("-P2W", -14, 0, "-P2W"), ("PT0S", 0, 0, "PT0S"),
                      ("-P1DT2H30M", -1, -9000, "-P1DT2H30M"), ("+PT1H", 0, 3600, "PT1H"), ("PT36H", 0, 129_600, "PT36H")])
    func offsets(_ item: (String, Int, Int, String)) throws {
        let offset = try #require(EventAlarm.Offset(duration: item.0))
        #expect(offset == EventAlarm.Offset(days: item.1, seconds: item.2))
        #expect(offset.duration == item.3)
    }

    /// A bad alarm is left out with its line (a problem --strict counts); the event and its
    /// good alarms stay. ACTION:NONE (RFC 9074 §8) is silent; an unknown action is noted.
    @Test func badAlarmsAreLeftOut() throws {
        let file = EventReader.read(Self.calendar([[
            "UID:e1", "SUMMARY:Kept", "DTSTART:20240610T100000Z",
        ] + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:no trigger"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER:soon"])
          + Self.alarm(["TRIGGER:-PT5M"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER;RELATED=MIDDLE:-PT5M"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-P400D"])
          + Self.alarm(["ACTION:NONE", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z"])
          + Self.alarm(["ACTION:X-SPEAK", "TRIGGER:-PT1M"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT1M", "REPEAT:3"])
          + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT1M", "REPEAT:5000", "DURATION:PT1M", "DESCRIPTION:good"]),
        ]))
        let event = try #require(file.events.first)
        #expect(event.summary == "Kept")
        // Lines: the VALARM without TRIGGER begins on 8, TRIGGER:soon is 14, the VALARM without
        // ACTION begins on 16, RELATED=MIDDLE is 21, -P400D 25; ACTION:X-SPEAK 32, the REPEAT
        // without DURATION begins on 35, REPEAT:5000 is 43.
        #expect(file.problems.map(\.line) == [8, 14, 16, 21, 25])
        #expect(file.problems.allSatisfy { $0.message.hasSuffix("; alarm left out") })
        #expect(file.notes.map(\.line) == [32, 35, 43], "\(file.notes)")
        #expect(event.alarms.count == 2)
        #expect(event.alarms.last?.repeatCount == EventAlarm.mostRepeats)
        // REPEAT:0 with a DURATION beyond any reach repeats nothing, and the cache takes it.
        let zero = Self.calendar([["UID:z", "DTSTART:20240610T100000Z"]
            + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT1M", "REPEAT:0", "DURATION:P1000D", "DESCRIPTION:once"])])
        let read = EventReader.read(zero)
        #expect(read.events.first?.alarms.map(\.repeatCount) == [0] && read.events.first?.alarms.first?.interval == EventAlarm.Offset())
        let cache = EventCacheFormat.encode(source: "/c/z.ics", key: EventCacheFormatTests.key, files: [("z.ics", read)])
        let decoded = cache.withUnsafeBytes { EventCacheFormat.open($0).flatMap { EventCacheFormat.decode($0, window: nil) } }
        #expect(decoded?.first?.file.events.first?.alarms == read.events.first?.alarms)
    }

    /// Each override of a recurring event has its own alarms: none when it has no VALARM
    /// (recurring-ical-events: `has_alarm` looks at the occurrence's own component).
    @Test func overridesHaveTheirOwnAlarms() {
        let data = Self.calendar([
            ["UID:s", "SUMMARY:Weekly", "DTSTART:20240603T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:master"]),
            ["UID:s", "RECURRENCE-ID:20240610T100000Z", "SUMMARY:Moved", "DTSTART:20240610T120000Z", "DURATION:PT1H"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT30M", "DESCRIPTION:override"]),
            ["UID:s", "RECURRENCE-ID:20240617T100000Z", "SUMMARY:Quiet", "DTSTART:20240617T100000Z", "DURATION:PT1H"],
        ])
        // 3, 10 (moved to 12:00, its own 30 minutes), 17 (none), 24 June.
        #expect(Self.firings(data, from: Self.utc(2024, 6, 1), days: 60) == [
            "2024-06-03T09:50 master", "2024-06-10T11:30 override", "2024-06-24T09:50 master",
        ])
    }

    /// RANGE=THISANDFUTURE: the moved part of the series has the override's alarms.
    @Test func thisAndFutureTakesTheOverridesAlarms() {
        let data = Self.calendar([
            ["UID:s", "SUMMARY:Daily", "DTSTART:20240603T100000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=4"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:before"]),
            ["UID:s", "RECURRENCE-ID;RANGE=THISANDFUTURE:20240605T100000Z", "SUMMARY:Later", "DTSTART:20240605T140000Z", "DURATION:PT1H"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT1H", "DESCRIPTION:after"]),
        ])
        #expect(Self.firings(data, from: Self.utc(2024, 6, 1), days: 30) == [
            "2024-06-03T09:50 before", "2024-06-04T09:50 before", "2024-06-05T13:00 after", "2024-06-06T13:00 after",
        ])
    }

    /// Randomly mutated calendars of alarms (fixed seed) never crash the reader, the
    /// schedule or the cache, and what the cache gives back is what reading gave.
    @Test func mutatedAlarmsNeverCrash() throws {
        var random = SplitMix64(state: 33)
        let original = EventCacheFormatTests.alarmCalendar
        let specials = Array(";:,=\"\\\r\n -+0123456789PTWDHMSZ".utf8)
        let from = Self.utc(2024, 3, 1)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<(1 + random.below(8)) {
                let at = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[at] = specials[random.below(specials.count)]
                case 1: bytes.insert(specials[random.below(specials.count)], at: at)
                case 2: bytes.remove(at: at)
                default: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            let file = EventReader.read(bytes)
            let schedule = AlarmSchedule(store: EventStore(events: file.events, display: Self.berlin))
            _ = schedule.firing(from: from, until: from + 90 * CivilTime.secondsPerDay)
            _ = schedule.next(from: from, within: 400 * CivilTime.secondsPerDay)
            let cache = EventCacheFormat.encode(source: "/c/f.ics", key: EventCacheFormatTests.key, files: [("f.ics", file)])
            let decoded = try #require(cache.withUnsafeBytes { EventCacheFormat.open($0).flatMap { EventCacheFormat.decode($0, window: nil) } })
            #expect(decoded.flatMap { $0.file.events.map(\.alarms) } == file.events.map(\.alarms))
        }
    }

    // MARK: When they fire

    /// RELATED=END counts from each occurrence's end; REPEAT adds firings DURATION apart;
    /// ACKNOWLEDGED at or after a firing marks it (RFC 9074 §6).
    @Test func endRepeatAndAcknowledged() {
        let data = Self.calendar([
            ["UID:e", "DTSTART:20240610T100000Z", "DTEND:20240610T113000Z", "RRULE:FREQ=DAILY;COUNT=2"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT5M", "DESCRIPTION:end", "REPEAT:2", "DURATION:PT2M",
                              "ACKNOWLEDGED:20240610T112700Z"]),
        ])
        #expect(Self.firings(data, from: Self.utc(2024, 6, 1), days: 30) == [
            "2024-06-10T11:25 end ack", "2024-06-10T11:27 end#1 ack", "2024-06-10T11:29 end#2",
            "2024-06-11T11:25 end", "2024-06-11T11:27 end#1", "2024-06-11T11:29 end#2",
        ])
    }

    /// A window is half open, and an alarm a week before is found though its occurrence lies
    /// past the window (the window is widened by the event's own lead).
    @Test func windowsAndLeads() {
        let data = Self.calendar([
            ["UID:w", "DTSTART:20240701T090000Z", "RRULE:FREQ=MONTHLY;COUNT=3"] + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-P1W", "DESCRIPTION:week"]),
            ["UID:m", "DTSTART:20240624T120000Z"] + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT1M", "DESCRIPTION:minute"]),
        ])
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let schedule = AlarmSchedule(store: store)
        #expect(schedule.firing(from: Self.utc(2024, 6, 24), until: Self.utc(2024, 6, 24, 11, 59)).map(\.alarm.description) == ["week"])
        #expect(schedule.firing(from: Self.utc(2024, 6, 24, 9), until: Self.utc(2024, 6, 24, 12)).map(\.alarm.description) == ["week", "minute"])
        #expect(schedule.firing(from: Self.utc(2024, 6, 24, 9, 1), until: Self.utc(2024, 6, 24, 11, 59)).isEmpty)
        let first = schedule.firing(from: Self.utc(2024, 6, 1), until: Self.utc(2024, 7, 1)).first
        #expect(first?.lead == 7 * CivilTime.secondsPerDay)
        #expect(first.map { EventFixture.text($0.start) } == "2024-07-01T09:00")
        #expect(schedule.next(from: Self.utc(2024, 7, 1), within: 366 * CivilTime.secondsPerDay).map { EventFixture.text($0.fires) }
                == "2024-07-25T09:00")
        #expect(schedule.next(from: Self.utc(2024, 9, 25), within: 366 * CivilTime.secondsPerDay) == nil)
    }

    /// All-day events count from local midnight of their day where the calendar is shown:
    /// Europe/Berlin is UTC+2 in June, so midnight of 10 June is 22:00 UTC on the 9th and
    /// -PT15H is 09:00 local (07:00 UTC) on the 9th.
    @Test func allDayFromLocalMidnight() {
        let data = Self.calendar([
            ["UID:d", "DTSTART;VALUE=DATE:20240610", "RRULE:FREQ=YEARLY;COUNT=2"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT15H", "DESCRIPTION:eve"])
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:midnight"]),
        ])
        // 2025: the same (CEST both years).
        #expect(Self.firings(data, from: Self.utc(2024, 1, 1), days: 800, display: Self.berlin) == [
            "2024-06-09T07:00 eve", "2024-06-09T22:00 midnight", "2025-06-09T07:00 eve", "2025-06-09T22:00 midnight",
        ])
    }

    /// On the wall clock across a change of offset: the all-day event of Monday 1 April 2024
    /// in Berlin (clocks went forward at 02:00 on Sunday 31 March), -PT15H is 09:00 local
    /// on Sunday, which is CEST, 07:00 UTC (icalendar's `Alarms` reckons the same).
    @Test func allDayAcrossAChangeOfOffset() {
        let data = Self.calendar([["UID:d", "DTSTART;VALUE=DATE:20240401"] + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT15H", "DESCRIPTION:eve"])])
        #expect(Self.firings(data, from: Self.utc(2024, 3, 1), days: 60, display: Self.berlin) == ["2024-03-31T07:00 eve"])
    }

    /// A day before a zoned event is the same wall-clock time the day before (nominal, RFC 5545
    /// §3.3.6); hours are exact. 12:00 CEST on 31 March 2024 (Berlin's clocks went forward at
    /// 02:00 that day) is 10:00 UTC: -P1D is 12:00 CET on 30 March, 11:00 UTC; -PT24H is
    /// 10:00 UTC on 30 March.
    @Test func nominalDaysAndExactHoursInAZone() {
        let data = Self.calendar([
            ["UID:z", "DTSTART;TZID=Europe/Berlin:20240331T120000"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-P1D", "DESCRIPTION:day"])
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT24H", "DESCRIPTION:hours"]),
        ])
        #expect(Self.firings(data, from: Self.utc(2024, 3, 1), days: 60) == ["2024-03-30T10:00 hours", "2024-03-30T11:00 day"])
    }

    /// A wall-clock time the clock going back shows twice is two occurrences, each with its
    /// alarm: an hourly event in UTC shown in New York on 3 November 2024, where 01:30 comes
    /// at 05:30 and again at 06:30 UTC.
    @Test func aWallClockTimeShownTwice() {
        let data = Self.calendar([["UID:h", "DTSTART:20241103T043000Z", "RRULE:FREQ=HOURLY;COUNT=4"]
            + Self.alarm(["ACTION:DISPLAY", "TRIGGER:-PT5M", "DESCRIPTION:h"])])
        #expect(Self.firings(data, from: Self.utc(2024, 11, 3), days: 1, display: EventFixture.newYork) == [
            "2024-11-03T04:25 h", "2024-11-03T05:25 h", "2024-11-03T06:25 h", "2024-11-03T07:25 h",
        ])
    }

    /// Snoozes (RFC 9074 §7): the snoozed firing is replaced by its snooze, at the snooze's time.
    @Test func snoozesReplaceWhatTheySnooze() {
        let data = Self.calendar([
            ["UID:s", "DTSTART:20240610T100000Z"]
                + Self.alarm(["ACTION:DISPLAY", "UID:orig", "TRIGGER:-PT15M", "DESCRIPTION:orig", "ACKNOWLEDGED:20240610T094600Z"])
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20240610T095100Z", "RELATED-TO;RELTYPE=SNOOZE:orig",
                              "DESCRIPTION:again"]),
            // In a recurring event: the snooze made on 11 June replaces that day's firing only.
            ["UID:r", "DTSTART:20240610T080000Z", "RRULE:FREQ=DAILY;COUNT=3"]
                + Self.alarm(["ACTION:DISPLAY", "UID:daily", "TRIGGER:-PT30M", "DESCRIPTION:daily"])
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20240611T074500Z", "RELATED-TO;RELTYPE=SNOOZE:daily",
                              "DESCRIPTION:later"]),
        ])
        #expect(Self.firings(data, from: Self.utc(2024, 6, 1), days: 30) == [
            "2024-06-10T07:30 daily", "2024-06-10T09:51 again snooze", "2024-06-11T07:45 later snooze", "2024-06-12T07:30 daily",
        ])
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let snooze = AlarmSchedule(store: store).firing(from: Self.utc(2024, 6, 11), until: Self.utc(2024, 6, 12)).first
        #expect(snooze?.snoozed == Self.utc(2024, 6, 11, 7, 30))
        #expect(snooze.map { EventFixture.text($0.start) } == "2024-06-11T08:00")
        #expect(snooze?.lead == 15 * 60)
    }

    /// An absolute alarm fires once, for the occurrence in progress or next.
    @Test func absoluteTriggersFireOnce() {
        let data = Self.calendar([
            ["UID:a", "DTSTART:20240610T100000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5"]
                + Self.alarm(["ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20240611T103000Z", "DESCRIPTION:once"]),
        ])
        let store = EventStore(events: EventReader.read(data).events, display: .utc)
        let found = AlarmSchedule(store: store).firing(from: Self.utc(2024, 6, 1), until: Self.utc(2024, 7, 1))
        #expect(found.map { EventFixture.text($0.fires) } == ["2024-06-11T10:30"])
        #expect(found.map { EventFixture.text($0.start) } == ["2024-06-11T10:00"])
    }

    /// Hidden calendars have no alarms; the key names calendar, event, occurrence, alarm, repetition.
    @Test func keysAndHiddenCalendars() {
        let data = Self.calendar([
            ["UID:k", "DTSTART;VALUE=DATE:20240610"] + Self.alarm(["ACTION:DISPLAY", "TRIGGER:PT9H", "DESCRIPTION:k", "REPEAT:1", "DURATION:PT1H"]),
        ])
        let events = EventReader.read(data).events
        let store = EventStore(events: events, display: .utc, sources: ["/c/a.ics"],
                               calendars: [EventCalendar(name: "work", color: nil)], calendarOfEvent: [0])
        let schedule = AlarmSchedule(store: store)
        let found = schedule.firing(from: Self.utc(2024, 6, 1), until: Self.utc(2024, 7, 1))
        #expect(found.map(\.key) == [
            AlarmKey(calendar: "work", uid: "k", occurrence: Self.utc(2024, 6, 10), alarm: "#0", repetition: 0),
            AlarmKey(calendar: "work", uid: "k", occurrence: Self.utc(2024, 6, 10), alarm: "#0", repetition: 1),
        ])
        store.hidden = [0]
        #expect(schedule.firing(from: Self.utc(2024, 6, 1), until: Self.utc(2024, 7, 1)).isEmpty)
    }
}
