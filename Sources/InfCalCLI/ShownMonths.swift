import InfCalModel
import InfCalEvents
import InfCalRender

/// Which months a run shows, answered once, where the run is resolved: the months themselves
/// (lazily, endless where the run is) and the days they span, which is what the event cache
/// decodes events for. The grids, `--wall`, JSON, the agenda and the cache's window all ask
/// this one value.
public struct ShownMonths {
    /// How the months follow the first.
    public enum Walk: Equatable, Sendable {
        /// Months from the start onwards; `count` nil means until a bound.
        case forward(count: Int?)
        /// Months from the start backwards, newest first.
        case backward(count: Int?)
        /// The start month alone.
        case single
        /// The months of the calendar year that starts at the start month.
        case year
        /// `count` months from the start, as cal's `-3` and `-n` show them: those before
        /// `--since` (the start may lie before it) are left out.
        case run(count: Int)
        /// Every month from the start that may hold an occurrence of the events, onwards or
        /// `backward`: an agenda without a count, which skips the months no event reaches.
        case eventful(backward: Bool)
        /// No month at all (`--calendar list`).
        case none
    }

    public let calendar: MonthCalendar
    /// The first month shown; nil shows none.
    public let start: Month?
    public let bounds: MonthBounds
    public let walk: Walk

    public init(calendar: MonthCalendar, start: Month?, bounds: MonthBounds, walk: Walk) {
        self.calendar = calendar
        self.start = start
        self.bounds = bounds
        self.walk = walk
    }

    /// The months, lazily, in a concrete sequence type: no `AnySequence` box, whose generic
    /// metadata the runtime would look up by name at start-up. An eventful walk goes month by
    /// month here; `eventfulMonths(events:)` skips as the events allow.
    public func months() -> MonthWalk {
        guard let start else { return MonthWalk(from: nil, count: 0, step: { _ in nil }) }
        let index = MonthIndex(calendar: calendar, start: start, bounds: bounds)
        switch walk {
        case .forward(let count):
            return MonthWalk(from: start, count: count, step: index.increase)
        case .backward(let count):
            return MonthWalk(from: start, count: count, step: index.decrease)
        case .single:
            return MonthWalk(from: start, count: 1, step: { _ in nil })
        case .year:
            let unbounded = MonthIndex(calendar: calendar, start: start)
            return MonthWalk(from: start, count: nil, step: { month in
                unbounded.increase(month).flatMap { $0.name.isInSameYear(as: start.name) ? $0 : nil }
            }, admits: bounds.admits)
        case .run(let count):
            // The start may lie before --since (-3 at the bound): those months are left out.
            let untilOnly = MonthIndex(calendar: calendar, start: start, bounds: MonthBounds(until: bounds.until))
            return MonthWalk(from: start, count: count, step: untilOnly.increase, admits: bounds.admits)
        case .eventful(let backward):
            return MonthWalk(from: start, count: nil, step: backward ? index.decrease : index.increase)
        case .none:
            return MonthWalk(from: nil, count: 0, step: { _ in nil })
        }
    }

    /// The months of an eventful walk that may hold an occurrence of `events`, stretches no
    /// event reaches skipped in one step; nil for any other walk. (A type of its own, not a
    /// case of `MonthWalk`: the stream's walk stays as small as it can, which its 120,000
    /// months show: infcal-bench measured 1.09x the time with an agenda's walk inside it.)
    public func eventfulMonths(events: EventStore) -> AgendaMonths? {
        guard case .eventful(let backward) = walk, let start else { return nil }
        return AgendaMonths(calendar: calendar, start: start, bounds: bounds, store: events, backward: backward)
    }

    /// The days (grid day numbers) of the months shown, when they are at most `limit` months;
    /// nil for an endless or eventful walk, or a longer one. What the event cache decodes
    /// events for.
    public func days(limit: Int) -> Range<Int>? {
        guard let start else { return nil }
        switch walk {
        case .forward(let count?) where count <= limit, .run(let count) where count <= limit:
            // A run's months before --since are counted too: its grids show their days.
            return Self.span(of: ShownMonths(calendar: calendar, start: start, bounds: bounds, walk: .forward(count: count)).months())
        case .backward(let count?) where count <= limit:
            return Self.span(of: months())
        case .single:
            return start.firstDay..<start.endDay
        case .year:
            return Self.span(of: calendar.months(ofYearStartingAt: start))
        default:
            return nil
        }
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

    /// The first day of the first month listed, from which on what is under way is listed
    /// with that month (forward only); nil backwards or when no month is shown.
    public var firstListedDay: Int? {
        if case .backward = walk { return nil }
        return months().first { _ in true }?.firstDay
    }
}

/// Months from a first one, each the step from the one before, until the step says nil or
/// `count` months are stepped over, those that `admits` turns down left out: the run's
/// sequence, a concrete type, so that printing it needs no generic metadata at run time
/// (`index.forward.prefix(count).lazy.filter(...)` does).
public struct MonthWalk: Sequence, IteratorProtocol {
    private var upcoming: Month?
    private var remaining: Int?
    private let step: (Month) -> Month?
    private let admits: ((Month) -> Bool)?

    /// Months from `first` (nil: none) by `step`, `count` of them (nil: until `step` says nil),
    /// without those `admits` turns down (they count towards `count`).
    init(from first: Month?, count: Int?, step: @escaping (Month) -> Month?, admits: ((Month) -> Bool)? = nil) {
        upcoming = first
        remaining = count
        self.step = step
        self.admits = admits
    }

    public mutating func next() -> Month? {
        while let month = upcoming, remaining.map({ $0 > 0 }) ?? true {
            remaining = remaining.map { $0 - 1 }
            // The step after the last month wanted is never taken.
            upcoming = remaining == 0 ? nil : step(month)
            if admits?(month) ?? true { return month }
        }
        return nil
    }
}
