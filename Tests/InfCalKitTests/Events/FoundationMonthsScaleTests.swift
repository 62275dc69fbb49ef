import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// The scales that count in Foundation's months through `MonthCalendar` (solar calendars, and
/// the arithmetic Islamic ones) against ICU's own answers read directly (`FoundationScale`,
/// Foundation's `Calendar` with no checks of infcal's between): the months of each year, steps
/// of many months either way, and the distance from a year's first month to its last.
@Suite struct FoundationMonthsScaleTests {
    @Test(arguments: [("PERSIAN", 1350...1450), ("COPTIC", 1700...1760), ("ETHIOPIC", 1990...2050),
                      ("INDIAN", 1900...1960), ("BUDDHIST", 2500...2580), ("ROC", 60...130),
                      ("ISLAMIC-CIVIL", 1400...1470), ("ISLAMIC-TBLA", 1400...1440), ("ISLAMIC-UMALQURA", 1400...1440)])
    func yearsAndStepsAsICUHasThem(_ name: String, _ years: ClosedRange<Int>) throws {
        let identifier = try #require(RecurrenceScales.identifiers[name])
        let ours = try #require(RecurrenceScales.scale(named: name) as? MonthCalendarScale)
        let icu = FoundationScale(identifier)
        for year in years {
            let months = ours.months(ofYear: year)
            #expect(!months.isEmpty, "\(name) \(year)")
            for (month, next) in zip(months, months.dropFirst()) { #expect(month.endDay == next.firstDay) }
            #expect(months == icu.months(ofYear: year), "\(name) \(year)")
            guard let first = months.first, let last = months.last else { continue }
            for count in [-25, -1, 1, 13, 250] {
                #expect(ours.month(first, offsetBy: count) == icu.month(first, offsetBy: count), "\(name) \(year) \(count)")
            }
            #expect(ours.distance(from: first, to: last) == months.count - 1, "\(name) \(year)")
            #expect(ours.distance(from: first, to: last) == icu.distance(from: first, to: last), "\(name) \(year)")
        }
    }
}
