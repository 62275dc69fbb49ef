import InfCalModel
import InfCalEvents
import InfCalRender

/// The help screen: the key table's rows wrapped to the screen's width.
extension PagerView {
    /// The help's lines at `width`, saying which view is shown when `view` is given: each row
    /// wrapped at spaces, continued at its indent.
    /// Where they are more than `rows`, the blank lines between the parts give way first, so
    /// that a help that fits without them is shown whole rather than scrolled.
    public func helpLines(width: Int, view: PagerState.View? = nil, rows: Int = .max) -> [String] {
        var table = PagerBindings.helpRows
        if let view, let first = table.first {
            table[0] = (first.text + " (showing the \(view.label); v shows the next view)", first.indent)
        }
        let lines = table.flatMap { DisplayWidth.wrap($0.text, width: width, indent: $0.indent) }
        return lines.count <= rows ? lines : lines.filter { !$0.isEmpty }
    }
}
