import Foundation
import InfCalModel
import InfCalEvents

/// Rows of months side by side (and the vertical layout's lines): the titles, the header and
/// the week lines of several grids, padded to line up.
extension MonthRenderer {
    /// Appends `grids` side by side, `gutter` spaces apart: a title line, a header line and as many
    /// week lines as the longest month needs; shorter months are padded so the rows line up. A
    /// month whose title is wider than its grid gets a column as wide as its title.
    public func appendRow(_ grids: [MonthGrid], to out: ByteBuffer) {
        _ = appendRowGivingWidth(grids, to: out)
    }

    /// Appends `grids` as `appendRow` does and returns the row's width (`rowWidth`) when it is
    /// known without measuring again: every column a grid wide.
    func appendRowGivingWidth(_ grids: [MonthGrid], to out: ByteBuffer) -> Int? {
        if layout == .vertical {
            appendVerticalRow(grids, to: out)
            return nil
        }
        if also == nil, grids.withUnsafeBufferPointer({ appendPlainRow($0, to: out) }) {
            return metrics.rowWidth(columns: grids.count)
        }
        appendRow(grids, titles: grids.map { titleText($0.month) }, to: out)
        return nil
    }

    /// Appends `grids` side by side as `appendRow` does, without `--also`, when every title
    /// fits over its grid (nearly always), so that every column is a grid wide: the titles are
    /// written straight into `out` and centred there, and the row needs no arrays. Returns
    /// false, having appended nothing, when a title is wider than its grid.
    func appendPlainRow(_ grids: UnsafeBufferPointer<MonthGrid>, to out: ByteBuffer) -> Bool {
        let mark = out.count, width = monthWidth, last = grids.count - 1
        var weekCount = 0
        for position in grids.indices {
            let titleWidth = names.appendTitle(of: grids[position].month, withYear: titleStyle == .monthAndYear, centredIn: width, to: out)
            guard titleWidth <= width else {
                out.truncate(to: mark)
                return false
            }
            if position < last { out.appendSpaces(width - (width - titleWidth) / 2 - titleWidth + GridMetrics.gutter) }
            weekCount = max(weekCount, grids[position].weekCount)
        }
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
        for position in grids.indices {
            out.append(header)
            if position < last { out.appendSpaces(GridMetrics.gutter) }
        }
        out.trimTrailingSpaces()
        out.append(UInt8(ascii: "\n"))
        // Each grid's first cache slot (or -1: its weeks are formatted cell by cell) and its
        // weeks, found once for the row's week lines.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * grids.count) { facts in
            for position in grids.indices {
                facts[2 * position] = cachedSlot(grids[position]) ?? -1
                facts[2 * position + 1] = grids[position].weekCount
            }
            for week in 0..<weekCount {
                for position in grids.indices {
                    let (slot, weeks) = (facts[2 * position], facts[2 * position + 1])
                    if week < weeks {
                        if slot >= 0, let line = weekLines.line(slot + week) {
                            out.append(line)
                        } else if slot >= 0 {
                            appendCachedWeek(grids[position], slot: slot + week, week: week, to: out)
                        } else {
                            appendWeekCells(grids[position], week: week, to: out)
                        }
                    } else if position < last {
                        out.appendSpaces(width)
                    }
                    if position < last { out.appendSpaces(GridMetrics.gutter) }
                }
                out.trimTrailingSpaces()
                out.append(UInt8(ascii: "\n"))
            }
        }
        return true
    }

    /// Appends `grids` side by side in the horizontal layout, `titles` being what `titleText`
    /// gives for their months (made once by a caller that needs them again).
    func appendRow(_ grids: [MonthGrid], titles: [String], to out: ByteBuffer) {
        let titleWidths = titles.map { DisplayWidth.of($0) }
        let spans = alsoLines(grids)
        let widths = columnWidths(titleWidths: titleWidths, spans: spans)
        var weekCount = 0
        for index in grids.indices { weekCount = max(weekCount, grids[index].weekCount) }
        let weekLines = 2 + weekCount
        let lineCount = weekLines + (spans == nil ? 0 : 1)
        // Through a buffer pointer, so that each line borrows the grids instead of copying them.
        grids.withUnsafeBufferPointer { grids in
            appendLines(lineCount, weekLines: weekLines, of: grids, titles: titles, titleWidths: titleWidths, widths: widths,
                        spans: spans, to: out)
        }
    }

    /// Appends lines 0 ..< `lineCount` of `grids` side by side (see `appendRow`).
    func appendLines(_ lineCount: Int, weekLines: Int, of grids: UnsafeBufferPointer<MonthGrid>, titles: [String],
                             titleWidths: [Int], widths: [Int], spans: [String]?, to out: ByteBuffer) {
        for line in 0..<lineCount {
            for position in grids.indices {
                let used: Int
                if let spans, line == weekLines {
                    // The other calendar's months, centred under the grid as the title is over it.
                    let text = spans[position], textWidth = DisplayWidth.of(text)
                    let padding = max(0, (widths[position] - textWidth) / 2)
                    out.appendSpaces(padding)
                    out.append(text)
                    used = padding + textWidth
                } else {
                    used = appendLine(line, of: grids[position], title: titles[position], titleWidth: titleWidths[position],
                                      width: widths[position], to: out)
                }
                if position < grids.count - 1 {
                    out.appendSpaces(max(0, widths[position] - used) + GridMetrics.gutter)
                }
            }
            out.trimTrailingSpaces()
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The line under each of `grids` naming the other calendar's months it spans, or nil
    /// without `--also`.
    func alsoLines(_ grids: [MonthGrid]) -> [String]? {
        guard let also else { return nil }
        return grids.map { also.spanTitle($0.month.firstDay..<$0.month.endDay) ?? "" }
    }

    /// The width of each month's column: its grid's, or its title's or the line under it where wider.
    func columnWidths(titleWidths: [Int], spans: [String]?) -> [Int] {
        titleWidths.indices.map { position in
            max(monthWidth, titleWidths[position], spans.map { DisplayWidth.of($0[position]) } ?? 0)
        }
    }

    /// The width of `grids` side by side: each column as wide as its grid, or its title or the
    /// line under it (`--also`) where wider, a gutter apart.
    public func rowWidth(_ grids: [MonthGrid]) -> Int {
        if layout == .vertical { return verticalRowWidth(grids) }
        // The titles' widths without making the titles.
        let titleWidths = grids.map { names.titleWidth(of: $0.month, withYear: titleStyle == .monthAndYear) }
        let widths = columnWidths(titleWidths: titleWidths, spans: alsoLines(grids))
        return widths.reduce(0, +) + GridMetrics.gutter * max(0, widths.count - 1)
    }

    /// The width a heading over `grids` side by side is centred in: the whole row, or in the
    /// vertical layout the months without the weekday labels, as ncal centres its year.
    public func headingWidth(_ grids: [MonthGrid]) -> Int {
        layout == .vertical ? verticalRowWidth(grids) - verticalLabelWidth : rowWidth(grids)
    }

    /// The most lines a row of months takes: title, weekday header and six weeks, or in the
    /// vertical layout title, seven weekdays and the week numbers.
    public var rowLineCount: Int { layout == .vertical ? verticalLineCount : 8 + (also == nil ? 0 : 1) }

    /// The lines of `grids` side by side, without newlines (for tests and the pager).
    public func formatRow(_ grids: [MonthGrid]) -> [String] {
        let buffer = ByteBuffer()
        appendRow(grids, to: buffer)
        var lines = String(decoding: buffer.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }
}
