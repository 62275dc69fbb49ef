import InfCalModel
import InfCalEvents
import InfCalRender

/// A place on the screen, both counted from 0.
public struct ScreenPosition: Hashable, Sendable {
    public var row: Int
    public var column: Int

    /// The cell at `row`, `column` (from 0).
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// One full screen of the pager: what every line shows, and where the cursor is.
public struct Frame: Hashable, Sendable {
    /// The size the frame was made for.
    public let size: TerminalSize
    /// Exactly `size.rows` lines, without newlines; each fits in `size.columns` cells (escape
    /// sequences take none) and the last row leaves its last cell free, so that no terminal
    /// scrolls.
    public var lines: [String]
    /// Where the cursor shows (the go-to prompt), or nil to hide it.
    public var cursor: ScreenPosition?

    /// A blank frame of `size`.
    public init(size: TerminalSize) {
        self.size = size
        lines = Array(repeating: "", count: max(0, size.rows))
    }
}

/// The escape sequences the pager writes: ECMA-48 and the xterm private modes every terminal
/// emulator in use understands.
public enum TerminalCodes {
    /// Switch to the alternate screen and hide the cursor.
    public static let enter = "\u{1B}[?1049h\u{1B}[?25l"
    /// Show the cursor and go back to the normal screen, as it was before.
    public static let leave = "\u{1B}[?25h\u{1B}[?1049l"
    /// Report mouse buttons and the wheel (xterm mode 1000) in SGR form (mode 1006), which
    /// has no limit on the column and cannot be mistaken for keys.
    public static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Stop reporting the mouse.
    public static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"
    /// Hide the cursor (every frame without a prompt ends so).
    public static let hideCursor = "\u{1B}[?25l"
    /// Show the cursor (a frame with the go-to prompt ends so).
    public static let showCursor = "\u{1B}[?25h"
    /// Cursor home, then erase the whole screen.
    public static let clearScreen = "\u{1B}[H\u{1B}[2J"
    /// Erase the whole line the cursor is on.
    public static let clearLine = "\u{1B}[2K"

    /// Moves the cursor to `row`, `column` (from 0).
    public static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(row + 1);\(column + 1)H"
    }
}

/// The bytes that bring a terminal from one frame to the next.
public enum FrameDiff {
    /// The bytes that turn a screen showing `old` into `new`: only the lines that differ, each
    /// erased and rewritten, then the cursor shown where `new` wants it or hidden. With no `old`
    /// (the screen's content is unknown: the first frame, after Ctrl-L or a return from Ctrl-Z)
    /// or a new size, the screen is cleared and every line written. Empty when nothing changed,
    /// so the caller writes nothing; otherwise always ends in a cursor show or hide sequence,
    /// which marks the end of a frame for whoever reads the terminal.
    public static func bytes(from old: Frame?, to new: Frame) -> [UInt8] {
        var out = ""
        if let old, old.size == new.size, old.lines.count == new.lines.count {
            for (row, line) in new.lines.enumerated() where line != old.lines[row] {
                out += TerminalCodes.moveTo(row: row, column: 0) + TerminalCodes.clearLine + line
            }
            if out.isEmpty, old.cursor == new.cursor { return [] }
        } else {
            out += TerminalCodes.clearScreen
            for (row, line) in new.lines.enumerated() where !line.isEmpty {
                out += TerminalCodes.moveTo(row: row, column: 0) + line
            }
        }
        if let cursor = new.cursor {
            out += TerminalCodes.moveTo(row: cursor.row, column: cursor.column) + TerminalCodes.showCursor
        } else {
            out += TerminalCodes.hideCursor
        }
        return Array(out.utf8)
    }
}
