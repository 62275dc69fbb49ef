import InfCalModel

// Candidates: the days of one period (DAILY and coarser) that the day parts choose.

extension RecurrenceExpander {
    /// The candidate days of period `index` (DAILY and coarser), in order. A year or a month is
    /// made of months, which BYMONTH chooses among, and whose days the day parts choose
    /// (`days(ofMonths:period:)`); a week or a day is made of days, which every day part limits
    /// (BYDAY expanding a week keeps the days it would keep as a limit). RFC 5545's table
    /// (`action(_:at:)`) says where each part expands.
    func days(ofBatch index: Int) -> [Int] {
        let step = index * rule.interval
        switch rule.frequency {
        case .yearly where countsWeekYears:
            return daysOfWeekYear(startWeekYear + step)
        case .yearly:
            return daysOfYear(startYear + step)
        case .monthly:
            guard let origin = startMonth, let month = scale.month(origin, offsetBy: step) else { return [] }
            return days(ofMonths: [month], period: (month.firstDay, month.endDay - 1))
        case .weekly:
            let first = startWeek + step * 7
            return (first..<first + 7).filter { passes($0) }
        default:
            let day = startDay + step
            return passes(day) ? [day] : []
        }
    }

    /// The days of the weeks BYWEEKNO numbers in week-numbering year `year`, each week whole
    /// (across the calendar year's edge), that pass the other day parts. Week 53 only where the
    /// year has one; negative numbers count from the year's last week.
    func daysOfWeekYear(_ year: Int) -> [Int] {
        let begin = Self.firstWeekStart(year, weekStart: rule.weekStart)
        let weeks = (Self.firstWeekStart(year + 1, weekStart: rule.weekStart) - begin) / 7
        var chosen = Set<Int>()
        for number in weekNumbers {
            let week = number > 0 ? number : weeks + number + 1
            if week >= 1, week <= weeks { chosen.insert(week) }
        }
        var result: [Int] = []
        for week in chosen.sorted() {
            let first = begin + (week - 1) * 7
            for day in first..<first + 7 where passes(day, weekChecked: true) { result.append(day) }
        }
        return result
    }

    /// The candidate days of the scale's year `year`.
    func daysOfYear(_ year: Int) -> [Int] {
        if !months.isEmpty, let gregorian = scale as? GregorianScale {
            // The wanted months alone, not the whole year's (a yearly rule's hot path): the
            // months the general path below finds among the twelve.
            let find = { (number: Int, isLeap: Bool) in
                !isLeap && (1...12).contains(number) ? gregorian.month(year: year, number: number) : nil
            }
            if months.count == 1, yearDays.isEmpty, weekNumbers.isEmpty {
                // One month, days chosen within it: its days are the year's, in order.
                guard let month = chosenMonth(months[0], find) else { return [] }
                return days(of: month, ordinalDays: ordinalDays(in: (month.firstDay, month.endDay - 1)))
            }
            let yearSpan = (gregorian.month(year: year, number: 1).firstDay, gregorian.month(year: year, number: 12).endDay - 1)
            var chosen: [ScaleMonth] = []
            chosen.reserveCapacity(months.count)
            for wanted in months {
                if let month = chosenMonth(wanted, find) { chosen.append(month) }
            }
            if chosen.count > 1 { chosen.sort { $0.firstDay < $1.firstDay } }
            return days(ofPeriod: yearSpan, chosen: chosen)
        }
        guard let facts = yearFacts(ofYear: year) else { return [] }
        return days(ofMonths: facts.months, period: facts.span)
    }

