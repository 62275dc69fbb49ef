import Foundation
import InfCalModel
import InfCalEvents

/// How the week's time scale and its blocks write a time: the locale's clock, 24-hour
/// (`09:00`, `21:30`) or 12-hour (`9 AM`, `9:30 PM`, `오후 9:30`), always in Western digits.
///
/// Which one a locale uses is CLDR's, through Foundation's pattern for the skeleton `j` (the
/// locale's preferred hour): `HH` or `H時` is a 24-hour clock, `h a` or `a h시` a 12-hour one,
/// with its day-period marks (AM, PM) before or after the hour as the pattern puts them. The
/// POSIX locale's clock is 24-hour, as its LC_TIME writes times (`%H:%M:%S`).
public struct WeekClock: Hashable, Sendable {
    /// Whether the clock counts 12 hours twice, with a day-period mark.
    public let isTwelveHour: Bool
    /// The marks of the morning and of the afternoon ("AM", "PM"); empty on a 24-hour clock.
    let am: String
    let pm: String
    /// Whether the mark comes before the hour (`오전 9`), and what stands between them.
    let markFirst: Bool
    let markSeparator: String

    /// The 24-hour clock.
    public static let twentyFourHour = WeekClock(twelveHour: false, am: "", pm: "", markFirst: false, separator: "")

    init(twelveHour: Bool, am: String, pm: String, markFirst: Bool, separator: String) {
        isTwelveHour = twelveHour
        self.am = am
        self.pm = pm
        self.markFirst = markFirst
        markSeparator = separator
    }

    /// The clock of `locale` (nil: POSIX, 24-hour).
    public init(locale: Locale?) {
        guard let locale, let pattern = DateFormatter.dateFormat(fromTemplate: "j", options: 0, locale: locale) else {
            self = .twentyFourHour
            return
        }
        // The pattern's fields, quoted literals left out ('Uhr', 'h').
        var fields: [Character] = []
        var quoted = false
        for character in pattern {
            if character == "'" { quoted.toggle() } else if !quoted { fields.append(character) }
        }
        guard let hour = fields.firstIndex(where: { $0 == "h" || $0 == "K" }) else {
            self = .twentyFourHour
            return
        }
        let formatter = DateFormatter()
        formatter.locale = locale
        let (am, pm) = (formatter.amSymbol.isEmpty ? "AM" : formatter.amSymbol, formatter.pmSymbol.isEmpty ? "PM" : formatter.pmSymbol)
        guard let mark = fields.firstIndex(where: { $0 == "a" || $0 == "b" || $0 == "B" }) else {
            self.init(twelveHour: true, am: am, pm: pm, markFirst: false, separator: " ")
            return
        }
        let between = mark < hour ? fields[(mark + 1)..<hour] : fields[(hour + 1)..<mark]
        self.init(twelveHour: true, am: am, pm: pm, markFirst: mark < hour,
                  separator: between.contains(where: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" }) ? " " : "")
    }

    /// A time of day, `minute` minutes after midnight: `09:30`, or `9:30 AM` (`9 AM` on the
    /// hour, as the scale labels hours); `12 PM` is noon, `12 AM` midnight.
    public func time(minute: Int) -> String {
        let minutes = CivilTime.floorMod(minute, 24 * 60)
        let (hour, rest) = (minutes / 60, minutes % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0" + String(value) : String(value) }
        guard isTwelveHour else { return twoDigits(hour) + ":" + twoDigits(rest) }
        let shown = hour % 12 == 0 ? 12 : hour % 12
        let number = String(shown) + (rest == 0 ? "" : ":" + twoDigits(rest))
        let mark = hour < 12 ? am : pm
        return markFirst ? mark + markSeparator + number : number + markSeparator + mark
    }
}
