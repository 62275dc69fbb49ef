import InfCalModel
import InfCalEvents

// The band of all-day events and the rows of the time scale with their blocks.
extension WeekRenderer {
    /// The bar down a block's left edge, and the marks that replace it where the block goes on
    /// above or below the rows shown.
    var blockBar: (plain: String, up: String, down: String) { box == .ascii ? ("#", "^", "v") : ("▌", "▲", "▼") }
    /// What fills a row a day's clock lacks (the hour skipped when the clocks go forward, the
    /// repeated one on the other days).
    var absentFill: String { box == .ascii ? "/" : "░" }
    /// What the "now" line is drawn with.
    var nowFill: String { box.horizontal }
    /// The marks of a band event going on before the first day shown or after the last.
    var bandEnds: (before: String, after: String) { box == .ascii ? ("<", ">") : ("◀", "▶") }

    /// The fewest cells of a summary a block's time leaves beside it.
    static let summaryLetters = 4
    /// Red, for the "now" line with colour.
    static let nowOn = "\u{1B}[31m"

    /// The band's lines: each event from its first column to its last, over the lines between
    /// them; where the band has no room for them all, its last line counts those left out.
    func bandLines(_ layout: WeekLayout, cell: Int) -> [String] {
        let counts = layout.bandHidden.contains { $0 > 0 }
        let start = String(repeating: " ", count: scaleWidth) + box.vertical
        return (0..<layout.bandLines).map { line in
            var text = start
            if counts, line == layout.bandLines - 1 {
                for hidden in layout.bandHidden {
                    let mark = hidden > 0 ? DisplayWidth.prefix(of: "+" + String(hidden), fitting: cell) : ""
                    text += centred(mark, width: DisplayWidth.of(mark), in: cell) + box.vertical
                }
                return text
            }
            let items = layout.band.filter { $0.line == line }
            var column = 0
            while column < layout.days.count {
                guard let item = items.first(where: { $0.firstColumn == column }) else {
                    text += String(repeating: " ", count: cell) + box.vertical
                    column += 1
                    continue
                }
                let width = (item.lastColumn - item.firstColumn + 1) * (cell + 1) - 1
                text += bandItem(item, layout: layout, width: width) + box.vertical
                column = item.lastColumn + 1
            }
            return text
        }
    }

    /// A band event `width` cells wide: its summary, marked where it goes on beyond the days shown.
    func bandItem(_ item: WeekLayout.BandItem, layout: WeekLayout, width: Int) -> String {
        let occurrence = layout.occurrences[item.occurrence]
        let after = item.endsAfter ? bandEnds.after : ""
        let room = width - DisplayWidth.of(after)
        let text = DisplayWidth.truncated((item.startsBefore ? bandEnds.before : "") + occurrence.shownSummary, to: room)
        let padded = text + String(repeating: " ", count: max(0, room - DisplayWidth.of(text))) + after
        return styled(padded, occurrence: item.occurrence, layout: layout)
    }

    /// `text` in its occurrence's calendar colour (with `color`) and reversed where it is the
    /// highlighted one (with `marks`).
    func styled(_ text: String, occurrence: Int, layout: WeekLayout) -> String {
        var shown = text
        if color, let shade = layout.occurrences[occurrence].color {
            shown = shade.foreground(trueColor: trueColor) + shown + CalendarColor.defaultForeground
        }
        if marks, occurrence == highlighted {
            shown = renderer.attributes.selected.on.text + shown + renderer.attributes.selected.off.text
        }
        return shown
    }