    /// The candidate days of a period of whole months (`all`, spanning `period`): the months
    /// BYMONTH names (where it expands, with RFC 7529 SKIP for a leap month the year lacks;
    /// where it limits, as listed), then their days (`days(ofPeriod:chosen:)`).
    func days(ofMonths all: [ScaleMonth], period: (Int, Int)) -> [Int] {
        guard !months.isEmpty else { return days(ofPeriod: period, chosen: all) }
        let find = { (number: Int, isLeap: Bool) in all.first { $0.number == number && $0.isLeap == isLeap } }
        let skips = action(.byMonth, at: rule.frequency) == .expand
        var chosen = months.compactMap { skips ? chosenMonth($0, find) : find($0.month, $0.isLeap) }
        if chosen.count > 1 { chosen.sort { $0.firstDay < $1.firstDay } }
        return days(ofPeriod: period, chosen: chosen)
    }

    /// The month of a year that BYMONTH's `wanted` names, where `find` gives the year's month
    /// of a number and leap flag; RFC 7529 SKIP for a leap month the year lacks: the month of
    /// that number (BACKWARD) or the one after it (FORWARD), or none (OMIT).
    func chosenMonth(_ wanted: RecurrenceRule.MonthNumber, _ find: (Int, Bool) -> ScaleMonth?) -> ScaleMonth? {
        if let month = find(wanted.month, wanted.isLeap) { return month }
        guard wanted.isLeap, rule.skip != .omit else { return nil }
        return find(rule.skip == .backward ? wanted.month : wanted.month + 1, false)
    }

    /// RFC 7529 SKIP for a day a month or a year lacks, `offset` days from its first day and
    /// outside its `length` days (BYMONTHDAY=31 in April, BYYEARDAY=366 in a common year): a
    /// day past the end is its last (BACKWARD) or the next one's first (FORWARD); one before the
    /// start the previous one's last (BACKWARD) or its own first (FORWARD). Nil where the day
    /// is left out: SKIP=OMIT, and without RSCALE.
    func skipped(_ offset: Int, length: Int) -> Int? {
        guard rule.scale != nil, rule.skip != .omit else { return nil }
        let backward = rule.skip == .backward
        return offset < 0 ? (backward ? -1 : 0) : (backward ? length - 1 : length)
    }

    /// The days of the months `chosen` (in order) of a period of whole months spanning `period`
    /// (a year or a month) that the day parts choose: BYMONTHDAY and BYDAY in each month (BYDAY's
    /// ordinals counted in the period unless BYMONTH cuts it into months), BYYEARDAY and BYWEEKNO
    /// as limits; and where BYYEARDAY expands (the period is a year), the days SKIP moves into it.
    func days(ofPeriod period: (Int, Int), chosen: [ScaleMonth]) -> [Int] {
        let periodIsYear = action(.byYearDay, at: rule.frequency) == .expand
        let yearSpan = periodIsYear ? period : nil
        let yearWide = !yearDays.isEmpty || !weekNumbers.isEmpty
        let span = months.isEmpty ? period : nil
        // BYDAY's ordinals counted in the period (a year that BYMONTH does not cut into months):
        // found once for it; else in each month.
        let periodOrdinals = span.map(ordinalDays(in:))
        func monthOrdinals(_ month: ScaleMonth) -> [Int] {
            periodOrdinals ?? ordinalDays(in: (month.firstDay, month.endDay - 1))
        }
        var result: [Int] = []
        if let yearSpan, !yearDays.isEmpty {
            // BYYEARDAY expands the year: its days, each kept where it lies in a chosen month and
            // passes the other parts (not every day of the year tried against it).
            let length = yearSpan.1 - yearSpan.0 + 1
            var ordinalsOfMonth: (month: ScaleMonth, days: [Int])?
            for value in yearDays {
                let offset = value > 0 ? value - 1 : length + value
                guard offset >= 0, offset < length else { continue }
                let day = yearSpan.0 + offset
                guard let month = chosen.first(where: { day < $0.endDay && day >= $0.firstDay }) else { continue }
                if ordinalsOfMonth?.month != month {
                    ordinalsOfMonth = (month, monthOrdinals(month))
                }
                if passes(day, month: month, year: yearSpan, ordinalDays: ordinalsOfMonth?.days ?? [], yearDayChecked: true) {
                    result.append(day)
                }
            }
            result.sort()
        }
        var previous: ScaleMonth?
        for month in chosen where month != previous && (yearSpan == nil || yearDays.isEmpty) {
            previous = month
            if yearWide {
                let ordinalDays = monthOrdinals(month)
                for day in month.firstDay..<month.endDay where passes(day, month: month, year: yearSpan, ordinalDays: ordinalDays) {
                    result.append(day)
                }
            } else {
                result += days(of: month, ordinalDays: monthOrdinals(month))
            }
        }
        if !yearDays.isEmpty, let yearSpan {
            // Days the year lacks, moved by SKIP.
            let length = yearSpan.1 - yearSpan.0 + 1
            var moved = false
            for value in yearDays where abs(value) > length {
                guard let offset = skipped(value > 0 ? value - 1 : length + value, length: length) else { continue }
                let day = yearSpan.0 + offset
                if passes(day, weekChecked: true, yearDayChecked: true) {
                    result.append(day)
                    moved = true
                }
            }
            if moved { result.sort() }
        }
        if result.count > 1, !zip(result, result.dropFirst()).allSatisfy({ $0 < $1 }) {
            result = Array(Set(result)).sorted()
        }
        return result
    }

