import Foundation
import InfCalModel

/// A zone that turns wall-clock civil seconds into UTC and back: an IANA zone through
/// Foundation, a file's own VTIMEZONE rules, or UTC. Offsets are kept per day once found.
public final class EventZone {
    enum Source {
        case utc
        case foundation(TimeZone)
        case rules(VTimeZoneRules)
    }

    let source: Source
    /// Seconds in one span of cached offsets (an average Gregorian year).
    static let span = 31_556_952
    private var spans: [Int: [(at: Int, offset: Int)]] = [:]
    private var lastBucket = Int.min
    private var lastChanges: [(at: Int, offset: Int)] = []

    /// The offset at `from` and at every change of offset up to `to` (UTC civil seconds).
    static func changes(of zone: TimeZone, from: Int, to: Int) -> [(at: Int, offset: Int)] {
        var date = Date(timeIntervalSince1970: TimeInterval(from))
        var result = [(at: Int.min, offset: zone.secondsFromGMT(for: date))]
        while result.count < 16, let next = zone.nextDaylightSavingTimeTransition(after: date),
              next.timeIntervalSince1970 < TimeInterval(to) {
            result.append((Int(next.timeIntervalSince1970.rounded(.down)), zone.secondsFromGMT(for: next)))
            date = next
        }
        return result
    }

    init(_ source: Source) {
        self.source = source
    }

    /// A new UTC zone.
    public static var utc: EventZone { EventZone(.utc) }

    /// The zone's offset from UTC, in seconds, at `utc` (civil seconds in UTC).
    public func offset(atUTC utc: Int) -> Int {
        switch source {
        case .utc: return 0
        case .foundation(let zone):
            // The zone's changes of offset in the year-long span holding `utc`, found once.
            let bucket = CivilTime.floorDiv(utc, Self.span)
            if bucket != lastBucket {
                if let known = spans[bucket] {
                    lastChanges = known
                } else {
                    lastChanges = Self.changes(of: zone, from: bucket * Self.span - CivilTime.secondsPerDay,
                                               to: (bucket + 1) * Self.span + CivilTime.secondsPerDay)
                    if spans.count < 10_000 { spans[bucket] = lastChanges }
                }
                lastBucket = bucket
            }
            var offset = lastChanges.first?.offset ?? 0
            for change in lastChanges where change.at <= utc { offset = change.offset }
            return offset
        case .rules(let rules):
            return rules.offset(atUTC: utc)
        }
    }

    /// UTC civil seconds of the wall-clock time `local` in this zone. A time skipped by a
    /// change of offset is read with the offset before it (RFC 5545 §3.3.5); a repeated one is
    /// its first occurrence.
    public func utc(ofLocal local: Int) -> Int {
        CivilTime.utc(ofLocal: local) { self.offset(atUTC: $0) }
    }
}

/// Finds the zone a TZID names: IANA names through Foundation, Windows names through CLDR's
/// table, then the file's own VTIMEZONE, else UTC (and the reader warns once).
final class ZoneResolver {
    private var known: [String: EventZone?] = [:]
    private let definitions: [String: Component]
    private let document: ICalDocument
    /// What reading the file's VTIMEZONEs had to guess (an observance rule denser than
    /// yearly, used as one transition), with its line.
    private(set) var notes: [(line: Int, message: String)] = []

    init(document: ICalDocument, definitions: [String: Component]) {
        self.document = document
        self.definitions = definitions
    }

    /// The zone `name` names, or nil when nothing knows it.
    func zone(named name: String) -> EventZone? {
        if let found = known[name] { return found }
        let zone = lookUp(name)
        known[name] = zone
        return zone
    }

    private func lookUp(_ name: String) -> EventZone? {
        var trimmed = name.trimmingSpaces
        // Some exporters prefix a path ("/mozilla.org/20050126_1/Europe/Berlin").
        if trimmed.hasPrefix("/") {
            let parts = trimmed.split(separator: "/")
            if parts.count >= 2 { trimmed = parts.suffix(2).joined(separator: "/") }
        }
        if trimmed == "UTC" || trimmed == "GMT" || trimmed == "Etc/UTC" || trimmed == "Z" { return .utc }
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) { return EventZone(.foundation(zone)) }
        if let iana = WindowsZones.table[trimmed], let zone = TimeZone(identifier: iana) { return EventZone(.foundation(zone)) }
        if let definition = definitions[name],
           let rules = VTimeZoneRules(definition, document: document, warn: { self.notes.append(($0, $1)) }) {
            return EventZone(.rules(rules))
        }
        if let zone = TimeZone(identifier: trimmed) { return EventZone(.foundation(zone)) }
        return nil
    }
}

/// A VTIMEZONE's STANDARD and DAYLIGHT observances: each begins at its DTSTART and again at
/// every instance of its RRULE and RDATEs, and sets TZOFFSETTO.
final class VTimeZoneRules {
    struct Observance {
        let offsetFrom: Int
        let offsetTo: Int
        let expander: RecurrenceExpander?
        let onsets: [Int]
    }

