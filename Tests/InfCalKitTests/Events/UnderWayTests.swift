import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// What is under way on a day: of one event, the first `InputLimits.instancesPerDay` that
/// began on earlier days, the last saying how many more; found without making the others.
/// Checked against every instance of a wide range (`Event.instances(in:)`, which the oracle
/// tests check) and against the test's own counting of days and minutes.
@Suite struct UnderWayTests {
    static let limit = InputLimits.instancesPerDay

    static func events(_ body: String) -> [Event] {
        EventReader.read(Array("BEGIN:VCALENDAR\n\(body)END:VCALENDAR\n".utf8)).events
    }

    /// The grid day number and first second (civil) of a date.
    static func day(_ year: Int, _ month: Int, _ day: Int) -> (grid: Int, start: Int) {
        let civil = CivilTime.day(year: year, month: month, day: day)
        return (CivilTime.dayNumber(ofCivilDay: civil), civil * 86_400)
    }

    /// A store (shown in UTC) of one event of `lines`, a date's grid day number and first
    /// second, what the store lists on it, and those of them under way.
    static func lists(_ lines: String, on date: (Int, Int, Int))
        -> (store: EventStore, day: Int, start: Int, list: [Occurrence], underWay: [Occurrence]) {
        let store = EventStore(events: events("BEGIN:VEVENT\nUID:u\nSUMMARY:u\n\(lines)\nEND:VEVENT\n"), display: .utc)
        let (day, start) = Self.day(date.0, date.1, date.2)
        let list = store.occurrences(touching: day)
        return (store, day, start, list, list.filter { $0.startDay < day })
    }

    /// Events of every kind of part, each lasting long: RDATE periods, EXDATEs (times and
    /// dates), an EXRULE, two RRULEs, an override and a series moved from an instance on
    /// (RANGE=THISANDFUTURE), another scale, BYSETPOS, COUNT, UNTIL.
    static let sample = """
        BEGIN:VEVENT
        UID:a
        DTSTART:20240102T090000
        DURATION:P200D
        RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=400
        EXDATE:20240104T090000,20240116T090000,20250102T090000
        RDATE;VALUE=PERIOD:20240105T140000/P900D,20240301T000000/PT1H
        END:VEVENT
        BEGIN:VEVENT
        UID:a
        RECURRENCE-ID:20240118T090000
        DTSTART:20240119T090000
        DURATION:PT1H
        END:VEVENT
        BEGIN:VEVENT
        UID:b
        DTSTART;VALUE=DATE:20240131
        DTEND;VALUE=DATE:20250131
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,15;BYSETPOS=1,-1
        EXDATE;VALUE=DATE:20240415,20240531
        END:VEVENT
        BEGIN:VEVENT
        UID:c
        DTSTART;VALUE=DATE:20240311
        DURATION:P3000D
        RRULE:RSCALE=HEBREW;FREQ=MONTHLY;BYMONTHDAY=1,15,30;SKIP=FORWARD
        END:VEVENT
        BEGIN:VEVENT
        UID:d
        DTSTART:20240101T000000
        DURATION:P70D
        RRULE:FREQ=HOURLY;INTERVAL=7;BYMINUTE=0,30;BYSETPOS=-1
        RRULE:FREQ=DAILY;BYHOUR=13
        EXRULE:FREQ=DAILY;BYDAY=SA,SU;BYHOUR=13
        END:VEVENT
        BEGIN:VEVENT
        UID:e
        DTSTART:20230101T080000
        DURATION:P400D
        RRULE:FREQ=DAILY;UNTIL=20241231T235959
        END:VEVENT
        BEGIN:VEVENT
        UID:e
        RECURRENCE-ID;RANGE=THISANDFUTURE:20240301T080000
        DTSTART:20240301T100000
        DURATION:P10D
        END:VEVENT

        """

    /// Each event's instances under way at many moments, as `underWay` gives them and as a
    /// filter of every instance of a wide range does.
    @Test func theFirstOnesAndTheirCountAreThoseOfEveryInstance() throws {
        let events = Self.events(Self.sample)
        #expect(events.count == 7)
        let (_, first) = Self.day(2024, 1, 1)
        for event in events {
            let longest = max(event.duration, event.extraStarts.map { $0.duration ?? 0 }.max() ?? 0)
            for offset in Swift.stride(from: -30, through: 1_200, by: 23) {
                let moment = first + offset * 86_400 + 3_600 * (offset & 7)
                let every = event.instances(in: (moment - longest)..<moment).filter { $0.start + $0.duration > moment }
                let found = event.underWay(before: moment, after: { moment - $0 }, limit: Self.limit)
                #expect(found.instances.map(\.start) == every.prefix(Self.limit).map(\.start), "\(event.uid) at +\(offset)")
                #expect(found.instances.map(\.duration) == every.prefix(Self.limit).map(\.duration), "\(event.uid) at +\(offset)")
                #expect(found.more == every.count - found.instances.count, "\(event.uid) at +\(offset)")
            }
        }
    }

