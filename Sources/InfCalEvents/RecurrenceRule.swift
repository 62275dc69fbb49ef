import InfCalModel

/// An RRULE (RFC 5545 §3.3.10, with RFC 7529's RSCALE and SKIP), as written.
public struct RecurrenceRule: Equatable, Sendable {
    /// FREQ, finest first so that `<` means "finer than".
    public enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }

        /// The FREQ named `name` (upper case), or nil. A switch, not a dictionary: the first
        /// dictionary keyed by strings makes the runtime look up a conformance by scanning every
        /// conformance of the static binary, on the way of every run that reads a rule.
        static func named(_ name: String) -> Frequency? {
            switch name {
            case "SECONDLY": return .secondly
            case "MINUTELY": return .minutely
            case "HOURLY": return .hourly
            case "DAILY": return .daily
            case "WEEKLY": return .weekly
            case "MONTHLY": return .monthly
            case "YEARLY": return .yearly
            default: return nil
            }
        }
    }

    /// A BYDAY entry: weekday 0 (Monday) ... 6 (Sunday), and its ordinal (0: every one).
    public struct WeekdayNumber: Equatable, Hashable, Sendable {
        public var weekday: Int
        public var ordinal: Int
    }

    /// A BYMONTH entry: month number and whether it names the leap month (`5L`).
    public struct MonthNumber: Equatable, Hashable, Sendable {
        public var month: Int
        public var isLeap: Bool
    }

    /// RFC 7529 SKIP: what an invalid day or month becomes.
    public enum Skip: String, Sendable { case omit = "OMIT", backward = "BACKWARD", forward = "FORWARD" }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: ICalTime?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayNumber] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [MonthNumber] = []
    public var bySetPos: [Int] = []
    /// WKST, 0 Monday ... 6 Sunday.
    public var weekStart = 0
    /// RSCALE, upper case; nil is Gregorian.
    public var scale: String?
    public var skip: Skip = .omit
    /// Parts read leniently and left out, said in a few words (`COUNT=-1 ignored`).
    public var notes: [String] = []

    public init(frequency: Frequency) {
        self.frequency = frequency
    }

    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Parses an RRULE value.
    /// - returns: nil for an empty value (`RRULE:` is no rule).
    /// - throws: `ICalError` naming the part and value that are wrong.
    public static func parse(_ text: String) throws(ICalError) -> RecurrenceRule? {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return nil }
        var parts: [(String, String)] = []
        for piece in trimmed.split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = piece.firstIndex(of: "=") else { throw ICalError("RRULE: '\(InertText.echo(String(piece), limit: 40))' is no NAME=VALUE part") }
            parts.append((piece[..<equals].uppercased(), String(piece[piece.index(after: equals)...])))
        }
        guard let freqText = parts.first(where: { $0.0 == "FREQ" })?.1 else { throw ICalError("RRULE: no FREQ") }
        guard let frequency = Frequency.named(freqText.uppercased()) else {
            throw ICalError("RRULE: unknown FREQ '\(InertText.echo(String(freqText), limit: 40))'")
        }
        var rule = RecurrenceRule(frequency: frequency)
        // The standard parts in a list, for the reason `Frequency.named` gives (there are few:
        // any other name but an X- one throws below); X- parts, as many as written, in a set.
        var seen: [String] = []
        var seenExtensions = Set<String>()
        for (name, value) in parts {
            let isExtension = name.hasPrefix("X-")
            guard isExtension ? seenExtensions.insert(name).inserted : !seen.contains(name) else {
                throw ICalError("RRULE: \(name) given twice")
            }
            if !isExtension { seen.append(name) }
            let upper = value.uppercased()
            switch name {
            case "FREQ": break
            case "INTERVAL": rule.interval = try number(value, name, 1...1_000_000)
            case "COUNT":
                if let given = Int(value.trimmingSpaces), given <= 0 {
                    // Some exporters (Confluence) write COUNT=-1 beside UNTIL: no count at all.
                    rule.notes.append("RRULE: COUNT=\(given) is not positive; ignored")
                } else {
                    rule.count = try number(value, name, 1...Int(Int32.max))
                }
            case "UNTIL":
                guard let until = ICalTime.parse(value, isDate: nil, zone: nil) else {
                    throw ICalError("RRULE: UNTIL '\(InertText.echo(String(value), limit: 40))' is no date or date-time")
                }
                rule.until = until
            case "BYSECOND": rule.bySecond = try list(value, name, 0...60, signed: false)
            case "BYMINUTE": rule.byMinute = try list(value, name, 0...59, signed: false)
            case "BYHOUR": rule.byHour = try list(value, name, 0...23, signed: false)
            case "BYMONTHDAY": rule.byMonthDay = try list(value, name, 1...31, signed: true)
            case "BYYEARDAY": rule.byYearDay = try list(value, name, 1...366, signed: true)
            case "BYWEEKNO": rule.byWeekNo = try list(value, name, 1...53, signed: true)
            case "BYSETPOS": rule.bySetPos = try list(value, name, 1...366, signed: true)
            case "BYDAY": rule.byDay = try weekdays(upper)
            case "BYMONTH": rule.byMonth = try months(upper)
            case "WKST":
                guard let day = weekdayNames.firstIndex(of: upper) else { throw ICalError("RRULE: unknown WKST '\(InertText.echo(String(value), limit: 40))'") }
                rule.weekStart = day
            case "RSCALE": rule.scale = upper
            case "SKIP":
                guard let skip = Skip(rawValue: upper) else { throw ICalError("RRULE: unknown SKIP '\(InertText.echo(String(value), limit: 40))'") }
                rule.skip = skip
            default:
                if !name.hasPrefix("X-") { throw ICalError("RRULE: unknown part '\(InertText.echo(String(name), limit: 40))'") }
            }
        }
        if rule.count != nil, rule.until != nil { throw ICalError("RRULE: COUNT and UNTIL together") }
        if let scale = rule.scale, !RecurrenceScales.names.contains(scale) {
            throw ICalError("RRULE: unsupported RSCALE '\(InertText.echo(String(scale), limit: 40))'")
        }
        if rule.scale == nil, let leap = rule.byMonth.first(where: { $0.isLeap || $0.month > 12 }) {
            throw ICalError("RRULE: BYMONTH \(leap.month)\(leap.isLeap ? "L" : "") needs an RSCALE")
        }
        return rule
    }

    private static func number(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws(ICalError) -> Int {
        guard let value = Int(text.trimmingSpaces), range.contains(value) else {
            throw ICalError("RRULE: \(name) '\(InertText.echo(String(text), limit: 40))' is not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func list(_ text: String, _ name: String, _ range: ClosedRange<Int>, signed: Bool) throws(ICalError) -> [Int] {
        var values: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Int(item.hasPrefix("+") ? item.dropFirst() : item),
                  range.contains(signed ? abs(value) : value) else {
                throw ICalError("RRULE: \(name) value '\(InertText.echo(String(item), limit: 40))' is out of range \(signed ? "±" : "")\(range.lowerBound)...\(range.upperBound)")
            }
            values.append(value)
        }
        return values
    }

    private static func weekdays(_ text: String) throws(ICalError) -> [WeekdayNumber] {
        var values: [WeekdayNumber] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard item.count >= 2, let day = weekdayNames.firstIndex(of: String(item.suffix(2))) else {
                throw ICalError("RRULE: BYDAY value '\(InertText.echo(String(item), limit: 40))' is no weekday")
            }
            let prefix = item.dropLast(2)
            var ordinal = 0
            if !prefix.isEmpty {
                guard let n = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), n != 0, abs(n) <= 53 else {
                    throw ICalError("RRULE: BYDAY value '\(InertText.echo(String(item), limit: 40))' has a bad ordinal")
                }
                ordinal = n
            }
            values.append(WeekdayNumber(weekday: day, ordinal: ordinal))
        }
        return values
    }

    private static func months(_ text: String) throws(ICalError) -> [MonthNumber] {
        var values: [MonthNumber] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let isLeap = item.hasSuffix("L")
            guard let month = Int(isLeap ? item.dropLast() : item), (1...13).contains(month) else {
                throw ICalError("RRULE: BYMONTH value '\(InertText.echo(String(item), limit: 40))' is no month")
            }
            values.append(MonthNumber(month: month, isLeap: isLeap))
        }
        return values
    }
}

/// What is wrong with a value, said in a few words (`RRULE: unknown FREQ 'FORTNIGHTLY'`).
public struct ICalError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    public var trimmingSpaces: String {
        let bytes = Array(utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if start == 0, end == bytes.count { return String(self) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
