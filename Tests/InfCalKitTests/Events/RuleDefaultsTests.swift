import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// What RFC 5545 §3.3.10 takes from DTSTART when a rule leaves it open, RFC 7529's SKIP on
/// every invalid day, and DTSTART as the first instance, each read from a file as a user has
/// it. The oracles are cases of libical's test tables (named by their comment there, see
/// `Tests/Fixtures/libical`) and the RFCs' text.
@Suite struct RuleDefaultsTests {
    func dates(_ lines: [String], from: Int, to: Int) -> [String] {
        EventFixture.starts(EventFixture.calendar(lines), from: from, to: to, display: .utc).map { String($0.prefix(10)) }
    }

    /// A yearly birthday as Google and Windows Calendar export it falls in DTSTART's month
    /// (libical: `yearly, by Feb 29th day of month`, FREQ=YEARLY;BYMONTHDAY=29 from 2024-02-29
    /// gives 2028-02-29, 2032-02-29).
    @Test func yearlyMonthDayTakesTheMonthOfDTSTART() {
        #expect(dates(["DTSTART;VALUE=DATE:19800304", "RRULE:FREQ=YEARLY;BYMONTHDAY=4"], from: 2024, to: 2025)
                == ["2024-03-04", "2025-03-04"])
        #expect(dates(["DTSTART;VALUE=DATE:20240229", "RRULE:FREQ=YEARLY;BYMONTHDAY=29;COUNT=3"], from: 2024, to: 2040)
                == ["2024-02-29", "2028-02-29", "2032-02-29"])
    }

    /// BYWEEKNO alone takes DTSTART's weekday (libical `github issue1223`: BYWEEKNO=53;COUNT=1
    /// from Sunday 2027-01-03; `CalendarServer test: Specific in first 2 weeks of year`).
    @Test func weekNumberTakesTheWeekdayOfDTSTART() {
        #expect(dates(["DTSTART;VALUE=DATE:20130101", "RRULE:FREQ=YEARLY;BYWEEKNO=1,2;UNTIL=20150101"], from: 2013, to: 2015)
                == ["2013-01-01", "2013-01-08", "2013-12-31", "2014-01-07", "2014-12-30"])
    }

    /// BYWEEKNO counts INTERVAL in week-numbering years, expands whole weeks across the year's
    /// edge, takes week 53 only where there is one, and counts negative weeks from the
    /// week-year's end (libical: `The first date belongs to 2009, so after 6 years it will be
    /// 2015, which has a week 53.`, the same after 5 years to 2014, which has none, and
    /// `github issue1230` BYWEEKNO=-1,-2;COUNT=5 from 2027-01-02).
    @Test func weekNumbersCountInWeekYears() {
        let rule = "RRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=TU,SA;UNTIL=20170101T000000Z"
        #expect(dates(["DTSTART:20100102T000000", rule + ";INTERVAL=6"], from: 2010, to: 2017)
                == ["2010-01-02", "2015-12-29", "2016-01-02"])
        #expect(dates(["DTSTART:20100102T000000", rule + ";INTERVAL=5"], from: 2010, to: 2017) == ["2010-01-02"])
        #expect(dates(["DTSTART;VALUE=DATE:20270102", "RRULE:FREQ=YEARLY;BYWEEKNO=-1,-2;COUNT=5"], from: 2027, to: 2029)
                == ["2027-01-02", "2027-12-25", "2028-01-01", "2028-12-23", "2028-12-30"])
    }

    /// RFC 7529 §3.1 SKIP applies to every invalid day (libical `icalrecur_test_rscale.txt`:
    /// `Test monthly with -largest day of month` SKIP=BACKWARD, and `Test yearly with
    /// -largest day of year` SKIP=BACKWARD, `... largest day of year` SKIP=FORWARD).
    @Test func skipMovesEveryInvalidDay() {
        #expect(dates(["DTSTART;VALUE=DATE:20150101", "RRULE:RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=-31;COUNT=6;SKIP=BACKWARD"],
                      from: 2015, to: 2015)
                == ["2015-01-01", "2015-01-31", "2015-03-01", "2015-03-31", "2015-05-01", "2015-05-31"])
        #expect(dates(["DTSTART;VALUE=DATE:20120101", "RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=-366;COUNT=4;SKIP=BACKWARD"],
                      from: 2012, to: 2016) == ["2012-01-01", "2012-12-31", "2013-12-31", "2014-12-31"])
        #expect(dates(["DTSTART;VALUE=DATE:20121231", "RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=366;COUNT=3;SKIP=FORWARD"],
                      from: 2012, to: 2016) == ["2012-12-31", "2014-01-01", "2015-01-01"])
        // A month asked alone finds the day its neighbour's period moved into it.
        #expect(dates(["DTSTART;VALUE=DATE:20121231", "RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=366;SKIP=FORWARD"],
                      from: 2014, to: 2014) == ["2014-01-01"])
    }

    /// A DTSTART out of step with its rule is the first instance and counts toward COUNT
    /// (RFC 5545 §3.8.5.3: it "always counts as the first occurrence"; libical's `Every Friday
    /// the 13th` from Tuesday 1997-09-02 lists five Fridays, the RFC four and DTSTART).
    @Test func outOfStepDTSTARTCountsTowardCOUNT() {
        #expect(dates(["DTSTART:19970902T090000", "RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;COUNT=5"], from: 1997, to: 2001)
                == ["1997-09-02", "1998-02-13", "1998-03-13", "1998-11-13", "1999-08-13"])
    }
}
