import InfCalRender
import InfCalPager

/// A small terminal emulator: enough of ECMA-48 and xterm to rebuild the screen infcal draws
/// (cursor moves, erasing, reverse video, bold and underline, the alternate screen, cursor visibility), so tests
/// can look at the screen instead of at escape sequences.
public struct TerminalScreen: Sendable, CustomStringConvertible {
    public private(set) var columns: Int
    public private(set) var rows: Int
    /// Each cell's text: one character, or "" for the right half of a wide one.
    private var cells: [[String]]
    /// Each cell's attributes (`Style` bits: reverse video, bold, underline).
    private var styles: [[UInt8]]
    /// The normal screen while the alternate one shows, with its cursor.
    private var savedNormal: (cells: [[String]], styles: [[UInt8]], row: Int, column: Int)?
    public private(set) var cursorRow = 0
    public private(set) var cursorColumn = 0
    public private(set) var cursorVisible = true
    /// Whether the program asked for mouse reports (xterm modes 1000, 1002, 1003 or 1006).
    public var reportsMouse: Bool { !mouseModes.isEmpty }
    private var mouseModes: Set<Int> = []
    /// Whether the alternate screen (xterm mode 1049) is on.
    public var usesAlternateScreen: Bool { savedNormal != nil }
    private var styleOn: UInt8 = 0

    /// The attributes a cell can have, as bits.
    public enum Style: UInt8, Sendable {
        case reverse = 1, bold = 2, underline = 4
    }
    /// Set after writing the last column: the next character wraps first (as xterm does).
    private var pendingWrap = false
    /// Bytes of an unfinished escape sequence or UTF-8 character.
    private var pending: [UInt8] = []

