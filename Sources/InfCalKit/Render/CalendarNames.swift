import Foundation

/// The words a calendar is shown with in one locale: month titles and weekday headers.
///
/// The POSIX locale (C, POSIX, or no locale set) is English with US conventions, as POSIX
/// defines its LC_TIME; with the Gregorian calendar its names are built in, so the default run
/// never loads ICU's locale data. A test checks them against Foundation's `en_US_POSIX`.
/// Every other locale and calendar takes its names from Foundation's `DateFormatter`.
public struct CalendarNames {
    /// Weekday header labels, Sunday first (index 0 is Sunday), each cut to `headerWidth` cells.
    public let weekdayLabels: [String]
    /// The display width every weekday label is cut to.
    public let headerWidth: Int
    private let titles: Titles

    private enum Titles {
        /// English Gregorian month names, built in.
        case posixGregorian
        /// Titles from Foundation; the second formatter adds the era, for months outside the
        /// calendar's present era (`presentEra`, nil: always), as years before 1 AD are.
        case formatted(monthYear: DateFormatter, eraMonthYear: DateFormatter, monthOnly: DateFormatter, presentEra: Int?)
    }

    /// English month names of the POSIX locale, January first.
    public static let posixMonthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    /// English weekday abbreviations of the POSIX locale, Sunday first.
    public static let posixWeekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Names for `calendar` in `locale` (nil: the POSIX locale), weekday labels cut to `headerWidth`.
    public init(locale: Locale?, calendar: MonthCalendar, headerWidth: Int = 2) {
        self.headerWidth = headerWidth
        let identifier = calendar.calendar.identifier
        if locale == nil, identifier == .gregorian || identifier == .iso8601 {
            titles = .posixGregorian
            weekdayLabels = Self.headerLabels([Self.posixWeekdayNames], width: headerWidth)
            return
        }
        let locale = locale ?? Locale(identifier: "en_US_POSIX")
        func formatter(template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.calendar = calendar.calendar
            formatter.timeZone = .gmt
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        let monthYear = formatter(template: "yMMMM")
        titles = .formatted(
            monthYear: monthYear,
            eraMonthYear: formatter(template: "GyMMMM"),
            monthOnly: { let f = formatter(template: "MMMM"); f.dateFormat = "LLLL"; return f }(),
            // Japanese years count from the start of each era, so the era is always named.
            presentEra: identifier == .japanese ? nil : calendar.calendar.component(.era, from: Date(timeIntervalSinceReferenceDate: 0))
        )
        weekdayLabels = Self.headerLabels(
            [monthYear.shortStandaloneWeekdaySymbols, monthYear.veryShortStandaloneWeekdaySymbols],
            width: headerWidth
        )
    }

    /// The first list of names that stays distinct once each name is cut to `width` cells; the
    /// first list, cut, when none does.
    static func headerLabels(_ candidates: [[String]], width: Int) -> [String] {
        let usable = candidates.filter { $0.count == 7 }
        let cut = usable.map { names in names.map { DisplayWidth.prefix(of: $0, fitting: width) } }
        return cut.first { Set($0).count == 7 } ?? cut.first ?? Self.posixWeekdayNames.map { String($0.prefix(width)) }
    }

    /// The month's title with its year, as "February 2024" or "March 44 BC".
    public func title(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            let name = Self.posixMonthNames[(month.name.month - 1) % 12]
            return month.name.era == 0 ? "\(name) \(month.name.year) BC" : "\(name) \(month.name.year)"
        case let .formatted(monthYear, eraMonthYear, _, presentEra):
            let formatter = month.name.era == presentEra ? monthYear : eraMonthYear
            return formatter.string(from: month.start)
        }
    }

    /// The month's name alone, as "February".
    public func monthName(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            return Self.posixMonthNames[(month.name.month - 1) % 12]
        case let .formatted(_, _, monthOnly, _):
            return monthOnly.string(from: month.start)
        }
    }
}
