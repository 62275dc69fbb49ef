import InfCalModel
import InfCalEvents

/// The months an endless agenda walks: each next month, except that a stretch of months in
/// which no occurrence of the store can start is skipped in one jump, found from what the
/// store knows of its events (`EventStore.earliestStartDay(from:)`), and the walk ends where
/// no occurrence can start any more. So `--agenda --search` into a pipe costs as much per line
/// listed, not per month passed, and ends once every matching rule is done.
public struct AgendaMonths: Sequence, IteratorProtocol {
    private var index: MonthIndex
    private let calendar: MonthCalendar
    private let bounds: MonthBounds
    private let store: EventStore
    private let backward: Bool
    private var started = false

    /// Skipping fewer days than this steps month by month: a jump costs a month's lookup.
    static let shortestJump = 62

    /// The months from `start` on (back from it when `backward`), inside `bounds`, that may
    /// hold occurrences of `store`.
    public init(calendar: MonthCalendar, start: Month, bounds: MonthBounds, store: EventStore, backward: Bool) {
        index = MonthIndex(calendar: calendar, start: start, bounds: bounds)
        self.calendar = calendar
        self.bounds = bounds
        self.store = store
        self.backward = backward
    }

    public mutating func next() -> Month? {
        guard started else {
            started = true
            return index.current
        }
        let month = index.current
        if backward {
            guard let day = store.latestStartDay(before: month.firstDay) else { return nil }
            if day < month.firstDay - Self.shortestJump {
                guard let target = calendar.month(containing: day), bounds.admits(target), target.firstDay < month.firstDay else { return nil }
                index.jump(to: target)
                return target
            }
            return index.moveBackward() ? index.current : nil
        }
        guard let day = store.earliestStartDay(from: month.endDay) else { return nil }
        if day >= month.endDay + Self.shortestJump {
            guard let target = calendar.month(containing: day), bounds.admits(target), target.firstDay > month.firstDay else { return nil }
            index.jump(to: target)
            return target
        }
        return index.moveForward() ? index.current : nil
    }
}
