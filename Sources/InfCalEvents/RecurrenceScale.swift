import InfCalModel

/// One month of the calendar a rule counts in: its number (as RFC 7529 numbers it), whether it is
/// the leap month of that number, its first civil day and its length.
public struct ScaleMonth: Equatable, Hashable, Sendable {
    public var year: Int
    public var number: Int
    public var isLeap: Bool
    public var firstDay: Int
    public var length: Int

    public var endDay: Int { firstDay + length }
}

/// The months and years a recurrence rule counts in (RFC 7529 RSCALE). The Gregorian scale is
/// plain arithmetic; the others count in a `MonthCalendar`'s months (`MonthCalendarScale`).
public protocol RecurrenceScale: AnyObject {
    /// The month holding civil day `day`, or nil beyond the calendar's range.
    func month(containing day: Int) -> ScaleMonth?
    /// The months of `year`, in order (leap months where they fall).
    func months(ofYear year: Int) -> [ScaleMonth]
    /// The month `count` months after `month` (before, for a negative count), or nil.
    func month(_ month: ScaleMonth, offsetBy count: Int) -> ScaleMonth?
    /// Months from `a` to `b`, or nil.
    func distance(from a: ScaleMonth, to b: ScaleMonth) -> Int?
}

extension RecurrenceScale {
    /// The year holding civil day `day`.
    func year(containing day: Int) -> Int? { month(containing: day)?.year }
}

/// The proleptic Gregorian calendar of RFC 5545, computed directly.
public final class GregorianScale: RecurrenceScale, Sendable {
    public static let shared = GregorianScale()

    public func month(containing day: Int) -> ScaleMonth? {
        let date = CivilTime.date(ofDay: day)
        return ScaleMonth(year: date.year, number: date.month, isLeap: false, firstDay: day - date.day + 1,
                          length: CivilTime.monthLength(year: date.year, month: date.month))
    }

    func month(year: Int, number: Int) -> ScaleMonth {
        ScaleMonth(year: year, number: number, isLeap: false, firstDay: CivilTime.day(year: year, month: number, day: 1),
                   length: CivilTime.monthLength(year: year, month: number))
    }

    public func months(ofYear year: Int) -> [ScaleMonth] {
        (1...12).map { month(year: year, number: $0) }
    }

    public func month(_ month: ScaleMonth, offsetBy count: Int) -> ScaleMonth? {
        let index = month.year * 12 + month.number - 1 + count
        return self.month(year: CivilTime.floorDiv(index, 12), number: CivilTime.floorMod(index, 12) + 1)
    }

    public func distance(from a: ScaleMonth, to b: ScaleMonth) -> Int? {
        (b.year * 12 + b.number) - (a.year * 12 + a.number)
    }
}
