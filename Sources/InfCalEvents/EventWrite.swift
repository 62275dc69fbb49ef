import Foundation
import InfCalModel

/// The zone new times are written in: the user's IANA zone (with a VTIMEZONE), else UTC;
/// and how the user's wall clock turns into UTC (`TZ` as the C library reads it).
public struct WritingZone: Sendable {
    /// The IANA zone written as TZID; nil writes UTC times.
    public let zone: TimeZone?
    /// The user's offset from UTC at an instant (UTC civil seconds).
    public let offset: @Sendable (Int) -> Int

    public init(zone: TimeZone?, offset: @escaping @Sendable (Int) -> Int) {
        self.zone = zone
        self.offset = offset
    }

    /// UTC of the user's wall-clock `local`; a skipped time is read with the offset before
    /// the change (RFC 5545 §3.3.5), a repeated one as its first occurrence.
    public func utc(ofLocal local: Int) -> Int {
        CivilTime.utc(ofLocal: local, offset: offset)
    }

    /// The value of the instant `utc` as written: the zone's wall clock, or UTC.
    public func time(ofUTC utc: Int) -> ICalTime {
        if let zone { return ICalTime(seconds: utc + offset(utc), form: .zoned(zone.identifier)) }
        return ICalTime(seconds: utc, form: .utc)
    }

    /// The value of the user's wall-clock `local` as written: zoned, or UTC.
    public func time(ofLocal local: Int) -> ICalTime {
        if let zone { return ICalTime(seconds: local, form: .zoned(zone.identifier)) }
        return ICalTime(seconds: utc(ofLocal: local), form: .utc)
    }
}

/// A new event, as `infcal add` writes it.
public struct NewEvent: Sendable {
    public var summary: String
    /// DTSTART and DTEND (exclusive), in the form they are written.
    public var start: ICalTime
    public var end: ICalTime
    /// The RRULE value, if any.
    public var rule: String?
    public var location: String?
    public var description: String?

    public init(summary: String, start: ICalTime, end: ICalTime, rule: String? = nil, location: String? = nil, description: String? = nil) {
        self.summary = summary
        self.start = start
        self.end = end
        self.rule = rule
        self.location = location
        self.description = description
    }

    /// The content lines of the VEVENT with `uid`, stamped `stamp` (UTC civil seconds).
    public func lines(uid: String, stamp: Int) -> [String] {
        var lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + ICalText.dateTime(stamp, utc: true),
                     "CREATED:" + ICalText.dateTime(stamp, utc: true),
                     ICalText.property("DTSTART", ICalText.parameters(of: start), ICalText.value(of: start)),
                     ICalText.property("DTEND", ICalText.parameters(of: end), ICalText.value(of: end))]
        if let rule { lines.append("RRULE:" + rule) }
        lines.append("SUMMARY:" + ICalText.escaped(summary))
        if let location { lines.append("LOCATION:" + ICalText.escaped(location)) }
        if let description { lines.append("DESCRIPTION:" + ICalText.escaped(description)) }
        return lines + ["END:VEVENT"]
    }

    /// The TZID its times use, if any.
    public var zoneName: String? {
        if case .zoned(let name) = start.form { return name }
        return nil
    }
}

/// What `infcal edit` changes; nil leaves a property as it is.
public struct EventChanges: Sendable {
    public var summary: String?
    public var location: String?
    public var description: String?
    /// A new day (civil day number), keeping the time of day as written.
    public var day: Int?
    /// A new start (and end) on the user's wall clock, seconds of the day.
    public var time: (start: Int, end: Int?)?
    /// A new length, seconds (whole days for an all-day event).
    public var duration: Int?
    /// A new RRULE value.
    public var rule: String?

    public init() {}

    /// Whether a change of start or length is asked (which needs the event read).
    var movesTime: Bool { day != nil || time != nil || duration != nil }
}

/// Adding, changing and deleting events in the bytes of one calendar file, surgically.
public enum EventWrite {
    public typealias Refusal = CalendarEdit.Refusal

