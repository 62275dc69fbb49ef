import InfCalModel

/// What a BYxxx part does at each FREQ (RFC 5545 §3.3.10, the table after BYSETPOS; libical's
/// `expand_map`): it expands the period into several instances, limits the instances, or is not
/// allowed (read leniently as a limit, as python-dateutil does).
enum PartAction { case expand, limit, notAllowed }

enum RulePart: Int, CaseIterable { case byMonth, byWeekNo, byYearDay, byMonthDay, byDay, byHour, byMinute, bySecond }

/// One row a part, in `RulePart`'s order; one column a FREQ: SECONDLY, MINUTELY, HOURLY, DAILY,
/// WEEKLY, MONTHLY, YEARLY (`RecurrenceRule.Frequency`'s order). E expands, L limits, N is not
/// allowed. Static strings, not an array of arrays of an enum: the table is read for every
/// period, and such an array's generic type would be looked up by name on every run.
private func expandRow(_ part: RulePart) -> StaticString {
    switch part {
    case .byMonth: return "LLLLLLE"
    case .byWeekNo: return "NNNNNNE"
    case .byYearDay: return "LLLNNNE"
    case .byMonthDay: return "LLLLNEE"
    case .byDay: return "LLLLEEE"
    case .byHour: return "LLLEEEE"
    case .byMinute: return "LLEEEEE"
    case .bySecond: return "LEEEEEE"
    }
}

/// What `part` does at `frequency`.
func action(_ part: RulePart, at frequency: RecurrenceRule.Frequency) -> PartAction {
    switch expandRow(part).utf8Start[frequency.rawValue] {
    case UInt8(ascii: "E"): return .expand
    case UInt8(ascii: "L"): return .limit
    default: return .notAllowed
    }
}
