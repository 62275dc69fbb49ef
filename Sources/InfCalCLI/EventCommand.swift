import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// `infcal add`, `edit` or `delete` as the command line gives it, checked: dates exist, times
/// and durations parse, rules are rules, texts hold no control characters. Everything wrong is
/// a `UsageError` before anything is read or written.
public struct EventCommand: Sendable {
    /// What to do.
    public enum Action: Sendable {
        case add(AddRequest)
        case edit(uid: String, occurrence: Int?, changes: EventChanges)
        case delete(uid: String, occurrence: Int?)
    }

    public let subcommand: Subcommand
    public let action: Action
    /// `--to`.
    public let target: String?

    /// A command of `subcommand` doing `action` in `target` (nil: the default calendar, or
    /// wherever the UID is).
    init(subcommand: Subcommand, action: Action, target: String?) {
        self.subcommand = subcommand
        self.action = action
        self.target = target
    }

    /// The command `raw` (the options and operands after the subcommand's name) gives, read
    /// with `today` (a day number) and `locale` (for weekday names).
    init(_ subcommand: Subcommand, raw: RawOptions, today: Int, locale: Locale?) throws(UsageError) {
        let reader = Reader(raw: raw, today: today, locale: locale)
        let target = raw.last(.to)?.value
        if let target, target.isEmpty { throw .invalidValue(option: "--to", value: target, expected: OptionSpec.spec(.to).expected) }
        self.subcommand = subcommand
        self.target = target
        switch subcommand.name {
        case .add:
            action = .add(try reader.addRequest())
        case .edit:
            let (uid, rest) = try reader.uid(subcommand)
            let (changes, occurrence) = try reader.changes(rest)
            action = .edit(uid: uid, occurrence: occurrence, changes: changes)
        case .delete:
            let (uid, rest) = try reader.uid(subcommand)
            if let extra = rest.first { throw .unexpectedArgument(extra) }
            action = .delete(uid: uid, occurrence: try reader.occurrence())
        }
    }

    /// Whether `word` is meant as a TIME (`10:00`, `10:00-11:30`) rather than a summary's
    /// first word; whether it is a good one is for the parser to say.
    public static func looksLikeTime(_ word: String) -> Bool {
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

        func addRequest() throws(UsageError) -> AddRequest {
            var words = raw.positionals[...]
            var day = CivilTime.day(ofGrid: today)
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
            let request = AddRequest(day: day, time: time, duration: try duration(), rule: try rule(),
                                     ending: try ending(), summary: summary, location: try text(.location, lineBreaks: false),
                                     description: try text(.details, lineBreaks: true), count: try count())
            try request.check(spelling: raw.last(.ending)?.spelling)
            return request
        }

        func changes(_ words: ArraySlice<String>) throws(UsageError) -> (EventChanges, Int?) {
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
            if let base = try rule() {
                var text = base
                if let count = try count() { text += ";COUNT=\(count)" }
                if let until = try ending() { text += ";UNTIL=" + ICalText.date(ofDay: until) }
                changes.rule = text
            } else if let option = raw.last(.count) ?? raw.last(.ending) {
                throw .unavailable(option: option.spelling, reason: "edit takes it with --every only (the rule is given whole)")
            }
            let occurrence = try self.occurrence()
            if changes.summary == nil, changes.location == nil, changes.description == nil, changes.day == nil,
               changes.time == nil, changes.duration == nil, changes.rule == nil {
                throw .missingValue(option: "edit", expected: "something to change: DATE, TIME, --summary, --for, --location, --description or --every")
            }
            return (changes, occurrence)
        }

        /// `--occurrence`'s day.
        func occurrence() throws(UsageError) -> Int? {
            try day(of: .occurrence)
        }

        // MARK: Values

        /// The civil day `word` names, nil when it is no date at all (a summary's first word);
        /// a word that looks like a date and is none is an error.
        func date(_ word: String, name: String) throws(UsageError) -> Int? {
            let expected = "a date: YYYY-MM-DD (or any form --from takes), today, tomorrow, yesterday or a weekday"
            let lower = word.lowercased()
            switch lower {
            case "today": return CivilTime.day(ofGrid: today)
            case "tomorrow": return CivilTime.day(ofGrid: today + 1)
            case "yesterday": return CivilTime.day(ofGrid: today - 1)
            default: break
            }
            if let weekday = Self.weekday(named: lower, locale: locale) {
                // The next such day, today included.
                let offset = CivilTime.floorMod(weekday - DayNumber.weekday(today), 7)
                return CivilTime.day(ofGrid: today + offset)
            }
            if let argument = DateArgument.parse(word) {
                do {
                    return CivilTime.day(ofGrid: try argument.period(today: today, in: MonthCalendar(.gregorian)).lowerBound)
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
            guard let seconds = Self.duration(value), seconds > 0 else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.lasting).expected)
            }
            return seconds
        }

