import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Every instance from any moment, and how many start in a range (`forEachInstance`,
/// `count(in:)`): against the expander's own day lists (`instances(in:)`, which the dateutil,
/// libical and RFC tests check) and the day limit's counts of what it left out; against a walk
/// of every instance where a count takes whole cycles at once; and against arithmetic the test
/// does itself (days, leap years, weekdays) over millennia.
@Suite struct UncutInstancesTests {
    /// An expander of `rule` from DTSTART `start` (YYYYMMDDTHHMMSS, floating).
    static func expander(_ rule: String, _ start: String) throws -> RecurrenceExpander {
        let parsed = try #require(try RecurrenceRule.parse(rule))
        let begin = try #require(ICalTime.parse(start, isDate: false, zone: nil))
        return RecurrenceExpander(rule: parsed, start: begin.seconds, isDate: false, until: parsed.until?.seconds)
    }

    /// Civil days from 1970-01-01 of a proleptic Gregorian date: the test's own arithmetic
    /// (days before the year, the month, the day), not the engine's.
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let monthStarts = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let before = year - 1
        // Days in the years 1 ... year - 1 (year 0 and before counted backwards).
        let yearDays = 365 * before + floorDiv(before, 4) - floorDiv(before, 100) + floorDiv(before, 400)
        return yearDays + monthStarts[month - 1] + (leap && month > 2 ? 1 : 0) + day - 1 - 719_162
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static let rules = [
        "FREQ=SECONDLY", "FREQ=SECONDLY;INTERVAL=7", "FREQ=SECONDLY;BYSECOND=0,30;BYMINUTE=5,6", "FREQ=SECONDLY;BYHOUR=3",
        "FREQ=MINUTELY", "FREQ=MINUTELY;BYSECOND=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59",
        "FREQ=MINUTELY;INTERVAL=7;BYHOUR=9,10", "FREQ=MINUTELY;BYSECOND=0,20,40;BYSETPOS=-1", "FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,15,30,45",
        "FREQ=HOURLY;BYDAY=MO;BYMONTH=2,3", "FREQ=HOURLY;INTERVAL=3", "FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,30;BYSECOND=0,1",
        "FREQ=DAILY;INTERVAL=3;BYMONTH=1,2", "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=9,17", "FREQ=MONTHLY;BYMONTHDAY=31,-1;BYSETPOS=1",
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;BYWEEKNO=1,-1;BYDAY=MO,SU", "FREQ=MINUTELY;COUNT=2000",
        "FREQ=SECONDLY;COUNT=100000", "FREQ=DAILY;COUNT=30;BYHOUR=1,2,3", "FREQ=HOURLY;UNTIL=20240105T120000",
        "FREQ=MINUTELY;INTERVAL=13;UNTIL=20240103T000000;BYSECOND=0,1,2,3,4,5,6,7,8,9",
    ]

    /// A day's instances, every one: the day list's first ones, then as many as the day
    /// limit says it left out.
    @Test(arguments: rules)
    func aDayHoldsWhatItsListKeptAndWhatTheLimitCounted(_ rule: String) throws {
        for (start, offsets) in [("20240101T071530", [0, 1, 2, 3, 5, 40]), ("19691231T213000", [0, 1, 400])] {
            for offset in offsets {
                let listing = try Self.expander(rule, start)
                let counting = try Self.expander(rule, start)
                let day = CivilTime.day(ofSeconds: listing.start) + offset
                let range = (day * 86_400)..<((day + 1) * 86_400)
                let kept = listing.instances(in: range)
                let dropped = listing.cuts[day]?.dropped ?? 0
                var first: [Int] = []
                counting.forEachInstance(in: range) { first.append($0); return first.count < InputLimits.instancesPerDay }
                #expect(first == kept, "\(rule) from \(start), day +\(offset)")
                #expect(counting.count(in: range) == kept.count + dropped, "\(rule) from \(start), day +\(offset)")
            }
        }
    }

    /// A count over many periods, whole cycles at once, against a walk of every instance.
    @Test(arguments: [
        ("FREQ=DAILY;BYMONTH=2,9;BYDAY=TU", 50 * 366), ("FREQ=DAILY;INTERVAL=11", 50 * 366), ("FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU", 300 * 366),
        ("FREQ=MONTHLY;BYMONTHDAY=31", 1_000 * 366), ("FREQ=MONTHLY;BYDAY=-1FR;BYSETPOS=1", 1_000 * 366),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", 9_000 * 366), ("FREQ=YEARLY;BYYEARDAY=366,100", 5_000 * 366),
        ("FREQ=HOURLY;INTERVAL=6;BYMONTH=2;BYMONTHDAY=29", 60 * 366), ("FREQ=MINUTELY;BYHOUR=9;BYMINUTE=0,30;BYDAY=MO", 40 * 366),
        ("FREQ=SECONDLY;BYSECOND=0;BYMINUTE=0;BYHOUR=12;BYMONTHDAY=13;BYDAY=FR", 200 * 366),
    ])
    func aCountOfCyclesIsTheWalksCount(_ rule: String, _ days: Int) throws {
        let expander = try Self.expander(rule, "20000305T120000")
        let walker = try Self.expander(rule, "20000305T120000")
        for (from, length) in [(0, days), (17, days - 40), (days / 3, days / 2)] {
            let low = expander.start + from * 86_400 + 3_600
            let range = low..<(low + length * 86_400)
            var walked = 0
            #expect(walker.forEachInstance(in: range) { _ in walked += 1; return true } == .exhausted)
            #expect(expander.count(in: range) == walked, "\(rule) over \(length) days from +\(from)")
        }
    }

    /// Counts over millennia against the test's own arithmetic.
    @Test func countsOverMillenniaAreArithmetic() throws {
        let yearZero = Self.days(0, 1, 1) * 86_400
        let end = Self.days(2015, 1, 1) * 86_400
        // Every day from 0000-01-01 to 2014-12-31.
        #expect(try Self.expander("FREQ=DAILY", "00000101T000000").count(in: yearZero..<end) == Self.days(2015, 1, 1) - Self.days(0, 1, 1))
        // Every second of them.
        #expect(try Self.expander("FREQ=SECONDLY", "00000101T000000").count(in: yearZero..<end) == end - yearZero)
        // Every minute's sixty seconds: every second again, by other parts.
        let seconds = (0...59).map(String.init).joined(separator: ",")
        #expect(try Self.expander("FREQ=MINUTELY;BYSECOND=\(seconds)", "00000101T000000").count(in: (yearZero + 17)..<(end - 5)) == end - yearZero - 22)
        // 29 February of the leap years 4 ... 9996 (year 0 is DTSTART's, counted once).
        let leapYears = (1...9999).filter { ($0 % 4 == 0 && $0 % 100 != 0) || $0 % 400 == 0 }.count
        let leap = try Self.expander("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "00000229T000000")
        #expect(leap.count(in: yearZero..<(Self.days(10_000, 1, 1) * 86_400)) == leapYears + 1)
        // Mondays and Fridays of 1 ... 9999, counted day by day with the test's own weekdays
        // (1970-01-01 was a Thursday).
        var mondaysAndFridays = 0
        for day in Self.days(1, 1, 1)..<Self.days(10_000, 1, 1) {
            let weekday = ((day + 3) % 7 + 7) % 7
            if weekday == 0 || weekday == 4 { mondaysAndFridays += 1 }
        }
        let weekly = try Self.expander("FREQ=WEEKLY;BYDAY=MO,FR", "00010101T000000")
        // 0001-01-01 was a Monday: DTSTART is one of them.
        #expect(weekly.count(in: (Self.days(1, 1, 1) * 86_400)..<(Self.days(10_000, 1, 1) * 86_400)) == mondaysAndFridays)
    }

    /// COUNT counts from DTSTART, every instance, those a day's list leaves out too.
    @Test func aCountRuleCountsFromItsStart() throws {
        let rule = "FREQ=MINUTELY;COUNT=2000;BYSECOND=0,30"
        let expander = try Self.expander(rule, "20240101T000000")
        let day = 86_400
        // 2880 a day: the 2000 all fall on the first, from 00:00:00 to 16:39:30.
        #expect(expander.count(in: expander.start..<(expander.start + 2 * day)) == 2000)
        #expect(expander.count(in: (expander.start + 3_600)..<(expander.start + 2 * day)) == 1880)
        var last: Int?
        expander.forEachInstance(in: (expander.start + 16 * 3_600)..<(expander.start + day)) { last = $0; return true }
        #expect(last == expander.start + 16 * 3_600 + 39 * 60 + 30)
    }

    /// HOURLY and MINUTELY rules with an INTERVAL keep DTSTART's step before 1970 too
    /// (python-dateutil: `rrule(HOURLY, interval=2, dtstart=datetime(1969, 12, 31, 21, 30))`
    /// gives 21:30, 23:30, 01:30, 03:30).
    @Test func stepsBefore1970FollowDTSTART() throws {
        let expander = try Self.expander("FREQ=HOURLY;INTERVAL=2;COUNT=4", "19691231T213000")
        let found = expander.instances(in: expander.start..<(expander.start + 86_400)).map { ($0 - expander.start) / 3_600 }
        #expect(found == [0, 2, 4, 6])
        let minutes = try Self.expander("FREQ=MINUTELY;INTERVAL=7;COUNT=3", "19691231T235930")
        #expect(minutes.instances(in: minutes.start..<(minutes.start + 3_600)).map { ($0 - minutes.start) / 60 } == [0, 7, 14])
    }
}
