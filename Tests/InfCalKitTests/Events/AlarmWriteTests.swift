import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Alarms written: `--alarm` values read, the VALARM lines made for an event (RFC 5545
/// §3.6.6, §3.8.6.3), and the surgical edit that replaces an event's VALARMs and touches no
/// other byte. Expected triggers are worked out by hand from the zones' published offsets;
/// Python's icalendar reads the result back in `AlarmOracleTests.writtenAlarmsAreReadByPython`.
@Suite struct AlarmWriteTests {
    static let utc = WritingZone(zone: nil) { _ in 0 }
    static let newYork = TimeZone(identifier: "America/New_York") ?? .gmt
    static let userInNewYork = WritingZone(zone: newYork) { newYork.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }

    @Test(arguments: [
        ("15m", NewAlarm.relative(.init(seconds: -900))), ("90s", .relative(.init(seconds: -90))),
        ("1h30m", .relative(.init(seconds: -5400))), ("1d", .relative(.init(days: -1))), ("2w", .relative(.init(days: -14))),
        ("1d12h", .relative(.init(days: -1, seconds: -43_200))), ("0", .relative(.init())), (" 2H ", .relative(.init(seconds: -7200))),
        ("09:00", .atTime(32_400)), ("9:05", .atTime(32_700)), ("23:59", .atTime(86_340)),
        ("-PT15M", .relative(.init(seconds: -900))), ("PT5M", .relative(.init(seconds: 300))), ("-P1D", .relative(.init(days: -1))),
    ] as [(String, NewAlarm)])
    func valuesAreRead(_ item: (String, NewAlarm)) {
        #expect(NewAlarm(item.0) == item.1, "\(item.0)")
    }

    @Test(arguments: ["", "15", "m", "1x", "15m2", "24:00", "9:5", "09:60", "367d", "53w", "-P400D", "P", "1.5h", "٣m", "-15m"])
    func badValuesAreRefused(_ text: String) {
        #expect(NewAlarm(text) == nil, "\(text)")
    }

    static func trigger(_ alarm: String, _ start: ICalTime, recurring: Bool = false, zone: WritingZone = utc) -> String? {
        NewAlarm(alarm)?.trigger(start: start, isRecurring: recurring, offset: zone.offset)
    }

    static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int {
        CivilTime.day(year: year, month: month, day: day) * CivilTime.secondsPerDay + hour * 3600 + minute * 60
    }

    /// A length is a duration from the start, days nominal; a time of day is absolute UTC on a
    /// single timed event (Berlin is UTC+2 on 10 June 2024, so 09:00 is 07:00 UTC), a duration
    /// from the start on a recurring or floating one and from midnight on an all-day one; on a
    /// UTC event it is the user's wall clock (New York, UTC-4 in June: 08:00 on the 10th is
    /// 12:00 UTC, and 09:00 there 13:00 UTC).
    @Test func triggers() {
        let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        let inBerlin = WritingZone(zone: berlin) { berlin.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
        let zoned = ICalTime(seconds: Self.seconds(2024, 6, 10, 14), form: .zoned("Europe/Berlin"))
        #expect(Self.trigger("15m", zoned) == "TRIGGER:-PT15M")
        #expect(Self.trigger("1d", zoned) == "TRIGGER:-P1D")
        #expect(Self.trigger("1w", zoned) == "TRIGGER:-P1W")
        #expect(Self.trigger("1d2h", zoned) == "TRIGGER:-P1DT2H")
        #expect(Self.trigger("0", zoned) == "TRIGGER:PT0S")
        #expect(Self.trigger("09:00", zoned, zone: inBerlin) == "TRIGGER;VALUE=DATE-TIME:20240610T070000Z")
        #expect(Self.trigger("09:00", zoned, recurring: true, zone: inBerlin) == "TRIGGER:-PT5H")
        #expect(Self.trigger("16:30", zoned, recurring: true, zone: inBerlin) == "TRIGGER:PT2H30M")
        #expect(Self.trigger("09:00", ICalTime(seconds: Self.seconds(2024, 6, 10), form: .date)) == "TRIGGER:PT9H")
        #expect(Self.trigger("09:00", ICalTime(seconds: Self.seconds(2024, 6, 10, 14), form: .floating)) == "TRIGGER:-PT5H")
        let utcStart = ICalTime(seconds: Self.seconds(2024, 6, 10, 12), form: .utc)
        #expect(Self.trigger("09:00", utcStart, zone: Self.userInNewYork) == "TRIGGER;VALUE=DATE-TIME:20240610T130000Z")
        // 01:30 on the night Berlin's clocks go forward, for an event at 10:00 CEST that day:
        // 01:30 is still CET, 00:30 UTC.
        let night = ICalTime(seconds: Self.seconds(2024, 3, 31, 10), form: .zoned("Europe/Berlin"))
        #expect(Self.trigger("01:30", night, zone: inBerlin) == "TRIGGER;VALUE=DATE-TIME:20240331T003000Z")
    }

    /// What is written is read back as the alarm it stands for, and fires as asked.
    @Test func whatIsWrittenIsReadBack() throws {
        let start = ICalTime(seconds: Self.seconds(2024, 6, 10, 14), form: .utc)
        let alarms = ["15m", "1d", "09:00"].compactMap { NewAlarm($0) }.enumerated().map { place, alarm in
            alarm.lines(start: start, isRecurring: false, offset: Self.utc.offset, uid: "a\(place)", description: "Team, \"sync\"")
        }
        let event = NewEvent(summary: "Sync", start: start, end: ICalTime(seconds: start.seconds + 3600, form: .utc))
        let lines = EventWrite.withAlarms(event.lines(uid: "e", stamp: 0), alarms)
        #expect(lines.last == "END:VEVENT" && lines[lines.count - 2] == "END:VALARM")
        let data = CalendarEdit.component(CalendarEdit.calendar([lines]), end: .crlf)
        let file = EventReader.read(data)
        #expect(file.problems.isEmpty && file.notes.isEmpty)
        let read = try #require(file.events.first).alarms
        #expect(read.map(\.trigger) == [.start(.init(seconds: -900)), .start(.init(days: -1)), .absolute(Self.seconds(2024, 6, 10, 9))])
        #expect(read.map(\.uid) == ["a0", "a1", "a2"])
        #expect(read.allSatisfy { $0.action == .display && $0.description == "Team, \"sync\"" })
        let fired = AlarmSchedule(store: EventStore(events: file.events, display: .utc))
            .firing(from: Self.seconds(2024, 6, 1), until: Self.seconds(2024, 7, 1)).map { EventFixture.text($0.fires) }
        #expect(fired == ["2024-06-09T14:00", "2024-06-10T09:00", "2024-06-10T13:45"])
    }

    static let file = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//EN
        BEGIN:VEVENT
        UID:other
        DTSTART:20240601T100000Z
        SUMMARY:Untouched
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:keep me
        TRIGGER:-PT1M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:series
        SEQUENCE:4
        DTSTAMP:20200101T000000Z
        DTSTART;TZID=Europe/Berlin:20240603T140000
        DURATION:PT1H
        RRULE:FREQ=WEEKLY;COUNT=5
        SUMMARY:A long summary of a weekly meeting that is folded over two lines of the
          file as written
        BEGIN:VALARM
        ACTION:AUDIO
        TRIGGER:-PT30M
        END:VALARM
        X-AFTER-THE-ALARM:kept where it is
        BEGIN:X-INNER
        X-FOO:bar
        END:X-INNER
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:second
        TRIGGER;RELATED=END:PT0S
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:series
        RECURRENCE-ID;TZID=Europe/Berlin:20240610T140000
        DTSTART;TZID=Europe/Berlin:20240611T160000
        DURATION:PT1H
        SUMMARY:Moved
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:own
        TRIGGER:-PT5M
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    /// The lines of `data` (unfolded, as the layout reads them), without those of VALARMs and stamps.
    static func keptLines(_ data: [UInt8]) -> [String] {
        let layout = ICalLayout(data)
        var inAlarm = false
        var kept: [String] = []
        for line in layout.lines {
            let text = String(decoding: data[line.range], as: UTF8.self)
            if text.hasPrefix("BEGIN:VALARM") { inAlarm = true }
            if !inAlarm, !["DTSTAMP", "LAST-MODIFIED"].contains(line.name) { kept.append(text) }
            if text.hasPrefix("END:VALARM") { inAlarm = false }
        }
        return kept
    }

    /// Replacing a series' alarms changes its master and its override, and nothing else: the
    /// other event and every line of theirs but VALARMs and stamps stay byte for byte (folds,
    /// an unknown component, a property after a VALARM, SEQUENCE), in LF and CRLF files.
    @Test(arguments: ["\n", "\r\n"])
    func replacingTouchesOnlyTheAlarms(_ end: String) throws {
        let data = Array(Self.file.replacingOccurrences(of: "\n", with: end).utf8)
        let alarms = [NewAlarm("15m"), NewAlarm("09:00")].compactMap { $0 }
        let changed = try #require(try EventWrite.replacingAlarms(of: "series", with: alarms, stamp: 1_700_000_000, zone: Self.utc,
                                                                  alarmUID: { "alarm-\($0)-\($1)" }, in: data))
        let text = String(decoding: changed, as: UTF8.self)
        #expect(Self.keptLines(changed) == Self.keptLines(data))
        let layout = ICalLayout(data)
        let firstSeries = try #require(layout.spans.first { $0.uid == "series" })
        let before = layout.lines[firstSeries.begin].range.lowerBound
        #expect(Array(changed[..<before]) == Array(data[..<before]), "the bytes before the event")
        #expect(text.hasSuffix("END:VEVENT" + end + "END:VCALENDAR" + end))
        #expect(!text.contains("ACTION:AUDIO") && !text.contains("DESCRIPTION:second") && !text.contains("DESCRIPTION:own"))
        #expect(text.contains("DESCRIPTION:keep me" + end))
        #expect(text.contains("SEQUENCE:4" + end) && text.contains("DTSTAMP:20231114T221320Z" + end))
        #expect(text.contains("X-AFTER-THE-ALARM:kept where it is" + end + "BEGIN:X-INNER" + end))
        // The new lines end as the file's do.
        #expect(end == "\r\n" || !text.contains("\r"))
        let file = EventReader.read(changed)
        #expect(file.problems.isEmpty && file.notes.isEmpty, "\(file.problems) \(file.notes)")
        let series = file.events.filter { $0.uid == "series" }
        #expect(series.count == 2)
        // 09:00 on a recurring event at 14:00 is 5 hours before; on the override (single, 16:00
        // CEST on 11 June) 09:00 CEST, 07:00 UTC.
        #expect(series[0].alarms.map(\.trigger) == [.start(.init(seconds: -900)), .start(.init(seconds: -18_000))])
        #expect(series[1].alarms.map(\.trigger) == [.start(.init(seconds: -900)), .absolute(Self.seconds(2024, 6, 11, 7))])
        #expect(series.flatMap(\.alarms).map(\.uid) == ["alarm-0-0", "alarm-0-1", "alarm-1-0", "alarm-1-1"])
        #expect(series[1].alarms.first?.description == "Moved")
        #expect(file.events.first { $0.uid == "other" }?.alarms.map(\.description) == ["keep me"])
        // Removing them leaves no VALARM in the series, and the same lines.
        let removed = try #require(try EventWrite.replacingAlarms(of: "series", with: [], stamp: 1_700_000_000, zone: Self.utc,
                                                                  alarmUID: { "\($0)\($1)" }, in: changed))
        #expect(Self.keptLines(removed) == Self.keptLines(data))
        let left = EventReader.read(removed).events.filter { $0.uid == "series" }.flatMap { $0.alarms }
        #expect(left.isEmpty)
        #expect(String(decoding: removed, as: UTF8.self).components(separatedBy: "BEGIN:VALARM").count == 2)
        let nobody = try EventWrite.replacingAlarms(of: "nobody", with: alarms, stamp: 0, zone: Self.utc, alarmUID: { "\($0)\($1)" }, in: data)
        #expect(nobody == nil)
    }
}
