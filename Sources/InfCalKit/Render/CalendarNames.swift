import Foundation

/// The words a calendar is shown with in one locale: month titles, year headings and weekday
/// headers.
///
/// The POSIX locale (C, POSIX, or no locale set) is English with US conventions, as POSIX
/// defines its LC_TIME; with the Gregorian calendar its names are built in, so the default run
/// never loads ICU's locale data. A test checks them against Foundation's `en_US_POSIX`.
/// Every other locale and calendar takes its names from Foundation's `DateFormatter`, always
/// with Western digits (see the man page, LOCALES).
public struct CalendarNames {
    /// Weekday header labels, Sunday first (index 0 is Sunday): seven distinct, non-empty labels
    /// of at most `labelWidth` cells each.
    public let weekdayLabels: [String]
    /// The cells the weekday labels need: two, as cal cuts them, or more where two-cell labels
    /// cannot be told apart (`dom seg ter` in Portuguese); the day cells widen to it.
    public let labelWidth: Int
    /// The narrowest labels, as cal's.
    public static let minimumLabelWidth = 2
    private let titles: Titles

    private enum Titles {
        /// English Gregorian month names, built in.
        case posixGregorian
        /// Titles from Foundation.
        case formatted(Formatted)
    }

    /// English month names of the POSIX locale, January first.
    public static let posixMonthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    /// English weekday abbreviations of the POSIX locale, Sunday first.
    public static let posixWeekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Names for `calendar` in `locale` (nil: the POSIX locale).
    public init(locale: Locale?, calendar: MonthCalendar) {
        let identifier = calendar.identifier
        if locale == nil, identifier == .gregorian || identifier == .iso8601 {
            titles = .posixGregorian
            // ASCII names, distinct in two letters: no width measuring at start-up.
            (weekdayLabels, labelWidth) = (Self.posixWeekdayNames.map { String($0.prefix(Self.minimumLabelWidth)) },
                                           Self.minimumLabelWidth)
            return
        }
        let formatted = Formatted(locale: Self.withWesternDigits(locale ?? Locale(identifier: "en_US_POSIX")), calendar: calendar)
        titles = .formatted(formatted)
        (weekdayLabels, labelWidth) = Self.headerLabels(Self.weekdaySymbols(of: formatted.monthYear.formatter))
    }

    /// The cells the weekday labels of `locale` (nil: POSIX) need for `calendar`: what the day
    /// cells of a run widen to.
    public static func labelWidth(locale: Locale?, calendar: MonthCalendar) -> Int {
        locale == nil ? minimumLabelWidth : CalendarNames(locale: locale, calendar: calendar).labelWidth
    }

    /// `locale` with the Latin numbering system, so that titles use the digits the grid uses,
    /// and without a calendar of its own (`en@calendar=chinese`): `--calendar` chooses that.
    static func withWesternDigits(_ locale: Locale) -> Locale {
        var components = Locale.Components(locale: locale)
        components.numberingSystem = "latn"
        components.calendar = nil
        return Locale(components: components)
    }

    /// The weekday names labels are cut from, in order of preference: short (stand-alone, then
    /// in context), the shortest (one letter in many locales, one character in Chinese), whole.
    static func weekdaySymbols(of formatter: DateFormatter) -> [[String]] {
        [formatter.shortStandaloneWeekdaySymbols, formatter.shortWeekdaySymbols,
         formatter.veryShortStandaloneWeekdaySymbols, formatter.standaloneWeekdaySymbols]
    }

    /// Labels cut from `candidates` at the narrowest width, from two cells up, where some list
    /// (the first such, in order) gives seven distinct labels that read as words; with
    /// that width. Cuts fall between whole characters, and a character ending in a virama
    /// (Khmer coeng, Devanagari virama) stays with the one it joins. When no width works,
    /// English labels.
    static func headerLabels(_ candidates: [[String]]) -> (labels: [String], width: Int) {
        let lists = candidates.filter { $0.count == 7 }.map { $0.map(clusters) }
        let longest = lists.joined().map { DisplayWidth.of($0.joined()) }.max() ?? 0
        for width in minimumLabelWidth...max(minimumLabelWidth, longest) {
            for list in lists {
                let labels = list.map { cut($0, fitting: width) }
                if Set(labels).count == 7, labels.allSatisfy(isWord) {
                    return (labels, width)
                }
            }
        }
        return (posixWeekdayNames.map { String($0.prefix(minimumLabelWidth)) }, minimumLabelWidth)
    }

