import Foundation
@testable import InfCalModel
@testable import InfCalEvents

// The oracle the scales are checked against: Foundation's `Calendar` read directly (ICU's own
// answers), apart from the `MonthCalendar` months the scales count in.

/// A non-Gregorian scale computed by Foundation's `Calendar` in UTC at noon, its months
/// numbered as RFC 7529 numbers them (the Hebrew leap month Adar I is `5L`, Adar and Adar II
/// are 6). Months are kept once found.
final class FoundationScale: RecurrenceScale {
    let calendar: Calendar
    let isHebrew: Bool
    let isCyclic: Bool
    private var years: [Int: [ScaleMonth]] = [:]

    init(_ identifier: Calendar.Identifier) {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = .gmt
        self.calendar = calendar
        isHebrew = identifier == .hebrew
        isCyclic = identifier == .chinese || identifier == .dangi
    }

    private func date(_ day: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(day * CivilTime.secondsPerDay + 43_200))
    }

    private func day(_ date: Date) -> Int {
        CivilTime.floorDiv(Int(date.timeIntervalSince1970.rounded(.down)), CivilTime.secondsPerDay)
    }

    func month(containing civil: Int) -> ScaleMonth? {
        guard (-2_000_000...60_000_000).contains(civil) else { return nil }
        let parts = calendar.dateComponents([.era, .year, .month, .day, .isLeapMonth], from: date(civil))
        guard let year = parts.year, let number = parts.month, let dayOfMonth = parts.day,
              let range = calendar.range(of: .day, in: .month, for: date(civil)) else { return nil }
        let linearYear = isCyclic ? CivilTime.cycleYear(era: parts.era ?? 1, year: year) : year
        let label = isHebrew ? HebrewMonths.rfc7529Label(ofMonth: number) : (number, parts.isLeapMonth ?? false)
        return ScaleMonth(year: linearYear, number: label.0, isLeap: label.1, firstDay: civil - dayOfMonth + 1, length: range.count)
    }

    func months(ofYear year: Int) -> [ScaleMonth] {
        if let known = years[year] { return known }
        var parts = DateComponents(year: year, month: 1, day: 1, hour: 12)
        if isCyclic {
            (parts.era, parts.year) = CivilTime.cycleEraAndYear(year)
        }
        var result: [ScaleMonth] = []
        if let first = calendar.date(from: parts), var month = self.month(containing: day(first)), month.year == year {
            while month.year == year, result.count < 14 {
                result.append(month)
                guard let next = self.month(containing: month.endDay) else { break }
                month = next
            }
        }
        if years.count > 4096 { years.removeAll() }
        years[year] = result
        return result
    }

    func month(_ month: ScaleMonth, offsetBy count: Int) -> ScaleMonth? {
        guard let moved = calendar.date(byAdding: .month, value: count, to: date(month.firstDay)) else { return nil }
        return self.month(containing: day(moved))
    }

    func distance(from a: ScaleMonth, to b: ScaleMonth) -> Int? {
        calendar.dateComponents([.month], from: date(a.firstDay), to: date(b.firstDay)).month
    }
}
