import InfCalModel

/// One VALARM of an event, read and checked (RFC 5545 §3.6.6, with RFC 9074's UID,
/// ACKNOWLEDGED and snoozes). An override of a recurring event has its own alarms (it replaces
/// the whole component), so an override without VALARM has none.
public struct EventAlarm: Sendable, Equatable {
    /// What the alarm does (ACTION). EMAIL is shown, never mailed.
    public enum Action: String, Sendable, Equatable, CaseIterable {
        case display = "DISPLAY"
        case audio = "AUDIO"
        case email = "EMAIL"
    }

    /// A length as RFC 5545 §3.3.6 reckons it: nominal days (`P1D`, `P1W`: the same
    /// wall-clock time that many days away, however long the days are) and exact seconds
    /// (`PT15M`); negative for a length back in time.
    public struct Offset: Sendable, Equatable, Hashable {
        public var days: Int
        public var seconds: Int

        /// `days` nominal days and `seconds` exact seconds (both of one sign, as written).
        public init(days: Int = 0, seconds: Int = 0) {
            self.days = days
            self.seconds = seconds
        }

        /// The length in seconds with every day 24 hours long (a day with a change of offset
        /// is an hour more or less).
        public var nominalSeconds: Int { days * CivilTime.secondsPerDay + seconds }

        /// Parses a DURATION value (`-PT15M`, `P1D`, `-P1DT2H`, `P2W`) into its days and seconds.
        /// - returns: nil when `text` is no duration.
        public init?(duration text: some StringProtocol) {
            var trimmed = Substring(text)
            while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
            while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
            guard let total = ICalTime.parseDuration(trimmed) else { return nil }
            // The days are what comes before T: their part of the total, counted again.
            let sign = trimmed.first == "-" ? -1 : 1
            var dayPart = trimmed.drop { $0 == "+" || $0 == "-" }.dropFirst()
            if let t = dayPart.firstIndex(where: { $0 == "T" || $0 == "t" }) { dayPart = dayPart[..<t] }
            var days = 0
            if !dayPart.isEmpty {
                guard let nominal = ICalTime.parseDuration("P" + dayPart) else { return nil }
                days = sign * nominal / CivilTime.secondsPerDay
            }
            self.init(days: days, seconds: total - days * CivilTime.secondsPerDay)
        }

        /// The DURATION value of this length: `-PT15M`, `-P1D`, `PT0S`, `P1DT2H` (days and
        /// seconds of the same sign, as RFC 5545 writes one).
        public var duration: String {
            let negative = days < 0 || seconds < 0
            let (dayCount, rest) = (abs(days), abs(seconds))
            let text = negative ? "-P" : "P"
            if dayCount > 0, dayCount % 7 == 0, rest == 0 { return text + "\(dayCount / 7)W" }
            let days = dayCount > 0 ? "\(dayCount)D" : ""
            return text + days + (rest > 0 || dayCount == 0 ? ICalText.timePart(rest) : "")
        }
    }

    /// When the alarm fires (TRIGGER).
    public enum Trigger: Sendable, Equatable {
        /// That long after the start of each occurrence (negative: before it); an all-day
        /// occurrence starts at local midnight of its day in the display zone.
        case start(Offset)
        /// That long after the end of each occurrence (`RELATED=END`).
        case end(Offset)
        /// Once, at an instant (`VALUE=DATE-TIME`): UTC civil seconds (seconds since 1970).
        case absolute(Int)
        /// Once, at a wall-clock time of the display zone (a floating `VALUE=DATE-TIME`,
        /// which RFC 5545 forbids and some programs write): civil seconds.
        case floating(Int)

        /// The offset of a relative trigger; nil for an absolute one.
        public var offset: Offset? {
            switch self {
            case .start(let offset), .end(let offset): return offset
            case .absolute, .floating: return nil
            }
        }
    }

    public var action: Action
    public var trigger: Trigger
    /// How many more times it fires after the first (REPEAT), `interval` apart (DURATION);
    /// 0 without both.
    public var repeatCount: Int
    public var interval: Offset
    /// DESCRIPTION (what a DISPLAY alarm shows, an EMAIL's body), escapes undone; "" when none.
    public var description: String
    /// SUMMARY (an EMAIL's subject); "" when none.
    public var summary: String
    /// The alarm's own UID (RFC 9074 §4), trimmed; nil when it has none.
    public var uid: String?
    /// When it was last acknowledged (RFC 9074 §6, ACKNOWLEDGED), UTC civil seconds; nil when
    /// never. An instance firing at or before this is acknowledged.
    public var acknowledged: Int?
    /// The UID of the alarm this one snoozes (`RELATED-TO;RELTYPE=SNOOZE`, RFC 9074 §7);
    /// nil for an alarm that snoozes none.
    public var snoozes: String?
    /// The line of its BEGIN:VALARM.
    public var line: Int

    /// An alarm as read (the reader fills in what the VALARM gives).
    public init(action: Action, trigger: Trigger, repeatCount: Int = 0, interval: Offset = Offset(), description: String = "",
                summary: String = "", uid: String? = nil, acknowledged: Int? = nil, snoozes: String? = nil, line: Int = 0) {
        self.action = action
        self.trigger = trigger
        self.repeatCount = repeatCount
        self.interval = interval
        self.description = description
        self.summary = summary
        self.uid = uid
        self.acknowledged = acknowledged
        self.snoozes = snoozes
        self.line = line
    }

    /// The most times one alarm fires (REPEAT beyond this is cut to it).
    public static let mostRepeats = 100
    /// The most alarms read from one component (those after are left out).
    public static let mostPerComponent = 64
}