    /// `data` with `event` added (and a VTIMEZONE for its zone when the file has none).
    public static func adding(_ event: NewEvent, uid: String, stamp: Int, zone: WritingZone,
                              to data: [UInt8]) throws(Refusal) -> [UInt8] {
        var components: [[String]] = []
        if let name = event.zoneName, let timeZone = zone.zone, !ICalLayout.mentionsTimeZone(name, in: data) {
            // From 1970 (or the event's start, when earlier) and without end, so that the
            // VTIMEZONE serves every later event of the file that names the zone too.
            components.append(TimeZoneText.lines(for: timeZone, from: min(0, zone.utc(ofLocal: event.start.seconds)), through: nil))
        }
        components.append(event.lines(uid: uid, stamp: stamp))
        return try CalendarEdit.inserting(components, into: data)
    }

    /// The components of `layout` with `uid`, or a refusal when one of them cannot be cut out.
    static func spans(_ uid: String, in layout: ICalLayout) throws(Refusal) -> [ICalLayout.Span] {
        let found = layout.components(uid: uid)
        for span in found where span.end == nil { throw Refusal("the event \(uid) has no END:\(span.name)") }
        return found
    }

    /// `data` without the event `uid` and its overrides, and without the VTIMEZONEs only they
    /// used (`zonesOnlyUsed(by:in:)`); with `occurrence` (a civil day of the event's
    /// reckoning), without that one occurrence only (an EXDATE, and its override gone).
    /// - returns: nil when the file has no event `uid`.
    public static func deleting(_ uid: String, occurrence: Int?, stamp: Int, in data: [UInt8]) throws(Refusal) -> [UInt8]? {
        let layout = ICalLayout(data)
        let found = try spans(uid, in: layout)
        guard !found.isEmpty else { return nil }
        guard let occurrence else {
            return CalendarEdit.removing(found.compactMap { layout.range(of: $0) } + zonesOnlyUsed(by: found, in: layout), from: data)
        }
        guard let master = found.first(where: { $0.recurrenceID == nil }), let range = layout.range(of: master) else {
            throw Refusal("the event \(uid) has no recurring master to leave an occurrence out of")
        }
        let (event, instance) = try occurrenceStart(of: master, uid: uid, on: occurrence, in: layout)
        let form = ICalTime(seconds: instance, form: event.start.form)
        let value = ICalText.value(of: form)
        let exdate = ICalText.property("EXDATE", ICalText.parameters(of: form), value)
        let changed = try CalendarEdit.changed(master, in: layout, stampChanges(master, in: layout, stamp: stamp) + [.append(line: exdate)])
        var pieces = found.filter { $0.recurrenceID == value }.compactMap { layout.range(of: $0) }.map { ($0, [UInt8]()) }
        pieces.append((range, changed))
        return CalendarEdit.replacing(pieces, in: data)
    }

