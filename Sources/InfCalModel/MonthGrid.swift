/// A month laid out in weeks: rows of seven cells, each empty or one day. No strings.
public struct MonthGrid: Hashable, Sendable {
    /// The month laid out.
    public let month: Month
    /// The weekday of each row's first cell, numbered as Foundation does (1 is Sunday).
    public let firstWeekday: Int
    /// Empty cells before the month's first day.
    public let leadingBlanks: Int
    /// The day-of-month numbers of the month's days.
    public let labels: DayLabels

    /// One day in the grid.
    public struct Cell: Hashable, Sendable {
        /// The day number (days from 2001-01-01), to compare with today.
        public let day: Int
        /// The day of the month as the calendar numbers it.
        public let label: Int
    }

    /// Lays out `month`, whose days are numbered `labels`, in weeks starting on `firstWeekday`
    /// (1 is Sunday ... 7 is Saturday).
    public init(month: Month, labels: DayLabels = .consecutive, firstWeekday: Int) {
        self.month = month
        self.labels = labels
        self.firstWeekday = firstWeekday
        leadingBlanks = (DayNumber.weekday(month.firstDay) - firstWeekday + 7) % 7
    }

    /// Lays out `month` in `calendar`, numbering its days as the calendar does.
    public init(month: Month, in calendar: MonthCalendar, firstWeekday: Int) {
        self.init(month: month, labels: calendar.dayLabels(of: month), firstWeekday: firstWeekday)
    }

    /// The number of week rows the month needs.
    public var weekCount: Int { (leadingBlanks + month.dayCount + 6) / 7 }

    /// The cell in week `week` (from 0) and column `column` (0 to 6), or nil where it is empty.
    @inline(__always)
    public func cell(week: Int, column: Int) -> Cell? {
        let index = week * 7 + column - leadingBlanks
        guard index >= 0, index < month.dayCount else { return nil }
        return Cell(day: month.firstDay + index, label: labels.label(at: index))
    }
}
