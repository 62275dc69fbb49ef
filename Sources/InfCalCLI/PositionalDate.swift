import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The date written as util-linux `cal` takes it: `YEAR`, `MONTH YEAR` or `DAY MONTH YEAR`,
/// Gregorian (Julian before 1582-10-15, as `--from` reads dates); a lone word that is not a
/// number is a month of this year (`cal march`).
public struct PositionalDate: Equatable, Sendable {
    /// The astronomical year, from 1; nil for a lone month name (the year of today).
    public var year: Int?
    /// The month, 1 to 12, when one was given.
    public var month: Int?
    /// The day of the month, when one was given (it is highlighted, as cal does).
    public var day: Int?

    /// What the positional words mean, as the usage line shows them.
    public static let usage = "[[DAY] MONTH] YEAR"

    /// Reads `words` (one to three), naming month names in English and in `locale`.
    /// - throws: `UsageError` naming the word that is no DAY, MONTH or YEAR, or the word too many.
    public static func parse(_ words: [String], locale: Locale?) throws(UsageError) -> PositionalDate {
        switch words.count {
        case 1 where !OptionSpec.isNumber(words[0]):
            return PositionalDate(year: nil, month: try month(words[0], locale: locale), day: nil)
        case 1:
            return PositionalDate(year: try year(words[0]), month: nil, day: nil)
        case 2:
            return PositionalDate(year: try year(words[1]), month: try month(words[0], locale: locale), day: nil)
        case 3:
            let (year, month) = (try year(words[2]), try month(words[1], locale: locale))
            return PositionalDate(year: year, month: month, day: try day(words[0], month: month, year: year))
        default:
            throw .unexpectedArgument(words.dropFirst(3).first ?? "")
        }
    }

    static func year(_ word: String) throws(UsageError) -> Int {
        guard OptionSpec.isNumber(word), let year = Int(word), year >= 1, year <= MonthCalendar.largestYear else {
            throw .invalidValue(option: "YEAR", value: word, expected: "a year from 1 (infcal \(usage))")
        }
        return year
    }

    /// A day of the month, 1 to 31; whether the month has it is the calendar's to say (see
    /// `ConfigurationResolver.day(of:today:)`, which reads it with the reform in force).
    static func day(_ word: String, month: Int, year: Int) throws(UsageError) -> Int {
        guard OptionSpec.isNumber(word), let day = Int(word), (1...31).contains(day) else {
            throw .invalidValue(option: "DAY", value: word, expected: "a day of the month, 1 to 31")
        }
        return day
    }

    static let englishMonths = ["January", "February", "March", "April", "May", "June", "July",
                                "August", "September", "October", "November", "December"]

    /// The month `word` names: a number 1 to 12, or a month's name or the start of one (at least
    /// as much as tells it from the others), in English or in `locale`, in any case.
    static func month(_ word: String, locale: Locale?) throws(UsageError) -> Int {
        var expected = "a month: 1 to 12, or a name such as march or mar"
        // A date as the options write it (`infcal 2024-03`) is one --from takes.
        if DateArgument.parse(word) != nil { expected += "; did you mean '--from \(word)'?" }
        if OptionSpec.isNumber(word) {
            guard let month = Int(word), (1...12).contains(month) else {
                throw .invalidValue(option: "MONTH", value: word, expected: expected)
            }
            return month
        }
        let typed = fold(word, locale: locale)
        guard !typed.isEmpty else { throw .invalidValue(option: "MONTH", value: word, expected: expected) }
        let names = monthNames(locale: locale)
        if let exact = names.first(where: { $0.name == typed }) { return exact.month }
        let matches = Set(names.filter { $0.name.hasPrefix(typed) }.map(\.month)).sorted()
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .invalidValue(option: "MONTH", value: word, expected: expected)
        default:
            throw .invalidValue(option: "MONTH", value: word,
                                expected: "the start of one month's name ('\(word)' begins "
                                    + matches.map { englishMonths[$0 - 1].lowercased() }.joined(separator: " and ") + ")")
        }
    }

    /// Every name of the twelve months, folded: English always, and the locale's (formatting and
    /// standalone forms, full and short, without a trailing period).
    static func monthNames(locale: Locale?) -> [(name: String, month: Int)] {
        var names = englishMonths.enumerated().map { (fold($0.element, locale: nil), $0.offset + 1) }
        if let locale {
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = locale
            for list in [calendar.monthSymbols, calendar.standaloneMonthSymbols, calendar.shortMonthSymbols,
                         calendar.shortStandaloneMonthSymbols] where list.count == 12 {
                names += list.enumerated().map { (fold($0.element, locale: locale), $0.offset + 1) }
            }
        }
        return names.filter { !$0.0.isEmpty }
    }

    /// `text` lowercased in `locale`, without a trailing period ("Mär." is "mär").
    static func fold(_ text: String, locale: Locale?) -> String {
        var folded = text.lowercased(with: locale)
        while folded.hasSuffix(".") { folded.removeLast() }
        return folded
    }
}
