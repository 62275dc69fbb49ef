import Foundation
import InfCalModel

/// A zone that turns wall-clock civil seconds into UTC and back: an IANA zone through
/// Foundation, a file's own VTIMEZONE rules, or UTC. Offsets are kept per day once found.
public final class EventZone {
    enum Source {
        case utc
        case foundation(TimeZone)
        case rules(VTimeZoneRules)
        /// A Foundation zone read from a cache with its changes of offset for the spans that
        /// cache holds (`storedSpans`), made from its identifier only when asked beyond them.
        case named(String)
    }

    let source: Source
    /// Seconds in one span of cached offsets (an average Gregorian year).
    static let span = 31_556_952
    /// The changes of offset of the spans found so far, one run each in `changeRuns`: the
    /// number of changes, then each one's instant and offset; `runOfSpan` says where the run
    /// of each span begins. Plain integers, not a dictionary of arrays of tuples.
    @exclusivity(unchecked) private var runOfSpan = IntWindow(limit: keptSpans)
    @exclusivity(unchecked) private var changeRuns: [Int] = []
    @exclusivity(unchecked) private var lastBucket = Int.min
    @exclusivity(unchecked) private var lastRun = 0
    /// At most this many spans are kept at once (a walk of ten thousand years starts over).
    static let keptSpans = 10_000
    /// The Foundation zone of a `.named` one, once made.
    @exclusivity(unchecked) private var madeZone: TimeZone?
    /// The spans whose changes a cache stores with a Foundation zone: the years most shown,
    /// 1990 to 2059 (a span is an average Gregorian year from 1970).
    static let storedSpans = 20..<90
    /// The version of the zone data Foundation's zones come from: a cache's stored changes of
    /// offset are used only under the same.
    static let dataVersion = TimeZone.timeZoneDataVersion

    /// Appends to `runs` the offset at `from` and every change of offset up to `to` (UTC civil
    /// seconds), as a run: how many, then each one's instant (the first `Int.min`) and offset.
    static func appendChanges(of zone: TimeZone, from: Int, to: Int, to runs: inout [Int]) {
        var date = Date(timeIntervalSince1970: TimeInterval(from))
        let countAt = runs.count
        runs.append(1)
        runs.append(Int.min)
        runs.append(zone.secondsFromGMT(for: date))
        var count = 1
        while count < 16, let next = zone.nextDaylightSavingTimeTransition(after: date),
              next.timeIntervalSince1970 < TimeInterval(to) {
            runs.append(Int(next.timeIntervalSince1970.rounded(.down)))
            runs.append(zone.secondsFromGMT(for: next))
            count += 1
            date = next
        }
        runs[countAt] = count
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
        case .foundation, .named:
            // The zone's changes of offset in the year-long span holding `utc`, found once.
            let bucket = CivilTime.floorDiv(utc, Self.span)
            if bucket != lastBucket {
                if let known = runOfSpan.value(at: bucket) {
                    lastRun = known
                } else {
                    // A zone a cache named was made from its identifier when the cache was built.
                    guard let zone = foundationZone else { return 0 }
                    lastRun = changeRuns.count
                    Self.appendChanges(of: zone, from: bucket * Self.span - CivilTime.secondsPerDay,
                                       to: (bucket + 1) * Self.span + CivilTime.secondsPerDay, to: &changeRuns)
                    keep(run: lastRun, ofSpan: bucket)
                }
                lastBucket = bucket
            }
            let count = changeRuns[lastRun]
            var offset = changeRuns[lastRun + 2]
            var at = lastRun + 3
            for _ in 1..<max(1, count) {
                if changeRuns[at] <= utc { offset = changeRuns[at + 1] }
                at += 2
            }
            return offset
        case .rules(let rules):
            return rules.offset(atUTC: utc)
        }
    }

    /// The Foundation zone that gives the offsets, if any.
    var foundationZone: TimeZone? {
        switch source {
        case .foundation(let zone): return zone
        case .named(let identifier):
            if madeZone == nil { madeZone = TimeZone(identifier: identifier) }
            return madeZone
        case .utc, .rules: return nil
        }
    }

    /// The identifier of a Foundation zone (`.foundation` or `.named`).
    /// The identifier of a Foundation zone made from one (not from a cache), else nil.
    var foundationIdentifier: String? {
        if case .foundation(let zone) = source { return zone.identifier }
        return nil
    }

    var identifier: String? {
        switch source {
        case .foundation(let zone): return zone.identifier
        case .named(let identifier): return identifier
        case .utc, .rules: return nil
        }
    }

    /// The changes of offset of the spans `spans`, one span after the other: how many, the
    /// offset at its start, then each later change's instant (from the span's start) and
    /// offset. What a cache stores with a Foundation zone, in small numbers.
    func changeRuns(of spans: Range<Int>) -> [Int] {
        var runs: [Int] = []
        for span in spans {
            _ = offset(atUTC: span * Self.span)
            let count = changeRuns[lastRun]
            runs.append(count)
            runs.append(changeRuns[lastRun + 2])
            for change in 1..<max(1, count) {
                runs.append(changeRuns[lastRun + 1 + 2 * change] - span * Self.span)
                runs.append(changeRuns[lastRun + 2 + 2 * change])
            }
        }
        return runs
    }

    /// Takes `runs` (as `changeRuns(of:)` gives them) as the changes of offset of `spans`.
    /// - returns: false when they are not runs of that many spans.
    /// Only the spans in `kept` are taken (the rest are checked for their shape alone): a
    /// span not taken is worked out from the zone's identifier if it is ever asked, as
    /// reading the file does.
    func store(_ runs: [Int], of spans: Range<Int>, keeping kept: Range<Int>? = nil) -> Bool {
        changeRuns.reserveCapacity(changeRuns.count + min(runs.count, 4 * (kept ?? spans).count + spans.count))
        var place = 0
        for span in spans {
            guard place + 1 < runs.count else { return false }
            let count = runs[place]
            guard (1...16).contains(count), runs.count - place - 2 >= 2 * (count - 1) else { return false }
            if let kept, !kept.contains(span) {
                place += 2 * count
                continue
            }
            let run = changeRuns.count
            changeRuns.append(count)
            changeRuns.append(Int.min)
            changeRuns.append(runs[place + 1])
            place += 2
            for _ in 1..<count {
                guard runs[place] >= -CivilTime.secondsPerDay, runs[place] <= Self.span + CivilTime.secondsPerDay else { return false }
                changeRuns.append(runs[place] + span * Self.span)
                changeRuns.append(runs[place + 1])
                place += 2
            }
            keep(run: run, ofSpan: span)
        }
        return place == runs.count
    }

    /// Records that the run of span `span` begins at `run`.
    private func keep(run: Int, ofSpan span: Int) {
        if runOfSpan.set(run, at: span) {
            // Started over with this span alone: its run alone is kept.
            changeRuns.removeSubrange(0..<run)
            runOfSpan.set(0, at: span)
            if lastRun == run { lastRun = 0 }
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
/// table, then the file's own VTIMEZONE, then a Windows display name (`(UTC+01:00) Amsterdam,
/// Berlin, ...`, as Outlook writes TZID) through CLDR's table, else UTC (and the reader warns
/// once).
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
        if let definition = definitions[name] ?? definitions[trimmed],
           let rules = VTimeZoneRules(definition, document: document, warn: { self.notes.append(($0, $1)) }) {
            return EventZone(.rules(rules))
        }
        if let iana = WindowsZones.iana(forDisplayName: trimmed), let zone = TimeZone(identifier: iana) {
            return EventZone(.foundation(zone))
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
