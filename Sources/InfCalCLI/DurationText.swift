import InfCalModel
import InfCalEvents

/// The one grammar of a length of time, for the command line (`--for`) and the config file
/// (`refresh`, `timeout`) alike: a bare number is seconds (`90`); else numbers each followed by
/// a unit, `w`, `d`, `h`, `m` or `s`, added up (`90s`, `30m`, `1h30m`, `2d`, `1w`); or an RFC
/// 5545 DURATION (`PT1H`, `P1D`). Any case. What a length may be (more than zero, at most an
/// hour) is for the setting to say.
enum DurationText {
    /// Examples of the grammar, as messages and help show them.
    static let examples = "90 (seconds), 30m, 1h30m, 2d, 1w or PT1H"

    /// The largest number before a unit: nine digits.
    static let largestNumber = 999_999_999

    /// The seconds `text` gives, or nil when it is no duration (or too long to count).
    static func seconds(_ text: String) -> Int? {
        let lower = text.lowercased()
        if lower.hasPrefix("p") { return ICalTime.parseDuration(lower.uppercased()) }
        if OptionSpec.isNumber(lower) { return lower.count <= 9 ? Int(lower) : nil }
        var total = 0
        var number: Int?
        for character in lower {
            if let digit = character.wholeNumberValue, character.isASCII {
                let next = (number ?? 0) * 10 + digit
                guard next <= largestNumber else { return nil }
                number = next
                continue
            }
            let unit: Int
            switch character {
            case "w": unit = 7 * 86_400
            case "d": unit = 86_400
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = number else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(value * unit)
            guard !overflow else { return nil }
            total = sum
            number = nil
        }
        return number == nil && !lower.isEmpty ? total : nil
    }
}
