import InfCalModel
import InfCalEvents
import InfCalRender

/// What a key asks the pager to do.
public enum PagerAction: Hashable, Sendable, CaseIterable {
    case nextDay, previousDay, nextWeek, previousWeek, openDay
    case nextMonth, previousMonth, nextScreen, previousScreen, nextYear, previousYear
    case today, goTo, search, nextMatch, previousMatch, cycleView, agenda, calendars, help, redraw, quit
    case addEvent, editEvent, deleteEvent, nextEvent, cycleZone
}

/// One row of the key table: an action, the keys that do it and what the help screen says,
/// in full and in short (for a help in two columns, where the full one does not fit).
public struct PagerBinding: Sendable {
    public let action: PagerAction
    public let keys: [Key]
    public let summary: String
    /// At most `PagerBindings.shortSummaryWidth` cells wide.
    public let short: String
}

/// The pager's keys. The state machine, the help screen and the status line hint all read this
/// one table, so they cannot drift apart.
public enum PagerBindings {
    /// All bindings, in the order the help screen lists them.
    public static let all: [PagerBinding] = [
        PagerBinding(action: .nextDay, keys: [.character("l"), .right],
                     summary: "select the next day (day view: the next day)", short: "next day"),
        PagerBinding(action: .previousDay, keys: [.character("h"), .left],
                     summary: "select the previous day (day view: the day before)", short: "previous day"),
        PagerBinding(action: .nextWeek, keys: [.character("j"), .down],
                     summary: "select a week later (day view, help, week view: scroll down)", short: "next week, scroll down"),
        PagerBinding(action: .previousWeek, keys: [.character("k"), .up],
                     summary: "select a week earlier (day view, help, week view: scroll up)", short: "last week, scroll up"),
        PagerBinding(action: .openDay, keys: [.enter],
                     summary: "the selected day's events in full (Enter, Esc close it)", short: "the day's events"),
        PagerBinding(action: .nextMonth, keys: [.character("n"), .wheelDown],
                     summary: "next month (year page: year; day view: day; week: week)", short: "next month"),
        PagerBinding(action: .previousMonth, keys: [.character("p"), .wheelUp],
                     summary: "previous month (year page: year; day view: day; week: week)", short: "previous month"),
        PagerBinding(action: .nextScreen, keys: [.character(" "), .pageDown],
                     summary: "next screen: a month, a strip of months, a year, a week", short: "next screen"),
        PagerBinding(action: .previousScreen, keys: [.character("b"), .pageUp],
                     summary: "previous screen: a month, a strip of months, a year, a week", short: "previous screen"),
        PagerBinding(action: .nextYear, keys: [.character("N"), .character("]")], summary: "next year", short: "next year"),
        PagerBinding(action: .previousYear, keys: [.character("P"), .character("[")], summary: "previous year", short: "previous year"),
        PagerBinding(action: .today, keys: [.character("t"), .home], summary: "select today", short: "select today"),
        PagerBinding(action: .goTo, keys: [.character("g")], summary: "go to a date: YYYY-MM (same day number) or YYYY-MM-DD", short: "go to a date"),
        PagerBinding(action: .search, keys: [.character("/")],
                     summary: "search: the next day with an event holding a text", short: "search"),
        PagerBinding(action: .nextMatch, keys: [.character("f")], summary: "the next day that matches the last search", short: "next match"),
        PagerBinding(action: .previousMatch, keys: [.character("F")], summary: "the previous day that matches the last search", short: "previous match"),
        PagerBinding(action: .cycleView, keys: [.character("v")], summary: "next view: month page, strip, year page, week", short: "next view"),
        PagerBinding(action: .agenda, keys: [.character("a")],
                     summary: "the month's agenda over the page (a, Esc close)", short: "the month's agenda"),
        PagerBinding(action: .calendars, keys: [.character("c")],
                     summary: "the calendars, to show or hide each (c, Esc close)", short: "show, hide calendars"),
        PagerBinding(action: .addEvent, keys: [.character("+")],
                     summary: "day/week view: add an event (asks TIME[-TIME] SUMMARY)", short: "add event (day, week)"),
        PagerBinding(action: .editEvent, keys: [.character("e")],
                     summary: "day/week view: change the highlighted event's time and summary", short: "edit event (day, week)"),
        PagerBinding(action: .deleteEvent, keys: [.character("d")],
                     summary: "day/week view: delete the highlighted event (asks y or n)", short: "delete event (day/week)"),
        PagerBinding(action: .nextEvent, keys: [.control(0x09)],
                     summary: "week view: highlight the day's next event (e and d act on it)", short: "week view: next event"),
        PagerBinding(action: .cycleZone, keys: [.character("z")],
                     summary: "every view: show the times in the next zone (--zones)", short: "next zone"),
        PagerBinding(action: .help, keys: [.character("?")], summary: "this help", short: "this help"),
        PagerBinding(action: .redraw, keys: [.control(0x0C)], summary: "repaint the screen", short: "repaint"),
        PagerBinding(action: .quit, keys: [.character("q"), .escape, .interrupt], summary: "quit", short: "quit"),
    ]

