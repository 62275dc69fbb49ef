import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

/// What the pager shows and where it stands: the state machine behind the keys.
///
/// Pure: keys in, state out. The terminal layer feeds it keys and the date, and draws the
/// frame `PagerView` composes from it.
public struct PagerState {
    /// What fills the screen.
    public enum Screen: Equatable, Sendable {
        /// The month grids, with the status line.
        case months
        /// The list of keys.
        case help
        /// The go-to prompt on the status line, with what was typed so far.
        case prompt(String)
        /// The search prompt on the status line (key `/`), with what was typed so far.
        case searchPrompt(String)
        /// The month's agenda over the view (key `a`), scrolled by `scroll`.
        case agenda
        /// The selected day over the view (Enter): its events in full, scrolled by `scroll`,
        /// `highlightedEvent` the one the keys act on.
        case day
        /// The list of calendars over the view (key `c`), the one at `calendarCursor` chosen.
        case calendars
        /// Over the day view: the status line asks for an event's `TIME[-TIME] SUMMARY`, with
        /// what was typed so far.
        case eventPrompt(EventPrompt, String)
        /// Over the day view: the status line asks whether to delete the highlighted event.
        case confirmDelete
    }

    /// What an event prompt is for.
    public enum EventPrompt: Equatable, Sendable {
        /// A new event on the selected day.
        case add
        /// The highlighted event's new time and summary.
        case edit
    }

    /// A change to the calendars the day view asks for: the caller writes it (as `infcal
    /// add`, `edit` and `delete` do), tells the state how it went and shows the new events.
    public enum Write: Equatable, Sendable {
        /// A new event on `day` (a day number), from `text`: `TIME[-TIME] SUMMARY`.
        case add(day: Int, text: String)
        /// The day's event `event` (an index as `highlightedEvent`) changed as `text` says.
        case edit(day: Int, event: Int, text: String)
        /// The day's event `event` deleted.
        case delete(day: Int, event: Int)
    }

    /// The four views the pager shows, cycled by `v`.
    public enum View: Equatable, Sendable, CaseIterable {
        /// One month filling the screen, as a page of boxes.
        case monthPage
        /// Compact grids, as many side by side and as many rows of them as fit.
        case strip
        /// The calendar year of the month, as `--year` prints it.
        case yearPage
        /// The week of the selected day by the hour (`WeekLayout`).
        case week

        /// How the status line and the help name it.
        public var label: String {
            switch self {
            case .monthPage: return "month page"
            case .strip: return "strip"
            case .yearPage: return "year page"
            case .week: return "week"
            }
        }

        /// The view's name for the command line and the config file (`--view week`, `view =
        /// month`): one word, stable, lower case.
        public var name: String {
            switch self {
            case .monthPage: return "month"
            case .strip: return "strip"
            case .yearPage: return "year"
            case .week: return "week"
            }
        }

        /// The view called `name` (as `name` gives it), or nil for none.
        public init?(name: String) {
            guard let view = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = view
        }

        /// The view `v` goes to.
        public var next: View {
            switch self {
            case .monthPage: return .strip
            case .strip: return .yearPage
            case .yearPage: return .week
            case .week: return .monthPage
            }
        }
    }

    /// What the screen's size allows, which keys need: the view works it out for the size the
    /// terminal has and the terminal layer hands it over before each key.
    public struct Room: Equatable, Sendable {
        /// Months the strip shows at once (a screenful).
        public var monthsPerScreen: Int
        /// Lines of the year page or the help that do not fit on the screen (how far they scroll).
        public var scrollLimit: Int
        /// Lines a screenful of help or year page scrolls.
        public var linesPerScreen: Int
        /// In the day view: the line each event of the day starts on, in order. In the week
        /// view: the hour each of the selected day's events starts at, in the day view's order
        /// (-1 for one of the band above the hours).
        public var eventStarts: [Int]
        /// In the week view: the hours its rows show.
        public var weekHours: Range<Int>

        /// Room for `monthsPerScreen` months, `scrollLimit` lines to scroll, `linesPerScreen` a
        /// screenful, a day view's events starting on the lines `eventStarts`, a week view
        /// showing `weekHours`.
        public init(monthsPerScreen: Int = 1, scrollLimit: Int = 0, linesPerScreen: Int = 1, eventStarts: [Int] = [],
                    weekHours: Range<Int> = 0..<24) {
            self.monthsPerScreen = monthsPerScreen
            self.scrollLimit = scrollLimit
            self.linesPerScreen = linesPerScreen
            self.eventStarts = eventStarts
            self.weekHours = weekHours
        }
    }

    /// What the caller does after a key.
    public enum Outcome: Equatable, Sendable {
        /// Draw the new state (only what changed).
        case draw
        /// Clear the screen and draw everything afresh (Ctrl-L).
        case redraw
        /// Restore the terminal and end.
        case quit
        /// Write the change, then draw.
        case write(Write)
    }

    /// A one-line message for the status line.
    public struct Message: Equatable, Sendable {
        public let text: String
        /// Whether it reports a mistake (a bad date) rather than a fact (a bound).
        public let isError: Bool
    }

