import InfCalModel
import InfCalEvents

/// A recurrence rule in words, as the day view shows it: "every year on 4 May", "every 2
/// weeks on Monday and Wednesday, 10 times", "every year on 1 Tishri (Hebrew)".
///
/// Reads the parsed `RecurrenceRule` and the event's first start; what the rule leaves to
/// DTSTART (the weekday of a weekly rule, the day and month of a yearly one) is said from
/// the start, in the rule's own calendar for RSCALE.
public enum RuleDescription {
    static let units: [RecurrenceRule.Frequency: String] = [
        .secondly: "second", .minutely: "minute", .hourly: "hour", .daily: "day",
        .weekly: "week", .monthly: "month", .yearly: "year",
    ]
    /// RFC 5545 weekdays, Monday first.
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// `rule` in words, for an event whose first start is `start` (civil seconds in its own reckoning).
    public static func text(_ rule: RecurrenceRule, start: Int) -> String {
        let civil = CivilTime.day(ofSeconds: start)
        let unit = units[rule.frequency] ?? "time"
        var text = "every " + (rule.interval > 1 ? "\(rule.interval) \(unit)s" : unit)
        let scaleName = rule.scale.flatMap { RecurrenceScales.identifiers[$0] }.map(CalendarChoice.name(of:))
        // The start's day and month in the rule's calendar.
        let (startDay, startMonth) = dayAndMonth(civil: civil, scale: rule.scale)

        switch rule.frequency {
        case .weekly:
            let days = rule.byDay.isEmpty ? [weekdays[CivilTime.weekday(ofDay: civil)]] : rule.byDay.map(weekdayText)
            text += " on " + joined(days)
        case .monthly:
            if !rule.byMonthDay.isEmpty {
                text += " on the " + joined(rule.byMonthDay.map(dayText))
            } else if !rule.byDay.isEmpty {
                text += " on " + joined(rule.byDay.map(weekdayText))
            } else if rule.byYearDay.isEmpty {
                text += " on the " + ordinal(startDay)
            }
        case .yearly:
            let months = rule.byMonth.map { monthText($0, scale: rule.scale) }
            if !rule.byYearDay.isEmpty {
                text += " on day " + joined(rule.byYearDay.map(String.init)) + " of the year"
            } else if !rule.byWeekNo.isEmpty {
                text += " in week " + joined(rule.byWeekNo.map(String.init))
                if !rule.byDay.isEmpty { text += " on " + joined(rule.byDay.map(weekdayText)) }
            } else if !rule.byDay.isEmpty {
                text += " on " + joined(rule.byDay.map(weekdayText)) + (months.isEmpty ? "" : " of " + joined(months))
                if !rule.byMonthDay.isEmpty { text += " falling on the " + joined(rule.byMonthDay.map(dayText)) }
            } else {
                let days = rule.byMonthDay.isEmpty ? [String(startDay)] : rule.byMonthDay.map { $0 > 0 ? String($0) : dayText($0) }
                text += " on " + joined(days) + " " + (months.isEmpty ? startMonth : joined(months))
            }
        default:
            if !rule.byDay.isEmpty { text += " on " + joined(rule.byDay.map(weekdayText)) }
            if !rule.byMonthDay.isEmpty { text += " on the " + joined(rule.byMonthDay.map(dayText)) }
        }
        if rule.frequency != .yearly, !rule.byMonth.isEmpty {
            text += " in " + joined(rule.byMonth.map { monthText($0, scale: rule.scale) })
        }
        if !rule.byHour.isEmpty || !rule.byMinute.isEmpty, rule.frequency >= .daily {
            let hours = rule.byHour.isEmpty ? [CivilTime.floorMod(start, CivilTime.secondsPerDay) / 3600] : rule.byHour
            let minutes = rule.byMinute.isEmpty ? [CivilTime.floorMod(start, 3600) / 60] : rule.byMinute
            text += " at " + joined(hours.flatMap { hour in minutes.map { clock(hour, $0) } })
        }
        if !rule.bySetPos.isEmpty {
            text += " (the " + joined(rule.bySetPos.map(dayText)) + " of each " + unit + ")"
        }
        if let scaleName, rule.scale != "GREGORIAN", rule.scale != "ISO8601" {
            text += " (" + scaleName.prefix(1).uppercased() + scaleName.dropFirst() + ")"
        }
        if let count = rule.count { text += count == 1 ? ", once" : ", \(count) times" }
        if let until = rule.until {
            text += ", until " + ISODate.text(civilDay: CivilTime.day(ofSeconds: until.seconds))
        }
        return text
    }

    /// The day of the month and the month's name of the civil day `civil` in the calendar of
    /// RSCALE `scale` (Gregorian for nil).
    static func dayAndMonth(civil: Int, scale: String?) -> (Int, String) {
        let date = CivilTime.date(ofDay: civil)
        guard let scale, let identifier = RecurrenceScales.identifiers[scale] else {
            return (date.day, CalendarNames.posixMonthNames[date.month - 1])
        }
        let calendar = MonthCalendar(identifier)
        let day = CivilTime.dayNumber(ofCivilDay: civil)
        guard let month = calendar.month(containing: day) else { return (date.day, CalendarNames.posixMonthNames[date.month - 1]) }
        return (day - month.firstDay + 1, CalendarNames(locale: nil, calendar: calendar).monthName(of: month))
    }

    static func weekdayText(_ entry: RecurrenceRule.WeekdayNumber) -> String {
        let name = weekdays[max(0, min(6, entry.weekday))]
        guard entry.ordinal != 0 else { return name }
        return "the " + dayText(entry.ordinal) + " " + name
    }

    /// 1 "1st", 2 "2nd", -1 "last", -2 "2nd to last".
    static func dayText(_ value: Int) -> String {
        if value == -1 { return "last" }
        if value < 0 { return ordinal(-value) + " to last" }
        return ordinal(value)
    }

    static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }

    static func monthText(_ month: RecurrenceRule.MonthNumber, scale: String?) -> String {
        if scale == nil || scale == "GREGORIAN" || scale == "ISO8601", (1...12).contains(month.month), !month.isLeap {
            return CalendarNames.posixMonthNames[month.month - 1]
        }
        return "month \(month.month)" + (month.isLeap ? "L" : "")
    }

    static func clock(_ hour: Int, _ minute: Int) -> String {
        String(hour + 100).dropFirst() + ":" + String(minute + 100).dropFirst()
    }

    /// "a", "a and b", "a, b and c".
    static func joined(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
