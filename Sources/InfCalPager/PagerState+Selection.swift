import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// The selected day: kept inside the bounds and on the screen as the months move.
extension PagerState {

    /// The month holding the selected day.
    public var selectedMonth: Month { calendar.month(containing: selected) ?? index.current }

    /// The first and last days the selection may reach: the bounds' and the calendar's.
    var selectableDays: ClosedRange<Int> {
        let low = max(bounds.since ?? .min, MonthCalendar.lowerLimitDay)
        let high = min(bounds.until ?? .max, (calendar.upperLimit ?? .max) - 1)
        return low...max(low, high)
    }

    /// Selects `day`, kept inside the bounds, and brings its month onto the screen.
    public mutating func select(_ day: Int) {
        let days = selectableDays
        let kept = min(days.upperBound, max(days.lowerBound, day))
        guard calendar.month(containing: kept) != nil else { return }
        selected = kept
        reveal()
    }

    /// Moves the selection `days` days (back when negative), turning pages where it leaves the
    /// screen, and stops at the bounds, saying so.
    public mutating func moveDays(_ days: Int) {
        let (target, overflow) = selected.addingReportingOverflow(days)
        let range = selectableDays
        if overflow || target > range.upperBound || target < range.lowerBound || calendar.month(containing: target) == nil {
            message = Message(text: days > 0 ? Self.dayBoundAfter : Self.dayBoundBefore, isError: false)
            // As far as the bound; where the calendar itself ends first, the selection stays.
            let reachable = days > 0 ? range.upperBound : range.lowerBound
            if calendar.month(containing: reachable) != nil {
                select(days > 0 ? max(selected, reachable) : min(selected, reachable))
            }
            return
        }
        select(target)
    }

    /// Runs `move` (a move of the months) and carries the selected day along: it keeps its
    /// number, cut to its new month's length, and its place among the strip's months.
    mutating func carrySelection(_ move: (inout PagerState) -> Void) {
        let month = selectedMonth
        let offset = selected - month.firstDay
        var place = 0
        if view == .strip {
            var probe = index
            while !probe.current.contains(day: selected), probe.current.firstDay < selected,
                  place < max(1, room.monthsPerScreen), probe.moveForward() {
                place += 1
            }
        }
        move(&self)
        var probe = index
        for _ in 0..<place { guard probe.moveForward() else { break } }
        let target = probe.current
        let days = selectableDays
        selected = min(days.upperBound, max(days.lowerBound, target.firstDay + min(offset, target.dayCount - 1)))
        reveal()
    }

    /// Brings the selected day onto the screen: its month on the month page, the year page and
    /// the week view (whose first month is the selected day's),
    /// one of the months of the strip (turning it by as few months as it takes).
    mutating func reveal() {
        guard let month = calendar.month(containing: selected), !index.current.contains(day: selected) else { return }
        switch view {
        case .monthPage, .yearPage, .week:
            index.jump(to: month)
        case .strip:
            if selected < index.current.firstDay {
                index.jump(to: month)
                return
            }
            var probe = index
            var shown = 1
            while shown < room.monthsPerScreen, probe.moveForward() {
                if probe.current.contains(day: selected) { return }
                shown += 1
            }
            index.jump(to: month)
            _ = index.move(by: -(max(1, room.monthsPerScreen) - 1))
        }
    }
}
