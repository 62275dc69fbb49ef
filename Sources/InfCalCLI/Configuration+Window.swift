import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

extension Configuration {
    /// The days (grid day numbers) of the months the run prints, when it prints at most
    /// `limit` of them; nil for an endless or paged run, or a longer one. What the event
    /// cache decodes events for.
    public func shownDays(limit: Int) -> Range<Int>? {
        switch mode {
        case .forward(let count?) where count <= limit:
            return Self.span(of: MonthWalk(from: start, count: count, step: index.increase))
        case .backward(let count?) where count <= limit:
            return Self.span(of: MonthWalk(from: start, count: count, step: index.decrease))
        case .months(let count) where count <= limit:
            return Self.span(of: MonthWalk(from: start, count: count, step: index.increase))
        case .single:
            return start.firstDay..<start.endDay
        case .year:
            return Self.span(of: calendar.months(ofYearStartingAt: start))
        default:
            return nil
        }
    }

    /// The days of an agenda of `months` months from the month holding `startDay`, forward
    /// or `backward`; nil when the month cannot be found or there are too many.
    public func agendaDays(from startDay: Int, months: Int?, backward: Bool, limit: Int) -> Range<Int>? {
        guard let months, months <= limit, let first = calendar.month(containing: startDay) else { return nil }
        let walk = MonthIndex(calendar: calendar, start: first, bounds: bounds)
        return Self.span(of: MonthWalk(from: first, count: months, step: backward ? walk.decrease : walk.increase))
    }

    private static func span(of months: some Sequence<Month>) -> Range<Int>? {
        var first = Int.max
        var last = Int.min
        for month in months {
            first = min(first, month.firstDay)
            last = max(last, month.endDay)
        }
        return first < last ? first..<last : nil
    }
}