        /// `90m`, `1h30m`, `2d`, `1w`, `45s` or an RFC 5545 DURATION (`PT1H`), in seconds.
        static func duration(_ text: String) -> Int? {
            if text.uppercased().hasPrefix("P") { return ICalTime.parseDuration(text.uppercased()) }
            var total = 0
            var number: Int?
            for character in text.lowercased() {
                if let digit = character.wholeNumberValue, character.isASCII {
                    let (times, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                    guard !overflow, times + digit <= 100_000_000 else { return nil }
                    number = times + digit
                    continue
                }
                let unit: Int
                switch character {
                case "w": unit = 7 * 86_400
                case "d": unit = 86_400
                case "h": unit = 3600
                case "m": unit = 60
                case "s": unit = 1
                default: return nil
                }
                guard let value = number else { return nil }
                total += value * unit
                number = nil
            }
            return number == nil && total > 0 ? total : nil
        }

        /// `--every` as an RRULE value (without COUNT and UNTIL, which `--count` and `--until` give).
        func rule() throws(UsageError) -> String? {
            guard let option = raw.last(.every), let value = option.value else { return nil }
            let words = ["day": "DAILY", "daily": "DAILY", "week": "WEEKLY", "weekly": "WEEKLY",
                         "month": "MONTHLY", "monthly": "MONTHLY", "year": "YEARLY", "yearly": "YEARLY"]
            if let frequency = words[value.lowercased()] { return "FREQ=" + frequency }
            var text = value.trimmingSpaces
            if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
            let expected = OptionSpec.spec(.every).expected
            if ICalText.forbiddenCharacter(in: text, allowsLineBreaks: false) != nil || text.contains(":") || text.contains(",,") {
                throw .invalidValue(option: option.spelling, value: value, expected: expected)
            }
            let parsed: RecurrenceRule?
            do {
                parsed = try RecurrenceRule.parse(text)
            } catch {
                throw .invalidValue(option: option.spelling, value: value, expected: expected + "; " + error.message)
            }
            guard parsed != nil else { throw .invalidValue(option: option.spelling, value: value, expected: expected) }
            return text
        }

        func count() throws(UsageError) -> Int? {
            guard let option = raw.last(.count), let value = option.value else { return nil }
            guard OptionSpec.isNumber(value), let count = Int(value), count >= 1, count <= OptionSpec.largestEventCount else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.count).expected)
            }
            return count
        }

        /// `--until`'s day.
        func ending() throws(UsageError) -> Int? {
            try day(of: .ending)
        }

        /// The day the option `key` names (a DATE as the date operand takes it), nil when
        /// it is not given.
        func day(of key: OptionKey) throws(UsageError) -> Int? {
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

/// A new event as `infcal add` was asked for it, before the zone makes times of it.
public struct AddRequest: Sendable {
    /// The civil day it starts on.
    public var day: Int
    /// Start and end (seconds of the day on the user's wall clock); nil: all day.
    public var time: (start: Int, end: Int?)?
    /// `--for`.
    public var duration: Int?
    /// `--every` as an RRULE value, with `--count` and `--until` added when given.
    public var rule: String?
    /// `--until`'s civil day.
    public var ending: Int?
    public var summary: String
    public var location: String?
    public var description: String?
    /// `--count`.
    public var count: Int?

    init(day: Int, time: (start: Int, end: Int?)?, duration: Int?, rule: String?, ending: Int?, summary: String,
         location: String?, description: String?, count: Int? = nil) {
        (self.day, self.time, self.duration, self.rule, self.ending) = (day, time, duration, rule, ending)
        (self.summary, self.location, self.description, self.count) = (summary, location, description, count)
    }

    /// Checks what only the whole request can say: an end before the start, `--until` for a
    /// timed event that does not repeat, `--for` with a TIME-TIME.
    func check(spelling: String?) throws(UsageError) {
        if let ending, ending < day {
            throw .invalidValue(option: spelling ?? "--until", value: AgendaPrinter.isoDate(CivilTime.date(ofDay: ending)),
                                expected: "a day not before the start (\(AgendaPrinter.isoDate(CivilTime.date(ofDay: day))))")
        }
        if ending != nil, rule == nil, time != nil {
            throw .unavailable(option: spelling ?? "--until", reason: "without --every it ends an all-day event; give --for for a timed one")
        }
        if duration != nil, time?.end != nil { throw .conflict("--for", "TIME-TIME") }
        if count != nil, rule == nil { throw .unavailable(option: "--count", reason: "it counts the occurrences of --every") }
        if count != nil, ending != nil { throw .conflict("--count", spelling ?? "--until") }
        if let rule, count != nil || ending != nil,
           rule.uppercased().split(separator: ";").contains(where: { $0.hasPrefix("COUNT=") || $0.hasPrefix("UNTIL=") }) {
            throw .conflict("--every with COUNT or UNTIL", count != nil ? "--count" : spelling ?? "--until")
        }
        if duration != nil, ending != nil, rule == nil { throw .conflict("--for", spelling ?? "--until") }
    }

    /// The event to write, its times in `zone`.
    public func event(zone: WritingZone) -> NewEvent {
        var rule = self.rule
        let start: ICalTime
        let end: ICalTime
        if let time {
            let local = day * CivilTime.secondsPerDay + time.start
            start = zone.time(ofLocal: local)
            let length: Int
            if let duration { length = duration } else if let endTime = time.end {
                let endDay = endTime < time.start ? day + 1 : day
                length = zone.utc(ofLocal: endDay * CivilTime.secondsPerDay + endTime) - zone.utc(ofLocal: local)
            } else {
                length = 3600
            }
            end = zone.time(ofUTC: zone.utc(ofLocal: local) + length)
            if rule != nil, let ending {
                // A timed rule's UNTIL is UTC (RFC 5545 §3.3.10): the end of that day here.
                rule? += ";UNTIL=" + ICalText.dateTime(zone.utc(ofLocal: (ending + 1) * CivilTime.secondsPerDay - 1), utc: true)
            }
        } else {
            start = ICalTime(seconds: day * CivilTime.secondsPerDay, form: .date)
            var days = 1
            if let duration { days = max(1, (duration + CivilTime.secondsPerDay - 1) / CivilTime.secondsPerDay) }
            if rule == nil, let ending { days = ending - day + 1 }
            end = ICalTime(seconds: (day + days) * CivilTime.secondsPerDay, form: .date)
            if rule != nil, let ending { rule? += ";UNTIL=" + ICalText.date(ofDay: ending) }
        }
        if let count { rule? += ";COUNT=\(count)" }
        return NewEvent(summary: summary, start: start, end: end, rule: rule, location: location, description: description)
    }
}
