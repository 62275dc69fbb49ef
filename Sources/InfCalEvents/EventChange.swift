import InfCalModel

/// One change to the calendars, typed: the command line's `add`, `edit` and `delete` and the
/// pager's keys build it alike, and one writer applies it. A new kind of change (alarms, an
/// import) is one more case here.
public enum EventChange: Sendable {
    /// A new event.
    case add(NewEventRequest)
    /// The event `uid` changed as `fields` say, the whole series or one occurrence.
    case edit(uid: String, scope: ChangeScope, fields: EventChanges)
    /// The event `uid` deleted with its overrides, or one occurrence of it (an EXDATE).
    case delete(uid: String, scope: ChangeScope)
}

/// What an edit or a delete touches.
public enum ChangeScope: Equatable, Sendable {
    /// The event, every occurrence of it.
    case series
    /// The occurrence on this day (of the event's reckoning) alone.
    case occurrence(CivilDay)

    /// The day of the occurrence, or nil for the series.
    public var day: CivilDay? {
        if case .occurrence(let day) = self { return day }
        return nil
    }
}

/// A new event as it was asked for, before the zone makes times of it.
public struct NewEventRequest: Sendable {
    /// The civil day it starts on.
    public var day: CivilDay
    /// When on that day it starts and ends (seconds of the day on the user's wall clock; an
    /// end before the start is on the next day); nil: all day.
    public var time: (start: Int, end: Int?)?
    /// How long (seconds), when given.
    public var duration: Int?
    /// How it repeats, with its end.
    public var rule: EventRule?
    /// The last day of an all-day event that does not repeat; nil: one day, or `duration`'s.
    public var lastDay: CivilDay?
    public var summary: String
    public var location: String?
    public var description: String?

    public init(day: CivilDay, time: (start: Int, end: Int?)?, duration: Int? = nil, rule: EventRule? = nil, lastDay: CivilDay? = nil,
                summary: String, location: String? = nil, description: String? = nil) {
        (self.day, self.time, self.duration, self.rule, self.lastDay) = (day, time, duration, rule, lastDay)
        (self.summary, self.location, self.description) = (summary, location, description)
    }

    /// The event to write, its times in `zone`: a timed event an hour long unless told, an
    /// all-day one a day long.
    public func event(zone: WritingZone) -> NewEvent {
        let start: ICalTime
        let end: ICalTime
        if let time {
            let local = day.seconds + time.start
            start = zone.time(ofLocal: local)
            let length: Int
            if let duration { length = duration } else if let endTime = time.end {
                let endDay = endTime < time.start ? day + 1 : day
                length = zone.utc(ofLocal: endDay.seconds + endTime) - zone.utc(ofLocal: local)
            } else {
                length = 3600
            }
            end = zone.time(ofUTC: zone.utc(ofLocal: local) + length)
        } else {
            start = ICalTime(seconds: day.seconds, form: .date)
            var days = 1
            if let duration { days = max(1, (duration + CivilTime.secondsPerDay - 1) / CivilTime.secondsPerDay) }
            if rule == nil, let lastDay { days = lastDay - day + 1 }
            end = ICalTime(seconds: (day + days).seconds, form: .date)
        }
        return NewEvent(summary: summary, start: start, end: end, rule: rule?.value(start: start, utcOfLocal: zone.utc(ofLocal:)),
                        location: location, description: description)
    }
}

/// What an edit changes; nil leaves a property as it is.
public struct EventChanges: Sendable {
    public var summary: String?
    public var location: String?
    public var description: String?
    /// A new day, keeping the time of day as written.
    public var day: CivilDay?
    /// A new start (and end) on the user's wall clock, seconds of the day.
    public var time: (start: Int, end: Int?)?
    /// A new length, seconds (whole days for an all-day event).
    public var duration: Int?
    /// A new rule, written in the form the event's DTSTART asks for.
    public var rule: EventRule?

    public init() {}

    /// Whether a change of start or length is asked (which needs the event read).
    var movesTime: Bool { day != nil || time != nil || duration != nil }

    /// Whether nothing at all is changed.
    public var isEmpty: Bool {
        summary == nil && location == nil && description == nil && day == nil && time == nil && duration == nil && rule == nil
    }
}
