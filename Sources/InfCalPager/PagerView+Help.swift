import InfCalModel
import InfCalEvents
import InfCalRender

/// The help screen: the key table's rows wrapped to the screen's width.
extension PagerView {
    /// The help's lines at `width`, saying which view is shown when `view` is given: each row
    /// wrapped at spaces, continued at its indent.
    public func helpLines(width: Int, view: PagerState.View? = nil) -> [String] {
        var rows = PagerBindings.helpRows
        if let view, let first = rows.first {
            rows[0] = (first.text + " (showing the \(view.label); v shows the next view)", first.indent)
        }
        return rows.flatMap { DisplayWidth.wrap($0.text, width: width, indent: $0.indent) }
    }
}
