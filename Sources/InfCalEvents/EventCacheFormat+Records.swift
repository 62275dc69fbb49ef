import Foundation
import InfCalModel

extension EventCacheFormat {
    // MARK: Records

    static func readTime(_ reader: inout CacheReader) throws(CacheDefect) -> ICalTime {
        let seconds = try reader.int()
        switch try reader.int() {
        case 0: return ICalTime(seconds: seconds, form: .date)
        case 1: return ICalTime(seconds: seconds, form: .floating)
        case 2: return ICalTime(seconds: seconds, form: .utc)
        case 3: return ICalTime(seconds: seconds, form: .zoned(try reader.string()))
        default: throw CacheDefect()
        }
    }

    static func readRule(_ reader: inout CacheReader) throws(CacheDefect) -> RecurrenceRule {
        guard let frequency = RecurrenceRule.Frequency(rawValue: try reader.int()) else { throw CacheDefect() }
        var rule = RecurrenceRule(frequency: frequency)
        rule.interval = try reader.int()
        guard rule.interval >= 1 else { throw CacheDefect() }
        rule.count = try reader.optionalInt()
        if try reader.bool() { rule.until = try readTime(&reader) }
        rule.bySecond = try reader.ints()
        rule.byMinute = try reader.ints()
        rule.byHour = try reader.ints()
        for _ in 0..<(try reader.count()) {
            let weekday = try reader.int()
            guard (0...6).contains(weekday) else { throw CacheDefect() }
            rule.byDay.append(RecurrenceRule.WeekdayNumber(weekday: weekday, ordinal: try reader.int()))
        }
        rule.byMonthDay = try reader.ints()
        rule.byYearDay = try reader.ints()
        rule.byWeekNo = try reader.ints()
        for _ in 0..<(try reader.count()) {
            rule.byMonth.append(RecurrenceRule.MonthNumber(month: try reader.int(), isLeap: try reader.bool()))
        }
        rule.bySetPos = try reader.ints()
        rule.weekStart = try reader.int()
        guard (0...6).contains(rule.weekStart) else { throw CacheDefect() }
        rule.scale = try reader.optionalString()
        switch try reader.int() {
        case 0: rule.skip = .omit
        case 1: rule.skip = .backward
        case 2: rule.skip = .forward
        default: throw CacheDefect()
        }
        for _ in 0..<(try reader.count()) { rule.notes.append(try reader.string()) }
        return rule
    }

    static func readExpander(_ reader: inout CacheReader) throws(CacheDefect) -> RecurrenceExpander {
        let rule = try readRule(&reader)
        let start = try reader.int()
        let isDate = try reader.bool()
        let until = try reader.optionalInt()
        let scale = try reader.bool() ? RecurrenceScales.scale(named: rule.scale) : GregorianScale.shared
        let includesStart = try reader.bool()
        var end: RecurrenceExpander.CountEnd?
        if try reader.bool() {
            guard rule.count != nil else { throw CacheDefect() }
            let latest = try reader.int()
            var last: (batch: Int, taken: Int)?
            if try reader.bool() {
                let batch = try reader.int()
                let taken = try reader.int()
                guard batch >= 0, taken >= 1 else { throw CacheDefect() }
                last = (batch, taken)
            }
            end = RecurrenceExpander.CountEnd(last: last, latest: latest)
        }
        let expander = RecurrenceExpander(rule: rule, start: start, isDate: isDate, until: until, scale: scale,
                                          includesStart: includesStart)
        // No end written for a COUNT rule: the cache's walk did not reach it either.
        if rule.count != nil { expander.setCountEnd(end) }
        return expander
    }

    static func readZone(_ reader: inout CacheReader) throws(CacheDefect) -> EventZone {
        switch try reader.int() {
        case 0:
            return .utc
        case 3:
            let identifier = try reader.string()
            let version = try reader.string()
            let runs = try reader.ints()
            guard version == EventZone.dataVersion else {
                // Other zone data than the cache was built with: Foundation's offsets, not the stored ones.
                guard let zone = TimeZone(identifier: identifier) else { throw CacheDefect() }
                return EventZone(.foundation(zone))
            }
            let zone = EventZone(.named(identifier))
            guard zone.store(runs, of: EventZone.storedSpans) else { throw CacheDefect() }
            return zone
        case 2:
            var observances: [VTimeZoneRules.Observance] = []
            for _ in 0..<(try reader.count()) {
                let from = try reader.int()
                let to = try reader.int()
                let onsets = try reader.ints()
                let expander = try reader.bool() ? try readExpander(&reader) : nil
                observances.append(VTimeZoneRules.Observance(offsetFrom: from, offsetTo: to, expander: expander, onsets: onsets))
            }
            guard let rules = VTimeZoneRules(observances: observances) else { throw CacheDefect() }
            return EventZone(.rules(rules))
        default:
            throw CacheDefect()
        }
    }

    /// The event of a record; `details` gives its location and description from where their
    /// record lies (offset and length; 0 and 0: both empty).
    static func readEvent(_ reader: inout CacheReader, calendarZone: (Int) throws(CacheDefect) -> EventZone,
                          details: (Int, Int) throws(CacheDefect) -> EventDetails) throws(CacheDefect) -> Event {
        let line = try reader.int()
        let uid = try reader.string()
        let summary = try reader.string()
        let calendarName = try reader.optionalString()
        let start = try readTime(&reader)
        let zone = try reader.optionalInt().map { number throws(CacheDefect) in try calendarZone(number) }
        let duration = try reader.int()
        var expanders: [RecurrenceExpander] = []
        for _ in 0..<(try reader.count()) { expanders.append(try readExpander(&reader)) }
        var exclusionRules: [RecurrenceExpander] = []
        for _ in 0..<(try reader.count()) { exclusionRules.append(try readExpander(&reader)) }
        var extras: [(start: Int, duration: Int?)] = []
        for _ in 0..<(try reader.count()) { extras.append((try reader.int(), try reader.optionalInt())) }
        let excluded = Set(try reader.ints())
        let excludedDays = Set(try reader.ints())
        let segment = Event.Segment(seriesStart: try reader.int(), from: try reader.optionalInt(), to: try reader.optionalInt(),
                                    shift: try reader.int())
        let details = try details(try reader.int(), try reader.int())
        return Event(uid: uid, summary: summary, calendarName: calendarName, start: start, zone: zone, duration: duration,
                     expanders: expanders, exclusionRules: exclusionRules, extraStarts: extras, excluded: excluded,
                     excludedDays: excludedDays, line: line, segment: segment, details: details)
    }
}
