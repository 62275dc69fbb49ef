import InfCalModel

/// What a BYxxx part does at each FREQ (RFC 5545 §3.3.10, the table after BYSETPOS; libical's
/// `expand_map`): it expands the period into several instances, limits the instances, or is not
/// allowed (read leniently as a limit, as python-dateutil does).
enum PartAction { case expand, limit, notAllowed }

enum RulePart: Int, CaseIterable { case byMonth, byWeekNo, byYearDay, byMonthDay, byDay, byHour, byMinute, bySecond }

/// Rows: parts; columns: SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY.
let expandMap: [RulePart: [PartAction]] = [
    .byMonth: [.limit, .limit, .limit, .limit, .limit, .limit, .expand],
    .byWeekNo: [.notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .notAllowed, .expand],
    .byYearDay: [.limit, .limit, .limit, .notAllowed, .notAllowed, .notAllowed, .expand],
    .byMonthDay: [.limit, .limit, .limit, .limit, .notAllowed, .expand, .expand],
    .byDay: [.limit, .limit, .limit, .limit, .expand, .expand, .expand],
    .byHour: [.limit, .limit, .limit, .expand, .expand, .expand, .expand],
    .byMinute: [.limit, .limit, .expand, .expand, .expand, .expand, .expand],
    .bySecond: [.limit, .expand, .expand, .expand, .expand, .expand, .expand],
]

func action(_ part: RulePart, at frequency: RecurrenceRule.Frequency) -> PartAction {
    expandMap[part]?[frequency.rawValue] ?? .limit
}
