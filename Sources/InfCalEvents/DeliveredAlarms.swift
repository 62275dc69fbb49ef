import InfCalModel

/// What `infcal remind` has delivered: the firings done, by their keys, and a horizon before
/// which every firing counts as done. Kept in a small text file (`text`, `init(parsing:)`),
/// which the terminal layer reads and writes under a lock, atomically.
public struct DeliveredAlarms: Equatable, Sendable {
    /// Every firing before this instant (UTC seconds) counts as delivered: a first run sets it
    /// to a little before it starts (`firstRun(now:)`), and pruning moves it up.
    public var horizon: Int
    /// The firings delivered at or after the horizon, each with the instant it fired.
    public var delivered: [AlarmKey: Int]

    /// A record of `delivered` firings, all before `horizon` done.
    public init(horizon: Int, delivered: [AlarmKey: Int] = [:]) {
        self.horizon = horizon
        self.delivered = delivered
    }

    /// How far back a first run delivers: 10 minutes.
    public static let firstLookBack = 600
    /// How long a delivered firing is remembered: 6 weeks (longer than any lateness a
    /// watcher or a one-shot run from cron is likely to catch up on).
    public static let keptFor = 42 * CivilTime.secondsPerDay

    /// The state of a first run at `now`: nothing delivered, nothing older than 10 minutes due.
    public static func firstRun(now: Int) -> DeliveredAlarms {
        DeliveredAlarms(horizon: now - firstLookBack)
    }

    /// Whether the firing with `key`, at `fires`, is done: before the horizon, or delivered.
    public func isDone(_ key: AlarmKey, fires: Int) -> Bool {
        fires < horizon || delivered[key] != nil
    }

    /// Whether `instance` is to be delivered: not acknowledged in its calendar, not done.
    public func isDue(_ instance: AlarmInstance) -> Bool {
        !instance.isAcknowledged && !isDone(instance.key, fires: instance.fires)
    }

    /// Records `instance` as delivered.
    public mutating func record(_ instance: AlarmInstance) {
        delivered[instance.key] = instance.fires
    }

    /// Forgets the firings before `keptFor` ago at `now`, and moves the horizon up to there, so
    /// that what is forgotten still counts as done.
    public mutating func prune(now: Int) {
        let limit = now - Self.keptFor
        guard limit > horizon else { return }
        horizon = limit
        delivered = delivered.filter { $0.value >= limit }
    }

    // MARK: The file

    static let header = "infcal delivered alarms 1"

    /// The file's text: a header, the horizon, then one line a firing (the instant it fired,
    /// the occurrence, the repetition, then calendar, UID and alarm, tab-separated with
    /// backslash, tab and line breaks escaped), in order.
    public var text: String {
        var lines = [Self.header, "horizon \(horizon)"]
        for (key, fired) in delivered.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            lines.append(["\(fired)", "\(key.occurrence)", "\(key.repetition)", Self.escaped(key.calendar), Self.escaped(key.uid),
                          Self.escaped(key.alarm)].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The state a file's bytes hold; nil when they are not such a file (another version, or
    /// damaged: a line cut short, a number that is none).
    public init?(parsing bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.header, lines.last == "", lines[1].hasPrefix("horizon "),
              let horizon = Int(lines[1].dropFirst("horizon ".count)) else { return nil }
        var delivered: [AlarmKey: Int] = [:]
        for line in lines.dropFirst(2).dropLast() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let fired = Int(fields[0]), let occurrence = Int(fields[1]), let repetition = Int(fields[2]),
                  let calendar = Self.unescaped(fields[3]), let uid = Self.unescaped(fields[4]), let alarm = Self.unescaped(fields[5])
            else { return nil }
            delivered[AlarmKey(calendar: calendar, uid: uid, occurrence: occurrence, alarm: alarm, repetition: repetition)] = fired
        }
        self.init(horizon: horizon, delivered: delivered)
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// `escaped` undone; nil for a backslash before anything else, or at the end.
    private static func unescaped(_ text: Substring) -> String? {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "\\": out += "\\"
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: return nil
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return escaping ? nil : out
    }
}
