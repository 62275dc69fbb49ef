import InfCalModel

extension EventStore {
    /// The occurrences of the shown calendars that overlap the span from `start` to `end` (UTC
    /// civil seconds, `end` exclusive; an empty span overlaps what holds its instant): what an
    /// invitation clashes with. Timed occurrences are compared as instants; all-day and
    /// floating ones by the display zone's wall clock, as they are shown. In order of start.
    public func occurrences(overlappingUTC start: Int, to end: Int) -> [Occurrence] {
        let end = max(start, end)
        let (localStart, localEnd) = (start + display.offset(start), end + display.offset(end))
        let first = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: localStart))
        let last = CivilTime.dayNumber(ofCivilDay: CivilTime.day(ofSeconds: max(localStart, localEnd - 1)))
        return occurrencesByDay(first..<(last + 1)).values.flatMap { $0 }.reduce(into: [Occurrence]()) { kept, occurrence in
            let span: (Int, Int)
            if let startOffset = occurrence.startOffset, let endOffset = occurrence.endOffset {
                span = (occurrence.start - startOffset, occurrence.end - endOffset)
                guard overlaps(span, (start, end)) else { return }
            } else {
                span = (occurrence.start, occurrence.end)
                guard overlaps(span, (localStart, localEnd)) else { return }
            }
            // One occurrence touching several days is listed under each.
            if !kept.contains(where: { $0.event == occurrence.event && $0.start == occurrence.start && $0.end == occurrence.end }) {
                kept.append(occurrence)
            }
        }.sorted { ($0.start, $0.summary, $0.event ?? -1) < ($1.start, $1.summary, $1.event ?? -1) }
    }

    /// Whether two spans (start, exclusive end) overlap; an empty one overlaps a span holding
    /// its instant, and another empty one at the same instant.
    private func overlaps(_ a: (Int, Int), _ b: (Int, Int)) -> Bool {
        if a.0 == a.1 && b.0 == b.1 { return a.0 == b.0 }
        if a.0 == a.1 { return a.0 >= b.0 && a.0 < b.1 }
        if b.0 == b.1 { return b.0 >= a.0 && b.0 < a.1 }
        return a.0 < b.1 && b.0 < a.1
    }
}
