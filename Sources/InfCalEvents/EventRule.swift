import InfCalModel

/// A recurrence rule as a write gives it: the parsed RRULE (`RecurrenceRule`) and where it
/// ends, serialized in one place, `value(start:utcOfLocal:)`, in the form the event's DTSTART
/// asks for. The end is kept as a civil day where the user gave a day (`--until`), not as text:
/// RFC 5545 §3.3.10 wants UNTIL a DATE for an all-day DTSTART, a UTC DATE-TIME for a zoned or
/// UTC one (the end of that local day), a local DATE-TIME for a floating one.
public struct EventRule: Equatable, Sendable {
    /// Where the rule ends.
    public enum End: Equatable, Sendable {
        /// On this day, its last occurrence on it or before (`--until`, or an UNTIL written as a DATE).
        case day(CivilDay)
        /// At this instant or wall-clock time: an UNTIL written as a DATE-TIME.
        case time(ICalTime)
    }

    /// The rule, its UNTIL left out (`end` holds it); COUNT in it.
    public var rule: RecurrenceRule
    /// Where it ends; nil: when COUNT says, or never.
    public var end: End?
    /// The rule's `X-` parts as written, kept (RFC 5545 `x-name`): infcal reads none of them.
    public var extensions: [String] = []

    public init(rule: RecurrenceRule, end: End? = nil) {
        var rule = rule
        rule.until = nil
        self.rule = rule
        self.end = end
    }

    /// Parses an RRULE value (`FREQ=WEEKLY;BYDAY=MO`); its UNTIL becomes `end`.
    /// - returns: nil for an empty value.
    /// - throws: `ICalError` naming the part that is wrong.
    public static func parse(_ text: String) throws(ICalError) -> EventRule? {
        guard let parsed = try RecurrenceRule.parse(text) else { return nil }
        var rule = EventRule(rule: parsed)
        if let until = parsed.until {
            rule.end = until.isDate ? .day(CivilDay(CivilTime.day(ofSeconds: until.seconds))) : .time(until)
        }
        rule.extensions = text.split(separator: ";").map { String($0).trimmingSpaces }.filter { $0.uppercased().hasPrefix("X-") }
        return rule
    }

    /// The RRULE value for an event whose DTSTART is `start`: RSCALE first (as RFC 7529 writes
    /// it), FREQ, the other parts, COUNT or UNTIL last. `utcOfLocal` turns wall-clock seconds
    /// of the DTSTART's reckoning into UTC (for a zoned start its zone's, for a UTC start the
    /// user's), which a day's end needs.
    public func value(start: ICalTime, utcOfLocal: (Int) -> Int) -> String {
        var parts: [String] = []
        if let scale = rule.scale { parts.append("RSCALE=" + scale) }
        parts.append("FREQ=" + Self.frequencyNames[rule.frequency.rawValue])
        if rule.interval != 1 { parts.append("INTERVAL=\(rule.interval)") }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append(name + "=" + values.map(String.init).joined(separator: ",")) }
        }
        list("BYSECOND", rule.bySecond)
        list("BYMINUTE", rule.byMinute)
        list("BYHOUR", rule.byHour)
        if !rule.byDay.isEmpty {
            parts.append("BYDAY=" + rule.byDay.map { ($0.ordinal == 0 ? "" : String($0.ordinal)) + RecurrenceRule.weekdayNames[$0.weekday] }
                .joined(separator: ","))
        }
        list("BYMONTHDAY", rule.byMonthDay)
        list("BYYEARDAY", rule.byYearDay)
        list("BYWEEKNO", rule.byWeekNo)
        if !rule.byMonth.isEmpty {
            parts.append("BYMONTH=" + rule.byMonth.map { String($0.month) + ($0.isLeap ? "L" : "") }.joined(separator: ","))
        }
        list("BYSETPOS", rule.bySetPos)
        if rule.weekStart != 0 { parts.append("WKST=" + RecurrenceRule.weekdayNames[rule.weekStart]) }
        if rule.skip != .omit { parts.append("SKIP=" + rule.skip.rawValue) }
        parts += extensions
        if let count = rule.count { parts.append("COUNT=\(count)") }
        if let until = until(start: start, utcOfLocal: utcOfLocal) { parts.append("UNTIL=" + until) }
        return parts.joined(separator: ";")
    }

    /// FREQ's names, finest first, as `RecurrenceRule.Frequency` counts.
    static let frequencyNames = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]

    /// UNTIL's value in the form `start` asks for, or nil without an end.
    func until(start: ICalTime, utcOfLocal: (Int) -> Int) -> String? {
        guard let end else { return nil }
        switch (end, start.form) {
        case (.day(let day), .date):
            return ICalText.date(ofDay: day.number)
        case (.day(let day), .floating):
            return ICalText.dateTime((day + 1).seconds - 1, utc: false)
        case (.day(let day), .utc), (.day(let day), .zoned):
            // The last second of that day on the start's wall clock, in UTC.
            return ICalText.dateTime(utcOfLocal((day + 1).seconds - 1), utc: true)
        case (.time(let time), .date):
            // A date-time against a date: its day.
            return ICalText.date(ofDay: CivilTime.day(ofSeconds: time.seconds))
        case (.time(let time), .utc), (.time(let time), .zoned):
            return ICalText.dateTime(time.form == .utc ? time.seconds : utcOfLocal(time.seconds), utc: true)
        case (.time(let time), .floating):
            return ICalText.value(of: time)
        }
    }
}
