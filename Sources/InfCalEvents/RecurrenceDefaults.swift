import InfCalModel

/// A rule's BY parts as the expander reads them: DTSTART's values filled in where the rule
/// leaves them out, BYDAY split into plain weekdays and ordinal ones, the times of day made.
struct RuleParts {
    var months: [RecurrenceRule.MonthNumber]
    var monthDays: [Int]
    let yearDays: [Int]
    let weekNumbers: [Int]
    /// Plain weekdays (and, below MONTHLY, ordinal ones read as plain): bit 0 Monday.
    var plainWeekdays: UInt8 = 0
    var ordinals: [RecurrenceRule.WeekdayNumber] = []
    var hours: [Int] = []
    var minutes: [Int] = []
    var seconds: [Int] = []
    /// Seconds of the day of each instance within a day, sorted (DAILY and coarser; the hours,
    /// minutes and seconds apart may then be left empty).
    var timeOfDay: [Int] = []

    /// The parts of `rule` from a DTSTART on civil day `startDay`, `secondOfDay` seconds into
    /// it (`isDate` for a DATE), in the month `startMonth` of the rule's scale.
    init(rule: borrowing RecurrenceRule, startDay: Int, secondOfDay: Int, isDate: Bool, startMonth: ScaleMonth?) {
        let frequency = rule.frequency
        let expands = { (part: RulePart) in action(part, at: frequency) == .expand }
        months = rule.byMonth
        monthDays = rule.byMonthDay
        yearDays = rule.byYearDay
        weekNumbers = rule.byWeekNo
        var byDay = rule.byDay
        let startMonthNumber = startMonth.map { RecurrenceRule.MonthNumber(month: $0.number, isLeap: $0.isLeap) }
        // A YEARLY rule's missing parts come from DTSTART too (RFC 5545 §3.3.10; libical,
        // CalendarServer and ical4j): where BYMONTH expands, BYMONTHDAY alone falls in DTSTART's
        // month (a birthday exported as FREQ=YEARLY;BYMONTHDAY=4); where BYWEEKNO expands, it
        // falls alone on DTSTART's weekday.
        if expands(.byMonth), months.isEmpty, !monthDays.isEmpty, weekNumbers.isEmpty, yearDays.isEmpty,
           let startMonthNumber {
            months = [startMonthNumber]
        }
        if expands(.byWeekNo), !weekNumbers.isEmpty, byDay.isEmpty, monthDays.isEmpty, yearDays.isEmpty {
            byDay = [RecurrenceRule.WeekdayNumber(weekday: CivilTime.weekday(ofDay: startDay), ordinal: 0)]
        }
        if weekNumbers.isEmpty, yearDays.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
            // With no day part at all, the expanding ones that fix a day take DTSTART's: its
            // month and day of the month where they expand (YEARLY; MONTHLY the day alone), else
            // its weekday (WEEKLY). Where every day part limits, nothing is limited.
            if expands(.byMonth), months.isEmpty, let startMonthNumber { months = [startMonthNumber] }
            if expands(.byMonthDay) {
                monthDays = [startMonth.map { startDay - $0.firstDay + 1 } ?? 1]
            } else if expands(.byDay) {
                byDay = [RecurrenceRule.WeekdayNumber(weekday: CivilTime.weekday(ofDay: startDay), ordinal: 0)]
            }
        }
        // An ordinal weekday counts within a month or a year, the periods whose days of the
        // month expand; within a numbered week, or a week or a day, it is the plain one (RFC
        // 5545 forbids the mix; libical reads it so).
        let ordinalsCount = expands(.byMonthDay) && weekNumbers.isEmpty
        for entry in byDay {
            if entry.ordinal != 0, ordinalsCount { ordinals.append(entry) } else { plainWeekdays |= 1 << UInt8(entry.weekday) }
        }

        // Times: an expanding part absent takes DTSTART's value; a limiting one absent limits nothing.
        let values = { (given: [Int], part: RulePart, own: Int) -> [Int] in
            if !given.isEmpty { return Array(Set(given)).sorted() }
            return expands(part) ? [own] : []
        }
        if frequency >= .daily, isDate || (rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty) {
            // The times of day of DTSTART alone, as below, made at once: only the sub-daily
            // frequencies read the hours, minutes and seconds apart.
            timeOfDay = [isDate ? 0 : secondOfDay]
            return
        }
        hours = isDate ? [0] : values(rule.byHour, .byHour, secondOfDay / 3600)
        minutes = isDate ? [0] : values(rule.byMinute, .byMinute, secondOfDay / 60 % 60)
        seconds = isDate ? [0] : values(rule.bySecond.map { min($0, 59) }, .bySecond, secondOfDay % 60)
        if frequency >= .daily {
            for h in hours { for m in minutes { for s in seconds { timeOfDay.append(h * 3600 + m * 60 + s) } } }
        }
    }

    /// Whether any day part names a month, a day of the month or a day of the year.
    var needsMonth: Bool { !months.isEmpty || !monthDays.isEmpty || !yearDays.isEmpty }
}
