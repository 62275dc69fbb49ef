import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

// The status line's prompts: the line editing they share, go-to and search.
extension PagerState {
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

    /// The go-to prompt (key `g`): Enter goes to the date typed.
    mutating func handlePrompt(_ key: Key, text: String) -> Outcome {
        statusPrompt(key, text: text, typing: Screen.prompt) { $0.goTo($1) }
    }

    /// The search prompt (key `/`): Enter starts looking for the text typed, if any.
    mutating func handleSearchPrompt(_ key: Key, text: String) -> Outcome {
        statusPrompt(key, text: text, typing: Screen.searchPrompt) { state, text in
            guard !text.isEmpty else { return }
            state.searchText = text
            state.startSearch(text, forward: true)
        }
    }

    /// A prompt over the months: `key` edits `text`, the screen `typing` shows what is typed;
    /// Enter and Esc go back to the months, Enter then running `entered` on the text.
    private mutating func statusPrompt(_ key: Key, text: String, typing: (String) -> Screen,
                                       entered: (inout PagerState, String) -> Void) -> Outcome {
        switch Self.edit(text, with: key, limit: Self.maximumPromptLength) {
        case .entered:
            screen = .months
            entered(&self, text)
        case .cancelled:
            screen = .months
        case .quit:
            return .quit
        case .typed(let typed):
            screen = typing(typed)
        }
        return .draw
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
}
