import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// A structural error (a component left open, a missing END, a stray continuation line, an END
/// that matches nothing) is closed where the next event or the calendar's end shows it, said
/// with its line, and loses no later event. RFC 5545 §3.4 and §3.6: a VCALENDAR holds the
/// components, a VEVENT begins only inside one, and every BEGIN has its END.
@Suite struct StructuralRecoveryTests {
    static func read(_ lines: [String]) -> EventFile {
        EventReader.read(Array(lines.joined(separator: "\r\n").utf8) + [0x0D, 0x0A])
    }

    static func event(_ summary: String, _ day: Int) -> [String] {
        ["BEGIN:VEVENT", "UID:\(summary)", "DTSTART;VALUE=DATE:202403\(day < 10 ? "0" : "")\(day)", "SUMMARY:\(summary)", "END:VEVENT"]
    }

    @Test func anUnclosedComponentEndsAtTheNextEvent() {
        let file = Self.read(["BEGIN:VCALENDAR", "BEGIN:X-THING", "X-A:b"] + Self.event("one", 1) + Self.event("two", 2) + ["END:VCALENDAR"])
        #expect(file.events.map(\.summary) == ["one", "two"])
        #expect(file.problems.map(\.line) == [4])
        #expect(file.problems.first?.message == "BEGIN:X-THING (line 2) has no END:X-THING; closed here")
        #expect(file.skipped.isEmpty)
    }

    @Test func aMissingEndSkipsThatEventAloneAndKeepsTheNext() {
        let open = ["BEGIN:VEVENT", "UID:open", "DTSTART;VALUE=DATE:20240301", "SUMMARY:open"]
        let file = Self.read(["BEGIN:VCALENDAR"] + open + Self.event("next", 2) + Self.event("last", 3) + ["END:VCALENDAR"])
        #expect(file.events.map(\.summary) == ["next", "last"])
        #expect(file.skipped.map(\.line) == [2])
        #expect(file.skipped.first?.reason == "no END:VEVENT before line 6; event skipped")
    }

    /// A continuation line right after END:VEVENT folds onto it (RFC 5545 §3.1), making
    /// END:VEVENTX: the event ends there and is kept, and the next one is read.
    @Test func aStrayContinuationAfterEndKeepsBothEvents() {
        let file = Self.read(["BEGIN:VCALENDAR"] + Self.event("one", 1) + [" stray"] + Self.event("two", 2) + ["END:VCALENDAR"])
        #expect(file.events.map(\.summary) == ["one", "two"])
        #expect(file.problems.count == 1)
        #expect(file.problems.first?.line == 6)
        #expect(file.problems.first?.message == "END:VEVENTSTRAY does not match BEGIN:VEVENT (line 2); that component ends here")
    }

    /// An END that does not match the open component (END:VTOOD) closes it there; every
    /// later event is read (they were all lost).
    @Test func aMismatchedEndClosesTheOpenComponent() {
        let todo = ["BEGIN:VTODO", "SUMMARY:todo", "END:VTOOD"]
        let file = Self.read(["BEGIN:VCALENDAR"] + Self.event("one", 1) + todo + Self.event("two", 2) + Self.event("three", 3) + ["END:VCALENDAR"])
        #expect(file.events.map(\.summary) == ["one", "two", "three"])
        #expect(file.problems.map(\.line) == [9])
        #expect(file.problems.first?.message == "END:VTOOD does not match BEGIN:VTODO (line 7); that component ends here")
        // An END that matches nothing at all, with only the calendar open, is said and ignored.
        let stray = Self.read(["BEGIN:VCALENDAR", "END:VEVENT"] + Self.event("one", 1) + ["END:VCALENDAR"])
        #expect(stray.events.map(\.summary) == ["one"])
        #expect(stray.problems.first?.message == "END:VEVENT matches no BEGIN; ignored")
    }

    /// Two calendars glued together, the first without its END:VCALENDAR: the second's
    /// events were children of the first calendar's and lost.
    @Test func aCalendarWithoutEndEndsAtTheNextCalendar() {
        let file = Self.read(["BEGIN:VCALENDAR", "BEGIN:X-OPEN"] + Self.event("one", 1) + ["BEGIN:VCALENDAR"] + Self.event("two", 2)
                             + ["END:VCALENDAR"])
        #expect(file.events.map(\.summary) == ["one", "two"])
    }

    /// Names quoted from the file are inert.
    @Test func quotedNamesAreEscaped() {
        let file = Self.read(["BEGIN:VCALENDAR", "BEGIN:X-\u{1B}]0;T\u{07}"] + Self.event("one", 1) + ["END:VCALENDAR"])
        #expect(file.problems.first?.message == "BEGIN:X-\\x1b]0;T\\x07 (line 2) has no END:X-\\x1b]0;T\\x07; closed here")
    }
}

/// The day limit: a rule denser than `InputLimits.instancesPerDay` keeps a day's first
/// instances and records how many more; COUNT counts those left out too (RFC 5545 §3.3.10:
/// COUNT bounds the instances the rule produces, shown or not).
@Suite struct DayLimitTests {
    @Test func aMinutelyRuleKeepsTheFirstOfEachDay() throws {
        let rule = try #require(try RecurrenceRule.parse("FREQ=MINUTELY"))
        let start = CivilTime.day(year: 2024, month: 1, day: 1) * 86_400
        let expander = RecurrenceExpander(rule: rule, start: start, isDate: false, until: nil)
        let day = expander.instances(in: start..<(start + 86_400))
        #expect(day.count == InputLimits.instancesPerDay)
        #expect(day.last == start + (InputLimits.instancesPerDay - 1) * 60)
        let cut = try #require(expander.cuts[CivilTime.day(ofSeconds: start)])
        #expect(cut.lastKept == day.last)
        #expect(cut.dropped == 1440 - InputLimits.instancesPerDay)
    }

    @Test func countCountsWhatTheLimitLeftOut() throws {
        // 2000 minutes: the whole of 1 January (1440) and 560 of the 2nd; nothing on the 3rd.
        let rule = try #require(try RecurrenceRule.parse("FREQ=MINUTELY;COUNT=2000"))
        let start = CivilTime.day(year: 2024, month: 1, day: 1) * 86_400
        let expander = RecurrenceExpander(rule: rule, start: start, isDate: false, until: nil)
        #expect(expander.instances(in: (start + 86_400)..<(start + 2 * 86_400)).count == InputLimits.instancesPerDay)
        #expect(expander.instances(in: (start + 2 * 86_400)..<(start + 3 * 86_400)).isEmpty)
    }
}
