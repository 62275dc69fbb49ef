import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// The keys: each screen's handler chosen, the months' keys, the list of calendars, the agenda, the help.
extension PagerState {
    /// Whether `key` reads `room` (a screenful, a scroll), so that the caller works it out
    /// only then: for the strip it means laying out every month on the screen.
    public func needsRoom(for key: Key) -> Bool {
        if screen != .months { return true }
        guard let action = PagerBindings.action(for: key) else { return false }
        // The strip keeps the selection on the screen, which holds as many months as fit; the
        // week view's keys scroll its hours and step through the selected day's events.
        return view == .strip || view == .week || [.nextScreen, .previousScreen].contains(action)
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
            screen = afterEventPrompt
            if key == .interrupt { return .quit }
            guard key == .character("y") || key == .character("Y") else {
                message = Message(text: "nothing deleted", isError: false)
                return .draw
            }
            return .write(.delete(day: selected, event: highlightedEvent))
        }
    }

    mutating func handleMonths(_ key: Key) -> Outcome {
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
        if view == .week, let outcome = handleWeek(action, key: key, repeats: repeats) {
            if capped, message == nil { message = Message(text: "count capped at \(Self.maximumCount)", isError: false) }
            return outcome
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
            case .week: moveDays(sign * 7 * repeats)
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
            message = Message(text: "\(key.name): in the day view (Enter opens it) and the week view", isError: false)
        case .nextEvent:
            message = Message(text: "\(key.name): in the week view", isError: false)
        case .cycleZone:
            cycleZone()
        }
        if ![.cycleView, .help, .agenda, .openDay, .calendars].contains(action) { scroll = 0 }
        if capped, message == nil {
            message = Message(text: "count capped at \(Self.maximumCount)", isError: false)
        }
        return .draw
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
    func scrollLines(for action: PagerAction) -> Int {
        switch action {
        case .nextWeek, .nextMonth, .nextDay: return 1
        case .previousWeek, .previousMonth, .previousDay: return -1
        case .nextScreen: return max(1, room.linesPerScreen)
        case .previousScreen: return -max(1, room.linesPerScreen)
        default: return 0
        }
    }
}
