import Foundation

/// The user's bounds on the months shown, as day numbers, both inclusive.
public struct MonthBounds: Hashable, Sendable {
    /// No month may end before this day (`--since`).
    public var since: Int?
    /// No month may start after this day (`--until`).
    public var until: Int?

    public init(since: Int? = nil, until: Int? = nil) {
        self.since = since
        self.until = until
    }

    /// Whether `month` holds a day inside the bounds.
    public func admits(_ month: Month) -> Bool {
        if let since, month.lastDay < since { return false }
        if let until, month.firstDay > until { return false }
        return true
    }

    /// Whether the month after `month` may be shown: it starts on `month.endDay`.
    func admitsMonth(after month: Month) -> Bool {
        until.map { month.endDay <= $0 } ?? true
    }

    /// Whether the month before `month` may be shown: it ends the day before `month.firstDay`.
    func admitsMonth(before month: Month) -> Bool {
        since.map { month.firstDay - 1 >= $0 } ?? true
    }
}

/// The infinite-scroll index specialised to months: an `InfiniteIndex` whose values are months of
/// a Foundation calendar and whose actions add or subtract one calendar month.
public typealias MonthIndex = InfiniteIndex<Month>

extension InfiniteIndex where Index == Month {
    /// A month index standing on `start`, stepping in `calendar`, ending at `bounds` and at the
    /// calendar's own limits.
    public init(calendar: MonthCalendar, start: Month, bounds: MonthBounds = MonthBounds()) {
        self.init(
            current: start,
            // The bound is checked first, so nothing past it is ever computed.
            increase: { month in bounds.admitsMonth(after: month) ? calendar.month(after: month) : nil },
            decrease: { month in bounds.admitsMonth(before: month) ? calendar.month(before: month) : nil }
        )
    }
}