    /// A blank screen of `columns` x `rows`.
    public init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        cells = Self.blank(columns: self.columns, rows: self.rows)
        styles = Array(repeating: Array(repeating: 0, count: self.columns), count: self.rows)
    }

    private static func blank(columns: Int, rows: Int) -> [[String]] {
        Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    // MARK: Reading the screen

    /// Line `row`, trailing spaces removed.
    public func line(_ row: Int) -> String {
        guard row >= 0, row < rows else { return "" }
        var text = cells[row].joined()
        while text.last == " " { text.removeLast() }
        return text
    }

    /// All lines.
    public var lines: [String] { (0..<rows).map(line) }

    /// The screen as text, lines joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// The screen's text, for messages.
    public var description: String { text }

    /// Whether `text` shows anywhere on one line.
    public func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// The first row showing `text`, or nil.
    public func row(of text: String) -> Int? { lines.firstIndex { $0.contains(text) } }

    /// The texts shown in reverse video, one per run of reversed cells.
    public var reversedTexts: [String] { texts(.reverse) }

    /// The texts shown with `style` (bold, underlined, styles), one per run of such cells.
    public func texts(_ style: Style) -> [String] {
        var runs: [String] = []
        for row in 0..<rows {
            var run = ""
            for column in 0..<columns {
                if styles[row][column] & style.rawValue != 0 { run += cells[row][column] } else if !run.isEmpty { runs.append(run); run = "" }
            }
            if !run.isEmpty { runs.append(run) }
        }
        return runs
    }

    // MARK: Changes

    /// The screen after the terminal was resized: content kept where it still fits.
    public mutating func resize(columns newColumns: Int, rows newRows: Int) {
        let newColumns = max(1, newColumns), newRows = max(1, newRows)
        func fitted<T>(_ grid: [[T]], fill: T) -> [[T]] {
            (0..<newRows).map { row in
                (0..<newColumns).map { column in row < grid.count && column < grid[row].count ? grid[row][column] : fill }
            }
        }
        cells = fitted(cells, fill: " ")
        styles = fitted(styles, fill: 0)
        if let saved = savedNormal {
            savedNormal = (fitted(saved.cells, fill: " "), fitted(saved.styles, fill: 0),
                           min(saved.row, newRows - 1), min(saved.column, newColumns - 1))
        }
        columns = newColumns
        rows = newRows
        cursorRow = min(cursorRow, rows - 1)
        cursorColumn = min(cursorColumn, columns - 1)
        pendingWrap = false
    }

    /// Interprets `bytes` as a terminal would.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var position = 0
        while position < pending.count {
            guard let length = interpret(at: position) else { break }
            position += length
        }
        pending.removeFirst(position)
    }

    /// Acts on what starts at `position` and returns its length, or nil when it is unfinished.
    private mutating func interpret(at position: Int) -> Int? {
        let byte = pending[position]
        switch byte {
        case 0x1B:
            guard position + 1 < pending.count else { return nil }
            switch pending[position + 1] {
            case UInt8(ascii: "["):
                var end = position + 2
                while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                guard end < pending.count else { return nil }
                let parameters = String(decoding: pending[(position + 2)..<end], as: UTF8.self)
                controlSequence(parameters, final: pending[end])
                return end - position + 1
            case UInt8(ascii: "("), UInt8(ascii: ")"):
                return position + 2 < pending.count ? 3 : nil
            default:
                return 2
            }
        case 0x0D:
            cursorColumn = 0
            pendingWrap = false
        case 0x0A:
            lineFeed()
        case 0x08:
            cursorColumn = max(0, cursorColumn - 1)
            pendingWrap = false
        case 0x09:
            cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
        case 0x00...0x1F, 0x7F:
            break
        default:
            let length: Int
            switch byte {
            case 0xC0...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF7: length = 4
            case 0x80...0xBF, 0xF8...0xFF: return 1
            default: length = 1
            }
            guard position + length <= pending.count else { return nil }
            let text = String(decoding: pending[position..<(position + length)], as: UTF8.self)
            for scalar in text.unicodeScalars { put(scalar) }
            return length
        }
        return 1
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        let width = DisplayWidth.of(scalar)
        guard width > 0 else { return }
        if pendingWrap || cursorColumn + width > columns {
            cursorColumn = 0
            lineFeed()
        }
        cells[cursorRow][cursorColumn] = String(scalar)
        styles[cursorRow][cursorColumn] = styleOn
        if width == 2, cursorColumn + 1 < columns {
            cells[cursorRow][cursorColumn + 1] = ""
            styles[cursorRow][cursorColumn + 1] = styleOn
        }
        if cursorColumn + width >= columns {
            cursorColumn = columns - 1
            pendingWrap = true
        } else {
            cursorColumn += width
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if cursorRow == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: " ", count: columns))
            styles.removeFirst()
            styles.append(Array(repeating: 0, count: columns))
        } else {
            cursorRow += 1
        }
    }

    private mutating func erase(row: Int, from start: Int, to end: Int) {
        guard row >= 0, row < rows, start < end else { return }
        for column in max(0, start)..<min(columns, end) {
            cells[row][column] = " "
            styles[row][column] = 0
        }
    }

    private mutating func controlSequence(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let numbers = (isPrivate ? String(parameters.dropFirst()) : parameters)
            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ index: Int, default value: Int) -> Int {
            index < numbers.count ? numbers[index] ?? value : value
        }
        pendingWrap = false
        switch final {
        case UInt8(ascii: "H"), UInt8(ascii: "f"):
            cursorRow = min(rows - 1, max(0, number(0, default: 1) - 1))
            cursorColumn = min(columns - 1, max(0, number(1, default: 1) - 1))
        case UInt8(ascii: "A"): cursorRow = max(0, cursorRow - max(1, number(0, default: 1)))
        case UInt8(ascii: "B"): cursorRow = min(rows - 1, cursorRow + max(1, number(0, default: 1)))
        case UInt8(ascii: "C"): cursorColumn = min(columns - 1, cursorColumn + max(1, number(0, default: 1)))
        case UInt8(ascii: "D"): cursorColumn = max(0, cursorColumn - max(1, number(0, default: 1)))
        case UInt8(ascii: "G"): cursorColumn = min(columns - 1, max(0, number(0, default: 1) - 1))
        case UInt8(ascii: "d"): cursorRow = min(rows - 1, max(0, number(0, default: 1) - 1))
        case UInt8(ascii: "J"):
            switch number(0, default: 0) {
            case 0:
                erase(row: cursorRow, from: cursorColumn, to: columns)
                for row in (cursorRow + 1)..<max(cursorRow + 1, rows) { erase(row: row, from: 0, to: columns) }
            case 1:
                for row in 0..<cursorRow { erase(row: row, from: 0, to: columns) }
                erase(row: cursorRow, from: 0, to: cursorColumn + 1)
            default:
                for row in 0..<rows { erase(row: row, from: 0, to: columns) }
            }
        case UInt8(ascii: "K"):
            switch number(0, default: 0) {
            case 0: erase(row: cursorRow, from: cursorColumn, to: columns)
            case 1: erase(row: cursorRow, from: 0, to: cursorColumn + 1)
            default: erase(row: cursorRow, from: 0, to: columns)
            }
        case UInt8(ascii: "m"):
            for value in numbers.map({ $0 ?? 0 }) {
                switch value {
                case 0: styleOn = 0
                case 7: styleOn |= Style.reverse.rawValue
                case 27: styleOn &= ~Style.reverse.rawValue
                case 1: styleOn |= Style.bold.rawValue
                case 22: styleOn &= ~Style.bold.rawValue
                case 4: styleOn |= Style.underline.rawValue
                case 24: styleOn &= ~Style.underline.rawValue
                default: break
                }
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            guard isPrivate else { return }
            let on = final == UInt8(ascii: "h")
            for mode in numbers.compactMap({ $0 }) {
                switch mode {
                case 25: cursorVisible = on
                case 1049, 1047, 47: alternateScreen(on)
                case 1000, 1002, 1003, 1006: if on { mouseModes.insert(mode) } else { mouseModes.remove(mode) }
                default: break
                }
            }
        default:
            break
        }
    }

    private mutating func alternateScreen(_ on: Bool) {
        if on, savedNormal == nil {
            savedNormal = (cells, styles, cursorRow, cursorColumn)
            cells = Self.blank(columns: columns, rows: rows)
            styles = Array(repeating: Array(repeating: 0, count: columns), count: rows)
        } else if !on, let saved = savedNormal {
            (cells, styles, cursorRow, cursorColumn) = saved
            savedNormal = nil
        }
    }
}
