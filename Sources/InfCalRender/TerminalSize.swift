import InfCalModel
import InfCalEvents

/// A terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
    /// Cells across.
    public var columns: Int
    /// Lines down.
    public var rows: Int

    /// A size of `columns` x `rows` cells.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}