    /// A day's list keeps the first ones of an event under way and says how many more, whether
    /// the window holds them (60 days) or the event is asked (100 days): a daily instance at
    /// 09:00 lasting N days is under way at midnight on the N days after the one it began on.
    @Test(arguments: [60, 100])
    func aDayKeepsTheFirstOnesUnderWay(_ days: Int) throws {
        let events = Self.events("BEGIN:VEVENT\nUID:x\nSUMMARY:x\nDTSTART:20240101T090000Z\nDURATION:P\(days)D\nRRULE:FREQ=DAILY\nEND:VEVENT\n")
        let store = EventStore(events: events, display: .utc)
        let (june, juneStart) = Self.day(2024, 6, 1)
        let byDay = store.occurrencesByDay(june..<(june + 30))
        for day in june..<(june + 30) {
            let list = try #require(byDay[day])
            let underWay = list.filter { $0.startDay < day }
            #expect(underWay.count == Self.limit)
            #expect(underWay.last?.more == days - Self.limit)
            #expect(underWay.dropLast().allSatisfy { $0.more == 0 })
            // The first one began `days` days before, at 09:00; one begins on the day itself.
            let dayStart = juneStart + (day - june) * 86_400
            #expect(underWay.first?.start == dayStart - days * 86_400 + 9 * 3_600)
            #expect(list.filter { $0.startDay == day }.count == 1)
            #expect(store.occurrences(touching: day) == list)
        }
    }

    /// A rule of every minute lasting two hours: at midnight 119 are under way (from 22:01; the
    /// one of 22:00 ends at midnight), of which the day lists 48, and 1440 begin, of which it
    /// lists 48 too; each list's last says how many more.
    @Test func aDenseRuleUnderWayIsCutLikeOneBeginning() throws {
        let (store, day, dayStart, list, underWay) = Self.lists("DTSTART:20240101T000000Z\nDURATION:PT2H\nRRULE:FREQ=MINUTELY", on: (2024, 3, 5))
        #expect(underWay.map(\.start) == (0..<Self.limit).map { dayStart - 119 * 60 + $0 * 60 })
        #expect(underWay.last?.more == 119 - Self.limit)
        let beginning = list.filter { $0.startDay == day }
        #expect(beginning.map(\.start) == (0..<Self.limit).map { dayStart + $0 * 60 })
        #expect(beginning.last?.more == 1_440 - Self.limit)
        #expect(store.occurrencesByDay(day..<(day + 1))[day] == list)
    }

    /// An event lasting years from year 0 that repeats every second: its first ones under way
    /// and the count of the rest, seconds from 0000-01-01 to the day (the test's own days).
    @Test func aSecondlyEventLastingMillenniaIsCounted() throws {
        let (_, day, _, list, underWay) = Self.lists("DTSTART:00000101T000000\nDTEND:20241220T140000\nRRULE:FREQ=SECONDLY", on: (1847, 1, 1))
        #expect(underWay.count == Self.limit)
        // 1847 years of days: 365 each, a leap day every 4 years but 100 but 400 (year 0 one).
        let days = 1_847 * 365 + (1_846 / 4 + 1) - (1_846 / 100 + 1) + (1_846 / 400 + 1)
        #expect(underWay.last?.more == days * 86_400 - Self.limit)
        #expect(list.filter { $0.startDay == day }.count == Self.limit)
    }

    /// A hidden calendar's events are not asked what is under way.
    @Test func aHiddenCalendarShowsNothingUnderWay() {
        let events = Self.events("BEGIN:VEVENT\nUID:w\nDTSTART:20200101T000000Z\nDURATION:P1000D\nRRULE:FREQ=WEEKLY\nEND:VEVENT\n")
        let store = EventStore(events: events, display: .utc, calendars: [EventCalendar(name: "a", color: nil)], calendarOfEvent: [0])
        let (day, _) = Self.day(2021, 6, 1)
        #expect(store.occurrences(touching: day).count == Self.limit)
        store.hidden = [0]
        #expect(store.occurrences(touching: day).isEmpty)
        #expect(store.occurrencesByDay(day..<(day + 7)).isEmpty)
    }
}
