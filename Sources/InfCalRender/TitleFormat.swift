import Foundation
import InfCalModel

/// The title formats of one locale and calendar, which `CalendarNames` formats its titles
/// with: the month with its year (and era), the month alone, the year (and era), and when a
/// title names the era.
struct TitleFormats {
    let monthYear: TitleFormat
    let eraMonthYear: TitleFormat
    let monthOnly: TitleFormat
    let year: TitleFormat
    let eraYear: TitleFormat
    let eras: EraRule

    init(locale: Locale, calendar: MonthCalendar) {
        let identifier = calendar.identifier
        // Chinese and Dangi years are numbered in 60-year cycles: titles carry the related
        // Gregorian year ("r" in ICU patterns) to be unambiguous. Foundation on Linux
        // formats Dangi dates as Gregorian ones, so both are formatted as Chinese.
        let cyclic = identifier == .chinese || identifier == .dangi
        var formatting = cyclic ? MonthCalendar(.chinese).calendar : Calendar(identifier: identifier)
        formatting.timeZone = .gmt
        func make(_ template: String, standalone: Bool = false) -> TitleFormat {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.calendar = formatting
            formatter.timeZone = .gmt
            formatter.setLocalizedDateFormatFromTemplate(template)
            if standalone { formatter.dateFormat = "LLLL" }
            let solar = identifier == .gregorian || identifier == .iso8601
            let composition: TitleFormat.Composition? = cyclic ? .cyclic : identifier == .hebrew ? .hebrew
                : identifier == .islamic ? .islamic : solar ? .solar : nil
            return TitleFormat(formatter, composition: composition, english: locale.language.languageCode == .english)
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
/// day of the year, and the last few are kept (a Chinese `DateFormatter` call is slow; the benchmark measures it).
struct TitleFormat {
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

    /// The calendars whose titles are composed: the Chinese and Dangi, the Hebrew, the
    /// astronomical Islamic calendar, whose months ICU keeps for good once it has formatted
    /// a day of them (its titles have one frame, and month names of 1446 AH), and the
    /// Gregorian and ISO 8601 calendars, whose months follow `--reform` where Foundation's
    /// follow its own of 1582 (proleptic Gregorian January 470 is Foundation's December 469).
    enum Composition {
        case cyclic, hebrew, islamic, solar
    }

    /// What a composed format keeps.
    private final class Composed {
        let composition: Composition
        /// The month field alone, formatted on its own.
        let field: DateFormatter?
        /// The locale's leap name with the placeholder where the plain name goes.
        let leapTemplate: String
        /// How a year before the first is written, with the placeholder where its magnitude goes.
        lazy var negativeYearTemplate: String = {
            let year = DateFormatter()
            year.locale = locale
            year.calendar = calendar
            year.timeZone = .gmt
            year.dateFormat = "y"
            let parts = DateComponents(era: 0, year: -1, month: 6, day: 15, hour: 12)
            let text = calendar.date(from: parts).map { year.string(from: $0) } ?? "-1"
            return text.range(of: "1").map { text.replacingCharacters(in: $0, with: TitleFormat.placeholder) } ?? "-" + TitleFormat.placeholder
        }()
        let calendar: Calendar
        let locale: Locale
        /// Frames by year of the cycle (cyclic) or one frame, cut at the
        /// placeholders; month names by number and leap flag (or leap year).
        var frames: [Int: [Piece]] = [:]
        var names: [Int: String] = [:]

        init(composition: Composition, field: DateFormatter?, leapTemplate: String, calendar: Calendar, locale: Locale) {
            self.locale = locale
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
            self.composed = Composed(composition: composition, field: nil, leapTemplate: Self.placeholder, calendar: formatter.calendar, locale: formatter.locale)
            return
        }
        let field = DateFormatter()
        field.locale = formatter.locale
        field.calendar = formatter.calendar
        field.timeZone = .gmt
        field.dateFormat = monthField
        guard composition == .cyclic else {
            self.composed = Composed(composition: composition, field: field, leapTemplate: Self.placeholder, calendar: formatter.calendar, locale: formatter.locale)
            return
        }
        // Days of the second month of 2023 (2023-02-26) and of its leap month (2023-03-31).
        let plain = field.string(from: DayNumber.date(8_091))
        let leap = field.string(from: DayNumber.date(8_124))
        let template = leap.range(of: plain).map { leap.replacingCharacters(in: $0, with: Self.placeholder) } ?? Self.placeholder
        self.composed = Composed(composition: composition, field: field,
                                 leapTemplate: english && template.hasSuffix("bis") ? "Leap " + Self.placeholder : template,
                                 calendar: formatter.calendar, locale: formatter.locale)
    }

    /// The text for `month`.
    func string(for month: Month) -> String {
        guard let composed else { return formatter.string(from: month.start) }
        let name = month.name
        let frame: [Piece]
        let year: Int
        switch composed.composition {
        case .solar:
            // The year within its era, as the month's name has it; the frame from a day of
            // that era (AD 2001, or 100 BC), which carries the era's name where it is shown.
            year = name.year
            let key = name.era == 0 ? 0 : 1
            frame = composed.frames[key] ?? {
                let parts = DateComponents(era: key, year: key == 0 ? 100 : 2_001, month: 6, day: 15, hour: 12)
                let pieces = Self.pieces(of: formatter.string(from: composed.calendar.date(from: parts) ?? DayNumber.date(0)))
                composed.frames[key] = pieces
                return pieces
            }()
        case .hebrew, .islamic:
            year = name.year
            frame = composed.frames[0] ?? {
                let pieces = Self.pieces(of: formatter.string(from: DayNumber.date(0)))
                composed.frames[0] = pieces
                return pieces
            }()
        case .cyclic:
            // Chinese and Dangi years share Foundation's numbering: cycle 78, year 41 began in 2024.
            year = CivilTime.cycleYear(era: name.era, year: name.year) &- CivilTime.cycleYearOffset
            // The frame names the year of the cycle at most (甲辰), so a day of the same year
            // of the present cycle (era 78, 1984-2043) gives it: Foundation computes those
            // years from Apple's tables and keeps nothing, where a day of every year would
            // fill ICU's caches of winter solstices and new years. At most 60 are kept.
            let key = name.year
            frame = composed.frames[key] ?? {
                let middle = DateComponents(era: 78, year: name.year, month: 6, day: 15, hour: 12)
                let date = composed.calendar.date(from: middle) ?? DayNumber.date(month.firstDay + 14)
                let pieces = Self.pieces(of: formatter.string(from: date))
                if composed.frames.count >= 64 { composed.frames.removeAll(keepingCapacity: true) }
                composed.frames[key] = pieces
                return pieces
            }()
        }
        let nameKey: Int
        switch composed.composition {
        case .cyclic: nameKey = name.month * 2 + (name.isLeapMonth ? 1 : 0)
        case .hebrew: nameKey = name.month * 2 + (HebrewMonths.isLeap(name.year) ? 1 : 0)
        case .islamic, .solar: nameKey = name.month * 2
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
            case .islamic:
                let parts = DateComponents(era: 0, year: 1_446, month: name.month, day: 15, hour: 12)
                text = composed.calendar.date(from: parts).map { field.string(from: $0) } ?? String(name.month)
            case .solar:
                let parts = DateComponents(era: 1, year: 2_001, month: name.month, day: 15, hour: 12)
                text = composed.calendar.date(from: parts).map { field.string(from: $0) } ?? String(name.month)
            }
            composed.names[nameKey] = text
            return text
        }() } ?? ""
        var title = ""
        for piece in frame {
            switch piece {
            case .text(let text): title += text
            case .year:
                title += year >= 0 ? String(year)
                    : composed.negativeYearTemplate.replacingOccurrences(of: Self.placeholder, with: String(0 - year))
            case .month: title += monthName
            }
        }
        return title
    }
}
