import Foundation
import InfCalModel

/// The RSCALE values infcal reads (RFC 7529, CLDR calendar names) and the scales that count them.
public enum RecurrenceScales {
    public static let identifiers: [String: Calendar.Identifier] = [
        "HEBREW": .hebrew, "CHINESE": .chinese, "DANGI": .dangi, "ISLAMIC": .islamic,
        "ISLAMIC-CIVIL": .islamicCivil, "ISLAMIC-TBLA": .islamicTabular, "ISLAMIC-UMALQURA": .islamicUmmAlQura,
        "ETHIOPIC": .ethiopicAmeteMihret, "ETHIOAA": .ethiopicAmeteAlem, "COPTIC": .coptic, "PERSIAN": .persian,
        "INDIAN": .indian, "BUDDHIST": .buddhist, "JAPANESE": .japanese, "ROC": .republicOfChina,
    ]

    /// Every RSCALE name accepted.
    public static let names: Set<String> = Set(identifiers.keys).union(["GREGORIAN", "ISO8601"])

    /// The scale for an RSCALE value (nil or GREGORIAN: the Gregorian arithmetic).
    public static func scale(named name: String?) -> RecurrenceScale {
        guard let name, let identifier = identifiers[name] else { return GregorianScale.shared }
        return MonthCalendarScale(MonthCalendar(identifier))
    }
}