    /// The action `key` is bound to, or nil when it is bound to none.
    public static func action(for key: Key) -> PagerAction? {
        all.first { $0.keys.contains(key) }?.action
    }

    /// The first key of `action`, as the help and the status line name it: `n`, `Enter`.
    public static func key(_ action: PagerAction) -> String {
        all.first { $0.action == action }?.keys.first?.name ?? ""
    }

    /// "`key` `word`" for each action, two spaces apart: `+ add  e edit  d delete`.
    static func hint(_ actions: [(PagerAction, String)]) -> String {
        actions.map { key($0.0) + " " + $0.1 }.joined(separator: "  ")
    }

    /// How a screen that the key of `action` opened is left: "`a` or Esc closes".
    static func closing(_ action: PagerAction) -> String {
        key(action) + " or " + Key.escape.name + " closes"
    }

    /// The main keys, as the status line shows them, most important first: the line keeps as
    /// many as fit in the room its width leaves them (not the room its text leaves, so the set
    /// stays put as the months change) and shows them in `order`.
    static let hints: [(order: Int, text: String)] = [
        (6, PagerAction.quit, "quit"), (5, .help, "help"), (0, .nextMonth, "next"), (4, .cycleView, "view"), (1, .previousMonth, "previous"),
        (2, .today, "today"), (3, .goTo, "go to"),
    ].map { (order: $0.0, text: hint([($0.1, $0.2)])) }

    /// The widest a binding's `short` may be: two columns of keys and short summaries fit
    /// 80 columns.
    public static let shortSummaryWidth = 23

    /// The notes after the keys on counts, Esc, the views and the mouse; the last one says
    /// how to leave the help.
    public static let helpNotes = [
        "A count before a move repeats it: 3\(key(.nextDay)) is three days on, 2\(key(.nextWeek)) two weeks, 3\(key(.nextMonth)) three months, "
            + "10\(key(.previousYear)) ten years back; 0\(key(.nextMonth)) moves nothing.",
        "Months and years keep the selected day's number, cut to the month's length.",
        "Esc after a count cancels the count. With --mouse the wheel pages and a click on a day opens it.",
        "In the go-to, search and event prompts Ctrl-U clears and Ctrl-W erases a word.",
        "A search ignores case and accents, looks up to 10000 years away and Esc stops it.",
        "A recurring event's edit or delete in the day view changes that day's occurrence only.",
        "Any other key leaves this help.",
    ]

    /// The first key of `action` as the help names it ("" for an action without a key).
    public static func keyName(of action: PagerAction) -> String {
        all.first { $0.action == action }?.keys.first?.name ?? ""
    }

    /// The keys of `binding` as the help names them.
    public static func keyNames(_ binding: PagerBinding) -> String {
        binding.keys.map(\.name).joined(separator: " ")
    }

    /// The help screen's lines, unwrapped: one per binding, then `helpNotes`. Rows of keys
    /// carry the indent their summaries continue at.
    public static var helpRows: [(text: String, indent: Int)] {
        let rows = all.map { (keyNames($0), $0.summary) }
        let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        return [("Keys", 0), ("", 0)]
            + rows.map { ("  " + $0.0 + String(repeating: " ", count: width - DisplayWidth.of($0.0)) + "  " + $0.1, width + 4) }
            + [("", 0)] + helpNotes.map { ($0, 0) }
    }
}
