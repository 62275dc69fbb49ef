import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// RFC 7529's examples (section 4.3 and SKIP) and more rules in its calendars. The oracles are
/// the RFC's own lists, the published dates of Chinese New Year, and convertdate's Hebrew and
/// Coptic calendars (`hebrew.to_gregorian(y, 12, 8)` for 8 Adar (I), `(y, 11, 8)` for 8 Shevat,
/// `coptic.to_gregorian(y, 13, 1)` for the first epagomenal day, which the Ethiopic calendar
/// shares).
@Suite struct RFC7529ExampleTests {
    func dates(_ lines: [String], from: Int, to: Int, first: Int? = nil) -> [String] {
        let found = EventFixture.starts(EventFixture.calendar(lines), from: from, to: to, display: .utc).map { String($0.prefix(10)) }
        return first.map { Array(found.prefix($0)) } ?? found
    }

    @Test func chineseNewYear() {
        #expect(dates(["DTSTART;VALUE=DATE:20130210", "RRULE:RSCALE=CHINESE;FREQ=YEARLY"], from: 2013, to: 2018)
                == ["2013-02-10", "2014-01-31", "2015-02-19", "2016-02-08", "2017-01-28", "2018-02-16"])
    }

    @Test func ethiopicThirteenthMonth() {
        #expect(dates(["DTSTART;VALUE=DATE:20130906", "RRULE:RSCALE=ETHIOPIC;FREQ=MONTHLY;BYMONTH=13"], from: 2013, to: 2017)
                == ["2013-09-06", "2014-09-06", "2015-09-06", "2016-09-06", "2017-09-06"])
    }

    @Test func hebrewLeapMonthSkips() {
        let base = ["DTSTART;VALUE=DATE:20140208", "RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8"]
        // FORWARD: 8 Adar in a year without Adar I (the RFC's example).
        #expect(dates([base[0], base[1] + ";SKIP=FORWARD"], from: 2014, to: 2020)
                == ["2014-02-08", "2015-02-27", "2016-02-17", "2017-03-06", "2018-02-23", "2019-02-13", "2020-03-04"])
        // OMIT (the default): leap years only.
        #expect(dates(base, from: 2014, to: 2020) == ["2014-02-08", "2016-02-17", "2019-02-13"])
        // BACKWARD: 8 Shevat in the other years.
        #expect(dates([base[0], base[1] + ";SKIP=BACKWARD"], from: 2014, to: 2020)
                == ["2014-02-08", "2015-01-28", "2016-02-17", "2017-02-04", "2018-01-24", "2019-02-13", "2020-02-03"])
    }

    @Test func gregorianSkip() {
        #expect(dates(["DTSTART;VALUE=DATE:20120229", "RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD"], from: 2012, to: 2016)
                == ["2012-02-29", "2013-03-01", "2014-03-01", "2015-03-01", "2016-02-29"])
        #expect(dates(["DTSTART;VALUE=DATE:20120229", "RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD"], from: 2012, to: 2016)
                == ["2012-02-29", "2013-02-28", "2014-02-28", "2015-02-28", "2016-02-29"])
        #expect(dates(["DTSTART;VALUE=DATE:20150131", "RRULE:RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=4;SKIP=BACKWARD"], from: 2015, to: 2015)
                == ["2015-01-31", "2015-02-28", "2015-03-31", "2015-04-30"])
        // Without RSCALE, RFC 5545 leaves the invalid days out.
        #expect(dates(["DTSTART;VALUE=DATE:20150131", "RRULE:FREQ=MONTHLY;COUNT=4"], from: 2015, to: 2015)
                == ["2015-01-31", "2015-03-31", "2015-05-31", "2015-07-31"])
    }

    /// A Hebrew anniversary far away is computed directly and lands on the right day: 8 Adar of
    /// 9998 AM, by convertdate (`hebrew.to_gregorian(9998, 12, 8)`).
    @Test func farHebrewYear() {
        #expect(dates(["DTSTART;VALUE=DATE:20150227", "RRULE:RSCALE=HEBREW;FREQ=YEARLY"], from: 6238, to: 6238) == ["6238-03-23"])
    }

    /// Hebrew rules count in infcal's own months, not ICU's, which postpone some new years a
    /// day late. convertdate is the oracle: `hebrew.to_gregorian(5807, 7, 1)` is 2046-10-01
    /// (ICU says 10-02); the years around it, `(y, 7, 1)` for 5805...5809; and the months of
    /// 5137, `(5137, m, 1)` for m in 7...12 then 1...6 (a common year).
    @Test func hebrewNewYearsAsConvertdateHasThem() {
        #expect(dates(["DTSTART;VALUE=DATE:20440922", "RRULE:RSCALE=HEBREW;FREQ=YEARLY"], from: 2044, to: 2048)
                == ["2044-09-22", "2045-09-12", "2046-10-01", "2047-09-21", "2048-09-08"])
        #expect(dates(["DTSTART;VALUE=DATE:13750905", "RRULE:RSCALE=HEBREW;FREQ=YEARLY;COUNT=3"], from: 1375, to: 1377)
                == ["1375-09-05", "1376-09-23", "1377-09-13"])
        #expect(dates(["DTSTART;VALUE=DATE:13760923", "RRULE:RSCALE=HEBREW;FREQ=MONTHLY;COUNT=12"], from: 1376, to: 1377)
                == ["1376-09-23", "1376-10-23", "1376-11-22", "1376-12-22", "1377-01-20", "1377-02-19",
                    "1377-03-20", "1377-04-19", "1377-05-18", "1377-06-17", "1377-07-16", "1377-08-15"])
        // From 5785 to 5807 in one rule: the 23rd new year after, counted in the scale.
        #expect(dates(["DTSTART;VALUE=DATE:20241003", "RRULE:RSCALE=HEBREW;FREQ=YEARLY;INTERVAL=22"], from: 2046, to: 2046)
                == ["2046-10-01"])
    }
}
