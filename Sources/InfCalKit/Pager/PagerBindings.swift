/// What a key asks the pager to do.
public enum PagerAction: Hashable, Sendable, CaseIterable {
    case nextMonth, previousMonth, nextYear, previousYear, today, goTo, help, redraw, quit
}

/// One row of the key table: an action, the keys that do it and what the help screen says.
public struct PagerBinding: Sendable {
    public let action: PagerAction
    public let keys: [Key]
    public let summary: String
}

/// The pager's keys. The state machine, the help screen and the status line hint all read this
/// one table, so they cannot drift apart.
public enum PagerBindings {
    /// All bindings, in the order the help screen lists them.
    public static let all: [PagerBinding] = [
        PagerBinding(action: .nextMonth,
                     keys: [.character("n"), .right, .character("l"), .character("j"), .down,
                            .character(" "), .pageDown, .enter],
                     summary: "next month"),
        PagerBinding(action: .previousMonth,
                     keys: [.character("p"), .left, .character("h"), .character("k"), .up,
                            .character("b"), .pageUp],
                     summary: "previous month"),
        PagerBinding(action: .nextYear, keys: [.character("N"), .character("]")], summary: "next year"),
        PagerBinding(action: .previousYear, keys: [.character("P"), .character("[")], summary: "previous year"),
        PagerBinding(action: .today, keys: [.character("t"), .home], summary: "today's month"),
        PagerBinding(action: .goTo, keys: [.character("g")], summary: "go to a date (YYYY-MM or YYYY-MM-DD)"),
        PagerBinding(action: .help, keys: [.character("?")], summary: "this help"),
        PagerBinding(action: .redraw, keys: [.control(0x0C)], summary: "repaint the screen"),
        PagerBinding(action: .quit, keys: [.character("q"), .escape, .interrupt], summary: "quit"),
    ]

    /// The action `key` is bound to, or nil when it is bound to none.
    public static func action(for key: Key) -> PagerAction? {
        all.first { $0.keys.contains(key) }?.action
    }

    /// The main keys, as the status line shows them, most important first: the line keeps as
    /// many as fit and shows them in `hintOrder`.
    static let hints: [(order: Int, text: String)] = [
        (5, "q quit"), (4, "? help"), (0, "n next"), (1, "p previous"), (2, "t today"), (3, "g go to"),
    ]

    /// The help screen's lines: one per binding, then a note on counts and on Esc.
    public static var helpLines: [String] {
        let rows = all.map { ($0.keys.map(\.name).joined(separator: " "), $0.summary) }
        let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        return ["Keys", ""]
            + rows.map { "  " + $0.0 + String(repeating: " ", count: width - DisplayWidth.of($0.0)) + "  " + $0.1 }
            + ["", "A count before a move repeats it: 3n is three months on, 10P ten years back.",
               "Esc after a count cancels the count. Any key leaves this help."]
    }
}
