/// Week numbers as Foundation (ICU) counts them, as plain arithmetic on day numbers: weeks
/// start on `firstWeekday` (1 is Sunday); week 1 is the first week with at least `minimumDays`
/// days in the year; the days before it belong to the last week of the year before, and the
/// last days of a year whose week is week 1 of the next are numbered 1.
struct WeekOfYear {
    let firstWeekday: Int
    let minimumDays: Int

    /// The first day of week 1 of the year that starts on `yearStart`.
    private func firstWeekStart(_ yearStart: Int) -> Int {
        let offset = (DayNumber.weekday(yearStart) - firstWeekday + 7) % 7
        return 7 - offset >= minimumDays ? yearStart - offset : yearStart - offset + 7
    }

    /// The week of `day`, where `yearStart` gives the first day of the year holding a day.
    func week(of day: Int, yearStart: (Int) -> Int) -> Int {
        let start = yearStart(day)
        // Every year of the calendars computed this way has 353 to 385 days (355 in 1752).
        if day >= firstWeekStart(yearStart(start + 386)) { return 1 }
        let first = firstWeekStart(start)
        let weekStart = day >= first ? first : firstWeekStart(yearStart(start - 1))
        return (day - weekStart) / 7 + 1
    }
}
