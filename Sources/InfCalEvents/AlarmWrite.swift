import InfCalModel

extension Character {
    /// Whether it is one of the ASCII digits 0-9.
    fileprivate var isDigitASCII: Bool { isASCII && isNumber }
}

/// A new alarm, as `--alarm` asks for one: a length before the start (`15m`, `1d`, `0`), or a
/// wall-clock time on the day of the event (`09:00`).
public enum NewAlarm: Sendable, Equatable {
    /// The trigger from the start (negative: before it; `Offset()`: at the start).
    case relative(EventAlarm.Offset)
    /// At a time of day (seconds after midnight) on the day of the event.
    case atTime(Int)

    /// Reads `15m`, `90s`, `2h`, `1h30m`, `1d`, `2w`, `1d12h` (that long before the start;
    /// days and weeks are nominal: `1d` is the same time the day before), `0` (at the start),
    /// `HH:MM` (at that time on the day), or an RFC 5545 DURATION as the trigger itself
    /// (`-PT15M`, `PT5M` after the start).
    /// - returns: nil for anything else, or a length beyond `InputLimits.alarmReach`.
    public init?(_ text: String) {
        let trimmed = text.trimmingSpaces
        if trimmed == "0" {
            self = .relative(EventAlarm.Offset())
            return
        }
        if let colon = trimmed.firstIndex(of: ":") {
            let (hours, minutes) = (trimmed[..<colon], trimmed[trimmed.index(after: colon)...])
            guard (1...2).contains(hours.count), minutes.count == 2, hours.allSatisfy(\.isDigitASCII), minutes.allSatisfy(\.isDigitASCII),
                  let hour = Int(hours), let minute = Int(minutes), hour < 24, minute < 60 else { return nil }
            self = .atTime(hour * 3600 + minute * 60)
            return
        }
        let offset: EventAlarm.Offset
        if let first = trimmed.first, first == "P" || first == "-" || first == "+" {
            guard let written = EventAlarm.Offset(duration: trimmed) else { return nil }
            offset = written
        } else {
            var (days, seconds) = (0, 0)
            var number: Int?
            for character in trimmed.lowercased() {
                if character.isDigitASCII, let digit = character.wholeNumberValue {
                    let value = (number ?? 0) * 10 + digit
                    guard value <= 100_000_000 else { return nil }
                    number = value
                    continue
                }
                guard let value = number else { return nil }
                switch character {
                case "w": days += 7 * value
                case "d": days += value
                case "h": seconds += 3600 * value
                case "m": seconds += 60 * value
                case "s": seconds += value
                default: return nil
                }
                number = nil
            }
            guard number == nil, days + seconds > 0 else { return nil }
            offset = EventAlarm.Offset(days: -days, seconds: -seconds)
        }
        guard abs(offset.nominalSeconds) <= InputLimits.alarmReach else { return nil }
        self = .relative(offset)
    }

    /// The TRIGGER line of this alarm for an event starting at `start` (as written).
    ///
    /// A length is a duration from the start. A time of day on an all-day event is a duration
    /// from its local midnight (`PT9H`), which fires at that wall-clock time every day it
    /// recurs, wherever the calendar is shown (all-day alarms are reckoned on the wall clock);
    /// on a floating event the duration from its start on the wall clock. On a timed event it
    /// is that time on the event's day in its zone: an absolute UTC trigger for a single event
    /// (exact), and for a recurring one the duration from the start (`-PT5H`), as an absolute
    /// trigger would fire once, not at each occurrence.
    /// - parameter offset: the offset from UTC at an instant of the zone whose wall clock "the
    ///   event's day" and the time of day are read on: the event's zone for a TZID start, the
    ///   user's for a UTC one (unused for dates and floating times).
    public func trigger(start: ICalTime, isRecurring: Bool, offset: (Int) -> Int) -> String {
        switch self {
        case .relative(let offset):
            return "TRIGGER:" + offset.duration
        case .atTime(let secondsOfDay):
            let startLocal: Int
            switch start.form {
            case .date:
                return "TRIGGER:" + EventAlarm.Offset(seconds: secondsOfDay).duration
            case .floating, .zoned: startLocal = start.seconds
            case .utc: startLocal = start.seconds + offset(start.seconds)
            }
            let target = CivilTime.day(ofSeconds: startLocal) * CivilTime.secondsPerDay + secondsOfDay
            if start.form == .floating || isRecurring {
                return "TRIGGER:" + EventAlarm.Offset(seconds: target - startLocal).duration
            }
            return "TRIGGER;VALUE=DATE-TIME:" + ICalText.dateTime(CivilTime.utc(ofLocal: target, offset: offset), utc: true)
        }
    }

