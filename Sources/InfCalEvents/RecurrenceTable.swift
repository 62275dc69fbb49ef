import InfCalModel

/// What a BYxxx part does at each FREQ (RFC 5545 §3.3.10, the table after BYSETPOS; libical's
/// `expand_map`): it expands the period into several instances, limits the instances, or is not
/// allowed (read leniently as a limit, as python-dateutil does).
enum PartAction { case expand, limit, notAllowed }

enum RulePart: Int, CaseIterable { case byMonth, byWeekNo, byYearDay, byMonthDay, byDay, byHour, byMinute, bySecond }

/// Rows: parts, in `RulePart`'s order; columns: SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY,
/// MONTHLY, YEARLY (`RecurrenceRule.Frequency`'s order). An array, not a dictionary: it is read
/// for every period.
let expandMap: [[PartAction]] = [
    /* BYMONTH */ [.limit, .limit, .limit, .limit, .limit, .limit, .expand],
    /* BYWEEKNO */ [.notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .expand],
    /* BYYEARDAY */ [.limit, .limit, .limit, .notAllowed, .notAllowed, .notAllowed, .expand],
    /* BYMONTHDAY */ [.limit, .limit, .limit, .limit, .notAllowed, .expand, .expand],
    /* BYDAY */ [.limit, .limit, .limit, .limit, .expand, .expand, .expand],
    /* BYHOUR */ [.limit, .limit, .limit, .expand, .expand, .expand, .expand],
    /* BYMINUTE */ [.limit, .limit, .expand, .expand, .expand, .expand, .expand],
    /* BYSECOND */ [.limit, .expand, .expand, .expand, .expand, .expand, .expand],
]

/// What `part` does at `frequency`.
func action(_ part: RulePart, at frequency: RecurrenceRule.Frequency) -> PartAction {
    expandMap[part.rawValue][frequency.rawValue]
}
