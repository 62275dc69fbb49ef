import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// `infcal add`, `edit` or `delete` as the command line gives it, read into the typed change
/// and checked: dates exist, times and durations parse, rules are rules, texts hold no control
/// characters. Everything wrong is a `UsageError` before anything is read or written.
struct EventCommand: Sendable {
    /// What to change.
    let change: EventChange
    /// `--to`: the calendar; nil: the default calendar, or wherever the UID is.
    let target: String?

    /// `change` in `target`.
    init(change: EventChange, target: String?) {
        self.change = change
        self.target = target
    }

    /// The command `raw` (the options and operands after the subcommand's name) gives, read
    /// with `today` (a day number) and `locale` (for weekday names).
    init(_ subcommand: Subcommand, raw: RawOptions, today: Int, locale: Locale?) throws(UsageError) {
        let reader = Reader(raw: raw, today: today, locale: locale)
        let target = raw.last(.to)?.value
        if let target, target.isEmpty { throw .invalidValue(option: "--to", value: target, expected: OptionSpec.spec(.to).expected) }
        self.target = target
        switch subcommand.name {
        case .add:
            change = .add(try reader.addRequest())
        case .edit:
            let (uid, rest) = try reader.uid(subcommand)
            let (fields, scope) = try reader.changes(rest)
            change = .edit(uid: uid, scope: scope, fields: fields)
        case .delete:
            let (uid, rest) = try reader.uid(subcommand)
            if let extra = rest.first { throw .unexpectedArgument(extra) }
            change = .delete(uid: uid, scope: try reader.scope())
        case .check:
            // `RunPlan.resolve` makes a `CheckRun` of it: it changes nothing.
            throw .unexpectedArgument(subcommand.name.rawValue)
        }
    }

