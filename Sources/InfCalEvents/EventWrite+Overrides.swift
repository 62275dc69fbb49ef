import InfCalModel

// A moved series takes its overrides along: RFC 5545 §3.8.4.4 names an overridden instance
// by its original start (RECURRENCE-ID), which moves with DTSTART, or the overrides would
// name instances the series no longer has.

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
}