    /// The content lines of this alarm as a VALARM (BEGIN and END included) for an event
    /// starting at `start`: ACTION:DISPLAY, DESCRIPTION (which RFC 5545 requires of a DISPLAY
    /// alarm: `description`, else "Reminder"), its TRIGGER (`trigger(start:isRecurring:offset:)`)
    /// and `uid` as its UID (RFC 9074 §4).
    public func lines(start: ICalTime, isRecurring: Bool, offset: (Int) -> Int, uid: String, description: String) -> [String] {
        ["BEGIN:VALARM", "UID:" + uid, "ACTION:DISPLAY",
         "DESCRIPTION:" + ICalText.escaped(description.isEmpty ? "Reminder" : description),
         trigger(start: start, isRecurring: isRecurring, offset: offset), "END:VALARM"]
    }
}

extension EventWrite {
    /// The content lines of a VEVENT (`NewEvent.lines(uid:stamp:)`) with `alarms` (each a
    /// VALARM's lines) put before its END:VEVENT.
    public static func withAlarms(_ event: [String], _ alarms: [[String]]) -> [String] {
        guard let end = event.lastIndex(of: "END:VEVENT") else { return event + alarms.flatMap { $0 } }
        return Array(event[..<end]) + alarms.flatMap { $0 } + Array(event[end...])
    }

    /// `data` with the VALARMs of the event `uid` replaced by `alarms` (none: removed), in its
    /// master and in each override, which has alarms of its own (a series' alarms change in
    /// all of them); each component's triggers made from its own start (`NewAlarm.lines`),
    /// the alarm's UID from `uid(_:)` (given the component's place among the event's and the
    /// alarm's), its DESCRIPTION the component's SUMMARY. DTSTAMP and LAST-MODIFIED are set;
    /// SEQUENCE is kept (an alarm is no change the attendees are asked about, RFC 5546
    /// §2.1.4). Every other byte of the file, and every other line of those components, stays
    /// as it was.
    /// - parameter zone: the user's zone, whose wall clock `HH:MM` means on an event in UTC.
    /// - returns: nil when the file has no event `uid`.
    /// - throws: `Refusal` when a component of the event has no END, or cannot be read (its
    ///   start is needed for a time of day).
    public static func replacingAlarms(of uid: String, with alarms: [NewAlarm], stamp: Int, zone: WritingZone,
                                       alarmUID: (_ component: Int, _ alarm: Int) -> String, in data: [UInt8]) throws(Refusal) -> [UInt8]? {
        let layout = ICalLayout(data)
        let found = try spans(uid, in: layout)
        guard !found.isEmpty else { return nil }
        var pieces: [(Range<Int>, [UInt8])] = []
        for (number, span) in found.enumerated() {
            guard let range = layout.range(of: span) else { continue }
            var lines: [[String]] = []
            if !alarms.isEmpty {
                guard let event = readEvent(span, uid: uid, in: layout) else {
                    throw Refusal("the event \(uid) cannot be read (see the warnings), so its alarms cannot be made")
                }
                // "On the day" in the event's own zone; for a UTC time, the user's.
                var offset: (Int) -> Int = zone.offset
                if case .zoned = event.start.form, let own = event.zone { offset = { own.offset(atUTC: $0) } }
                // An override for this and the future is as recurring as the part of the series it is.
                let future = layout.ownLines(of: span).contains { $0.line.name == "RECURRENCE-ID"
                    && $0.line.parameter("RANGE")?.uppercased() == "THISANDFUTURE" }
                lines = alarms.enumerated().map { place, alarm in
                    alarm.lines(start: event.start, isRecurring: event.isRecurring || future, offset: offset,
                                uid: alarmUID(number, place), description: event.summary)
                }
            }
            // Stamps, but SEQUENCE as it was.
            let stamps = stampChanges(span, in: layout, stamp: stamp).filter { change in
                if case .set(let name, _) = change { return name != "SEQUENCE" }
                return true
            }
            let changes = stamps + [.removeComponents(name: "VALARM")] + lines.flatMap { $0 }.map { CalendarEdit.Change.append(line: $0) }
            pieces.append((range, try CalendarEdit.changed(span, in: layout, changes)))
        }
        return CalendarEdit.replacing(pieces, in: data)
    }
}