    /// Whether `word` is meant as a TIME (`10:00`, `10:00-11:30`) rather than a summary's
    /// first word; whether it is a good one is for the parser to say.
    static func looksLikeTime(_ word: String) -> Bool {
        word.contains(":") && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ":" || $0 == "-") }
    }

    /// Reads the operands and options.
    struct Reader {
        let raw: RawOptions
        /// Grid day number of today.
        let today: Int
        let locale: Locale?

        func uid(_ subcommand: Subcommand) throws(UsageError) -> (String, ArraySlice<String>) {
            guard let uid = raw.positionals.first, !uid.isEmpty else {
                throw .missingValue(option: "UID", expected: "infcal \(subcommand.name.rawValue) \(subcommand.operands) (infcal --agenda --uid shows UIDs)")
            }
            if let bad = ICalText.forbiddenCharacter(in: uid, allowsLineBreaks: false) {
                throw .invalidValue(option: "UID", value: uid, expected: "a UID without control characters (found \\u{\(String(bad.value, radix: 16))})")
            }
            return (uid, raw.positionals.dropFirst())
        }

        func addRequest() throws(UsageError) -> NewEventRequest {
            var words = raw.positionals[...]
            var day = CivilDay(dayNumber: today)
            if let first = words.first, let parsed = try date(first, name: "DATE") {
                day = parsed
                words = words.dropFirst()
            }
            var time: (start: Int, end: Int?)?
            if let first = words.first, let parsed = try Self.time(first) {
                time = parsed
                words = words.dropFirst()
            }
            let summary = words.joined(separator: " ")
            if summary.trimmingSpaces.isEmpty {
                throw .missingValue(option: "SUMMARY", expected: "infcal add [DATE] [TIME[-TIME]] SUMMARY... (the summary is empty)")
            }
            try Self.checkText(summary, name: "SUMMARY", lineBreaks: false)
            let duration = try duration(), every = try rule(), ending = try ending()
            let location = try text(.location, lineBreaks: false), description = try text(.details, lineBreaks: true)
            let count = try count()
            // What only the whole request can say: an end before the start, --until for a
            // timed event that does not repeat, --for with a TIME-TIME.
            let spelling = raw.last(.ending)?.spelling ?? "--until"
            if let ending, ending < day {
                throw .invalidValue(option: spelling, value: ending.description, expected: "a day not before the start (\(day))")
            }
            if ending != nil, every == nil, time != nil {
                throw .unavailable(option: spelling, reason: "without --every it ends an all-day event; give --for for a timed one")
            }
            if duration != nil, time?.end != nil { throw .conflict("--for", "TIME-TIME") }
            if count != nil, every == nil { throw .unavailable(option: "--count", reason: "it counts the occurrences of --every") }
            let rule = try ended(every, count: count, ending: ending)
            if duration != nil, ending != nil, every == nil { throw .conflict("--for", spelling) }
            return NewEventRequest(day: day, time: time, duration: duration, rule: rule, lastDay: every == nil ? ending : nil,
                                   summary: summary, location: location, description: description)
        }

        /// `rule` ended by `--count` or `--until` when given.
        /// - throws: `UsageError` for both given, or either with a rule that has its own end.
        func ended(_ rule: EventRule?, count: Int?, ending: CivilDay?) throws(UsageError) -> EventRule? {
            guard var rule, count != nil || ending != nil else { return rule }
            let spelling = raw.last(.ending)?.spelling ?? "--until"
            if count != nil, ending != nil { throw .conflict("--count", spelling) }
            if rule.rule.count != nil || rule.end != nil {
                throw .conflict("--every with COUNT or UNTIL", count != nil ? "--count" : spelling)
            }
            rule.rule.count = count
            rule.end = ending.map { .day($0) }
            return rule
        }

        func changes(_ words: ArraySlice<String>) throws(UsageError) -> (EventChanges, ChangeScope) {
            var words = words
            var changes = EventChanges()
            if let first = words.first, let parsed = try date(first, name: "DATE") {
                changes.day = parsed
                words = words.dropFirst()
            }
            if let first = words.first, let parsed = try Self.time(first) {
                changes.time = parsed
                words = words.dropFirst()
            }
            if let extra = words.first { throw .unexpectedArgument(extra) }
            changes.summary = try text(.retitle, lineBreaks: false)
            if let summary = changes.summary, summary.trimmingSpaces.isEmpty {
                throw .invalidValue(option: "--summary", value: summary, expected: "a summary that is not empty")
            }
            changes.location = try text(.location, lineBreaks: false)
            changes.description = try text(.details, lineBreaks: true)
            changes.duration = try duration()
            if let every = try rule() {
                changes.rule = try ended(every, count: try count(), ending: try ending())
            } else if let option = raw.last(.count) ?? raw.last(.ending) {
                throw .unavailable(option: option.spelling, reason: "edit takes it with --every only (the rule is given whole)")
            }
            let scope = try self.scope()
            if changes.isEmpty { throw Self.nothingToChange }
            return (changes, scope)
        }

        /// What an edit without a change is told.
        static let nothingToChange = UsageError.missingValue(
            option: "edit", expected: "something to change: DATE, TIME, --summary, --for, --location, --description or --every")

        /// `--occurrence`'s day, else the whole series.
        func scope() throws(UsageError) -> ChangeScope {
            try day(of: .occurrence).map { .occurrence($0) } ?? .series
        }

        // MARK: Values

        /// The day `word` names, nil when it is no date at all (a summary's first word); a word
        /// that looks like a date and is none is an error.
        func date(_ word: String, name: String) throws(UsageError) -> CivilDay? {
            let expected = "a date: YYYY-MM-DD (or any form --from takes), today, tomorrow, yesterday or a weekday"
            let lower = word.lowercased()
            let today = CivilDay(dayNumber: self.today)
            switch lower {
            case "today": return today
            case "tomorrow": return today + 1
            case "yesterday": return today + -1
            default: break
            }
            if let weekday = Self.weekday(named: lower, locale: locale) {
                // The next such day, today included.
                return today + CivilTime.floorMod(weekday - DayNumber.weekday(self.today), 7)
            }
            if let argument = DateArgument.parse(word) {
                do {
                    return CivilDay(dayNumber: try argument.period(today: self.today, in: MonthCalendar(.gregorian)).lowerBound)
                } catch {
                    throw .invalidValue(option: name, value: word, expected: error == .noSuchDay ? "a day that exists" : expected)
                }
            }
            // Four digits and a dash, or digits and dashes only: meant as a date.
            let looksLikeDate = word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") } && word.contains("-") && word.count >= 6
            if looksLikeDate { throw .invalidValue(option: name, value: word, expected: expected) }
            return nil
        }

        /// The weekday (1 Sunday ... 7 Saturday) `word` names in English or `locale`, full or short.
        static func weekday(named word: String, locale: Locale?) -> Int? {
            if let english = LocaleSetting.weekday(named: word) { return english }
            guard let locale else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = locale
            for list in [calendar.weekdaySymbols, calendar.standaloneWeekdaySymbols, calendar.shortWeekdaySymbols,
                         calendar.shortStandaloneWeekdaySymbols] where list.count == 7 {
                if let index = list.firstIndex(where: { PositionalDate.fold($0, locale: locale) == PositionalDate.fold(word, locale: locale) }) {
                    return index + 1
                }
            }
            return nil
        }

        /// `HH:MM` or `HH:MM-HH:MM` as seconds of the day; nil for a word that is no time. An
        /// end before the start is on the next day (`23:00-01:00`: two hours across midnight),
        /// as `edit` reads it too; an end equal to the start is refused.
        static func time(_ word: String) throws(UsageError) -> (start: Int, end: Int?)? {
            guard EventCommand.looksLikeTime(word) else { return nil }
            let expected = "a time HH:MM or a span HH:MM-HH:MM (24-hour clock)"
            let parts = word.split(separator: "-", omittingEmptySubsequences: false)
            func clock(_ text: Substring, isEnd: Bool) throws(UsageError) -> Int {
                let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
                guard pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2,
                      let hour = Int(pieces[0]), let minute = Int(pieces[1]), minute < 60,
                      hour < 24 || (isEnd && hour == 24 && minute == 0) else {
                    throw .invalidValue(option: "TIME", value: word, expected: expected)
                }
                return hour * 3600 + minute * 60
            }
            guard (1...2).contains(parts.count) else { throw .invalidValue(option: "TIME", value: word, expected: expected) }
            let start = try clock(parts[0], isEnd: false)
            let end = parts.count == 2 ? try clock(parts[1], isEnd: true) : nil
            if let end, end == start {
                throw .invalidValue(option: "TIME", value: word, expected: "an end other than the start (\(expected))")
            }
            return (start, end)
        }

        func duration() throws(UsageError) -> Int? {
            guard let option = raw.last(.lasting), let value = option.value else { return nil }
            guard let seconds = DurationText.seconds(value), seconds > 0 else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.lasting).expected)
            }
            return seconds
        }

        /// `--every` as a rule (ended by `--count` or `--until` where `ended` adds them).
        func rule() throws(UsageError) -> EventRule? {
            guard let option = raw.last(.every), let value = option.value else { return nil }
            let words: [String: RecurrenceRule.Frequency] = ["day": .daily, "daily": .daily, "week": .weekly, "weekly": .weekly,
                                                             "month": .monthly, "monthly": .monthly, "year": .yearly, "yearly": .yearly]
            if let frequency = words[value.lowercased()] { return EventRule(rule: RecurrenceRule(frequency: frequency)) }
            var text = value.trimmingSpaces
            if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
            let expected = OptionSpec.spec(.every).expected
            if ICalText.forbiddenCharacter(in: text, allowsLineBreaks: false) != nil || text.contains(":") || text.contains(",,") {
                throw .invalidValue(option: option.spelling, value: value, expected: expected)
            }
            let parsed: EventRule?
            do {
                parsed = try EventRule.parse(text)
            } catch {
                throw .invalidValue(option: option.spelling, value: value, expected: expected + "; " + error.message)
            }
            guard let parsed else { throw .invalidValue(option: option.spelling, value: value, expected: expected) }
            return parsed
        }

        func count() throws(UsageError) -> Int? {
            guard let option = raw.last(.count), let value = option.value else { return nil }
            guard OptionSpec.isNumber(value), let count = Int(value), count >= 1, count <= OptionSpec.largestEventCount else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.count).expected)
            }
            return count
        }

        /// `--until`'s day.
        func ending() throws(UsageError) -> CivilDay? {
            try day(of: .ending)
        }

        /// The day the option `key` names (a DATE as the date operand takes it), nil when
        /// it is not given.
        func day(of key: OptionKey) throws(UsageError) -> CivilDay? {
            guard let option = raw.last(key), let value = option.value else { return nil }
            guard let day = try date(value, name: option.spelling) else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(key).expected)
            }
            return day
        }

        func text(_ key: OptionKey, lineBreaks: Bool) throws(UsageError) -> String? {
            guard let option = raw.last(key), let value = option.value else { return nil }
            try Self.checkText(value, name: option.spelling, lineBreaks: lineBreaks)
            return value
        }

        static func checkText(_ text: String, name: String, lineBreaks: Bool) throws(UsageError) {
            if let bad = ICalText.forbiddenCharacter(in: text, allowsLineBreaks: lineBreaks) {
                throw .invalidValue(option: name, value: text,
                                    expected: "a text without control characters (found \\x\(String(bad.value, radix: 16)))")
            }
        }
    }
}
