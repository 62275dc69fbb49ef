import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// Moves of the months: by months, by years, to today, to a month holding a day.
extension PagerState {

    /// Moves `months` months (back when negative), stopping at a bound and saying so; the
    /// selected day moves as many months and keeps its number.
    public mutating func move(by months: Int) {
        carrySelection { $0.moveMonths(months) }
    }

    private mutating func moveMonths(_ months: Int) {
        let taken = index.move(by: months)
        if taken < months.magnitude {
            message = Message(text: months > 0 ? Self.boundAfter : Self.boundBefore, isError: false)
        }
    }

    /// Moves `years` calendar years (back when negative): to the month of the same number in
    /// that year, not a leap month; where the year has no such month (Adar I outside a Hebrew
    /// leap year), to the next month it has (Adar). Twelve months in the Gregorian calendar,
    /// twelve or thirteen in the Hebrew and Chinese ones. Stops at a bound and says so. The
    /// selected day keeps its number.
    public mutating func move(years: Int) {
        carrySelection { $0.moveYears(years) }
    }

    private mutating func moveYears(_ years: Int) {
        let target = index.current.name.month
        // Many years at once: Foundation adds all but the last (a Chinese month is slow to step,
        // and 9999 years are 124,000 months), the walk below does the last one and
        // finds the month. Where that lands outside the bounds or the calendar, the walk does it all.
        var remaining = years.magnitude
        if remaining > 1, let landing = calendar.calendar.date(byAdding: .year, value: years - years.signum(), to: index.current.start),
           let month = calendar.month(containing: DayNumber.day(of: landing)), bounds.admits(month),
           years > 0 ? month.firstDay > index.current.firstDay : month.firstDay < index.current.firstDay {
            index.jump(to: month)
            remaining = 1
        }
        for _ in 0..<remaining {
            let year = index.current.name
            // Leave this year: to the first month of the next or the last of the previous.
            while index.current.name.isInSameYear(as: year) {
                guard years > 0 ? index.moveForward() : index.moveBackward() else { return bound(years) }
            }
            let reached = index.current.name
            func step(_ forward: Bool) -> Bool {
                var probe = index
                guard forward ? probe.moveForward() : probe.moveBackward(),
                      probe.current.name.isInSameYear(as: reached) else { return false }
                index = probe
                return true
            }
            if years > 0 {
                while index.current.name.month < target || index.current.name.isLeapMonth, step(true) {}
            } else {
                var passedHigher = false
                while index.current.name.month > target || index.current.name.isLeapMonth {
                    passedHigher = passedHigher || index.current.name.month > target
                    guard step(false) else { break }
                }
                if index.current.name.month < target, passedHigher { _ = step(true) }
            }
        }
    }

    private mutating func bound(_ direction: Int) {
        message = Message(text: direction > 0 ? Self.boundAfter : Self.boundBefore, isError: false)
    }

    /// Selects today, if the bounds and the calendar have it.
    public mutating func goToToday() {
        if jump(toMonthHolding: today, named: "today") { select(today) }
    }

    /// Goes to the month holding `day`, or leaves an error that says why `what` cannot be
    /// shown, and stays.
    /// - returns: whether it went.
    @discardableResult
    mutating func jump(toMonthHolding day: Int, named what: String) -> Bool {
        guard let month = calendar.month(containing: day) else {
            message = Message(text: "\(what) is outside the calendar", isError: true)
            return false
        }
        guard bounds.admits(month) else {
            message = Message(text: "\(what) is outside --since/--until", isError: true)
            return false
        }
        index.jump(to: month)
        return true
    }
}
