/// The help screen: the key table's rows wrapped to the screen's width.
extension PagerView {
    /// The help's lines at `width`, saying which view is shown when `view` is given: each row
    /// wrapped at spaces, continued at its indent.
    public func helpLines(width: Int, view: PagerState.View? = nil) -> [String] {
        var rows = PagerBindings.helpRows
        if let view, let first = rows.first {
            rows[0] = (first.text + " (showing the \(view.label); v shows the next view)", first.indent)
        }
        return rows.flatMap { Self.wrap($0.text, width: width, indent: $0.indent) }
    }

    /// `text` broken at spaces into lines of at most `width` cells. With an `indent`, the text's
    /// first `indent` cells (a key column) stay as they are and the rest is wrapped in the room
    /// beside them, later lines starting with `indent` spaces; where that leaves less than half
    /// the width, the keys take a line and the rest is wrapped below them, indented by four.
    /// A word wider than a line is cut.
    static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let head = DisplayWidth.prefix(of: text, fitting: indent)
        let columns = indent > 0 && DisplayWidth.of(head) == indent
        guard DisplayWidth.of(text) > width || (columns && indent * 2 > width), width > 0 else {
            return [fit(text, width: max(0, width))]
        }
        if columns {
            let rest = String(text.dropFirst(head.count))
            guard indent * 2 <= width else {
                // Too narrow for the columns: the keys on a line, what they do below them.
                let keys = String(head.reversed().drop { $0 == " " }.reversed())
                return wrap(keys, width: width, indent: 0) + wrap(rest, width: max(1, width - 4), indent: 0).map { "    " + $0 }
            }
            let lines = wrap(rest, width: width - indent, indent: 0)
            return lines.enumerated().map { ($0.offset == 0 ? head : String(repeating: " ", count: indent)) + $0.element }
        }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let word = fit(String(word), width: width)
            if !line.isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(word) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