    /// The rows' lines, and for each column how many of its blocks had no lane wide enough.
    func gridLines(_ layout: WeekLayout, cell: Int) -> (lines: [String], hidden: [Int]) {
        let count = layout.days.count
        var hidden = [Int](repeating: 0, count: count)
        // Each row's blocks, with where they go across their column and their text.
        var segments = [[(column: Int, from: Int, to: Int, text: String)]](repeating: [], count: layout.rows.count)
        let widestLanes = max(1, cell / 2)
        for block in layout.blocks {
            let lanes = min(block.lanes, widestLanes)
            guard block.lane < lanes else {
                hidden[block.column] += 1
                continue
            }
            let (from, to) = (block.lane * cell / lanes, (block.lane + 1) * cell / lanes)
            let texts = blockTexts(block, layout: layout, width: to - from - 1)
            for row in block.firstRow...block.lastRow {
                let bar = row == block.firstRow && block.clippedAbove ? blockBar.up
                    : row == block.lastRow && block.clippedBelow ? blockBar.down : blockBar.plain
                let line = row - block.firstRow < texts.count ? texts[row - block.firstRow] : ""
                let padded = bar + line + String(repeating: " ", count: max(0, to - from - 1 - DisplayWidth.of(line)))
                segments[row].append((block.column, from, to, styled(padded, occurrence: block.occurrence, layout: layout)))
            }
        }
        // Where the "now" line goes: the column of the day holding the instant, its row.
        var nowAt: (column: Int, row: Int)?
        if let now {
            for column in 0..<count {
                if let row = layout.row(containing: now, column: column) { nowAt = (column, row) }
            }
        }
        var lines: [String] = []
        lines.reserveCapacity(layout.rows.count)
        // A whole cell of nothing, or of a row the day lacks: most cells are one of the two.
        let (blankCell, absentCell) = (String(repeating: " ", count: cell), String(repeating: absentFill, count: cell))
        for (index, row) in layout.rows.enumerated() {
            // The hours are labelled, and a row that does not follow the one above it by a step
            // (after a change of offset of half an hour); the second time round with a mark.
            let follows = index > 0 && layout.rows[index - 1] == WeekLayout.Row(minute: row.minute - layout.step, fold: row.fold)
            let label = row.minute % 60 == 0 || !follows ? clock.time(minute: row.minute) + (row.fold > 0 ? foldMark : "") : ""
            var line = String(repeating: " ", count: max(0, scaleWidth - 1 - DisplayWidth.of(label))) + label + " " + box.vertical
            let rowSegments = segments[index].sorted { ($0.column, $0.from) < ($1.column, $1.from) }
            for column in 0..<count {
                let isNow = nowAt.map { $0 == (column, index) } ?? false
                let fill = !layout.present[column][index] ? absentFill : isNow ? nowFill : " "
                func background(_ cells: Int) -> String {
                    guard cells > 0 else { return "" }
                    if cells == cell, !isNow { return layout.present[column][index] ? blankCell : absentCell }
                    let run = String(repeating: fill, count: cells)
                    return isNow && color ? Self.nowOn + run + CalendarColor.defaultForeground : run
                }
                var reached = 0
                for segment in rowSegments where segment.column == column {
                    line += background(segment.from - reached) + segment.text
                    reached = segment.to
                }
                line += background(cell - reached) + box.vertical
            }
            lines.append(line)
        }
        return (lines, hidden)
    }

    /// The lines inside a block `width` cells wide (after its bar), one a row: its start time
    /// (where it starts in the rows shown and there is room) and summary, wrapped at spaces,
    /// a word or the last line cut with `…` where they do not fit.
    func blockTexts(_ block: WeekLayout.Block, layout: WeekLayout, width: Int) -> [String] {
        guard width > 0 else { return [] }
        let occurrence = layout.occurrences[block.occurrence]
        let height = block.lastRow - block.firstRow + 1
        var text = occurrence.shownSummary
        if !block.clippedAbove, !block.fromPreviousDay {
            let minute = CivilTime.floorMod(occurrence.start, CivilTime.secondsPerDay) / 60
            let time = clock.time(minute: minute)
            // The time where it leaves room for a few letters of the summary beside it, or
            // where the whole of both fit.
            let timed = time + " " + text
            if DisplayWidth.of(timed) <= width || (height > 1 && DisplayWidth.of(time) + 1 + Self.summaryLetters <= width) {
                text = timed
            }
        }
        guard DisplayWidth.of(text) > width else { return [text] }
        // Broken at spaces; a word wider than the block cut with `…`.
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            if !line.isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(word) <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = DisplayWidth.truncated(word, to: width)
        }
        lines.append(line)
        guard lines.count > height else { return lines }
        return Array(lines.prefix(height - 1)) + [DisplayWidth.truncated(lines[(height - 1)...].joined(separator: " "), to: width)]
    }
}
