extension MonthCalendar {
    /// The months of the calendar year that holds `month` (the months sharing its era and
    /// year number), first to last: 12 in the Gregorian calendar, 12 or 13 in the Hebrew,
    /// Chinese, Coptic and Ethiopic ones; fewer where the calendar's limits cut the year.
    public func monthsOfYear(holding month: Month) -> [Month] {
        let year = (month.name.era, month.name.year)
        var first = month
        while let previous = self.month(before: first), (previous.name.era, previous.name.year) == year {
            first = previous
        }
        var months = [first]
        while let last = months.last, let next = self.month(after: last), (next.name.era, next.name.year) == year {
            months.append(next)
        }
        return months
    }
}