    /// The days of `month` that BYMONTHDAY and BYDAY choose, `ordinalDays` the days BYDAY's
    /// ordinals name (`ordinalDays(in:)`, counted in the month or its year).
    func days(of month: ScaleMonth, ordinalDays: [Int]) -> [Int] {
        let hasByDay = hasPlainWeekdays || !ordinals.isEmpty
        func weekdayOK(_ day: Int) -> Bool {
            !hasByDay || isPlainWeekday(CivilTime.weekday(ofDay: day)) || ordinalDays.contains(day)
        }
        var result: [Int] = []
        if !monthDays.isEmpty {
            for value in monthDays {
                var offset = value > 0 ? value - 1 : month.length + value
                if offset < 0 || offset >= month.length {
                    // A day the month lacks (BYMONTHDAY=-31 in February), moved by SKIP.
                    guard let moved = skipped(offset, length: month.length) else { continue }
                    offset = moved
                }
                let day = month.firstDay + offset
                if weekdayOK(day), !result.contains(day) { result.append(day) }
            }
            result.sort()
            return result
        }
        if !hasByDay { return Array(month.firstDay..<month.endDay) }
        if ordinals.isEmpty {
            // Each chosen weekday's first day in the month, then every seventh.
            for day in month.firstDay..<min(month.firstDay + 7, month.endDay) where isPlainWeekday(CivilTime.weekday(ofDay: day)) {
                result.append(contentsOf: Swift.stride(from: day, to: month.endDay, by: 7))
            }
            result.sort()
            return result
        }
        return (month.firstDay..<month.endDay).filter(weekdayOK)
    }

    /// The days BYDAY's ordinals name in the span `first...last` (`2MO`, `-1FR`).
    func ordinalDays(in span: (Int, Int)) -> [Int] {
        var result: [Int] = []
        for entry in ordinals {
            let day: Int
            if entry.ordinal > 0 {
                day = span.0 + CivilTime.floorMod(entry.weekday - CivilTime.weekday(ofDay: span.0), 7) + 7 * (entry.ordinal - 1)
            } else {
                day = span.1 - CivilTime.floorMod(CivilTime.weekday(ofDay: span.1) - entry.weekday, 7) - 7 * (-entry.ordinal - 1)
            }
            if day >= span.0, day <= span.1 { result.append(day) }
        }
        return result
    }

