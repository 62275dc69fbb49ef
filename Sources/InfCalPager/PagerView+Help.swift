import InfCalModel
import InfCalEvents
import InfCalRender

/// The help screen: the key table's rows wrapped to the screen's width, or, where those do
/// not fit the screen's height, the keys in two columns with their short summaries.
extension PagerView {
    /// The help's lines at `width`, saying which view is shown when `view` is given: each row
    /// wrapped at spaces, continued at its indent.
    /// Where they are more than `rows`, the blank lines between the parts give way first, so
    /// that a help that fits without them is shown whole rather than scrolled; where that is
    /// still more than `rows` and one more (the status line's row), the two columns of
    /// `compactHelpLines` are shown when they fit; else the lines scroll.
    public func helpLines(width: Int, view: PagerState.View? = nil, rows: Int = .max) -> [String] {
        var table = PagerBindings.helpRows
        if let view, let first = table.first {
            table[0] = (Self.helpTitle(first.text, view: view), first.indent)
        }
        let lines = table.flatMap { DisplayWidth.wrap($0.text, width: width, indent: $0.indent) }
        if lines.count <= rows { return lines }
        let written = lines.filter { !$0.isEmpty }
        if written.count > rows + 1, rows < .max, let compact = compactHelpLines(width: width, view: view), compact.count <= rows + 1 {
            return compact
        }
        return written
    }

    /// The help in two columns (down the first, then the second) of each binding's keys and
    /// short summary, then the notes as one paragraph, the last note on a line of its own;
    /// nil when two columns do not fit `width`.
    public func compactHelpLines(width: Int, view: PagerState.View?) -> [String]? {
        let cells = PagerBindings.all.map { (keys: PagerBindings.keyNames($0), short: $0.short) }
        let keyWidth = cells.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let cellWidth = keyWidth + 2 + (cells.map { DisplayWidth.of($0.short) }.max() ?? 0)
        let gap = 2
        guard 2 * cellWidth + gap <= width else { return nil }
        func cell(_ index: Int) -> String {
            guard index < cells.count else { return "" }
            let (keys, short) = cells[index]
            return keys + String(repeating: " ", count: keyWidth - DisplayWidth.of(keys)) + "  " + short
        }
        let half = (cells.count + 1) / 2
        var lines = DisplayWidth.wrap(view.map { Self.helpTitle("Keys", view: $0) } ?? "Keys", width: width, indent: 0)
        for row in 0..<half {
            let left = cell(row)
            let right = cell(row + half)
            lines.append(right.isEmpty ? left : left + String(repeating: " ", count: cellWidth - DisplayWidth.of(left) + gap) + right)
        }
        lines.append("")
        let notes = PagerBindings.helpNotes
        lines += DisplayWidth.wrap(notes.dropLast().joined(separator: " "), width: width, indent: 0)
        if let last = notes.last { lines += DisplayWidth.wrap(last, width: width, indent: 0) }
        return lines
    }

    /// The help's first line with the view shown named.
    static func helpTitle(_ title: String, view: PagerState.View) -> String {
        title + " (showing the \(view.label); \(PagerBindings.key(.cycleView)) shows the next view)"
    }
}
