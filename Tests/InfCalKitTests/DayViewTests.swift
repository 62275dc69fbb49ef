import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The day view's text and its rules in words, without a terminal.
@Suite struct DayViewTests {
    typealias E = EventFixture

    /// khal's test files `tests/ics/event_dt_long.ics` (a timed event from 2014-04-09 09:30
    /// to 2014-04-12 10:30) and `tests/ics/event_d_long.ics` (all day, 9 to 11 April 2014),
    /// from github.com/pimutils/khal (commit ea00567), in one calendar with a location and a
    /// long description added: `Tests/Fixtures/khal/long-events.ics`.
    static let khalEvents = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/khal/long-events.ics"), encoding: .utf8)) ?? ""

    static func view(_ text: String, day: Int, width: Int = 60, highlighted: Int = 0,
                     calendar: MonthCalendar = MonthCalendar(.gregorian)) throws -> DayView {
        let store = EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc, sources: ["/tmp/cal/work.ics"])
        let month = try #require(calendar.month(containing: day))
        return DayView(day: day, month: month, names: CalendarNames(locale: nil, calendar: calendar), calendar: calendar,
                       occurrences: store.occurrencesByDay(day..<(day + 1))[day] ?? [], store: store, width: width,
                       highlighted: highlighted)
    }

    @Test func multiDayEventsInFull() throws {
        let view = try Self.view(Self.khalEvents, day: E.day(2014, 4, 10))
        #expect(view.title == "Thursday 10 April 2014")
        #expect(view.lines == [
            "> all day, 2014-04-09 → 2014-04-11  Another Event",
            "    day 2 of 3",
            "    Calendar: Work",
            "",
            "  2014-04-09 09:30 → 2014-04-12 10:30  An Event",
            "    day 2 of 4",
            "    Where: Room 101, second floor",
            "    Calendar: Work",
            "    First line of a long description that goes on and on so",
            "    that it must be wrapped",
            "    Second, after a newline",
        ])
        #expect(view.eventStarts == [0, 4])
        // The highlighted event is an index into the day's events, in the order listed.
        let second = try Self.view(Self.khalEvents, day: E.day(2014, 4, 10), highlighted: 1)
        #expect(second.lines[0].hasPrefix("  all day") && second.lines[4].hasPrefix("> 2014-04-09"))
        // The last day: the all-day event ended the day before.
        let last = try Self.view(Self.khalEvents, day: E.day(2014, 4, 12))
        #expect(last.occurrences.map(\.summary) == ["An Event"])
        #expect(last.lines[1] == "    day 4 of 4")
        for line in last.lines { #expect(DisplayWidth.of(line) <= 60) }
    }

    @Test func aDayWithoutEventsAndARunWithout() throws {
        let view = try Self.view(Self.khalEvents, day: E.day(2014, 4, 20))
        #expect(view.lines == ["No events on this day."])
        let calendar = MonthCalendar(.gregorian)
        let month = try #require(calendar.month(containing: E.day(2014, 4, 20)))
        let none = DayView(day: E.day(2014, 4, 20), month: month, names: CalendarNames(locale: nil, calendar: calendar),
                           calendar: calendar, occurrences: [], store: nil, width: 60, highlighted: 0)
        #expect(none.lines.first?.contains("--events") == true)
    }

    @Test func anotherCalendarAlsoGivesTheGregorianDate() throws {
        // 1 Tishri 5785 is 2024-10-03 (convertdate's hebrew.to_jd).
        let hebrew = MonthCalendar(.hebrew)
        let view = try Self.view(Self.khalEvents, day: E.day(2024, 10, 3), calendar: hebrew)
        #expect(view.title == "Thursday 1 Tishri 5785")
        #expect(view.lines.first == "2024-10-03 in the Gregorian calendar")
    }

    @Test func theEventsOwnZoneWhereItDiffers() throws {
        let text = String(decoding: E.calendar(["DTSTART;TZID=America/New_York:20240315T090000", "DTEND;TZID=America/New_York:20240315T100000"]),
                          as: UTF8.self)
        let view = try Self.view(text, day: E.day(2024, 3, 15))
        // 09:00 EDT (UTC-4 from 2024-03-10) is 13:00 UTC.
        #expect(view.lines.prefix(2) == ["> 13:00-14:00  Test", "    09:00-10:00 in America/New_York"])
    }

    /// Rules in words, read from the parsed rule and the first start. The rules are RFC 5545's
    /// examples (section 3.8.5.3) and RFC 7529's; the words are infcal's.
    @Test(arguments: [
        ("FREQ=YEARLY", 2024, 5, 4, "every year on 4 May"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10", 1997, 9, 1, "every 2 weeks on Monday and Wednesday, 10 times"),
        ("FREQ=WEEKLY", 2024, 5, 4, "every week on Saturday"),
        ("FREQ=DAILY;COUNT=1", 2024, 5, 4, "every day, once"),
        ("FREQ=MONTHLY;BYDAY=1FR", 1997, 9, 5, "every month on the 1st Friday"),
        ("FREQ=MONTHLY;BYMONTHDAY=-3", 1997, 9, 28, "every month on the 3rd to last"),
        ("FREQ=YEARLY;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA;UNTIL=20000131T140000Z", 1998, 1, 1,
         "every year on Sunday, Monday, Tuesday, Wednesday, Thursday, Friday and Saturday of January, until 2000-01-31"),
        ("FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", 1996, 11, 5,
         "every 4 years on Tuesday of November falling on the 2nd, 3rd, 4th, 5th, 6th, 7th and 8th"),
        // 1 Tishri 5785 is 2024-10-03 (convertdate).
        ("RSCALE=HEBREW;FREQ=YEARLY", 2024, 10, 3, "every year on 1 Tishri (Hebrew)"),
    ])
    func rulesInWords(rule: String, year: Int, month: Int, day: Int, expected: String) throws {
        let parsed = try #require(try RecurrenceRule.parse(rule))
        let start = CivilTime.day(year: year, month: month, day: day) * CivilTime.secondsPerDay + 9 * 3600
        #expect(RuleDescription.text(parsed, start: start) == expected)
    }
}

/// The day view of an event lasting since year 0 that repeats daily: the first 48 under way,
/// the last saying how many more (the days since 0000-01-01 less 48), then the one beginning.
@Suite struct DayViewUnderWayTests {
    @Test func aLastingEventShowsTheDayLimitAndHowManyMore() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:d1\nDTSTART:00000101T000000\nDTEND:20150901T100000\nRRULE:FREQ=DAILY\nSUMMARY:x\nEND:VEVENT\nEND:VCALENDAR\n"
        let day = EventFixture.day(2015, 1, 5)
        let view = try DayViewTests.view(text, day: day, width: 80)
        #expect(view.occurrences.count == InputLimits.instancesPerDay + 1)
        // 2015-01-05 is day 735,968 from 0000-01-01 (Python: (date(2015, 1, 5) - date(1, 1, 1)).days + 366).
        let headings = view.lines.filter { !$0.hasPrefix("    ") && !$0.isEmpty }
        #expect(headings[InputLimits.instancesPerDay - 1].hasSuffix("  x (+\(735_968 - InputLimits.instancesPerDay) more this day)"))
        #expect(headings.last?.hasSuffix("  x") == true)
    }
}
