import Foundation

/// The calendars infcal knows by name: Foundation's identifiers with their CLDR names, the
/// names `--calendar` takes and `Locale`'s `@calendar=` keyword uses.
public enum CalendarChoice {
    /// Every identifier of Foundation's `Calendar.Identifier`, in the order `--calendar list`
    /// shows them. The first seventeen are computed on every platform Foundation runs on; the
    /// rest are newer, and this platform's Foundation may not compute them (see `isUsable`).
    public static let all: [(name: String, identifier: Calendar.Identifier)] = [
        ("gregorian", .gregorian), ("iso8601", .iso8601), ("buddhist", .buddhist), ("chinese", .chinese),
        ("coptic", .coptic), ("dangi", .dangi), ("ethiopic", .ethiopicAmeteMihret),
        ("ethiopic-amete-alem", .ethiopicAmeteAlem), ("hebrew", .hebrew), ("indian", .indian),
        ("islamic", .islamic), ("islamic-civil", .islamicCivil), ("islamic-tbla", .islamicTabular),
        ("islamic-umalqura", .islamicUmmAlQura), ("japanese", .japanese), ("persian", .persian),
        ("roc", .republicOfChina),
        ("bangla", .bangla), ("gujarati", .gujarati), ("kannada", .kannada), ("malayalam", .malayalam),
        ("marathi", .marathi), ("odia", .odia), ("tamil", .tamil), ("telugu", .telugu), ("vikram", .vikram),
        ("vietnamese", .vietnamese),
    ]

    /// The identifier named `name`, or nil if there is none.
    public static func identifier(named name: String) -> Calendar.Identifier? {
        all.first { $0.name == name.lowercased() }?.identifier
    }

    /// The name of `identifier`.
    public static func name(of identifier: Calendar.Identifier) -> String {
        all.first { $0.identifier == identifier }?.name ?? "\(identifier)"
    }

    /// The names of the calendars this platform computes, in table order.
    public static var usableNames: [String] {
        all.filter { isUsable($0.identifier) }.map(\.name)
    }

    /// Whether this platform's Foundation computes months of `identifier`: the month holding a
    /// sample day and its neighbours pass `MonthCalendar`'s checks, and the calendar is not the
    /// Gregorian one under another name (on Linux, Foundation answers "vietnamese" with plain
    /// Gregorian months, and the Indian regional calendars cannot step a month at all).
    public static func isUsable(_ identifier: Calendar.Identifier) -> Bool {
        if identifier == .gregorian || identifier == .iso8601 { return true }
        let calendar = MonthCalendar(identifier)
        let gregorian = MonthCalendar(.gregorian)
        // 2024-02-10, the Chinese, Korean and Vietnamese new year; no other calendar starts a
        // month on the Gregorian one's days all year round.
        let sample = 8_440
        guard let month = calendar.month(containing: sample),
              let next = calendar.month(after: month), calendar.month(before: month) != nil
        else { return false }
        if identifier != .buddhist, identifier != .japanese, identifier != .republicOfChina,
           let plain = gregorian.month(containing: sample), let plainNext = gregorian.month(after: plain),
           plain.firstDay == month.firstDay, plainNext.firstDay == next.firstDay, plain.name.month == month.name.month,
           plain.name.year == month.name.year {
            return false
        }
        return true
    }
}
