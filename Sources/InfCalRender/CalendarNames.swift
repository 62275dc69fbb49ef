import Foundation
import InfCalModel
import InfCalEvents

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
    /// The locale's weekday names, Sunday first: whole ("Sunday") and abbreviated ("Sun"),
    /// uncut, for the month page's header where cells are wide enough.
    public let fullWeekdayNames: [String]
    public let shortWeekdayNames: [String]
    private let titles: Titles

    private enum Titles {
        /// English Gregorian month names, built in.
        case posixGregorian
        /// Titles from Foundation.
        case formatted(TitleFormats)
    }

    /// English month names of the POSIX locale, January first.
    public static let posixMonthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    /// English weekday abbreviations of the POSIX locale, Sunday first.
    public static let posixWeekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// English weekday names of the POSIX locale, whole, Sunday first.
    public static let posixFullWeekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Names for `calendar` in `locale` (nil: the POSIX locale).
    public init(locale: Locale?, calendar: MonthCalendar) {
        let identifier = calendar.identifier
        if locale == nil, identifier == .gregorian || identifier == .iso8601 {
            titles = .posixGregorian
            // ASCII names, distinct in two letters: no width measuring at start-up.
            (weekdayLabels, labelWidth) = (Self.posixWeekdayNames.map { String($0.prefix(Self.minimumLabelWidth)) },
                                           Self.minimumLabelWidth)
            fullWeekdayNames = Self.posixFullWeekdayNames
            shortWeekdayNames = Self.posixWeekdayNames
            return
        }
        let formatted = TitleFormats(locale: Self.withWesternDigits(locale ?? Locale(identifier: "en_US_POSIX")), calendar: calendar)
        titles = .formatted(formatted)
        (weekdayLabels, labelWidth) = Self.headerLabels(Self.weekdaySymbols(of: formatted.monthYear.formatter))
        let full: [String] = formatted.monthYear.formatter.standaloneWeekdaySymbols
        let short: [String] = formatted.monthYear.formatter.shortStandaloneWeekdaySymbols
        fullWeekdayNames = full.count == 7 ? full : Self.posixFullWeekdayNames
        shortWeekdayNames = short.count == 7 ? short : Self.posixWeekdayNames
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

    /// "February 2024" or "March 44 BC", put together in a buffer on the stack: a stream asks
    /// for one title a month, and joining strings costs more than the month's grid.
    private static func posixTitle(of month: Month) -> String {
        let name = posixName(of: month)
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { buffer -> String in
            var count = 0
            var name = name
            name.withUTF8 { utf8 in
                for byte in utf8 { buffer[count] = byte; count += 1 }
            }
            buffer[count] = UInt8(ascii: " ")
            count += 1
            if month.name.year < 0 { buffer[count] = UInt8(ascii: "-"); count += 1 }
            let year = month.name.year.magnitude
            var digits = 0
            var rest = year
            repeat { digits += 1; rest /= 10 } while rest > 0
            guard count + digits + 3 <= buffer.count else {
                return name + " " + String(month.name.year) + (month.name.era == 0 ? " BC" : "")
            }
            rest = year
            for place in stride(from: digits - 1, through: 0, by: -1) {
                buffer[count + place] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            count += digits
            if month.name.era == 0 {
                for byte in " BC".utf8 { buffer[count] = byte; count += 1 }
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// The English month names' bytes, each followed by a space and padded to 16 bytes, January
    /// first: a title copies its name and space in two words.
    private static let posixMonthPadded: [UInt8] = {
        var bytes: [UInt8] = []
        for name in posixMonthNames {
            let padded = Array(name.utf8) + [UInt8(ascii: " ")]
            bytes += padded + [UInt8](repeating: 0, count: 16 - padded.count)
        }
        return bytes
    }()
    /// The bytes of each English month name, January first.
    private static let posixMonthLengths: [Int] = {
        var lengths: [Int] = []
        for name in posixMonthNames { lengths.append(name.utf8.count) }
        return lengths
    }()

    /// Appends the title of `month` (`withYear`: `title(of:)`, else `monthName(of:)`) to `out`
    /// and returns the cells it takes. The POSIX Gregorian title is put together on the stack,
    /// all ASCII: a stream asks for a title a month, and a string costs more than the month's grid.
    public func appendTitle(of month: Month, withYear: Bool, to out: ByteBuffer) -> Int {
        appendTitle(of: month, withYear: withYear, centring: nil, to: out)
    }

    /// Appends the title of `month` as `appendTitle(of:withYear:to:)` does, after the spaces
    /// that centre it in `width` cells, and returns the cells the title takes; appends nothing
    /// when that is more than `width`.
    public func appendTitle(of month: Month, withYear: Bool, centredIn width: Int, to out: ByteBuffer) -> Int {
        appendTitle(of: month, withYear: withYear, centring: width, to: out)
    }

    private func appendTitle(of month: Month, withYear: Bool, centring width: Int?, to out: ByteBuffer) -> Int {
        if case .posixGregorian = titles {
            var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let written = withUnsafeMutableBytes(of: &bytes) { raw in Self.posixTitle(of: month, withYear: withYear, into: raw) }
            if let written {
                if let width {
                    guard written <= width else { return written }
                    out.appendSpaces((width - written) / 2)
                }
                withUnsafeBytes(of: &bytes) { raw in out.append(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<written])) }
                return written
            }
        }
        let text = withYear ? title(of: month) : monthName(of: month)
        let textWidth = DisplayWidth.of(text)
        if let width {
            guard textWidth <= width else { return textWidth }
            out.appendSpaces((width - textWidth) / 2)
        }
        out.append(text)
        return textWidth
    }

    /// Writes "February 2024", "March 44 BC" or "February" into `bytes` (32 of them) and returns
    /// how many it took, or nil when the title is longer.
    private static func posixTitle(of month: Month, withYear: Bool, into bytes: UnsafeMutableRawBufferPointer) -> Int? {
        guard bytes.count >= 32 else { return nil }
        let index = ((month.name.month - 1) % 12 + 12) % 12
        let length = posixMonthLengths[index]
        posixMonthPadded.withUnsafeBytes { names in
            bytes.storeBytes(of: names.loadUnaligned(fromByteOffset: 16 * index, as: UInt64.self), as: UInt64.self)
            bytes.storeBytes(of: names.loadUnaligned(fromByteOffset: 16 * index + 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        }
        guard withYear else { return length }
        var count = length + 1
        if month.name.year < 0 {
            bytes[count] = UInt8(ascii: "-")
            count += 1
        }
        let year = month.name.year.magnitude
        var digits = 1
        var rest = year / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let era = month.name.era == 0 ? beforeChrist.count : 0
        guard count + digits + era <= 32 else { return nil }
        rest = year
        for place in stride(from: count + digits - 1, through: count, by: -1) {
            bytes[place] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
        if era > 0 {
            for byte in beforeChrist { bytes[count] = byte; count += 1 }
        }
        return count
    }

    private static let beforeChrist: [UInt8] = Array(" BC".utf8)

    /// Writes into `slots` (12 of 48 bytes) the titles with their year that
    /// `appendTitle(of:withYear: true, to:)` gives for the months of the POSIX Gregorian year of
    /// `month`, January first: each slot the title, then its length in its last byte. Returns
    /// false when the titles are not POSIX Gregorian or one is longer than 32 bytes. A stream
    /// heads a list a month, and the year's digits are most of a title: made once a year.
    func posixTitles(ofYearOf month: Month, into slots: UnsafeMutablePointer<UInt8>) -> Bool {
        guard case .posixGregorian = titles else { return false }
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        guard let written = withUnsafeMutableBytes(of: &bytes, { raw in Self.posixTitle(of: month, withYear: true, into: raw) }) else {
            return false
        }
        // The year's part is what follows the name and its space in the whole title; names are
        // at most 9 bytes, so the year's 8-byte copy stays within the title's 32.
        let yearStart = Self.posixMonthLengths[((month.name.month - 1) % 12 + 12) % 12] + 1
        let yearLength = written - yearStart
        return Self.posixMonthPadded.withUnsafeBufferPointer { names in
            Self.posixMonthLengths.withUnsafeBufferPointer { lengths in
                withUnsafeBytes(of: &bytes) { raw in
                    guard let names = names.baseAddress, let title = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
                    if yearLength <= 8 {
                        // The year's part in one word; names are at most 10 bytes with their
                        // space, so every title fits its 32.
                        let year = UnsafeRawPointer(title + yearStart).loadUnaligned(as: UInt64.self)
                        for index in 0..<12 {
                            let nameLength = lengths[index] &+ 1, slot = UnsafeMutableRawPointer(slots + 48 &* index)
                            let name = UnsafeRawPointer(names + 16 &* index)
                            slot.storeBytes(of: name.loadUnaligned(as: UInt64.self), as: UInt64.self)
                            slot.storeBytes(of: name.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                            slot.storeBytes(of: year, toByteOffset: nameLength, as: UInt64.self)
                            slot.storeBytes(of: UInt8(truncatingIfNeeded: nameLength &+ yearLength), toByteOffset: 47, as: UInt8.self)
                        }
                        return true
                    }
                    for index in 0..<12 {
                        let nameLength = lengths[index] + 1, slot = slots + 48 * index
                        guard nameLength + yearLength <= 32 else { return false }
                        ByteBuffer.copyWords(from: names + 16 * index, count: 16, to: slot)
                        ByteBuffer.copyWords(from: title + yearStart, count: yearLength, to: slot + nameLength)
                        slot[47] = UInt8(nameLength + yearLength)
                    }
                    return true
                }
            }
        }
    }

    /// The cells the title `appendTitle(of:withYear:to:)` appends takes, without making it
    /// where it is POSIX Gregorian.
    public func titleWidth(of month: Month, withYear: Bool) -> Int {
        guard case .posixGregorian = titles else { return DisplayWidth.of(withYear ? title(of: month) : monthName(of: month)) }
        let nameWidth = Self.posixMonthLengths[((month.name.month - 1) % 12 + 12) % 12]
        guard withYear else { return nameWidth }
        var digits = 1
        var rest = month.name.year.magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return nameWidth + 1 + (month.name.year < 0 ? 1 : 0) + digits + (month.name.era == 0 ? Self.beforeChrist.count : 0)
    }

    /// The month's title with its year, as "February 2024" or "March 44 BC".
    public func title(of month: Month) -> String {
        switch titles {
        case .posixGregorian:
            return Self.posixTitle(of: month)
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
