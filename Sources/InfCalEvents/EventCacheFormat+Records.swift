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

    /// `spans`: the spans (`EventZone.span`) of the instants a run asks the zone about, whose
    /// stored changes of offset are taken; nil, all of them.
    static func readZone(_ reader: inout CacheReader, spans: Range<Int>? = nil) throws(CacheDefect) -> EventZone {
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
            guard zone.store(runs, of: EventZone.storedSpans, keeping: spans) else { throw CacheDefect() }
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
    /// record lies (offset and length; 0 and 0: both empty); its alarms come before its rules.
    /// Without `rules`, the record is
    /// read up to its rules, which the event is made without (`Event.rulesLeftOut`: its
    /// instances come from the table), and what follows is not read.
    static func readEvent(_ reader: inout CacheReader, calendarZone: (Int) throws(CacheDefect) -> EventZone,
                          details: (Int, Int) throws(CacheDefect) -> EventDetails, rules: Bool = true) throws(CacheDefect) -> Event {
        let line = try reader.int()
        let uid = try reader.string()
        let summary = try reader.string()
        let calendarName = try reader.optionalString()
        let start = try readTime(&reader)
        let zone = try reader.optionalInt().map { number throws(CacheDefect) in try calendarZone(number) }
        let duration = try reader.int()
        let nominalDays = try reader.int()
        let details = try details(try reader.int(), try reader.int())
        let scheduling = try readScheduling(&reader)
        let alarms = try readAlarms(&reader)
        guard rules else {
            return Event(uid: uid, summary: summary, calendarName: calendarName, start: start, zone: zone, duration: duration,
                         nominalDays: nominalDays, expanders: [], extraStarts: [], excluded: [], excludedDays: [], line: line, details: details, alarms: alarms,
                         rulesLeftOut: true, status: scheduling.status, declinedBy: scheduling.declinedBy)
        }
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
        return Event(uid: uid, summary: summary, calendarName: calendarName, start: start, zone: zone, duration: duration,
                     nominalDays: nominalDays, expanders: expanders, exclusionRules: exclusionRules, extraStarts: extras, excluded: excluded,
                     excludedDays: excludedDays, line: line, segment: segment, details: details, alarms: alarms,
                     status: scheduling.status, declinedBy: scheduling.declinedBy)
    }

    // MARK: Writing records (read back above)

    static func write(_ identity: FileIdentity, to out: inout CacheWriter) {
        out.int(identity.device)
        out.int(identity.inode)
        out.int(identity.size)
        out.int(identity.seconds)
        out.int(identity.nanoseconds)
    }

    static func write(_ time: ICalTime, to out: inout CacheWriter) {
        out.int(time.seconds)
        switch time.form {
        case .date: out.int(0)
        case .floating: out.int(1)
        case .utc: out.int(2)
        case .zoned(let name): out.int(3); out.string(name)
        }
    }

    static func write(_ rule: RecurrenceRule, to out: inout CacheWriter) {
        out.int(rule.frequency.rawValue)
        out.int(rule.interval)
        out.optional(rule.count)
        out.bool(rule.until != nil)
        if let until = rule.until { write(until, to: &out) }
        out.ints(rule.bySecond)
        out.ints(rule.byMinute)
        out.ints(rule.byHour)
        out.int(rule.byDay.count)
        for day in rule.byDay { out.int(day.weekday); out.int(day.ordinal) }
        out.ints(rule.byMonthDay)
        out.ints(rule.byYearDay)
        out.ints(rule.byWeekNo)
        out.int(rule.byMonth.count)
        for month in rule.byMonth { out.int(month.month); out.bool(month.isLeap) }
        out.ints(rule.bySetPos)
        out.int(rule.weekStart)
        out.optional(rule.scale)
        out.int(rule.skip == .omit ? 0 : rule.skip == .backward ? 1 : 2)
        out.int(rule.notes.count)
        for note in rule.notes { out.string(note) }
    }

    static func write(_ expander: RecurrenceExpander, to out: inout CacheWriter) {
        write(expander.rule, to: &out)
        out.int(expander.start)
        out.bool(expander.isDate)
        out.optional(expander.until)
        // An event's rule counts in its RSCALE; a VTIMEZONE's always in the Gregorian calendar.
        out.bool(!(expander.scale is GregorianScale))
        out.bool(expander.includesStart)
        // Where a COUNT rule ends, found once here: a run reading the cache then neither
        // counts from DTSTART to the months it shows nor walks the rule to find its end.
        let end = expander.rule.count == nil ? nil : countEnd(of: expander)
        out.bool(end != nil)
        if let end {
            out.int(end.latest)
            out.bool(end.last != nil)
            if let last = end.last { out.int(last.batch); out.int(last.taken) }
        }
    }

    /// Writes `zone`, a Foundation zone with the changes of offset `runs` when given (found
    /// from it when not).
    static func write(_ zone: EventZone, runs: [Int]? = nil, to out: inout CacheWriter) {
        switch zone.source {
        case .utc:
            out.int(0)
        case .foundation, .named:
            // With its changes of offset in the years most shown, found here once: a run
            // reading the cache then makes no Foundation zone for them (under the same zone data).
            out.int(3)
            out.string(zone.identifier ?? "")
            out.string(EventZone.dataVersion)
            out.ints(runs ?? zone.changeRuns(of: EventZone.storedSpans))
        case .rules(let rules):
            out.int(2)
            out.int(rules.observances.count)
            for observance in rules.observances {
                out.int(observance.offsetFrom)
                out.int(observance.offsetTo)
                out.ints(observance.onsets)
                out.bool(observance.expander != nil)
                if let expander = observance.expander { write(expander, to: &out) }
            }
        }
    }

    /// Writes `event` with its zone's number and where its details lie, and its alarms: what
    /// every view shows first, then what only expanding its rules needs (a run that takes its instances
    /// from the table stops before that).
    static func write(_ event: Event, zone: Int?, details: (offset: Int, length: Int), to out: inout CacheWriter) {
        out.int(event.line)
        out.string(event.uid)
        out.string(event.summary)
        out.optional(event.calendarName)
        write(event.start, to: &out)
        out.optional(zone)
        out.int(event.duration)
        out.int(event.nominalDays)
        out.int(details.offset)
        out.int(details.length)
        writeScheduling(of: event, to: &out)
        write(event.alarms, to: &out)
        out.int(event.expanders.count)
        for expander in event.expanders { write(expander, to: &out) }
        out.int(event.exclusionRules.count)
        for expander in event.exclusionRules { write(expander, to: &out) }
        out.int(event.extraStarts.count)
        for extra in event.extraStarts { out.int(extra.start); out.optional(extra.duration) }
        // Most events exclude nothing: no array made for them (`ints([])` writes this 0).
        if event.excluded.isEmpty { out.int(0) } else { out.ints(event.excluded.sorted()) }
        if event.excludedDays.isEmpty { out.int(0) } else { out.ints(event.excludedDays.sorted()) }
        out.int(event.segment.seriesStart)
        out.optional(event.segment.from)
        out.optional(event.segment.to)
        out.int(event.segment.shift)
    }
}
