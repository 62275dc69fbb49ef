import InfCalModel
import InfCalEvents
import InfCalRender

/// The status line and the one line a screen too small for anything shows.
extension PagerView {
    /// The status line: the message of the last key or where the screen stands, a count being
    /// typed, then the key hints that fit in what the width leaves after `statusRoom` cells, so
    /// that the same width always shows the same hints, at the same place on the right.
    /// `position` is where the screen stands in parts, most important first: as many whole
    /// parts as fit are shown.
    /// A message is never cut: where it does not fit beside the hints, the hints give way;
    /// so do they where `hints` is false (the day view, whose parts say how to close it).
    func statusLine(for state: PagerState, position: [String], width: Int, hints showHints: Bool = true) -> String {
        var hints = showHints ? Self.hints(width: width) : ""
        if let message = state.message, !hints.isEmpty, DisplayWidth.of(message.text) > width - DisplayWidth.of(hints) - 3 {
            hints = ""
        }
        let hintsWidth = DisplayWidth.of(hints)
        let room = hints.isEmpty ? width : width - hintsWidth - 3
        var parts = state.message.map { [$0.text] } ?? position
        if let count = state.count { parts.insert("count: \(count)" + (state.countCapped ? " (capped)" : ""), at: min(1, parts.count)) }
        var left = ""
        for part in parts {
            let joined = left.isEmpty ? part : left + "  " + part
            if !left.isEmpty, DisplayWidth.of(joined) > room { break }
            left = joined
        }
        guard !hints.isEmpty else { return Self.fit(left, width: width) }
        let shown = Self.fit(left, width: room)
        return shown + String(repeating: " ", count: width - hintsWidth - DisplayWidth.of(shown)) + hints
    }

    /// The key hints a status line `width` cells wide shows.
    static func hints(width: Int) -> String {
        let room = width - min(statusRoom, max(20, width / 2)) - 3
        var kept: [(order: Int, text: String)] = []
        var used = 0
        for hint in PagerBindings.hints {
            let cost = DisplayWidth.of(hint.text) + (kept.isEmpty ? 0 : 2)
            if used + cost > room { break }
            kept.append(hint)
            used += cost
        }
        return kept.sorted { $0.order < $1.order }.map(\.text).joined(separator: "  ")
    }

    /// Where a screen of `months` stands: one month's title, or the first and last titles
    /// joined by a dash ("January 2024 – March 2024", "2024年1月 – 2024年3月"; a hyphen where
    /// the character set is not UTF-8), no words of English between localized names.
    func range(_ months: [Month]) -> String {
        guard let first = months.first else { return "" }
        guard let last = months.last, months.count > 1 else { return renderer.names.title(of: first) }
        return renderer.names.title(of: first) + (box == .ascii ? " - " : " – ") + renderer.names.title(of: last)
    }

    /// The one line shown on a screen smaller than `needed`: it names only the dimension that
    /// is short and fits the width (the last row's last cell left free).
    static func tooSmall(needed: TerminalSize, size: TerminalSize) -> String {
        let narrow = size.columns < needed.columns, short = size.rows < needed.rows
        let candidates: [String]
        switch (narrow, short) {
        case (true, true):
            candidates = ["terminal too small: \(needed.columns)x\(needed.rows) needed, \(size.columns)x\(size.rows) here",
                          "too small: \(needed.columns)x\(needed.rows) needed", "need \(needed.columns)x\(needed.rows)",
                          "\(needed.columns)x\(needed.rows)"]
        case (true, false):
            candidates = ["terminal too narrow: \(needed.columns) columns needed, \(size.columns) here",
                          "too narrow: \(needed.columns) columns needed", "need \(needed.columns) columns",
                          "\(needed.columns) cols", "\(needed.columns)c"]
        default:
            candidates = ["terminal too short: \(needed.rows) lines needed, \(size.rows) here",
                          "too short: \(needed.rows) lines needed", "need \(needed.rows) lines",
                          "\(needed.rows) lines", "\(needed.rows)l"]
        }
        let width = size.rows == 1 ? size.columns - 1 : size.columns
        return candidates.first { DisplayWidth.of($0) <= width } ?? fit(candidates.last ?? "", width: width)
    }
}