    /// Whether `day` passes every day part, as limits.
    func passes(_ day: Int, month given: ScaleMonth? = nil, year: (Int, Int)? = nil, ordinalDays: [Int] = [],
                        weekChecked: Bool = false, yearDayChecked: Bool = false) -> Bool {
        if hasPlainWeekdays || !ordinals.isEmpty {
            if !isPlainWeekday(CivilTime.weekday(ofDay: day)), !ordinalDays.contains(day) { return false }
        }
        if needsMonth {
            guard let month = given ?? self.month(holding: day) else { return false }
            if !months.isEmpty, !months.contains(where: { $0.month == month.number && $0.isLeap == month.isLeap }) { return false }
            if !monthDays.isEmpty {
                let offset = day - month.firstDay
                if !monthDays.contains(where: { $0 > 0 ? $0 - 1 == offset : month.length + $0 == offset }) { return false }
            }
            if !yearDays.isEmpty, !yearDayChecked {
                let span = year ?? yearSpan(of: month)
                let length = span.1 - span.0 + 1
                let offset = day - span.0
                if !yearDays.contains(where: { $0 > 0 ? $0 - 1 == offset : length + $0 == offset }) { return false }
            }
        }
        if !weekNumbers.isEmpty, !weekChecked {
            let (number, weeks) = week(of: day)
            if !weekNumbers.contains(number), !weekNumbers.contains(number - weeks - 1) { return false }
        }
        return true
    }

    func yearSpan(of month: ScaleMonth) -> (Int, Int) {
        yearFacts(ofYear: month.year)?.span ?? (month.firstDay, month.endDay - 1)
    }

    /// The months of `year` and its first and last day, computed once for the year (the year
    /// last asked for is kept: the days of one period lie in one year or two).
    func yearFacts(ofYear year: Int) -> YearFacts? {
        if let known = lastYear, known.year == year { return known }
        let all = scale.months(ofYear: year)
        guard let first = all.first, let last = all.last else { return nil }
        let facts = YearFacts(year: year, months: all, span: (first.firstDay, last.endDay - 1))
        lastYear = facts
        return facts
    }

    /// The month of the scale that holds `day`, from the facts of its year (computed when the
    /// day lies outside the last year's).
    func month(holding day: Int) -> ScaleMonth? {
        if let known = lastYear, day >= known.span.0, day <= known.span.1,
           let month = known.months.first(where: { day < $0.endDay }) {
            return month
        }
        guard let month = scale.month(containing: day) else { return nil }
        _ = yearFacts(ofYear: month.year)
        return month
    }

    /// The week number of `day` and the number of weeks of its week-numbering year (week 1 holds
    /// at least four days of its year; weeks start on WKST).
    func week(of day: Int) -> (Int, Int) {
        if let year = lastWeekYear, day >= year.begin, day < year.begin + 7 * year.weeks {
            return ((day - year.begin) / 7 + 1, year.weeks)
        }
        let year = Self.weekYear(of: day, weekStart: rule.weekStart)
        lastWeekYear = year
        return ((day - year.begin) / 7 + 1, year.weeks)
    }

    /// The first day of week 1 of `year` (the week, starting on `weekStart`, holding 4 January).
    static func firstWeekStart(_ year: Int, weekStart: Int) -> Int {
        let fourth = CivilTime.day(year: year, month: 1, day: 4)
        return fourth - CivilTime.floorMod(CivilTime.weekday(ofDay: fourth) - weekStart, 7)
    }

    /// The week-numbering year holding `day`: its number, its first day and its number of weeks.
    static func weekYear(of day: Int, weekStart: Int) -> (year: Int, begin: Int, weeks: Int) {
        var year = CivilTime.date(ofDay: day).year
        var begin = firstWeekStart(year, weekStart: weekStart)
        if day < begin {
            year -= 1
            begin = firstWeekStart(year, weekStart: weekStart)
        } else if day >= firstWeekStart(year + 1, weekStart: weekStart) {
            year += 1
            begin = firstWeekStart(year, weekStart: weekStart)
        }
        return (year, begin, (firstWeekStart(year + 1, weekStart: weekStart) - begin) / 7)
    }
}
