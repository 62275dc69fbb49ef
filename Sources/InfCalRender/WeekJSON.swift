import InfCalModel
import InfCalEvents

/// A week as one JSON object (`--week --json`), in the style of `JSONLinesPrinter`: its
/// days, then its events as `--json` writes occurrences, each with where the week grid puts it.
///
/// ```
/// {"first":"2024-02-11","last":"2024-02-17","zone":"Europe/Berlin","firstWeekday":"sunday",
///  "days":[{"date":"2024-02-11","weekday":"sunday","hours":24},...],
///  "events":[{"start":...,"end":...,"allDay":false,"summary":...,"uid":...,"source":...,
///             "columns":[{"date":"2024-02-12","column":0,"of":2}]},
///            {..."allDay":true,...,"band":{"line":0,"first":"2024-02-12","last":"2024-02-14"}}]}
/// ```
///
/// `hours` is the length of the day's clock (23 or 25 on the days the clocks change). A
/// timed event has a `columns` entry for each day it touches: its lane (`column`, from 0) of
/// the lanes its cluster of overlapping events shares (`of`), as the grid draws it in the
/// layout's rows (half-hours in a layout made with `layoutHeight`); one of the band (all day,
/// or 24 hours or more) has its `band` line and first and last day shown. With `--also` each day carries its date in the other calendar.
public enum WeekJSON {
    /// Appends the object of the week of `layout` and its newline: `renderer` gives the first
    /// weekday and `--also`, `zoneName` the zone the times are in (null when nil).
    public static func appendWeek(_ layout: WeekLayout, renderer: MonthRenderer, zoneName: String?, to out: ByteBuffer) {
        guard let first = layout.days.first, let last = layout.days.last else { return }
        out.append("{\"first\":\"" + ISODate.text(dayNumber: first) + "\",\"last\":\"" + ISODate.text(dayNumber: last) + "\"")
        out.append(",\"zone\":")
        if let zoneName { JSONText.appendString(zoneName, to: out) } else { out.append("null") }
        out.append(",\"firstWeekday\":\"" + JSONLinesPrinter.weekdayNames[(renderer.firstWeekday + 6) % 7] + "\"")
        out.append(",\"days\":[")
        for (column, day) in layout.days.enumerated() {
            if column > 0 { out.append(UInt8(ascii: ",")) }
            let clock = layout.clocks[column]
            out.append("{\"date\":\"" + ISODate.text(dayNumber: day) + "\",\"weekday\":\""
                       + JSONLinesPrinter.weekdayNames[CivilTime.foundationWeekday(ofGrid: day) - 1] + "\",\"hours\":")
            let minutes = (clock.end - clock.start) / 60
            out.append(minutes % 60 == 0 ? String(minutes / 60) : String(Double(minutes) / 60))
            if let also = renderer.also {
                out.append(",\"also\":")
                also.appendJSON(day, to: out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append("],\"events\":[")
        let instants = layout.occurrences.indices.map { layout.instants(ofOccurrence: $0) }
        // Every band event has its line here: the JSON has room for all of them.
        var bandPlaces: [Int: WeekLayout.BandItem] = [:]
        for item in WeekLayout.bandPlaces(days: layout.days, occurrences: layout.occurrences, instants: instants) {
            bandPlaces[item.occurrence] = item
        }
        // The lanes of each timed event in each column, over the whole day.
        var columns: [Int: [(column: Int, lane: Int, lanes: Int)]] = [:]
        for (column, clock) in layout.clocks.enumerated() {
            for piece in WeekLayout.lanes(WeekLayout.pieces(of: instants, in: clock, rows: layout.rowOfSlot[column])) {
                columns[piece.occurrence, default: []].append((column, piece.lane, piece.lanes))
            }
        }
        for (index, occurrence) in layout.occurrences.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONLinesPrinter.appendOccurrence(occurrence, to: out)
            // Reopen the object for where the grid puts it.
            out.truncate(to: out.count - 1)
            if let item = bandPlaces[index] {
                out.append(",\"band\":{\"line\":\(item.line),\"first\":\"" + ISODate.text(dayNumber: first + item.firstColumn)
                           + "\",\"last\":\"" + ISODate.text(dayNumber: first + item.lastColumn) + "\"}")
            } else {
                out.append(",\"columns\":[")
                for (place, piece) in (columns[index] ?? []).sorted(by: { $0.column < $1.column }).enumerated() {
                    if place > 0 { out.append(UInt8(ascii: ",")) }
                    out.append("{\"date\":\"" + ISODate.text(dayNumber: first + piece.column) + "\",\"column\":\(piece.lane),\"of\":\(piece.lanes)}")
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append("]}\n")
    }

    /// The height to make a week's layout with for its JSON: the whole day in half-hour rows
    /// (and the repeated hour's), below a band of any size, so that its lanes are those of
    /// half-hour rows.
    public static let layoutHeight = 4 * (2 * 25 + 2)
}