    /// Whether `label` reads as a word, not as a day number: it has a letter (Azerbaijani's
    /// shortest names are 1 to 7; Meta' names are "Aneg 1" to "Aneg 7"; 一 is a letter).
    static func isWord(_ label: String) -> Bool {
        label.unicodeScalars.contains { $0.properties.isAlphabetic }
    }

    /// `name` in the pieces a cut may fall between: characters (grapheme clusters), a character
    /// that ends in a virama joined to the next one.
    static func clusters(_ name: String) -> [String] {
        var pieces: [String] = []
        var joinsNext = false
        for character in name {
            if joinsNext, let last = pieces.popLast() { pieces.append(last + String(character)) } else { pieces.append(String(character)) }
            joinsNext = character.unicodeScalars.last.map { $0.properties.canonicalCombiningClass == .virama || $0 == "\u{200D}" } ?? false
        }
        return pieces
    }

    /// The leading pieces that fit in `width` cells, without trailing spaces or joiners (a cut
    /// can end in one: Persian "سه‌شنبه" cuts to "سه" and a ZWNJ).
    static func cut(_ pieces: [String], fitting width: Int) -> String {
        var used = 0
        var label = ""
        for piece in pieces {
            used += DisplayWidth.of(piece)
            if used > width { break }
            label += piece
        }
        var scalars = Array(label.unicodeScalars)
        while let last = scalars.last, last.properties.generalCategory == .format || last.properties.isWhitespace { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The English name of a Gregorian month (months are numbered 1 to 12).
    private static func posixName(of month: Month) -> String {
        posixMonthNames[((month.name.month - 1) % 12 + 12) % 12]
    }

    /// The month's title with its year, as "February 2024" or "March 44 BC".
    public func title(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            return Self.posixName(of: month) + " " + String(month.name.year) + (month.name.era == 0 ? " BC" : "")
        case let .formatted(formatted):
            return (formatted.eras.names(month.name.era) ? formatted.eraMonthYear : formatted.monthYear).string(for: month)
        }
    }

    /// The month's name alone, as "February" (the year view's titles).
    public func monthName(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            return Self.posixName(of: month)
        case let .formatted(formatted):
            return formatted.monthOnly.string(for: month)
        }
    }

    /// The year `month` belongs to, as a heading: "2024", "44 BC", "5784", "令和6年".
    public func yearTitle(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            return month.name.era == 0 ? "\(month.name.year) BC" : "\(month.name.year)"
        case let .formatted(formatted):
            return (formatted.eras.names(month.name.era) ? formatted.eraYear : formatted.year).string(for: month)
        }
    }
}

// MARK: Names from Foundation

extension CalendarNames {
    /// When a title names the era.
    enum EraRule {
        /// Japanese years count from the start of each era.
        case always
        /// Chinese and Dangi titles carry the related Gregorian year instead.
        case never
        /// Only outside the era of the present, as "March 44 BC".
        case outside(present: Int)