    /// `data` with the event `uid` changed as `changes` says; with `occurrence`, only that
    /// occurrence (an override with RECURRENCE-ID, made or changed).
    /// - returns: nil when the file has no event `uid`.
    public static func editing(_ uid: String, occurrence: Int?, changes: EventChanges, stamp: Int, zone: WritingZone,
                               in data: [UInt8]) throws(Refusal) -> [UInt8]? {
        let layout = ICalLayout(data)
        let found = try spans(uid, in: layout)
        guard !found.isEmpty else { return nil }
        guard let master = found.first(where: { $0.recurrenceID == nil }) ?? found.first,
              let masterRange = layout.range(of: master) else { return nil }
        if let occurrence {
            if changes.rule != nil { throw Refusal("--every changes the whole series, not one occurrence") }
            let (event, instance) = try occurrenceStart(of: master, uid: uid, on: occurrence, in: layout)
            let id = ICalTime(seconds: instance, form: event.start.form)
            let idValue = ICalText.value(of: id)
            if let existing = found.first(where: { $0.recurrenceID == idValue }), let range = layout.range(of: existing) {
                let bytes = try changedEvent(existing, in: layout, uid: uid, changes: changes, stamp: stamp, zone: zone,
                                             sequenceAbove: sequence(of: master, in: layout))
                return CalendarEdit.replacing(range, with: bytes.component, in: bytes.withZone(data, zone))
            }
            // A new override: the master's bytes less its recurrence, for this instance.
            let length = event.duration
            var startChanges: [CalendarEdit.Change] = [
                .remove(name: "RRULE"), .remove(name: "RDATE"), .remove(name: "EXDATE"), .remove(name: "EXRULE"),
                .set(name: "RECURRENCE-ID", line: ICalText.property("RECURRENCE-ID", ICalText.parameters(of: id), idValue)),
                .set(name: "DTSTART", line: ICalText.property("DTSTART", ICalText.parameters(of: id), idValue)),
            ]
            if master.hasDuration(in: layout) {
                startChanges.append(.set(name: "DURATION", line: "DURATION:" + ICalText.duration(length)))
            } else {
                let end = endTime(of: event, start: instance, duration: length)
                startChanges.append(.set(name: "DTEND", line: ICalText.property("DTEND", ICalText.parameters(of: end), ICalText.value(of: end))))
            }
            let copy = try CalendarEdit.changed(master, in: layout, startChanges)
            // Read the copy as a file of its own, then change it as any event.
            let copyData = Array(data[..<masterRange.lowerBound]) + copy + Array(data[masterRange.lowerBound...])
            let copyLayout = ICalLayout(copyData)
            guard let override = copyLayout.components(uid: uid).first(where: { $0.recurrenceID == idValue }),
                  let overrideRange = copyLayout.range(of: override) else { throw Refusal("the override of \(uid) could not be made") }
            // Its SEQUENCE one above the series' (the copy's own, the master's).
            let bytes = try changedEvent(override, in: copyLayout, uid: uid, changes: changes, stamp: stamp, zone: zone,
                                         sequenceAbove: sequence(of: master, in: layout))
            // The override goes right after the master.
            let placed = CalendarEdit.removing([overrideRange], from: copyData)
            return bytes.withZone(CalendarEdit.replacing(masterRange.upperBound..<masterRange.upperBound, with: bytes.component, in: placed), zone)
        }
        let bytes = try changedEvent(master, in: layout, uid: uid, changes: changes, stamp: stamp, zone: zone)
        var pieces = [(masterRange, bytes.component)]
        if let move = bytes.move {
            // The overrides name their instances by the old times: they move with the series.
            for override in found where override.recurrenceID != nil {
                guard let range = layout.range(of: override) else { continue }
                let moves = following(override, in: layout, move)
                if !moves.isEmpty {
                    let stamped = stampChanges(override, in: layout, stamp: stamp, above: sequence(of: master, in: layout)) + moves
                    pieces.append((range, try CalendarEdit.changed(override, in: layout, stamped)))
                }
            }
        }
        return bytes.withZone(CalendarEdit.replacing(pieces, in: data), zone)
    }

    /// A changed component, and the zone its new times need a VTIMEZONE for.
    struct Changed {
        let component: [UInt8]
        let zone: TimeZone?
        let span: (from: Int, through: Int?)
        /// Where a recurring event's DTSTART moved, when it did.
        var move: SeriesMove?

        /// `data` with a VTIMEZONE for `zone` when the new times use it and the file has none.
        func withZone(_ data: [UInt8], _ writing: WritingZone) -> [UInt8] {
            guard let zone, !ICalLayout(data).hasTimeZone(zone.identifier) else { return data }
            return (try? CalendarEdit.inserting([TimeZoneText.lines(for: zone, from: min(0, span.from), through: nil)], into: data)) ?? data
        }
    }