    let observances: [Observance]
    private var cache: [Int: Int] = [:]

    /// Whether `rule` recurs at most as often as a real zone's observance does: yearly, in one
    /// month, on one weekday or a week's worth of month days (`BYMONTHDAY=8,...,14;BYDAY=SU`,
    /// as old exporters write the second Sunday), at one time of day.
    static func isYearlyAtMost(_ rule: RecurrenceRule) -> Bool {
        rule.frequency == .yearly && rule.byMonth.count <= 1 && rule.byDay.count <= 1 && rule.byMonthDay.count <= 7
            && rule.byYearDay.count <= 1 && rule.byWeekNo.count <= 1 && rule.byHour.count <= 1 && rule.byMinute.count <= 1
            && rule.bySecond.count <= 1
    }

    /// The rules of the VTIMEZONE `component`; `warn` hears of an observance whose RRULE
    /// recurs more often than `isYearlyAtMost` allows, which is used as a single transition
    /// at its DTSTART (and RDATEs), so that no file can make every offset cost a dense rule's
    /// expansion. Nil when it has no observance that can be read.
    init?(_ component: Component, document: ICalDocument, warn: (Int, String) -> Void = { _, _ in }) {
        var observances: [Observance] = []
        for child in component.children where child.name == "STANDARD" || child.name == "DAYLIGHT" {
            guard let startLine = child.first("DTSTART"),
                  let start = ICalTime.parse(document.rawValue(startLine), isDate: false, zone: nil),
                  let to = child.first("TZOFFSETTO").flatMap({ Self.offset(document.rawValue($0)) }) else { continue }
            let from = child.first("TZOFFSETFROM").flatMap { Self.offset(document.rawValue($0)) } ?? to
            var expander: RecurrenceExpander?
            if let ruleLine = child.first("RRULE"), let rule = try? RecurrenceRule.parse(document.rawValue(ruleLine)),
               Self.isYearlyAtMost(rule) || { warn(ruleLine.line, "VTIMEZONE \(child.name) RRULE recurs more often than yearly; "
                                               + "used as a single transition at its DTSTART"); return false }() {
                // UNTIL in UTC, turned into the wall clock before the onset.
                let until = rule.until.map { $0.form == .utc ? $0.seconds + from : $0.seconds }
                expander = RecurrenceExpander(rule: rule, start: start.seconds, isDate: false, until: until)
            }
            var onsets = [start.seconds]
            for line in child.properties where line.name == "RDATE" {
                for piece in document.rawValue(line).split(separator: ",") {
                    if let date = ICalTime.parse(piece, isDate: false, zone: nil) { onsets.append(date.seconds) }
                }
            }
            observances.append(Observance(offsetFrom: from, offsetTo: to, expander: expander, onsets: onsets.sorted()))
        }
        guard !observances.isEmpty else { return nil }
        self.observances = observances
    }

    /// Rules from observances already read (the event cache's); nil when there are none.
    init?(observances: [Observance]) {
        guard !observances.isEmpty else { return nil }
        self.observances = observances
    }

    /// "+0100", "-0530", "+013045" in seconds.
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.trimmingSpaces.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == 0x2B || bytes[0] == 0x2D else { return nil }
        var digits: [Int] = []
        for byte in bytes.dropFirst() {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            digits.append(Int(byte - 0x30))
        }
        let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
            + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
        return bytes[0] == 0x2D ? -seconds : seconds
    }

    /// The offset at `utc`: TZOFFSETTO of the latest onset at or before it; before all onsets,
    /// TZOFFSETFROM of the first.
    func offset(atUTC utc: Int) -> Int {
        let hour = CivilTime.floorDiv(utc, 3600)
        if let known = cache[hour] { return known }
        var best: (onset: Int, offset: Int)?
        var earliest: (onset: Int, offset: Int)?
        let window = (utc - 400 * CivilTime.secondsPerDay)..<(utc + 2 * CivilTime.secondsPerDay)
        for observance in observances {
            // The onsets (sorted) that matter: the first, and the latest at or before `utc`.
            var candidates: [Int] = []
            let onsets = observance.onsets
            if let first = onsets.first { candidates.append(first) }
            var lower = 0
            var upper = onsets.count
            while lower < upper {
                let middle = (lower + upper) / 2
                if onsets[middle] - observance.offsetFrom <= utc { lower = middle + 1 } else { upper = middle }
            }
            if lower > 0 { candidates.append(onsets[lower - 1]) }
            if let expander = observance.expander { candidates += expander.instances(in: window) }
            for local in candidates {
                let onset = local - observance.offsetFrom
                if earliest.map({ onset < $0.onset }) ?? true { earliest = (onset, observance.offsetFrom) }
                if onset <= utc, best.map({ onset > $0.onset }) ?? true { best = (onset, observance.offsetTo) }
            }
        }
        let result = best?.offset ?? earliest?.offset ?? 0
        if cache.count < 100_000 { cache[hour] = result }
        return result
    }
}
