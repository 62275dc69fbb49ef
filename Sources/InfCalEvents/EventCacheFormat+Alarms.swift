import InfCalModel

// An event's alarms in its cache record: a count (0 for nearly every event: one byte, and no
// array made when read), then each alarm. They lie before the event's rules, so that a run
// that takes its instances from the table, and reads no rules, still has its alarms.

extension EventCacheFormat {
    /// The span of an event with alarms widened to the instants of its absolute triggers (a
    /// day either side, for a floating one): a run that asks for a window of alarms decodes the
    /// single events whose absolute alarms fire then, however far from their occurrence. (A
    /// relative trigger lies within `InputLimits.alarmReach` of its occurrence: such a run
    /// decodes the window widened by that.)
    static func widen(_ earliest: inout Int, _ latest: inout Int, _ halves: inout UInt32, byAbsoluteAlarmsOf event: Event) {
        for alarm in event.alarms {
            let instant: Int
            switch alarm.trigger {
            case .absolute(let time), .floating(let time): instant = time
            case .start, .end: continue
            }
            let last = instant + alarm.repeatCount * alarm.interval.nominalSeconds
            earliest = min(earliest, instant - CivilTime.secondsPerDay)
            latest = max(latest, last + CivilTime.secondsPerDay)
            halves |= self.halves(from: instant - CivilTime.secondsPerDay, lasting: last - instant + 2 * CivilTime.secondsPerDay)
        }
    }

    static func write(_ alarms: [EventAlarm], to out: inout CacheWriter) {
        out.int(alarms.count)
        for alarm in alarms {
            out.int(EventAlarm.Action.allCases.firstIndex(of: alarm.action) ?? 0)
            switch alarm.trigger {
            case .start(let offset): out.int(0); write(offset, to: &out)
            case .end(let offset): out.int(1); write(offset, to: &out)
            case .absolute(let seconds): out.int(2); out.int(seconds)
            case .floating(let seconds): out.int(3); out.int(seconds)
            }
            out.int(alarm.repeatCount)
            write(alarm.interval, to: &out)
            out.string(alarm.description)
            out.string(alarm.summary)
            out.optional(alarm.uid)
            out.optional(alarm.acknowledged)
            out.optional(alarm.snoozes)
            out.int(alarm.line)
        }
    }

    private static func write(_ offset: EventAlarm.Offset, to out: inout CacheWriter) {
        out.int(offset.days)
        out.int(offset.seconds)
    }

    /// The alarms `write(_:to:)` wrote; empty, with no array made, for none (a byte compared).
    @inline(__always)
    static func readAlarms(_ reader: inout CacheReader) throws(CacheDefect) -> [EventAlarm] {
        if reader.takesZero() { return [] }
        return try readSomeAlarms(&reader)
    }

    private static func readSomeAlarms(_ reader: inout CacheReader) throws(CacheDefect) -> [EventAlarm] {
        let count = try reader.count()
        guard count > 0, count <= EventAlarm.mostPerComponent else { throw CacheDefect() }
        var alarms: [EventAlarm] = []
        alarms.reserveCapacity(count)
        for _ in 0..<count {
            let actions = EventAlarm.Action.allCases
            let actionNumber = try reader.int()
            guard actions.indices.contains(actionNumber) else { throw CacheDefect() }
            let trigger: EventAlarm.Trigger
            switch try reader.int() {
            case 0: trigger = .start(try readOffset(&reader))
            case 1: trigger = .end(try readOffset(&reader))
            case 2: trigger = .absolute(try reader.int())
            case 3: trigger = .floating(try reader.int())
            default: throw CacheDefect()
            }
            let repeatCount = try reader.int()
            guard (0...EventAlarm.mostRepeats).contains(repeatCount) else { throw CacheDefect() }
            alarms.append(EventAlarm(action: actions[actionNumber], trigger: trigger, repeatCount: repeatCount,
                                     interval: try readOffset(&reader), description: try reader.string(), summary: try reader.string(),
                                     uid: try reader.optionalString(), acknowledged: try reader.optionalInt(),
                                     snoozes: try reader.optionalString(), line: try reader.int()))
        }
        return alarms
    }

    private static func readOffset(_ reader: inout CacheReader) throws(CacheDefect) -> EventAlarm.Offset {
        let days = try reader.int()
        let seconds = try reader.int()
        // What the reader lets in: a relative trigger within the reach (an interval fits it too).
        guard abs(days) <= InputLimits.alarmReach / CivilTime.secondsPerDay, abs(seconds) <= 2 * InputLimits.alarmReach else {
            throw CacheDefect()
        }
        return EventAlarm.Offset(days: days, seconds: seconds)
    }
}