    /// The bytes of `span` with `changes` made, SEQUENCE one above its own and
    /// `sequenceAbove` (an override's, above its series'), DTSTAMP and LAST-MODIFIED set.
    static func changedEvent(_ span: ICalLayout.Span, in layout: ICalLayout, uid: String, changes: EventChanges, stamp: Int,
                             zone: WritingZone, sequenceAbove floor: Int = 0) throws(Refusal) -> Changed {
        var edits = stampChanges(span, in: layout, stamp: stamp, above: floor)
        if let summary = changes.summary { edits.append(.set(name: "SUMMARY", line: "SUMMARY:" + ICalText.escaped(summary))) }
        if let location = changes.location { edits.append(.set(name: "LOCATION", line: "LOCATION:" + ICalText.escaped(location))) }
        if let description = changes.description {
            edits.append(.set(name: "DESCRIPTION", line: "DESCRIPTION:" + ICalText.escaped(description)))
        }
        if let rule = changes.rule { edits.append(.set(name: "RRULE", line: "RRULE:" + rule)) }
        var newZone: TimeZone?
        var reach: (Int, Int?) = (0, nil)
        var move: SeriesMove?
        if changes.movesTime {
            guard let event = readEvent(span, uid: uid, in: layout) else {
                throw Refusal("the event \(uid) cannot be read (see the warnings), so its time cannot be changed")
            }
            var start = event.start
            var duration = changes.duration ?? event.duration
            if let day = changes.day {
                start.seconds = day * CivilTime.secondsPerDay + CivilTime.floorMod(start.seconds, CivilTime.secondsPerDay)
            }
            if let time = changes.time {
                let day = changes.day ?? CivilTime.day(ofSeconds: shownLocal(event, zone: zone))
                let local = day * CivilTime.secondsPerDay + time.start
                start = zone.time(ofLocal: local)
                if let end = time.end, changes.duration == nil {
                    var endLocal = day * CivilTime.secondsPerDay + end
                    if end <= time.start { endLocal += CivilTime.secondsPerDay }
                    duration = zone.utc(ofLocal: endLocal) - zone.utc(ofLocal: local)
                } else if event.start.isDate, changes.duration == nil {
                    duration = 3600
                }
                newZone = zone.zone
            }
            var keepsZone = false
            if changes.time != nil, case .zoned = event.start.form, let own = event.zone {
                // A zoned event keeps its TZID: the user's time in the event's zone, so that
                // no new zone (and no VTIMEZONE outside the event) is needed.
                let utc = zone.utc(ofLocal: shownLocalStart(start, zone: zone))
                start = ICalTime(seconds: utc + own.offset(atUTC: utc), form: event.start.form)
                newZone = nil
                keepsZone = true
            }
            let end: ICalTime
            if keepsZone {
                end = endTime(of: event, start: start.seconds, duration: duration)
            } else if start.isDate {
                duration = max(1, (duration + CivilTime.secondsPerDay - 1) / CivilTime.secondsPerDay) * CivilTime.secondsPerDay
                end = ICalTime(seconds: start.seconds + duration, form: .date)
            } else if changes.time != nil {
                end = zone.time(ofUTC: zone.utc(ofLocal: shownLocalStart(start, zone: zone)) + duration)
            } else {
                end = endTime(of: event, start: start.seconds, duration: duration)
            }
            let startUTC = start.form == .utc ? start.seconds : zone.utc(ofLocal: start.seconds)
            reach = (startUTC, event.isRecurring ? nil : startUTC + duration)
            if event.isRecurring, start != event.start {
                let moved = SeriesMove(from: event.start, to: start, zone: event.zone)
                edits += movedDates("EXDATE", span, in: layout, moved) + movedDates("RDATE", span, in: layout, moved)
                move = moved
            }
            edits.append(.set(name: "DTSTART", line: ICalText.property("DTSTART", ICalText.parameters(of: start), ICalText.value(of: start))))
            if span.hasDuration(in: layout) {
                edits.append(.set(name: "DURATION", line: "DURATION:" + ICalText.duration(duration)))
            } else {
                edits.append(.set(name: "DTEND", line: ICalText.property("DTEND", ICalText.parameters(of: end), ICalText.value(of: end))))
            }
        }
        return Changed(component: try CalendarEdit.changed(span, in: layout, edits), zone: newZone, span: reach, move: move)
    }

