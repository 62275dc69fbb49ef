import Foundation

// MARK: Calendar years

extension MonthName {
    /// Whether this month and `other` belong to the same year of their calendar (same era and
    /// year number; a Chinese year counts within its cycle).
    public func isInSameYear(as other: MonthName) -> Bool {
        era == other.era && year == other.year
    }
}

extension MonthCalendar {
    /// The first month of the calendar year that holds `month`: walking back while the year
    /// number stays the same.
    public func firstMonth(ofYearHolding month: Month) -> Month {
        var first = month
        while let previous = self.month(before: first), previous.name.isInSameYear(as: first.name) {
            first = previous
        }
        return first
    }

    /// The months of the calendar year that starts at `first` (as `firstMonth(ofYearHolding:)`
    /// gives it), lazily, in order; the year ends where the year number changes.
    public func months(ofYearStartingAt first: Month) -> some Sequence<Month> {
        MonthIndex(calendar: self, start: first).forward.prefix { $0.name.isInSameYear(as: first.name) }
    }

    /// The first month of the year the user calls `year` in this calendar, near `reference`
    /// (whose era it takes): for the Chinese and Dangi calendars, whose years count in 60-year
    /// cycles, the year that begins in Gregorian year `year`; for the Amete Alem calendar the
    /// year of the creation era.
    /// - returns: nil when the calendar has no such year, or it lies beyond what it computes.
    public func firstMonth(ofYear year: Int, near reference: Month) -> Month? {
        guard year >= 1, year <= Self.largestYear else { return nil }
        let day: Int?
        if identifier == .chinese || identifier == .dangi {
            day = try? MonthCalendar(.gregorian, reform: reform).checkedDayNumber(year: year, month: 7, day: 1)
        } else {
            var (era, inEra) = (reference.name.era, year)
            if identifier != calendar.identifier {
                // Amete Alem years, stepped by the Ethiopic calendar: its era 1 starts in 5501.
                (era, inEra) = year > 5_500 ? (1, year - 5_500) : (0, year)
            }
            let parts = DateComponents(era: era, year: inEra, month: 1, day: 1, hour: 12)
            // Gregorian years by arithmetic, with the reform (YYYY is from 1: era 1).
            day = identifier == .gregorian || identifier == .iso8601 ? dayNumber(year: year, month: 1, day: 1)
                : calendar.date(from: parts).map(DayNumber.day(of:))
        }
        guard let day, var month = month(containing: day) else { return nil }
        if identifier != .chinese, identifier != .dangi, identifier == calendar.identifier {
            // 1 January of an era's year may fall in the era before (Reiwa 1 began on
            // 1 May 2019): the year's first month is the first named so.
            var steps = 0
            while (month.name.era, month.name.year) != (reference.name.era, year) {
                guard steps < 14, let next = self.month(after: month) else { return nil }
                month = next
                steps += 1
            }
        }
        return firstMonth(ofYearHolding: month)
    }

    /// The largest year number `firstMonth(ofYear:near:)` looks for.
    public static let largestYear = 1_000_000

    /// The last year from 1 on that `firstMonth(ofYear:near:)` finds near `reference`, found by
    /// halving the years up to `largestYear` (a calendar's years end where it stops computing
    /// them), so that a message can name the range; nil when it finds not even year 1.
    public func lastYear(near reference: Month) -> Int? {
        guard firstMonth(ofYear: 1, near: reference) != nil else { return nil }
        var (found, missing) = (1, Self.largestYear + 1)
        while missing - found > 1 {
            let middle = found + (missing - found) / 2
            if firstMonth(ofYear: middle, near: reference) != nil { found = middle } else { missing = middle }
        }
        return found
    }

    /// The months of the calendar year that holds `month`, first to last: 12 in the Gregorian
    /// calendar, 12 or 13 in the Hebrew, Chinese, Coptic and Ethiopic ones; fewer where the
    /// calendar's limits cut the year.
    public func monthsOfYear(holding month: Month) -> [Month] {
        Array(months(ofYearStartingAt: firstMonth(ofYearHolding: month)))
    }
}

// MARK: Far steps

extension MonthCalendar {
    /// The month `count` months before `month`, or the calendar's first month where that lies
    /// beyond the calendar's lower limit.
    ///
    /// Up to `walkLimit` months are walked one by one. Farther back, Foundation subtracts many
    /// months at once (a Chinese month is slow to step, and the calendar has some
    /// 80,000 months before today); where it lands outside what the calendar computes soundly
    /// (it clamps at its limit), it is asked for half as many, and the walk does the rest.
    public func month(_ count: Int, before month: Month) -> Month {
        var first = month
        var remaining = max(0, count)
        while remaining > Self.walkLimit {
            var distance = min(remaining, 10_000_000) - 1
            var landed: Month?
            while distance > Self.walkLimit, landed == nil {
                if let date = calendar.date(byAdding: .month, value: -distance, to: first.start),
                   let found = self.month(containing: DayNumber.day(of: date)), found.firstDay < first.firstDay {
                    landed = found
                } else {
                    distance /= 2
                }
            }
            guard let landed else { break }
            first = landed
            remaining -= distance
        }
        while remaining > 0, let previous = self.month(before: first) {
            first = previous
            remaining -= 1
        }
        return first
    }

    /// The most months `month(_:before:)` walks one by one.
    static let walkLimit = 1_000
}
