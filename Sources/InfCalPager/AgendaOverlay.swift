import InfCalModel
import InfCalEvents
import InfCalRender

/// The month's agenda over the month page (key `a`): a box in the middle of the screen with
/// the month's title and its occurrences one a line, as `--agenda` prints them, scrolled by
/// `scroll` lines. Pure: lines in, lines out.
public struct AgendaOverlay: Hashable, Sendable {
    /// The box's title: the month's.
    public let title: String
    /// The lines listed, without newlines (cut to the box when drawn).
    public let lines: [String]

    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines.isEmpty ? ["(no events this month)"] : lines
    }

    /// Lines of the box other than the list: its top and bottom borders.
    static let frameLines = 2

    /// The inside height of the box in `room`: the list, or the room less the borders and a
    /// line above and below, at least one line.
    public func visibleLines(in room: TerminalSize) -> Int {
        max(1, min(lines.count, room.rows - Self.frameLines - 2))
    }

    /// The largest scroll that still fills the box.
    public func scrollLimit(in room: TerminalSize) -> Int {
        max(0, lines.count - visibleLines(in: room))
    }

    /// `body` (the screen's lines above the status line) with the box drawn over its middle
    /// lines, which it replaces whole; the list starts at line `scroll` (clamped).
    public func draw(over body: [String], room: TerminalSize, scroll: Int, box: BoxCharacters) -> [String] {
        var result = body + Array(repeating: "", count: max(0, room.rows - body.count))
        let visible = visibleLines(in: room)
        let first = min(max(0, scroll), scrollLimit(in: room))
        let widest = max(DisplayWidth.of(title) + 2, lines.map { DisplayWidth.of($0) }.max() ?? 0)
        let inside = max(1, min(widest + 2, room.columns - 2))
        let height = visible + Self.frameLines
        let top = max(0, (room.rows - height) / 2)
        let margin = String(repeating: " ", count: max(0, (room.columns - inside - 2) / 2))
        guard top + height <= result.count else { return result }

        let heading = DisplayWidth.truncated(" " + title + " ", to: inside)
        let headingWidth = DisplayWidth.of(heading)
        let before = (inside - headingWidth) / 2
        result[top] = margin + box.top[0] + String(repeating: box.horizontal, count: before) + heading
            + String(repeating: box.horizontal, count: inside - headingWidth - before) + box.top[2]
        for row in 0..<visible {
            let index = first + row
            var text = index < lines.count ? DisplayWidth.truncated(lines[index], to: inside - 2) : ""
            // Arrows on the right edge say there is more above or below.
            var edge = box.vertical
            if row == 0, first > 0 { edge = "↑" }
            if row == visible - 1, first + visible < lines.count { edge = "↓" }
            if box == .ascii, edge != box.vertical { edge = edge == "↑" ? "^" : "v" }
            text = " " + text + String(repeating: " ", count: max(0, inside - 1 - DisplayWidth.of(text)))
            result[top + 1 + row] = margin + box.vertical + text + edge
        }
        result[top + height - 1] = margin + box.bottom[0] + String(repeating: box.horizontal, count: inside) + box.bottom[2]
        return result
    }
}
