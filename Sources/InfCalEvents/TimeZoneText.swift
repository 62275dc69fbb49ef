import Foundation
import InfCalModel

/// The VTIMEZONE infcal writes for a zone, made from Foundation's transitions of it: one
/// observance per kind of change (offset from, offset to, daylight or not, name), onsets as
/// RDATEs, and for a span without end the zone's current yearly rule as an RRULE, so that every
/// time the event can take is covered (RFC 5545 §3.6.5 wants one for every TZID used).
public enum TimeZoneText {
    /// One change of offset: when (UTC civil seconds), from and to what.
    struct Change {
        let at: Int
        let from: Int
        let to: Int
        let isDaylight: Bool
        let name: String

        /// The onset as the observance's DTSTART reckons it: local time before the change.
        var onset: Int { at + from }
    }

    /// The most changes read, far more than any zone has in a century.
    static let changeLimit = 2000

    /// The lines of a VTIMEZONE for `zone` covering UTC civil seconds `start` through `end`
    /// (nil: without end).
    public static func lines(for zone: TimeZone, from start: Int, through end: Int?) -> [String] {
        let first = start - 400 * CivilTime.secondsPerDay
        // Without end: far enough for the rule of today to show itself for decades.
        let last = end.map { $0 + CivilTime.secondsPerDay } ?? max(start, first) + 80 * 31_556_952
        var changes: [Change] = []
        var date = Date(timeIntervalSince1970: TimeInterval(first))
        while changes.count < changeLimit, let next = zone.nextDaylightSavingTimeTransition(after: date),
              next.timeIntervalSince1970 <= TimeInterval(last) {
            let at = Int(next.timeIntervalSince1970.rounded(.down))
            let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(at - 1)))
            let after = zone.secondsFromGMT(for: next)
            if before != after || zone.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(at - 1))) != zone.isDaylightSavingTime(for: next) {
                changes.append(Change(at: at, from: before, to: after, isDaylight: zone.isDaylightSavingTime(for: next),
                                      name: zone.abbreviation(for: next) ?? ""))
            }
            date = next
        }
        var out = ["BEGIN:VTIMEZONE", "TZID:" + zone.identifier]
        let startDate = Date(timeIntervalSince1970: TimeInterval(first))
        if changes.first.map({ $0.at > start }) ?? true {
            // What holds before the first change (or always, for a zone that does not change).
            let offset = zone.secondsFromGMT(for: startDate)
            out += observance(daylight: zone.isDaylightSavingTime(for: startDate), from: offset, to: offset,
                              name: zone.abbreviation(for: startDate) ?? "", start: first + offset, rdates: [], rule: nil)
        }
        var groups: [String: [Change]] = [:]
        var order: [String] = []
        for change in changes {
            let key = "\(change.from) \(change.to) \(change.isDaylight) \(change.name)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(change)
        }
        for key in order {
            guard let group = groups[key], let head = group.first else { continue }
            var listed = group
            var ruled: [Change] = []
            var rule: String?
            if end == nil, let (count, text) = yearlyRule(group), count >= 3,
               let tail = group.last, tail.at > last - 2 * 31_556_952 {
                ruled = Array(group.suffix(count))
                listed = Array(group.dropLast(count))
                rule = text
            }
            if let firstListed = listed.first {
                out += observance(daylight: head.isDaylight, from: head.from, to: head.to, name: head.name,
                                  start: firstListed.onset, rdates: listed.dropFirst().map(\.onset), rule: nil)
            }
            if let firstRuled = ruled.first, let rule {
                out += observance(daylight: head.isDaylight, from: head.from, to: head.to, name: head.name,
                                  start: firstRuled.onset, rdates: [], rule: rule)
            }
        }
        return out + ["END:VTIMEZONE"]
    }

    /// How many of the last changes of `group` follow one yearly rule (the same month,
    /// weekday, week of the month counted from its start or its end, and local time), and
    /// that rule; nil when not even the last two do.
    static func yearlyRule(_ group: [Change]) -> (Int, String)? {
        struct Shape: Equatable {
            let month: Int, weekday: Int, ordinal: Int, fromEnd: Int, time: Int
        }
        func shape(_ change: Change) -> Shape {
            let day = CivilTime.day(ofSeconds: change.onset)
            let date = CivilTime.date(ofDay: day)
            let length = CivilTime.monthLength(year: date.year, month: date.month)
            return Shape(month: date.month, weekday: CivilTime.weekday(ofDay: day), ordinal: (date.day - 1) / 7 + 1,
                         fromEnd: -((length - date.day) / 7 + 1), time: change.onset - day * CivilTime.secondsPerDay)
        }
        guard let last = group.last else { return nil }
        let target = shape(last)
        func run(_ matches: (Shape) -> Bool) -> Int {
            var count = 0
            for change in group.reversed() {
                let other = shape(change)
                guard other.month == target.month, other.weekday == target.weekday, other.time == target.time,
                      matches(other) else { break }
                count += 1
            }
            return count
        }
        let byStart = run { $0.ordinal == target.ordinal }
        let byEnd = run { $0.fromEnd == target.fromEnd }
        // Both counts run from the last change back; the longer run names the rule.
        let useEnd = byEnd >= byStart
        let count = max(byStart, byEnd)
        guard count >= 2 else { return nil }
        let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        let ordinal = useEnd ? target.fromEnd : target.ordinal
        return (count, "FREQ=YEARLY;BYMONTH=\(target.month);BYDAY=\(ordinal)\(weekdays[target.weekday])")
    }

    static func observance(daylight: Bool, from: Int, to: Int, name: String, start: Int, rdates: [Int], rule: String?) -> [String] {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        var lines = ["BEGIN:" + kind, "DTSTART:" + ICalText.dateTime(start, utc: false),
                     "TZOFFSETFROM:" + offset(from), "TZOFFSETTO:" + offset(to)]
        if let rule { lines.append("RRULE:" + rule) }
        if !rdates.isEmpty { lines.append("RDATE:" + rdates.map { ICalText.dateTime($0, utc: false) }.joined(separator: ",")) }
        if !name.isEmpty, ICalText.forbiddenCharacter(in: name, allowsLineBreaks: false) == nil {
            lines.append("TZNAME:" + ICalText.escaped(name))
        }
        return lines + ["END:" + kind]
    }

    /// `+HHMM`, `-HHMM` or `+HHMMSS` of an offset in seconds.
    static func offset(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let text = (seconds < 0 ? "-" : "+") + ICalText.pad(magnitude / 3600, 2) + ICalText.pad(magnitude / 60 % 60, 2)
        return magnitude % 60 == 0 ? text : text + ICalText.pad(magnitude % 60, 2)
    }
}