    /// SEQUENCE one above the larger of its own and `floor` (at most RFC 5545's largest
    /// INTEGER, 2147483647); DTSTAMP and LAST-MODIFIED at `stamp`, in UTC (3.8.7.2, 3.8.7.3).
    static func stampChanges(_ span: ICalLayout.Span, in layout: ICalLayout, stamp: Int, above floor: Int = 0) -> [CalendarEdit.Change] {
        let time = ICalText.dateTime(stamp, utc: true)
        let next = min(max(sequence(of: span, in: layout), floor), Int(Int32.max) - 1) + 1
        return [.set(name: "DTSTAMP", line: "DTSTAMP:" + time), .set(name: "LAST-MODIFIED", line: "LAST-MODIFIED:" + time),
                .set(name: "SEQUENCE", line: "SEQUENCE:\(next)")]
    }

    /// The event `span` holds, read with the file's zones; nil when the reader skips it.
    static func readEvent(_ span: ICalLayout.Span, uid: String, in layout: ICalLayout) -> Event? {
        guard let range = layout.range(of: span) else { return nil }
        var bytes = Array("BEGIN:VCALENDAR\r\n".utf8)
        if let calendar = layout.spans.last(where: { $0.name == "VCALENDAR" && $0.begin < span.begin }) {
            for (_, line) in layout.ownLines(of: calendar) where line.name == "X-WR-TIMEZONE" { bytes += layout.data[line.range] }
        }
        for zone in layout.spans where zone.name == "VTIMEZONE" {
            if let zoneRange = layout.range(of: zone) { bytes += layout.data[zoneRange] }
        }
        bytes += layout.data[range]
        bytes += Array("\r\nEND:VCALENDAR\r\n".utf8)
        return EventReader.read(bytes).events.first { $0.uid == uid }
    }

    /// The master event `span` and the start (its reckoning) of its occurrence on civil day `day`.
    static func occurrenceStart(of span: ICalLayout.Span, uid: String, on day: Int,
                                in layout: ICalLayout) throws(Refusal) -> (Event, Int) {
        guard let event = readEvent(span, uid: uid, in: layout) else {
            throw Refusal("the event \(uid) cannot be read (see the warnings), so its occurrences are not known")
        }
        let dayStart = day * CivilTime.secondsPerDay
        guard let instance = event.instances(in: dayStart..<(dayStart + CivilTime.secondsPerDay)).first?.start else {
            let date = CivilTime.date(ofDay: day)
            throw Refusal("the event \(uid) has no occurrence on \(ICalText.pad(date.year, 4))-\(ICalText.pad(date.month, 2))-\(ICalText.pad(date.day, 2))")
        }
        return (event, instance)
    }

    /// The end of an instance of `event` starting at `start` (its reckoning) lasting `duration`,
    /// in the form of its DTSTART: the zone's wall clock after that many seconds.
    static func endTime(of event: Event, start: Int, duration: Int) -> ICalTime {
        switch event.start.form {
        case .date, .floating, .utc:
            return ICalTime(seconds: start + duration, form: event.start.form)
        case .zoned:
            guard let zone = event.zone else { return ICalTime(seconds: start + duration, form: event.start.form) }
            let utc = zone.utc(ofLocal: start) + duration
            return ICalTime(seconds: utc + zone.offset(atUTC: utc), form: event.start.form)
        }
    }

    /// A start written by `zone.time(ofLocal:)` back on the user's wall clock.
    static func shownLocalStart(_ start: ICalTime, zone: WritingZone) -> Int {
        start.form == .utc ? start.seconds + zone.offset(start.seconds) : start.seconds
    }

    /// The start of `event` on the user's wall clock.
    static func shownLocal(_ event: Event, zone: WritingZone) -> Int {
        switch event.start.form {
        case .date, .floating: return event.start.seconds
        case .utc: return event.start.seconds + zone.offset(event.start.seconds)
        case .zoned:
            let utc = event.zone?.utc(ofLocal: event.start.seconds) ?? event.start.seconds
            return utc + zone.offset(utc)
        }
    }
}

extension ICalLayout.Span {
    /// Whether the component gives its length as DURATION rather than DTEND.
    func hasDuration(in layout: ICalLayout) -> Bool {
        let own = layout.ownLines(of: self)
        return own.contains { $0.line.name == "DURATION" } && !own.contains { $0.line.name == "DTEND" }
    }
}
