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
    /// Weekday header labels, Sunday first (index 0 is Sunday), each cut to `labelWidth` cells.
    public let weekdayLabels: [String]
    /// The display width weekday labels are cut to, as cal does: two cells.
    public static let labelWidth = 2
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
            weekdayLabels = Self.posixWeekdayNames.map { String($0.prefix(Self.labelWidth)) }
            return
        }
        let formatted = Formatted(locale: Self.withWesternDigits(locale ?? Locale(identifier: "en_US_POSIX")), calendar: calendar)
        titles = .formatted(formatted)
        weekdayLabels = Self.headerLabels(formatted.weekdaySymbols)
    }

    /// `locale` with the Latin numbering system, so that titles use the digits the grid uses,
    /// and without a calendar of its own (`en@calendar=chinese`): `--calendar` chooses that.
    static func withWesternDigits(_ locale: Locale) -> Locale {
        var components = Locale.Components(locale: locale)
        components.numberingSystem = "latn"
        components.calendar = nil
        return Locale(components: components)
    }

    /// The first list of names that stays distinct once each name is cut to `labelWidth` cells;
    /// the first list, cut, when none does.
    static func headerLabels(_ candidates: [[String]]) -> [String] {
        let cut = candidates.filter { $0.count == 7 }.map { names in
            names.map { name in
                // A cut can end in a joiner (Persian "سه‌شنبه" cuts to "سه" and a ZWNJ): drop it.
                var scalars = Array(DisplayWidth.prefix(of: name, fitting: labelWidth).unicodeScalars)
                while let last = scalars.last, last.properties.generalCategory == .format { scalars.removeLast() }
                return String(String.UnicodeScalarView(scalars))
            }
        }
        return cut.first { Set($0).count == 7 } ?? cut.first ?? posixWeekdayNames.map { String($0.prefix(labelWidth)) }
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
        let weekdaySymbols: [[String]]

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
            weekdaySymbols = [monthYear.formatter.shortStandaloneWeekdaySymbols, monthYear.formatter.veryShortStandaloneWeekdaySymbols]
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