    /// The month index; its current month is the first month on the screen.
    public internal(set) var index: MonthIndex
    /// What fills the screen now.
    public internal(set) var screen: Screen = .months
    /// The message of the last key, or nil; the next key clears it.
    public internal(set) var message: Message?
    /// The count typed so far, or nil when none is.
    public internal(set) var count: Int?
    /// Today's day number: the month `t` goes to and the day highlighted.
    public internal(set) var today: Int
    /// The view shown.
    public internal(set) var view: View
    /// Lines the help, the agenda or the year page is scrolled down by.
    public internal(set) var scroll = 0
    /// Whether the count typed was more than `maximumCount` and was cut to it.
    public internal(set) var countCapped = false
    /// What the screen's size allows; set before each key and when the terminal is resized
    /// (the strip then keeps the selected day on the screen).
    public var room = Room() {
        didSet { if view == .strip, screen != .help { reveal() } }
    }
    /// The selected day (a day number): always inside the bounds and on the screen.
    public internal(set) var selected: Int
    /// In the day view: the event the keys act on, an index into the day's events in the
    /// order the day view lists them.
    public internal(set) var highlightedEvent = 0
    /// The calendars the list of key `c` shows, in order: each with its index in the event
    /// store and its name.
    public internal(set) var calendars: [(index: Int, name: String)] = []
    /// The store's indices of the calendars left out of the views.
    public internal(set) var hiddenCalendars: Set<Int> = []
    /// The row of the calendar list that Space or Enter shows or hides.
    public internal(set) var calendarCursor = 0
    /// The text of the last search (`/`), which `f` and `F` look for again.
    public internal(set) var searchText: String?
    /// The search under way, looked for in slices between keys; nil when none is.
    public internal(set) var search: Search?
    /// The zones the week view and the day view show times in, which `z` cycles: the first
    /// is the one the events were read in (the run's), the only one the views' writes are
    /// made in. Empty: the run's, unnamed.
    public internal(set) var zones: [NamedZone] = []
    /// The zone shown, an index into `zones`.
    public internal(set) var zoneIndex = 0
    /// The first hour the week view shows, once `j` or `k` scrolled it; nil: the hours the
    /// view chooses (`hours =`, or the events' working hours).
    public internal(set) var weekTop: Int?
    /// The current instant (UTC civil seconds), for the week view's "now" line; nil: none drawn.
    public internal(set) var now: Int?
    /// What an event prompt or the question before a delete goes back to: the day view, or
    /// the week view they were asked from.
    var afterEventPrompt: Screen = .day

    /// The calendar months are stepped and found in.
    public let calendar: MonthCalendar
    /// The bounds no month may pass.
    public let bounds: MonthBounds
    /// The calendar go-to dates are read in (the command line's).
    let gregorian: MonthCalendar

    /// The largest count; more digits keep it. A count of months is walked month by month, at
    /// most 9999 steps (a Chinese month is the slowest to step).
    public static let maximumCount = 9999
    /// The longest text the go-to prompt takes.
    public static let maximumPromptLength = 32
    /// The longest text an event prompt takes.
    public static let maximumEventPromptLength = 200
    /// The status line after a move forward stopped at a bound.
    public static let boundAfter = "no later month"
    /// The status line after a move back stopped at a bound.
    public static let boundBefore = "no earlier month"
    /// The status line after a day's move forward stopped at a bound.
    public static let dayBoundAfter = "no later day"
    /// The status line after a day's move back stopped at a bound.
    public static let dayBoundBefore = "no earlier day"

    /// A pager standing on `start` in `calendar`, kept inside `bounds`, with `today` (a day number).
    public init(calendar: MonthCalendar, start: Month, bounds: MonthBounds, today: Int, view: View = .monthPage) {
        self.calendar = calendar
        gregorian = MonthCalendar(.gregorian, reform: calendar.reform)
        self.bounds = bounds
        self.today = today
        self.view = view
        index = MonthIndex(calendar: calendar, start: start, bounds: bounds)
        selected = start.firstDay
        select(start.contains(day: today) ? today : start.firstDay)
    }

    /// The first month on the screen.
    public var current: Month { index.current }

    /// Whether the status line asks for an event's time and summary.
    public var isEventPrompt: Bool {
        if case .eventPrompt = screen { return true }
        return false
    }

    /// Sets the calendars the list of key `c` shows, and those hidden at the start (`--only`,
    /// `--hide`).
    public mutating func setCalendars(_ calendars: [(index: Int, name: String)], hidden: Set<Int>) {
        self.calendars = calendars
        hiddenCalendars = hidden
        calendarCursor = 0
    }

    /// Sets the zones `z` cycles (the first the events' own: see `zones`), showing the first.
    public mutating func setZones(_ zones: [NamedZone]) {
        self.zones = zones
        zoneIndex = 0
    }

    /// The zone times are shown in, when it is not the events' own; nil when it is.
    public var shownZone: NamedZone? {
        zoneIndex > 0 && zoneIndex < zones.count ? zones[zoneIndex] : nil
    }

    /// Whether the views may write events: only in the events' own zone, which the times a
    /// prompt takes are read in.
    public var writesAllowed: Bool { shownZone == nil }

    /// Sets the current instant (UTC civil seconds), which the week view's "now" line shows.
    /// - returns: whether the minute changed.
    @discardableResult
    public mutating func setNow(_ instant: Int) -> Bool {
        let minute = CivilTime.floorDiv(instant, 60)
        guard now.map({ CivilTime.floorDiv($0, 60) }) != minute else { return false }
        now = instant
        return true
    }

    /// Sets today's day number (the date changed at midnight); the highlight follows it.
    /// - returns: whether it changed.
    @discardableResult
    public mutating func setToday(_ day: Int) -> Bool {
        guard day != today else { return false }
        today = day
        return true
    }
}
