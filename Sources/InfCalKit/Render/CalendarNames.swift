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
            weekdayLabels = Self.headerLabels([Self.posixWeekdayNames])
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
                let composition: Format.Composition? = cyclic ? .cyclic : identifier == .hebrew ? .hebrew : nil
                return Format(formatter, composition: composition, english: locale.language.languageCode == .english)
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

    /// One date format, and for the Chinese, Dangi and Hebrew calendars a title put together
    /// from the month's name rather than formatted from its first day.
    ///
    /// A composed title has three parts: a frame, the year and the month's name. The frame is the
    /// pattern with the month field and the year field left as placeholders. The year is a number
    /// computed from the name: for the Chinese and Dangi calendars the related Gregorian year, the
    /// year in which the calendar year begins (their own years repeat every 60 years); for the
    /// Hebrew calendar the year itself. The month's name is formatted once from a month of that
    /// number in a fixed year and kept: for a Chinese or Dangi leap month, given the locale's
    /// leap marker, read off a known Chinese leap month ("闰2月", "윤2월", and in English "Leap
    /// Second Month" where ICU says "Second Monthbis"); for the Hebrew calendar, read in a leap
    /// and a common year (Adar II and Adar are both month 7). So a title depends on the month's
    /// name alone, whichever way the month was reached; the Dangi calendar's own leap months (a
    /// leap third month in 2012, where China had a leap fourth) are named right; and no title
    /// rests on Foundation's Hebrew year start, which is a day late in some years. A Chinese frame
    /// still carries the cyclic year's name in some locales (甲辰), so it is formatted from a
    /// day of the year, and the last few are kept (a Chinese `DateFormatter` call costs about 10 us).
    struct Format {
        let formatter: DateFormatter
        private let composed: Composed?
        private static let placeholder = "\u{E000}"
        private static let yearPlaceholder = "\u{E001}"

        /// A part of a frame: text, or where the year or the month's name goes.
        enum Piece {
            case text(String), year, month
        }

        /// `frame` cut at the placeholders (String's `replacingOccurrences` goes through
        /// NSString on Linux and would cost most of a stream's time).
        static func pieces(of frame: String) -> [Piece] {
            var pieces: [Piece] = []
            var text = String.UnicodeScalarView()
            for scalar in frame.unicodeScalars {
                let piece: Piece? = String(scalar) == placeholder ? .month : String(scalar) == yearPlaceholder ? .year : nil
                guard let piece else {
                    text.append(scalar)
                    continue
                }
                if !text.isEmpty { pieces.append(.text(String(text))) }
                text = String.UnicodeScalarView()
                pieces.append(piece)
            }
            if !text.isEmpty { pieces.append(.text(String(text))) }
            return pieces
        }

        /// The calendars whose titles are composed.
        enum Composition {
            case cyclic, hebrew
        }

        /// What a composed format keeps.
        private final class Composed {
            let composition: Composition
            /// The month field alone, formatted on its own.
            let field: DateFormatter?
            /// The locale's leap name with the placeholder where the plain name goes.
            let leapTemplate: String
            let calendar: Calendar
            /// Frames by era and year (cyclic; only the last few are kept), cut at the
            /// placeholders; month names by number and leap flag (or leap year).
            var frames: [Int: [Piece]] = [:]
            var names: [Int: String] = [:]

            init(composition: Composition, field: DateFormatter?, leapTemplate: String, calendar: Calendar) {
                self.composition = composition
                self.field = field
                self.leapTemplate = leapTemplate
                self.calendar = calendar
            }
        }

        init(_ formatter: DateFormatter, composition: Composition?, english: Bool) {
            self.formatter = formatter
            guard let composition, let pattern = formatter.dateFormat else {
                self.composed = nil
                return
            }
            // The year field and the month field become placeholders.
            var frame = ""
            var monthField = ""
            var quoted = false
            var previous: Character?
            for character in pattern {
                if character == "'" { quoted.toggle() }
                if !quoted, character == "M" || character == "L" {
                    if monthField.isEmpty { frame += "'\(Self.placeholder)'" }
                    monthField.append(character)
                } else if !quoted, character == "y" || character == "r" {
                    if previous != character { frame += "'\(Self.yearPlaceholder)'" }
                } else {
                    frame.append(character)
                }
                previous = character
            }
            formatter.dateFormat = frame
            guard !monthField.isEmpty else {
                self.composed = Composed(composition: composition, field: nil, leapTemplate: Self.placeholder, calendar: formatter.calendar)
                return
            }
            let field = DateFormatter()
            field.locale = formatter.locale
            field.calendar = formatter.calendar
            field.timeZone = .gmt
            field.dateFormat = monthField
            guard composition == .cyclic else {
                self.composed = Composed(composition: composition, field: field, leapTemplate: Self.placeholder, calendar: formatter.calendar)
                return
            }
            // Days of the second month of 2023 (2023-02-26) and of its leap month (2023-03-31).
            let plain = field.string(from: DayNumber.date(8_091))
            let leap = field.string(from: DayNumber.date(8_124))
            let template = leap.range(of: plain).map { leap.replacingCharacters(in: $0, with: Self.placeholder) } ?? Self.placeholder
            self.composed = Composed(composition: composition, field: field,
                                     leapTemplate: english && template.hasSuffix("bis") ? "Leap " + Self.placeholder : template,
                                     calendar: formatter.calendar)
        }

        /// The text for `month`.
        func string(for month: Month) -> String {
            guard let composed else { return formatter.string(from: month.start) }
            let name = month.name
            let frame: [Piece]
            let year: Int
            switch composed.composition {
            case .hebrew:
                year = name.year
                frame = composed.frames[0] ?? {
                    let pieces = Self.pieces(of: formatter.string(from: DayNumber.date(0)))
                    composed.frames[0] = pieces
                    return pieces
                }()
            case .cyclic:
                // Chinese and Dangi years share Foundation's numbering: cycle 78, year 41 began in 2024.
                year = (name.era &- 1) &* 60 &+ name.year &- 2_637
                let key = name.era &* 1_000 &+ name.year
                frame = composed.frames[key] ?? {
                    // A day of the same Chinese year names the cyclic year; near the lower limit,
                    // where Foundation clamps, a day of the month.
                    let middle = DateComponents(era: name.era, year: name.year, month: 6, day: 15, hour: 12)
                    let date = composed.calendar.date(from: middle).flatMap { date in
                        let found = composed.calendar.dateComponents([.era, .year], from: date)
                        return found.era == name.era && found.year == name.year ? date : nil
                    } ?? DayNumber.date(month.firstDay + 14)
                    let pieces = Self.pieces(of: formatter.string(from: date))
                    if composed.frames.count >= 16 { composed.frames.removeAll(keepingCapacity: true) }
                    composed.frames[key] = pieces
                    return pieces
                }()
            }
            let nameKey: Int
            switch composed.composition {
            case .cyclic: nameKey = name.month * 2 + (name.isLeapMonth ? 1 : 0)
            case .hebrew: nameKey = name.month * 2 + (HebrewMonths.isLeap(name.year) ? 1 : 0)
            }
            let monthName = composed.field.map { field in composed.names[nameKey] ?? {
                let text: String
                switch composed.composition {
                case .cyclic:
                    // Month `month` of Chinese year 2023 (era 78, year 40), which has every number.
                    let parts = DateComponents(era: 78, year: 40, month: name.month, day: 15, hour: 12)
                    let plain = composed.calendar.date(from: parts).map { field.string(from: $0) } ?? String(name.month)
                    text = name.isLeapMonth ? composed.leapTemplate.replacingOccurrences(of: Self.placeholder, with: plain) : plain
                case .hebrew:
                    // 5784 is a leap year, 5783 a common one.
                    let parts = DateComponents(era: 0, year: HebrewMonths.isLeap(name.year) ? 5_784 : 5_783, month: name.month, day: 15, hour: 12)
                    text = composed.calendar.date(from: parts).map { field.string(from: $0) } ?? String(name.month)
                }
                composed.names[nameKey] = text
                return text
            }() } ?? ""
            var title = ""
            for piece in frame {
                switch piece {
                case .text(let text): title += text
                case .year: title += String(year)
                case .month: title += monthName
                }
            }
            return title
        }
    }
}
