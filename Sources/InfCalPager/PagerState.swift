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

    /// The three views the pager shows, cycled by `v`.
    public enum View: Equatable, Sendable, CaseIterable {
        /// One month filling the screen, as a page of boxes.
        case monthPage
        /// Compact grids, as many side by side and as many rows of them as fit.
        case strip
        /// The calendar year of the month, as `--year` prints it.
        case yearPage

        /// How the status line and the help name it.
        public var label: String {
            switch self {
            case .monthPage: return "month page"
            case .strip: return "strip"
            case .yearPage: return "year page"
            }
        }

        /// The view `v` goes to.
        public var next: View {
            switch self {
            case .monthPage: return .strip
            case .strip: return .yearPage
            case .yearPage: return .monthPage
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
        /// In the day view: the line each event of the day starts on, in order.
        public var eventStarts: [Int]

        /// Room for `monthsPerScreen` months, `scrollLimit` lines to scroll, `linesPerScreen` a
        /// screenful, a day view's events starting on the lines `eventStarts`.
        public init(monthsPerScreen: Int = 1, scrollLimit: Int = 0, linesPerScreen: Int = 1, eventStarts: [Int] = []) {
            self.monthsPerScreen = monthsPerScreen
            self.scrollLimit = scrollLimit
            self.linesPerScreen = linesPerScreen
            self.eventStarts = eventStarts
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
    public private(set) var index: MonthIndex
    /// What fills the screen now.
    public private(set) var screen: Screen = .months
    /// The message of the last key, or nil; the next key clears it.
    public private(set) var message: Message?
    /// The count typed so far, or nil when none is.
    public private(set) var count: Int?
    /// Today's day number: the month `t` goes to and the day highlighted.
    public private(set) var today: Int
    /// The view shown.
    public private(set) var view: View
    /// Lines the help, the agenda or the year page is scrolled down by.
    public private(set) var scroll = 0
    /// Whether the count typed was more than `maximumCount` and was cut to it.
    public private(set) var countCapped = false
    /// What the screen's size allows; set before each key and when the terminal is resized
    /// (the strip then keeps the selected day on the screen).
    public var room = Room() {
        didSet { if view == .strip, screen != .help { reveal() } }
    }
    /// The selected day (a day number): always inside the bounds and on the screen.
    public private(set) var selected: Int
    /// In the day view: the event the keys act on, an index into the day's events in the
    /// order the day view lists them.
    public private(set) var highlightedEvent = 0
    /// The calendars the list of key `c` shows, in order: each with its index in the event
    /// store and its name.
    public private(set) var calendars: [(index: Int, name: String)] = []
    /// The store's indices of the calendars left out of the views.
    public private(set) var hiddenCalendars: Set<Int> = []
    /// The row of the calendar list that Space or Enter shows or hides.
    public private(set) var calendarCursor = 0
    /// The text of the last search (`/`), which `f` and `F` look for again.
    public private(set) var searchText: String?
    /// The search under way, looked for in slices between keys; nil when none is.
    public private(set) var search: Search?

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

    /// Sets today's day number (the date changed at midnight); the highlight follows it.
    /// - returns: whether it changed.
    @discardableResult
    public mutating func setToday(_ day: Int) -> Bool {
        guard day != today else { return false }
        today = day
        return true
    }

    // MARK: Keys

    /// Whether `key` reads `room` (a screenful, a scroll), so that the caller works it out
    /// only then: for the strip it means laying out every month on the screen.
    public func needsRoom(for key: Key) -> Bool {
        if screen != .months { return true }
        guard let action = PagerBindings.action(for: key) else { return false }
        // The strip keeps the selection on the screen, which holds as many months as fit.
        return view == .strip || [.nextScreen, .previousScreen].contains(action)
    }

    /// Acts on `key` and says what the caller does next.
    public mutating func handle(_ key: Key) -> Outcome {
        if search != nil { return handleSearching(key) }
        switch screen {
        case .help:
            return handleHelp(key)
        case .prompt(let text):
            return handlePrompt(key, text: text)
        case .searchPrompt(let text):
            return handleSearchPrompt(key, text: text)
        case .months:
            return handleMonths(key)
        case .agenda:
            return handleAgenda(key)
        case .day:
            return handleDay(key)
        case .calendars:
            return handleCalendars(key)
        case .eventPrompt(let purpose, let text):
            return handleEventPrompt(key, purpose: purpose, text: text)
        case .confirmDelete:
            screen = .day
            if key == .interrupt { return .quit }
            guard key == .character("y") || key == .character("Y") else {
                message = Message(text: "nothing deleted", isError: false)
                return .draw
            }
            return .write(.delete(day: selected, event: highlightedEvent))
        }
    }

    /// Opens the prompt for the highlighted event's new time and summary, holding `text`
    /// (what the event has now) to be edited; a day without events says so.
    public mutating func startEditing(_ text: String?) {
        message = nil
        count = nil
        guard let text else {
            message = Message(text: "no event to change on this day", isError: false)
            return
        }
        screen = .eventPrompt(.edit, String(text.prefix(Self.maximumEventPromptLength)))
    }

    /// Keeps the day view's highlight on one of the day's `count` events (after a write
    /// took one away).
    public mutating func keepHighlight(within count: Int) {
        highlightedEvent = max(0, min(highlightedEvent, count - 1))
    }

    /// Says how a write went, on the status line.
    public mutating func report(_ text: String, isError: Bool) {
        message = Message(text: text, isError: isError)
    }

    private mutating func handleEventPrompt(_ key: Key, purpose: EventPrompt, text: String) -> Outcome {
        switch Self.edit(text, with: key, limit: Self.maximumEventPromptLength) {
        case .typed(let typed):
            screen = .eventPrompt(purpose, typed)
        case .cancelled:
            screen = .day
        case .quit:
            return .quit
        case .entered:
            screen = .day
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return .draw }
            switch purpose {
            case .add: return .write(.add(day: selected, text: trimmed))
            case .edit: return .write(.edit(day: selected, event: highlightedEvent, text: trimmed))
            }
        }
        return .draw
    }

    /// What a key does to a prompt's line.
    enum LineEdit {
        case typed(String)
        case entered
        case cancelled
        case quit
    }

    /// The line editing every prompt shares: Enter, Esc, Backspace (on an empty line it
    /// cancels), Ctrl-U erases the line, Ctrl-W the word before the cursor; at most `limit`
    /// characters.
    static func edit(_ text: String, with key: Key, limit: Int) -> LineEdit {
        switch key {
        case .enter:
            return .entered
        case .escape:
            return .cancelled
        case .interrupt:
            return .quit
        case .backspace:
            return text.isEmpty ? .cancelled : .typed(String(text.dropLast()))
        case .control(0x15):
            return .typed("")
        case .control(0x17):
            // Erase the word before the cursor, and the spaces after it.
            var kept = Substring(text)
            while kept.last == " " { kept.removeLast() }
            while let last = kept.last, last != " " { kept.removeLast() }
            return .typed(String(kept))
        case .character(let character) where text.count < limit:
            return .typed(text + String(character))
        default:
            return .typed(text)
        }
    }

    /// In the day view: Enter and Esc close it, the days' moves show the next or previous day,
    /// j, k, Space and b scroll it (j and k from event to event), q and Ctrl-C quit; the other
    /// keys act on the months, and the view shows the day then selected.
    private mutating func handleDay(_ key: Key) -> Outcome {
        if key == .escape, count == nil {
            closeDay()
            return .draw
        }
        let action = PagerBindings.action(for: key)
        switch action {
        case .openDay?:
            count = nil
            closeDay()
            return .draw
        case .nextDay?, .nextMonth?, .previousDay?, .previousMonth?:
            let repeats = count ?? 1
            count = nil
            message = nil
            moveDays(action == .nextDay || action == .nextMonth ? repeats : -repeats)
            highlightedEvent = 0
            scroll = 0
            return .draw
        case .nextWeek?, .previousWeek?:
            let repeats = min(count ?? 1, room.scrollLimit + room.eventStarts.count + 1)
            count = nil
            for _ in 0..<repeats { action == .nextWeek ? stepDown() : stepUp() }
            return .draw
        case .nextScreen?, .previousScreen?:
            let lines = scrollLines(for: action ?? .nextScreen) * (count ?? 1)
            count = nil
            scroll = min(room.scrollLimit, max(0, scroll + lines))
            highlightedEvent = max(0, (room.eventStarts.lastIndex { $0 <= scroll }) ?? 0)
            return .draw
        case .addEvent?:
            count = nil
            message = nil
            screen = .eventPrompt(.add, "")
            return .draw
        case .deleteEvent?:
            count = nil
            message = nil
            if room.eventStarts.isEmpty {
                message = Message(text: "no event to delete on this day", isError: false)
            } else {
                screen = .confirmDelete
            }
            return .draw
        default:
            let before = selected
            let outcome = handleMonths(key)
            if selected != before {
                highlightedEvent = 0
                scroll = 0
            }
            return outcome
        }
    }

    /// Selects `day` and opens the day view on it.
    public mutating func open(_ day: Int) {
        message = nil
        count = nil
        select(day)
        screen = .day
        scroll = 0
        highlightedEvent = 0
    }

    /// Closes the day view.
    private mutating func closeDay() {
        screen = .months
        scroll = 0
        highlightedEvent = 0
    }

    /// j in the day view: down a line while the highlighted event goes on below the screen,
    /// else to the next event, scrolled into sight.
    private mutating func stepDown() {
        let starts = room.eventStarts
        let visible = max(1, room.linesPerScreen + 1)
        let end = highlightedEvent + 1 < starts.count ? starts[highlightedEvent + 1] : scroll + visible + room.scrollLimit
        if end > scroll + visible, scroll < room.scrollLimit {
            scroll += 1
        } else if highlightedEvent + 1 < starts.count {
            highlightedEvent += 1
            let next = highlightedEvent + 1 < starts.count ? starts[highlightedEvent + 1] : starts[highlightedEvent] + visible
            if next > scroll + visible { scroll = min(room.scrollLimit, starts[highlightedEvent]) }
        } else if scroll < room.scrollLimit {
            scroll += 1
        }
    }

    /// k in the day view: up a line while the highlighted event starts above the screen, else
    /// to the event before, scrolled into sight.
    private mutating func stepUp() {
        let starts = room.eventStarts
        let start = highlightedEvent < starts.count ? starts[highlightedEvent] : 0
        if start < scroll {
            scroll -= 1
        } else if highlightedEvent > 0 {
            highlightedEvent -= 1
            if starts[highlightedEvent] < scroll { scroll = starts[highlightedEvent] }
        } else if scroll > 0 {
            scroll -= 1
        }
    }

    /// In the list of calendars: j, k (Down, Up) choose a row, Space, Enter or x shows or
    /// hides it, a digit 1-9 the calendar of that row; c and Esc close it, q and Ctrl-C quit.
    private mutating func handleCalendars(_ key: Key) -> Outcome {
        func toggle(_ row: Int) {
            guard calendars.indices.contains(row) else { return }
            let index = calendars[row].index
            if hiddenCalendars.remove(index) == nil { hiddenCalendars.insert(index) }
        }
        switch key {
        case .escape, .character("c"):
            screen = .months
            return .draw
        case .interrupt, .character("q"):
            return .quit
        case .character(" "), .enter, .character("x"):
            toggle(calendarCursor)
            return .draw
        case .down, .character("j"):
            calendarCursor = min(max(0, calendars.count - 1), calendarCursor + 1)
            return .draw
        case .up, .character("k"):
            calendarCursor = max(0, calendarCursor - 1)
            return .draw
        case .character(let character):
            if let digit = character.wholeNumberValue, character.isASCII, digit >= 1 {
                toggle(digit - 1)
                calendarCursor = min(max(0, calendars.count - 1), digit - 1)
            }
            return .draw
        default:
            return .draw
        }
    }

    /// In the agenda: `a` and Esc close it, the scrolling keys scroll it, q and Ctrl-C quit;
    /// the other keys act on the months, and the agenda follows the month shown.
    private mutating func handleAgenda(_ key: Key) -> Outcome {
        if key == .escape, count == nil {
            screen = .months
            scroll = 0
            return .draw
        }
        switch PagerBindings.action(for: key) {
        case .agenda?:
            screen = .months
            scroll = 0
            count = nil
            return .draw
        case .nextWeek?, .previousWeek?, .nextScreen?, .previousScreen?:
            let lines = scrollLines(for: PagerBindings.action(for: key) ?? .nextWeek) * (count ?? 1)
            count = nil
            scroll = min(room.scrollLimit, max(0, scroll + lines))
            return .draw
        default:
            return handleMonths(key)
        }
    }

    /// In the help: the scrolling keys scroll it when it is taller than the screen; any other
    /// key leaves it, Ctrl-C still quits.
    private mutating func handleHelp(_ key: Key) -> Outcome {
        if key == .interrupt { return .quit }
        if room.scrollLimit > 0, let action = PagerBindings.action(for: key), scrollLines(for: action) != 0 {
            scroll = min(room.scrollLimit, max(0, scroll + scrollLines(for: action)))
            return .draw
        }
        screen = .months
        scroll = 0
        return .draw
    }

    /// Lines `action` scrolls a page taller than the screen by, 0 for an action that does not scroll.
    private func scrollLines(for action: PagerAction) -> Int {
        switch action {
        case .nextWeek, .nextMonth, .nextDay: return 1
        case .previousWeek, .previousMonth, .previousDay: return -1
        case .nextScreen: return max(1, room.linesPerScreen)
        case .previousScreen: return -max(1, room.linesPerScreen)
        default: return 0
        }
    }

    private mutating func handleMonths(_ key: Key) -> Outcome {
        message = nil
        if case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII {
            let typed = (count ?? 0).multipliedReportingOverflow(by: 10)
            let value = typed.partialValue.addingReportingOverflow(digit)
            if typed.overflow || value.overflow || value.partialValue > Self.maximumCount {
                count = Self.maximumCount
                countCapped = true
            } else {
                count = value.partialValue
            }
            return .draw
        }
        if key == .backspace, let typed = count {
            count = typed >= 10 ? typed / 10 : nil
            countCapped = false
            return .draw
        }
        if key == .escape, count != nil {
            count = nil
            countCapped = false
            return .draw
        }
        // No count is one; a count of 0 moves nothing.
        let repeats = count ?? 1
        let capped = countCapped
        count = nil
        countCapped = false
        guard let action = PagerBindings.action(for: key) else {
            if case .character = key { message = Message(text: "\(key.name): not a key here (? for help)", isError: true) }
            return .draw
        }
        switch action {
        case .nextDay: moveDays(repeats)
        case .previousDay: moveDays(-repeats)
        case .nextWeek: moveDays(7 * repeats)
        case .previousWeek: moveDays(-7 * repeats)
        case .openDay:
            screen = .day
            scroll = 0
            highlightedEvent = 0
        case .nextMonth: view == .yearPage ? move(years: repeats) : move(by: repeats)
        case .previousMonth: view == .yearPage ? move(years: -repeats) : move(by: -repeats)
        case .nextScreen, .previousScreen:
            let sign = action == .nextScreen ? 1 : -1
            switch view {
            case .monthPage: move(by: sign * repeats)
            case .yearPage: move(years: sign * repeats)
            case .strip:
                let months = repeats.multipliedReportingOverflow(by: max(1, room.monthsPerScreen))
                if months.overflow || months.partialValue > Self.maximumCount {
                    move(by: sign * Self.maximumCount)
                    if message == nil { message = Message(text: "moved \(Self.maximumCount) months, the most one key moves", isError: false) }
                    return .draw
                }
                move(by: sign * months.partialValue)
            }
        case .nextYear: move(years: repeats)
        case .previousYear: move(years: -repeats)
        case .today: goToToday()
        case .goTo: screen = .prompt("")
        case .search: screen = .searchPrompt("")
        case .nextMatch, .previousMatch:
            if let searchText {
                startSearch(searchText, forward: action == .nextMatch)
            } else {
                message = Message(text: "no search yet: / searches", isError: false)
            }
        case .cycleView:
            view = view.next
            scroll = 0
            reveal()
        case .agenda:
            screen = .agenda
            scroll = 0
        case .calendars:
            if calendars.isEmpty {
                message = Message(text: "no calendars configured (see CONFIGURATION in the manual)", isError: false)
            } else {
                screen = .calendars
            }
        case .help:
            screen = .help
            scroll = 0
        case .redraw: return .redraw
        case .quit: return .quit
        case .addEvent, .editEvent, .deleteEvent:
            message = Message(text: "\(key.name): in the day view (Enter opens it)", isError: false)
        }
        if ![.cycleView, .help, .agenda, .openDay, .calendars].contains(action) { scroll = 0 }
        if capped, message == nil {
            message = Message(text: "count capped at \(Self.maximumCount)", isError: false)
        }
        return .draw
    }

    private mutating func handlePrompt(_ key: Key, text: String) -> Outcome {
        switch Self.edit(text, with: key, limit: Self.maximumPromptLength) {
        case .entered:
            screen = .months
            goTo(text)
        case .cancelled:
            screen = .months
        case .quit:
            return .quit
        case .typed(let typed):
            screen = .prompt(typed)
        }
        return .draw
    }

    private mutating func handleSearchPrompt(_ key: Key, text: String) -> Outcome {
        switch Self.edit(text, with: key, limit: Self.maximumPromptLength) {
        case .entered:
            screen = .months
            guard !text.isEmpty else { return .draw }
            searchText = text
            startSearch(text, forward: true)
        case .cancelled:
            screen = .months
        case .quit:
            return .quit
        case .typed(let typed):
            screen = .searchPrompt(typed)
        }
        return .draw
    }

    // MARK: Moves

    /// Moves `months` months (back when negative), stopping at a bound and saying so; the
    /// selected day moves as many months and keeps its number.
    public mutating func move(by months: Int) {
        carrySelection { $0.moveMonths(months) }
    }

    private mutating func moveMonths(_ months: Int) {
        let taken = index.move(by: months)
        if taken < months.magnitude {
            message = Message(text: months > 0 ? Self.boundAfter : Self.boundBefore, isError: false)
        }
    }

    /// Moves `years` calendar years (back when negative): to the month of the same number in
    /// that year, not a leap month; where the year has no such month (Adar I outside a Hebrew
    /// leap year), to the next month it has (Adar). Twelve months in the Gregorian calendar,
    /// twelve or thirteen in the Hebrew and Chinese ones. Stops at a bound and says so. The
    /// selected day keeps its number.
    public mutating func move(years: Int) {
        carrySelection { $0.moveYears(years) }
    }

    private mutating func moveYears(_ years: Int) {
        let target = index.current.name.month
        // Many years at once: Foundation adds all but the last (a Chinese month is slow to step,
        // and 9999 years are 124,000 months), the walk below does the last one and
        // finds the month. Where that lands outside the bounds or the calendar, the walk does it all.
        var remaining = years.magnitude
        if remaining > 1, let landing = calendar.calendar.date(byAdding: .year, value: years - years.signum(), to: index.current.start),
           let month = calendar.month(containing: DayNumber.day(of: landing)), bounds.admits(month),
           years > 0 ? month.firstDay > index.current.firstDay : month.firstDay < index.current.firstDay {
            index.jump(to: month)
            remaining = 1
        }
        for _ in 0..<remaining {
            let year = index.current.name
            // Leave this year: to the first month of the next or the last of the previous.
            while index.current.name.isInSameYear(as: year) {
                guard years > 0 ? index.moveForward() : index.moveBackward() else { return bound(years) }
            }
            let reached = index.current.name
            func step(_ forward: Bool) -> Bool {
                var probe = index
                guard forward ? probe.moveForward() : probe.moveBackward(),
                      probe.current.name.isInSameYear(as: reached) else { return false }
                index = probe
                return true
            }
            if years > 0 {
                while index.current.name.month < target || index.current.name.isLeapMonth, step(true) {}
            } else {
                var passedHigher = false
                while index.current.name.month > target || index.current.name.isLeapMonth {
                    passedHigher = passedHigher || index.current.name.month > target
                    guard step(false) else { break }
                }
                if index.current.name.month < target, passedHigher { _ = step(true) }
            }
        }
    }

    private mutating func bound(_ direction: Int) {
        message = Message(text: direction > 0 ? Self.boundAfter : Self.boundBefore, isError: false)
    }

    /// Selects today, if the bounds and the calendar have it.
    public mutating func goToToday() {
        if jump(toMonthHolding: today, named: "today") { select(today) }
    }

    // MARK: The selected day

    /// The month holding the selected day.
    public var selectedMonth: Month { calendar.month(containing: selected) ?? index.current }

    /// The first and last days the selection may reach: the bounds' and the calendar's.
    var selectableDays: ClosedRange<Int> {
        let low = max(bounds.since ?? .min, MonthCalendar.lowerLimitDay)
        let high = min(bounds.until ?? .max, (calendar.upperLimit ?? .max) - 1)
        return low...max(low, high)
    }

    /// Selects `day`, kept inside the bounds, and brings its month onto the screen.
    public mutating func select(_ day: Int) {
        let days = selectableDays
        let kept = min(days.upperBound, max(days.lowerBound, day))
        guard calendar.month(containing: kept) != nil else { return }
        selected = kept
        reveal()
    }

    /// Moves the selection `days` days (back when negative), turning pages where it leaves the
    /// screen, and stops at the bounds, saying so.
    public mutating func moveDays(_ days: Int) {
        let (target, overflow) = selected.addingReportingOverflow(days)
        let range = selectableDays
        if overflow || target > range.upperBound || target < range.lowerBound || calendar.month(containing: target) == nil {
            message = Message(text: days > 0 ? Self.dayBoundAfter : Self.dayBoundBefore, isError: false)
            // As far as the bound; where the calendar itself ends first, the selection stays.
            let reachable = days > 0 ? range.upperBound : range.lowerBound
            if calendar.month(containing: reachable) != nil {
                select(days > 0 ? max(selected, reachable) : min(selected, reachable))
            }
            return
        }
        select(target)
    }

    /// Runs `move` (a move of the months) and carries the selected day along: it keeps its
    /// number, cut to its new month's length, and its place among the strip's months.
    private mutating func carrySelection(_ move: (inout PagerState) -> Void) {
        let month = selectedMonth
        let offset = selected - month.firstDay
        var place = 0
        if view == .strip {
            var probe = index
            while !probe.current.contains(day: selected), probe.current.firstDay < selected,
                  place < max(1, room.monthsPerScreen), probe.moveForward() {
                place += 1
            }
        }
        move(&self)
        var probe = index
        for _ in 0..<place { guard probe.moveForward() else { break } }
        let target = probe.current
        let days = selectableDays
        selected = min(days.upperBound, max(days.lowerBound, target.firstDay + min(offset, target.dayCount - 1)))
        reveal()
    }

    /// Brings the selected day onto the screen: its month on the month page and the year page,
    /// one of the months of the strip (turning it by as few months as it takes).
    mutating func reveal() {
        guard let month = calendar.month(containing: selected), !index.current.contains(day: selected) else { return }
        switch view {
        case .monthPage, .yearPage:
            index.jump(to: month)
        case .strip:
            if selected < index.current.firstDay {
                index.jump(to: month)
                return
            }
            var probe = index
            var shown = 1
            while shown < room.monthsPerScreen, probe.moveForward() {
                if probe.current.contains(day: selected) { return }
                shown += 1
            }
            index.jump(to: month)
            _ = index.move(by: -(max(1, room.monthsPerScreen) - 1))
        }
    }

    /// Goes to the month holding `day`, or leaves an error that says why `what` cannot be
    /// shown, and stays.
    /// - returns: whether it went.
    @discardableResult
    private mutating func jump(toMonthHolding day: Int, named what: String) -> Bool {
        guard let month = calendar.month(containing: day) else {
            message = Message(text: "\(what) is outside the calendar", isError: true)
            return false
        }
        guard bounds.admits(month) else {
            message = Message(text: "\(what) is outside --since/--until", isError: true)
            return false
        }
        index.jump(to: month)
        return true
    }

    /// Goes to the month holding the date `text` names (a DATE as `--from` takes it), or
    /// leaves an error message and stays.
    public mutating func goTo(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        // What was typed (or pasted) is quoted back inert.
        let typed = InertText.echo(trimmed, limit: 40)
        guard let date = DateArgument.parse(trimmed) else {
            message = Message(text: "not a date: '\(typed)' (YYYY-MM or YYYY-MM-DD)", isError: true)
            return
        }
        let period: ClosedRange<Int>
        do {
            period = try date.period(today: today, in: gregorian)
        } catch .noSuchDay {
            message = Message(text: "no such day: '\(typed)'", isError: true)
            return
        } catch {
            message = Message(text: "'\(typed)' is outside the calendar", isError: true)
            return
        }
        let offset = selected - selectedMonth.firstDay
        guard jump(toMonthHolding: period.lowerBound, named: "'\(typed)'") else { return }
        // A day is selected; a month (or a year) keeps the selected day's number.
        if period.count == 1 {
            select(period.lowerBound)
        } else {
            let month = index.current
            select(month.firstDay + min(offset, month.dayCount - 1))
        }
    }

    // MARK: Searching

    /// A search under way: the days still to look at lie from `next` up to `horizon`
    /// (forward) or from `horizon` up to `next` (backward, `next` itself excluded).
    public struct Search: Equatable, Sendable {
        public let text: String
        public let forward: Bool
        public var next: Int
        public let horizon: Int
        /// Whether the horizon is a bound of the calendar or of `--since`/`--until` rather
        /// than the farthest a search looks.
        public let horizonIsBound: Bool
    }

    /// How far a search looks from the selected day: 10,000 Gregorian years, in days.
    public static let searchReach = 3_652_425

    /// Starts looking for `text` on the days after the selected one (before it, backward).
    mutating func startSearch(_ text: String, forward: Bool) {
        let days = selectableDays
        let reach = forward ? selected.addingReportingOverflow(1 + Self.searchReach) : selected.subtractingReportingOverflow(Self.searchReach)
        let horizon = forward ? (reach.overflow ? days.upperBound + 1 : min(days.upperBound + 1, reach.partialValue))
            : (reach.overflow ? days.lowerBound : max(days.lowerBound, reach.partialValue))
        let bound = forward ? horizon == days.upperBound + 1 : horizon == days.lowerBound
        search = Search(text: text, forward: forward, next: forward ? selected + 1 : selected, horizon: horizon, horizonIsBound: bound)
        message = Message(text: "searching for '\(InertText.echo(text, limit: 40))' (Esc stops)", isError: false)
    }

    /// While a search runs: Esc stops it, Ctrl-C quits, other keys wait for it.
    private mutating func handleSearching(_ key: Key) -> Outcome {
        switch key {
        case .interrupt: return .quit
        case .escape:
            search = nil
            message = Message(text: "search stopped", isError: false)
        default: break
        }
        return .draw
    }

    /// The search looked at the days up to `day` (forward; back to it, backward) and found
    /// nothing there: it goes on from there, or ends, saying so, at its horizon.
    public mutating func searchPassed(_ day: Int) {
        guard var running = search else { return }
        running.next = day
        let done = running.forward ? day >= running.horizon : day <= running.horizon
        guard !done else { return searchFailed() }
        search = running
        let year = CivilTime.date(ofDay: day + CivilTime.dayNumberOffset).year
        message = Message(text: "searching for '\(InertText.echo(running.text, limit: 40))' in \(year) (Esc stops)", isError: false)
    }

    /// The search ends without a match: no event can match beyond the days looked at, or
    /// none did before the horizon.
    public mutating func searchFailed(beyondAll: Bool = false) {
        guard let running = search else { return }
        search = nil
        let text = "'" + InertText.echo(running.text, limit: 40) + "'"
        if beyondAll || running.horizonIsBound {
            message = Message(text: "no \(running.forward ? "later" : "earlier") match for \(text)", isError: false)
        } else {
            let year = CivilTime.date(ofDay: running.horizon + CivilTime.dayNumberOffset).year
            message = Message(text: "no match for \(text) \(running.forward ? "before" : "back to") \(year)", isError: false)
        }
    }

    /// The search found a match on `day`: it is selected (the day view, when open, shows it).
    public mutating func searchFound(_ day: Int) {
        guard search != nil else { return }
        search = nil
        message = nil
        select(day)
        scroll = 0
        highlightedEvent = 0
    }
}
