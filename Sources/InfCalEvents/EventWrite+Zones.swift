import Foundation
import InfCalModel

// A VTIMEZONE that `add` wrote goes with the last event that names it. `add` writes one
// beside the first event in a zone; in a vdir (khal's and vdirsyncer's layout, one event a
// file) deleting the event deletes its file, VTIMEZONE and all, and in one calendar file the
// same delete now leaves what was there before the add. Any other VTIMEZONE stays: one that
// anything else names (by TZID, or the calendar's X-WR-TIMEZONE), and one the user or another
// program wrote, even when nothing names it any more: infcal cannot know why it is there.
// A VTIMEZONE is taken for infcal's when its lines are the very lines `add` writes for that
// zone and that event (from Foundation's zone data, so after an update of the zone data it
// is kept: a stale copy left behind costs nothing, a copy removed that was wanted would).

extension EventWrite {
    /// The byte ranges of the VTIMEZONEs that the components `removed` name by TZID, that no
    /// other line of `layout` names (outside the VTIMEZONEs themselves), and that `add` wrote.
    static func zonesOnlyUsed(by removed: [ICalLayout.Span], in layout: ICalLayout) -> [Range<Int>] {
        var inRemoved = Set<Int>(), inZones = Set<Int>()
        for span in removed { if let end = span.end { inRemoved.formUnion(span.begin...end) } }
        let zones = layout.spans.filter { $0.name == "VTIMEZONE" && $0.end != nil }
        for zone in zones { if let end = zone.end { inZones.formUnion(zone.begin...end) } }
        // Names compared without case, so that a reference in another case keeps its zone.
        var named = Set<String>(), namedElsewhere = Set<String>()
        for (index, line) in layout.lines.enumerated() where !inZones.contains(index) {
            var names = line.parameter("TZID").map { [$0.trimmingSpaces.lowercased()] } ?? []
            if line.name == "X-WR-TIMEZONE" { names.append(line.value.trimmingSpaces.lowercased()) }
            if inRemoved.contains(index) { named.formUnion(names) } else { namedElsewhere.formUnion(names) }
        }
        let unused = named.subtracting(namedElsewhere)
        guard !unused.isEmpty else { return [] }
        return zones.compactMap { zone in
            guard let id = layout.ownLines(of: zone).first(where: { $0.line.name == "TZID" })?.line.value.trimmingSpaces,
                  unused.contains(id.lowercased()), isAddedZone(zone, id: id, for: removed, in: layout) else { return nil }
            return layout.range(of: zone)
        }
    }

    /// Whether `zone`'s lines (unfolded, as read) are those `adding` writes for the zone `id`
    /// beside one of the components `removed`: covering from 1970, or from the event's start
    /// when that is earlier.
    static func isAddedZone(_ zone: ICalLayout.Span, id: String, for removed: [ICalLayout.Span], in layout: ICalLayout) -> Bool {
        guard let timeZone = TimeZone(identifier: id), let end = zone.end else { return false }
        let written = layout.lines[zone.begin...end].map { String(decoding: $0.text, as: UTF8.self) }
        var starts: Set<Int> = [0]
        for span in removed {
            guard let line = layout.ownLines(of: span).first(where: { $0.line.name == "DTSTART" })?.line,
                  line.parameter("TZID")?.trimmingSpaces == id,
                  let local = ICalTime.parse(line.value, isDate: nil, zone: id)?.seconds else { continue }
            let utc = local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))
            starts.insert(min(0, utc))
        }
        return starts.contains { TimeZoneText.lines(for: timeZone, from: $0, through: nil) == written }
    }
}
