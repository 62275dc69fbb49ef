import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The Chinese, Dangi and astronomical Islamic scales count in infcal's own months, which are
/// ICU's months computed in flat memory: ICU's own answers (Foundation's `Calendar`, through
/// `FoundationScale`) are the oracle here, for years where Foundation's arithmetic is sound.
/// (The Hebrew scale differs from ICU on purpose: see RFC7529ExampleTests, against convertdate.)
@Suite struct MonthCalendarScaleTests {
    @Test(arguments: [("CHINESE", 4620...4740), ("DANGI", 4620...4740), ("ISLAMIC", 1300...1500)])
    func yearsAndStepsAsICUHasThem(_ name: String, _ years: ClosedRange<Int>) throws {
        let identifier = try #require(RecurrenceScales.identifiers[name])
        let ours = try #require(RecurrenceScales.scale(named: name) as? MonthCalendarScale)
        let icu = FoundationScale(identifier)
        var broken = 0
        for year in years {
            let months = ours.months(ofYear: year)
            // Ours: 12 or 13 months of 29 or 30 days, end to end.
            #expect((12...13).contains(months.count), "\(name) \(year)")
            for (month, next) in zip(months, months.dropFirst()) { #expect(month.endDay == next.firstDay) }
            #expect(months.allSatisfy { (29...30).contains($0.length) }, "\(name) \(year)")
            // Foundation's range of days in a month is empty in a few years (ICU's defect,
            // which these scales leave behind): those years are not compared.
            let theirs = icu.months(ofYear: year)
            if theirs.contains(where: { $0.length == 0 }) {
                broken += 1
                continue
            }
            #expect(months == theirs, "\(name) \(year)")
            guard let first = months.first else { continue }
            for count in [-25, -1, 1, 13, 250] {
                #expect(ours.month(first, offsetBy: count) == icu.month(first, offsetBy: count), "\(name) \(year) \(count)")
            }
            if let last = months.last { #expect(ours.distance(from: first, to: last) == months.count - 1) }
        }
        #expect(broken <= 3)
    }
}
