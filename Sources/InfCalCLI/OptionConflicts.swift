import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// Options that cannot be used together: one table, checked once, before any value is read.
///
/// As ncal does (`-3 together with -y is not supported`), the message names both options as the
/// user typed them.
struct OptionConflict: Sendable {
    /// An option as a conflict names it.
    enum Selector: Sendable {
        /// The option, with a value or without.
        case option(OptionKey)
        /// The option given a value (`--year 2024`, not a bare `--year`).
        case valued(OptionKey)
        /// The option given this value, in any case (`--calendar list`).
        case value(OptionKey, String)
        /// The positional `[[DAY] MONTH] YEAR`.
        case positionalDate

        /// The last occurrence of the option in `raw`, when it is what the selector names.
        func match(in raw: RawOptions) -> RawOptions.Occurrence? {
            switch self {
            case .option(let key):
                return raw.last(key)
            case .valued(let key):
                return raw.last(key).flatMap { $0.value == nil ? nil : $0 }
            case let .value(key, value):
                return raw.last(key).flatMap { $0.value?.lowercased() == value ? $0 : nil }
            case .positionalDate:
                guard !raw.positionals.isEmpty else { return nil }
                return RawOptions.Occurrence(key: .from, spelling: raw.positionals.joined(separator: " "), value: nil)
            }
        }

        /// How a message names `occurrence`: the spelling, with the value where it matters.
        func name(_ occurrence: RawOptions.Occurrence) -> String {
            switch self {
            case .option, .positionalDate: return occurrence.spelling
            case .valued, .value: return occurrence.spelling + " " + (occurrence.value ?? "")
            }
        }
    }

    /// The option that conflicts.
    let option: Selector
    /// What it cannot be used with; the first of them given is named.
    let others: [Selector]

    /// The options that choose a run of months as cal and ncal do.
    static let monthCounts: [Selector] = [.one, .three, .months, .twelve, .span, .after, .before].map { .option($0) }

    /// Every conflict, in the order they are checked.
    static let all: [OptionConflict] = [
        OptionConflict(option: .value(.calendar, "list"),
                       others: [.option(.forward), .option(.backward), .option(.year), .option(.paged)] + monthCounts
                           + [.positionalDate, .option(.json), .option(.week)]),
        OptionConflict(option: .option(.forward), others: [.option(.backward)] + monthCounts),
        OptionConflict(option: .option(.backward), others: monthCounts),
        OptionConflict(option: .option(.paged), others: [.option(.forward), .option(.backward), .option(.year), .option(.wall)] + monthCounts),
        OptionConflict(option: .option(.wall), others: [.option(.year), .option(.columns)]),
        OptionConflict(option: .option(.year), others: [.option(.forward), .option(.backward)] + monthCounts),
        OptionConflict(option: .valued(.year), others: [.option(.from), .positionalDate]),
        // Weeks are printed (--week) or paged through (--paged --view week), one at a time.
        OptionConflict(option: .option(.week), others: [.option(.year), .option(.paged), .option(.view), .option(.wall), .option(.agenda),
                                                        .option(.vertical), .option(.columns)] + monthCounts),
        OptionConflict(option: .valued(.week), others: [.option(.from), .positionalDate]),
        OptionConflict(option: .positionalDate, others: [.option(.from)]),
        OptionConflict(option: .option(.one), others: [.option(.three), .option(.months), .option(.twelve)]),
        OptionConflict(option: .option(.three), others: [.option(.months), .option(.twelve)]),
        OptionConflict(option: .option(.months), others: [.option(.twelve)]),
        OptionConflict(option: .option(.monday), others: [.option(.sunday), .option(.firstWeekday)]),
        OptionConflict(option: .option(.sunday), others: [.option(.firstWeekday)]),
        OptionConflict(option: .option(.json), others: [.option(.paged), .option(.wall)]),
        OptionConflict(option: .option(.refresh), others: [.option(.offline)]),
        OptionConflict(option: .option(.agenda), others: [.option(.paged), .option(.year), .value(.calendar, "list")]),
        OptionConflict(option: .option(.days), others: [.option(.json)]),
    ]

    /// Throws for the first conflict in `raw`.
    /// - throws: `UsageError.conflict` naming the two options.
    static func check(_ raw: RawOptions) throws(UsageError) {
        for conflict in all {
            guard let first = conflict.option.match(in: raw) else { continue }
            for other in conflict.others {
                if let second = other.match(in: raw) {
                    throw .conflict(conflict.option.name(first), other.name(second))
                }
            }
        }
    }
}

extension OptionConflict {
    /// Whether `occurrence` conflicts with an option of `raw` (either way round).
    static func any(_ occurrence: RawOptions.Occurrence, against raw: RawOptions) -> Bool {
        var alone = RawOptions()
        alone.occurrences = [occurrence]
        for conflict in all {
            if conflict.option.match(in: alone) != nil, conflict.others.contains(where: { $0.match(in: raw) != nil }) { return true }
            if conflict.option.match(in: raw) != nil, conflict.others.contains(where: { $0.match(in: alone) != nil }) { return true }
        }
        return false
    }
}