        func names(_ era: Int) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .outside(let present): return era != present
            }
        }
    }

    /// The formats of one locale and calendar.
    struct Formatted {
        let monthYear: Format
        let eraMonthYear: Format
        let monthOnly: Format
        let year: Format
        let eraYear: Format
        let eras: EraRule

        init(locale: Locale, calendar: MonthCalendar) {
            let identifier = calendar.identifier
            // Chinese and Dangi years are numbered in 60-year cycles: titles carry the related
            // Gregorian year ("r" in ICU patterns) to be unambiguous. Foundation on Linux
            // formats Dangi dates as Gregorian ones, so both are formatted as Chinese.
            let cyclic = identifier == .chinese || identifier == .dangi
            var formatting = cyclic ? MonthCalendar(.chinese).calendar : Calendar(identifier: identifier)
            formatting.timeZone = .gmt
            func make(_ template: String, standalone: Bool = false) -> Format {
                let formatter = DateFormatter()
                formatter.locale = locale
                formatter.calendar = formatting
                formatter.timeZone = .gmt
                formatter.setLocalizedDateFormatFromTemplate(template)
                if standalone { formatter.dateFormat = "LLLL" }
                return Format(formatter, cyclic: cyclic, english: locale.language.languageCode == .english)
            }
            monthYear = make("yMMMM")
            eraMonthYear = make("GyMMMM")
            monthOnly = make("MMMM", standalone: true)
            year = make("y")
            eraYear = make("Gy")
            // Amete Alem years have a single era; Chinese and Dangi titles carry the related year.
            eras = identifier == .japanese ? .always : cyclic || identifier == .ethiopicAmeteAlem ? .never
                : .outside(present: calendar.calendar.component(.era, from: Date(timeIntervalSinceReferenceDate: 0)))
        }
    }

    /// One date format, and for the Chinese and Dangi calendars the handling of leap months.
    ///
    /// A cyclic title is put together from two parts, each formatted once and kept: the year
    /// part, formatted from a day in the middle of the month with the month field left as a
    /// placeholder (the related year names the same Gregorian year in both calendars), and the
    /// month's name, formatted from the Chinese month of that number in a fixed year and, for a
    /// leap month, given the locale's leap marker, read off a known Chinese leap month: "闰2月",
    /// "윤2월", and in English "Leap Second Month" where ICU says "Second Monthbis". So the Dangi
    /// calendar's own leap months (a leap third month in 2012, where China had a leap fourth)
    /// are named right, and a stream of Chinese months costs a formatter call a year, not two
    /// a month (a Chinese `DateFormatter` call costs about 10 us).
    struct Format {
        let formatter: DateFormatter
        private let cyclic: Cyclic?
        private static let placeholder = "\u{E000}"

        /// What a cyclic format keeps.
        private final class Cyclic {
            /// The month field alone, formatted on its own.
            let field: DateFormatter?
            /// The locale's leap name with the placeholder where the plain name goes.
            let leapTemplate: String
            let chinese: Calendar
            /// Year parts by era and year, month names by number and leap flag.
            var years: [Int: String] = [:]
            var names: [Int: String] = [:]

            init(field: DateFormatter?, leapTemplate: String, chinese: Calendar) {
                self.field = field
                self.leapTemplate = leapTemplate
                self.chinese = chinese
            }
        }

        init(_ formatter: DateFormatter, cyclic: Bool, english: Bool) {
            self.formatter = formatter
            guard cyclic, let pattern = formatter.dateFormat else {
                self.cyclic = nil
                return
            }
            // The year field becomes the related Gregorian year; the month field a placeholder.
            var frame = ""
            var monthField = ""
            var quoted = false
            for character in pattern {
                if character == "'" { quoted.toggle() }
                if !quoted, character == "M" || character == "L" {
                    if monthField.isEmpty { frame += "'\(Self.placeholder)'" }
                    monthField.append(character)
                } else {
                    frame.append(!quoted && character == "y" ? "r" : character)
                }
            }
            formatter.dateFormat = frame
            guard !monthField.isEmpty else {
                self.cyclic = Cyclic(field: nil, leapTemplate: Self.placeholder, chinese: formatter.calendar)
                return
            }
            let field = DateFormatter()
            field.locale = formatter.locale
            field.calendar = formatter.calendar
            field.timeZone = .gmt
            field.dateFormat = monthField
            // Days of the second month of 2023 (2023-02-26) and of its leap month (2023-03-31).
            let plain = field.string(from: DayNumber.date(8_091))
            let leap = field.string(from: DayNumber.date(8_124))
            let template = leap.range(of: plain).map { leap.replacingCharacters(in: $0, with: Self.placeholder) } ?? Self.placeholder
            self.cyclic = Cyclic(field: field, leapTemplate: english && template.hasSuffix("bis") ? "Leap " + Self.placeholder : template,
                                 chinese: formatter.calendar)
        }

        /// The text for `month`.
        func string(for month: Month) -> String {
            guard let cyclic else { return formatter.string(from: month.start) }
            let yearKey = month.name.era &* 1_000 &+ month.name.year
            let frame = cyclic.years[yearKey] ?? {
                // The middle of the month lies in the same Chinese year even where the Dangi
                // month starts a day before the Chinese one.
                let text = formatter.string(from: DayNumber.date(month.firstDay + 14))
                cyclic.years[yearKey] = text
                return text
            }()
            guard let field = cyclic.field else { return frame }
            let nameKey = month.name.month * 2 + (month.name.isLeapMonth ? 1 : 0)
            let name = cyclic.names[nameKey] ?? {
                // Month `month` of Chinese year 2023 (era 78, year 40), which has every number.
                let parts = DateComponents(era: 78, year: 40, month: month.name.month, day: 15, hour: 12)
                let plain = cyclic.chinese.date(from: parts).map { field.string(from: $0) } ?? String(month.name.month)
                let text = month.name.isLeapMonth ? cyclic.leapTemplate.replacingOccurrences(of: Self.placeholder, with: plain) : plain
                cyclic.names[nameKey] = text
                return text
            }()
            return frame.replacingOccurrences(of: Self.placeholder, with: name)
        }
    }
}
