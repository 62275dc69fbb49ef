import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Every example of RFC 5545 §3.8.5.3, with every date it lists, in America/New_York as the
/// RFC assumes. The oracle is the RFC's own text (its "==>" lines, transcribed in the RFC's
/// month-and-days notation); "forever" rules are compared on the dates listed.
@Suite struct RFC5545ExampleTests {
    struct Example: CustomStringConvertible, Sendable {
        let name: String
        let start: String
        let lines: [String]
        let expected: [String]
        /// Whether the rule goes on past what the RFC lists.
        let forever: Bool
        var description: String { name }
    }

    static func example(_ name: String, _ start: String, _ lines: [String], _ dates: String, forever: Bool = false) -> Example {
        Example(name: name, start: start, lines: lines, expected: EventFixture.dates(dates), forever: forever)
    }

    static let examples: [Example] = [
        example("daily 10", "19970902T090000", ["RRULE:FREQ=DAILY;COUNT=10"], "1997-09 2-11"),
        example("daily until", "19970902T090000", ["RRULE:FREQ=DAILY;UNTIL=19971224T000000Z"],
                "1997-09 2-30; 1997-10 1-31; 1997-11 1-30; 1997-12 1-23"),
        example("every other day", "19970902T090000", ["RRULE:FREQ=DAILY;INTERVAL=2"],
                "1997-09 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-10 2,4,6,8,10,12,14,16,18,20,22,24,26,28,30; 1997-11 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29; 1997-12 1,3",
                forever: true),
        example("every 10 days", "19970902T090000", ["RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5"], "1997-09 2,12,22; 1997-10 2,12"),
        example("January yearly", "19980101T090000", ["RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA"],
                "1998-01 1-31; 1999-01 1-31; 2000-01 1-31"),
        example("January daily", "19980101T090000", ["RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1"],
                "1998-01 1-31; 1999-01 1-31; 2000-01 1-31"),
        example("weekly 10", "19970902T090000", ["RRULE:FREQ=WEEKLY;COUNT=10"], "1997-09 2,9,16,23,30; 1997-10 7,14,21,28; 1997-11 4"),
        example("weekly until", "19970902T090000", ["RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z"],
                "1997-09 2,9,16,23,30; 1997-10 7,14,21,28; 1997-11 4,11,18,25; 1997-12 2,9,16,23"),
        example("every other week", "19970902T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU"],
                "1997-09 2,16,30; 1997-10 14,28; 1997-11 11,25; 1997-12 9,23; 1998-01 6,20; 1998-02 3,17", forever: true),
        example("Tuesday and Thursday until", "19970902T090000", ["RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH"],
                "1997-09 2,4,9,11,16,18,23,25,30; 1997-10 2"),
        example("Tuesday and Thursday count", "19970902T090000", ["RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH"],
                "1997-09 2,4,9,11,16,18,23,25,30; 1997-10 2"),
        example("every other week MO WE FR", "19970901T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR"],
                "1997-09 1,3,5,15,17,19,29; 1997-10 1,3,13,15,17,27,29,31; 1997-11 10,12,14,24,26,28; 1997-12 8,10,12,22"),
        example("every other week TU TH 8", "19970902T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH"],
                "1997-09 2,4,16,18,30; 1997-10 2,14,16"),
        example("first Friday 10", "19970905T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR"],
                "1997-09 5; 1997-10 3; 1997-11 7; 1997-12 5; 1998-01 2; 1998-02 6; 1998-03 6; 1998-04 3; 1998-05 1; 1998-06 5"),
        example("first Friday until", "19970905T090000", ["RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR"],
                "1997-09 5; 1997-10 3; 1997-11 7; 1997-12 5"),
        example("first and last Sunday", "19970907T090000", ["RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU"],
                "1997-09 7,28; 1997-11 2,30; 1998-01 4,25; 1998-03 1,29; 1998-05 3,31"),
        example("second-to-last Monday", "19970922T090000", ["RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO"],
                "1997-09 22; 1997-10 20; 1997-11 17; 1997-12 22; 1998-01 19; 1998-02 16"),
        example("third-to-last day", "19970928T090000", ["RRULE:FREQ=MONTHLY;BYMONTHDAY=-3"],
                "1997-09 28; 1997-10 29; 1997-11 28; 1997-12 29; 1998-01 29; 1998-02 26", forever: true),
        example("2nd and 15th", "19970902T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15"],
                "1997-09 2,15; 1997-10 2,15; 1997-11 2,15; 1997-12 2,15; 1998-01 2,15"),
        example("first and last day", "19970930T090000", ["RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1"],
                "1997-09 30; 1997-10 1,31; 1997-11 1,30; 1997-12 1,31; 1998-01 1,31; 1998-02 1"),
        example("every 18 months", "19970910T090000", ["RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15"],
                "1997-09 10-15; 1999-03 10-13"),
        example("Tuesdays every other month", "19970902T090000", ["RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU"],
                "1997-09 2,9,16,23,30; 1997-11 4,11,18,25; 1998-01 6,13,20,27; 1998-03 3,10,17,24,31", forever: true),
        example("June and July", "19970610T090000", ["RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7"],
                "1997-06 10; 1997-07 10; 1998-06 10; 1998-07 10; 1999-06 10; 1999-07 10; 2000-06 10; 2000-07 10; 2001-06 10; 2001-07 10"),
        example("every other year JFM", "19970310T090000", ["RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3"],
                "1997-03 10; 1999-01 10; 1999-02 10; 1999-03 10; 2001-01 10; 2001-02 10; 2001-03 10; 2003-01 10; 2003-02 10; 2003-03 10"),
        example("year days", "19970101T090000", ["RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200"],
                "1997-01 1; 1997-04 10; 1997-07 19; 2000-01 1; 2000-04 9; 2000-07 18; 2003-01 1; 2003-04 10; 2003-07 19; 2006-01 1"),
        example("20th Monday", "19970519T090000", ["RRULE:FREQ=YEARLY;BYDAY=20MO"], "1997-05 19; 1998-05 18; 1999-05 17", forever: true),
        example("week 20", "19970512T090000", ["RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"], "1997-05 12; 1998-05 11; 1999-05 17", forever: true),
        example("Thursdays in March", "19970313T090000", ["RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH"],
                "1997-03 13,20,27; 1998-03 5,12,19,26; 1999-03 4,11,18,25", forever: true),
        example("summer Thursdays", "19970605T090000", ["RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8"],
                "1997-06 5,12,19,26; 1997-07 3,10,17,24,31; 1997-08 7,14,21,28; 1998-06 4,11,18,25; 1998-07 2,9,16,23,30; 1998-08 6,13,20,27; 1999-06 3,10,17,24; 1999-07 1,8,15,22,29; 1999-08 5,12,19,26",
                forever: true),
        example("Friday 13th", "19970902T090000", ["EXDATE;TZID=America/New_York:19970902T090000", "RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"],
                "1998-02 13; 1998-03 13; 1998-11 13; 1999-08 13; 2000-10 13", forever: true),
        example("Saturday after first Sunday", "19970913T090000", ["RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13"],
                "1997-09 13; 1997-10 11; 1997-11 8; 1997-12 13; 1998-01 10; 1998-02 7; 1998-03 7; 1998-04 11; 1998-05 9; 1998-06 13",
                forever: true),
        example("election day", "19961105T090000", ["RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;", " BYMONTHDAY=2,3,4,5,6,7,8"],
                "1996-11 5; 2000-11 7; 2004-11 2", forever: true),
        example("third TU WE TH", "19970904T090000", ["RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"], "1997-09 4; 1997-10 7; 1997-11 6"),
        example("second-to-last weekday", "19970929T090000", ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2"],
                "1997-09 29; 1997-10 30; 1997-11 27; 1997-12 30; 1998-01 29; 1998-02 26; 1998-03 30", forever: true),
        example("WKST MO", "19970805T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO"], "1997-08 5,10,19,24"),
        example("WKST SU", "19970805T090000", ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU"], "1997-08 5,17,19,31"),
        example("February 30 ignored", "20070115T090000", ["RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5"], "2007-01 15,30; 2007-02 15; 2007-03 15,30"),
    ]

    @Test(arguments: examples)
    func example(_ example: Example) {
        let data = EventFixture.calendar(["DTSTART;TZID=America/New_York:" + example.start] + example.lines)
        let startYear = Int(example.start.prefix(4)) ?? 1997
        var found = EventFixture.starts(data, from: startYear, to: startYear + 10)
        if example.forever { found = Array(found.prefix(example.expected.count)) }
        #expect(found == example.expected)
    }

    /// The sub-daily examples list times of one day.
    @Test func subDailyExamples() {
        func times(_ rule: String, _ expected: [String], first: Int? = nil) {
            let data = EventFixture.calendar(["DTSTART;TZID=America/New_York:19970902T090000", rule])
            var found = EventFixture.starts(data, from: 1997, to: 1997)
            if let first { found = Array(found.prefix(first)) }
            #expect(found == expected.map { "1997-09-02T" + $0 }, "\(rule)")
        }
        // The RFC lists 09:00, 12:00 and 15:00 here, but its own UNTIL (17:00 UTC) is 13:00 EDT, so
        // 15:00 lies past it (a known erratum; dateutil also stops at 12:00). With UNTIL at
        // 17:00 EDT all three come.
        times("RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", ["09:00", "12:00"])
        times("RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z", ["09:00", "12:00", "15:00"])
        times("RRULE:FREQ=MINUTELY;INTERVAL=15;COUNT=6", ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"])
        times("RRULE:FREQ=MINUTELY;INTERVAL=90;COUNT=4", ["09:00", "10:30", "12:00", "13:30"])
        let everyTwenty = (9...16).flatMap { hour in [0, 20, 40].map { String(format: "%02d:%02d", hour, $0) } }
        times("RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", everyTwenty, first: 24)
        times("RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", everyTwenty, first: 24)
        // And the next day starts again at 9:00.
        let data = EventFixture.calendar(["DTSTART;TZID=America/New_York:19970902T090000",
                                          "RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16"])
        #expect(EventFixture.starts(data, from: 1997, to: 1997).dropFirst(24).first == "1997-09-03T09:00")
    }
}
