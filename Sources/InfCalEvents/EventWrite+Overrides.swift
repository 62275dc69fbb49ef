import InfCalModel

// A moved series takes its overrides along: RFC 5545 §3.8.4.4 names an overridden instance
// by its original start (RECURRENCE-ID), which moves with DTSTART, or the overrides would
// name instances the series no longer has; its EXDATEs move too, or what they excluded
// would come back, and its RDATEs, or the instances they add would stay behind.

extension EventWrite {
    /// Where a whole series moved: its DTSTART before and after, and the zone of the first
    /// (to read a RECURRENCE-ID written in UTC in a zoned series' reckoning).
    struct SeriesMove {
        let from: ICalTime
        let to: ICalTime
        let zone: EventZone?

        /// `time` (a RECURRENCE-ID, or a DTSTART or DTEND equal to one) moved as the series
        /// moved: the same distance from the new DTSTART as from the old one, in the new
        /// DTSTART's form; a date stays a date while the series stays all-day.
        func moved(_ time: ICalTime) -> ICalTime {
            let offset: Int
            if from.isDate != time.isDate {
                // A date names the instance on that day (and the reverse): whole days apart.
                offset = (CivilTime.day(ofSeconds: time.seconds) - CivilTime.day(ofSeconds: from.seconds)) * CivilTime.secondsPerDay
            } else {
                offset = reckoned(time) - from.seconds
            }
            return ICalTime(seconds: to.seconds + offset, form: to.form)
        }

        /// `time` in the old DTSTART's reckoning: a UTC time on the old series' wall clock.
        private func reckoned(_ time: ICalTime) -> Int {
            guard case .utc = time.form else { return time.seconds }
            switch from.form {
            case .utc: return time.seconds
            case .zoned: return time.seconds + (zone?.offset(atUTC: time.seconds) ?? 0)
            case .date, .floating: return time.seconds
            }
        }
    }

    /// The SEQUENCE of `span` (RFC 5545 3.8.7.4), 0 when it has none, or one that does not
    /// read as a number of 0 or more. An override infcal writes gets one above the larger of
    /// its own and its series' (the master's before the change): a new override is a revision
    /// of the occurrence it overrides, which had the series' SEQUENCE.
    static func sequence(of span: ICalLayout.Span, in layout: ICalLayout) -> Int {
        let text = layout.ownLines(of: span).first { $0.line.name == "SEQUENCE" }?.line.value.trimmingSpaces
        return max(0, text.flatMap { Int($0) } ?? 0)
    }

    /// The changes that move the override `span` with its series: its RECURRENCE-ID (its
    /// RANGE kept), and, where it still starts at the time it overrides (only its text was
    /// changed), its DTSTART and DTEND by the same distance; an override moved on its own
    /// keeps its times.
    static func following(_ span: ICalLayout.Span, in layout: ICalLayout, _ move: SeriesMove) -> [CalendarEdit.Change] {
        let own = layout.ownLines(of: span).map(\.line)
        func time(_ name: String) -> (line: ICalLayout.Line, time: ICalTime)? {
            guard let line = own.first(where: { $0.name == name }) else { return nil }
            let isDate = line.parameter("VALUE")?.uppercased() == "DATE" ? true : nil
            return ICalTime.parse(line.value, isDate: isDate, zone: line.parameter("TZID")).map { (line, $0) }
        }
        guard let id = time("RECURRENCE-ID") else { return [] }
        let movedID = move.moved(id.time)
        var parameters = ICalText.parameters(of: movedID)
        if let range = id.line.parameter("RANGE") { parameters.append(("RANGE", range)) }
        var changes: [CalendarEdit.Change] = [
            .set(name: "RECURRENCE-ID", line: ICalText.property("RECURRENCE-ID", parameters, ICalText.value(of: movedID))),
        ]
        // Only an override of the same kind (date or date-time) keeps its length as it moves.
        guard let start = time("DTSTART"), start.time == id.time, movedID.isDate == id.time.isDate else { return changes }
        changes.append(.set(name: "DTSTART", line: ICalText.property("DTSTART", ICalText.parameters(of: movedID), ICalText.value(of: movedID))))
        if let end = time("DTEND"), end.time.isDate == start.time.isDate {
            let movedEnd = ICalTime(seconds: movedID.seconds + end.time.seconds - start.time.seconds, form: movedID.form)
            changes.append(.set(name: "DTEND", line: ICalText.property("DTEND", ICalText.parameters(of: movedEnd), ICalText.value(of: movedEnd))))
        }
        return changes
    }

    /// The master's `name` lines (EXDATE or RDATE) moved with the series, so that an excluded
    /// instance stays excluded and an added one keeps its place beside the others: each DATE
    /// or DATE-TIME value moves as a RECURRENCE-ID does, a PERIOD (RFC 5545 §3.8.5.2) by its
    /// start, and its explicit end by the same distance (a duration stays as written). A line
    /// with a value that does not read, or a period the moved series cannot write (a date has
    /// no time to start at), stays as it is.
    static func movedDates(_ name: String, _ span: ICalLayout.Span, in layout: ICalLayout, _ move: SeriesMove) -> [CalendarEdit.Change] {
        let lines = layout.ownLines(of: span).map(\.line).filter { $0.name == name }
        var texts: [String] = []
        for line in lines {
            let isDate = line.parameter("VALUE")?.uppercased() == "DATE" ? true : nil
            let isPeriod = line.parameter("VALUE")?.uppercased() == "PERIOD"
            let zone = line.parameter("TZID")
            var first: ICalTime?
            var values: [String] = []
            let pieces = line.value.split(separator: ",")
            for piece in pieces {
                let slash = piece.firstIndex(of: "/")
                guard let start = ICalTime.parse(piece[..<(slash ?? piece.endIndex)], isDate: isDate, zone: zone) else { break }
                let moved = move.moved(start)
                first = first ?? moved
                guard let slash else {
                    values.append(ICalText.value(of: moved))
                    continue
                }
                let rest = piece[piece.index(after: slash)...]
                guard !moved.isDate else { break }
                if ICalTime.parseDuration(rest) != nil {
                    values.append(ICalText.value(of: moved) + "/" + rest)
                } else if let end = ICalTime.parse(rest, isDate: false, zone: zone) {
                    values.append(ICalText.value(of: moved) + "/" + ICalText.value(of: move.moved(end)))
                } else {
                    break
                }
            }
            guard let first, values.count == pieces.count else {
                texts.append(String(decoding: line.text, as: UTF8.self))
                continue
            }
            let parameters = (isPeriod ? [("VALUE", "PERIOD")] : []) + ICalText.parameters(of: first)
            texts.append(ICalText.property(name, parameters, values.joined(separator: ",")))
        }
        guard let first = texts.first else { return [] }
        // The first in its place, the others after the component's own properties.
        return [.set(name: name, line: first)] + texts.dropFirst().map { .append(line: $0) }
    }
}
