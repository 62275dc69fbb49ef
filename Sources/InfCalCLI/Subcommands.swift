import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The commands that write calendars, each with its operands and the options it takes. Their
/// options live in `OptionSpec.commandOptions` (with `--today` from the main table), so that
/// the parser, `infcal COMMAND --help`, the completions and the documentation tests read one
/// table; `check`, which reads them all and writes nothing, takes `OptionSpec.checkOptions`.
public struct Subcommand: Sendable {
    public enum Name: String, CaseIterable, Sendable {
        case add, edit, delete
        case check
    }

    public let name: Name
    /// The operands as the usage line shows them.
    public let operands: String
    public let summary: String
    /// The options it takes, in the order its help lists them.
    public let options: [OptionKey]
    /// What its help says after the options; nil: what it says of add, edit and delete (`footer`).
    var notes: String? = nil

    public static let all: [Subcommand] = [
        Subcommand(name: .add, operands: "[DATE] [TIME[-TIME]] SUMMARY...",
                   summary: "add an event (no DATE: today; no TIME: all day) and print it with its UID",
                   options: [.lasting, .every, .count, .ending, .location, .details, .to, .today, .help]),
        Subcommand(name: .edit, operands: "UID [DATE] [TIME[-TIME]]",
                   summary: "change what the options say of the event UID, and nothing else",
                   options: [.retitle, .lasting, .every, .count, .ending, .location, .details, .occurrence, .to, .today, .help]),
        Subcommand(name: .delete, operands: "UID",
                   summary: "delete the event UID with its overrides, or one occurrence of it",
                   options: [.occurrence, .to, .today, .help]),
        Subcommand(name: .check, operands: "",
                   summary: "read every calendar and list what is wrong, file by file and line by line (it writes nothing)",
                   options: [.events, .checkJSON, .help], notes: CheckRun.helpNotes),
    ]

    /// The subcommand named `word`, if it is one.
    public static func named(_ word: String) -> Subcommand? {
        Name(rawValue: word).flatMap { name in all.first { $0.name == name } }
    }

    /// The definitions of its options.
    public var specs: [OptionSpec] {
        options.map { key in (OptionSpec.commandOptions + OptionSpec.checkOptions + OptionSpec.all).first { $0.key == key } ?? OptionSpec.all[0] }
    }

    /// `infcal add --help`: the usage, what it does, its options.
    public var helpText: String {
        let options = HelpText.optionLines(specs)
        return "Usage: infcal \(name.rawValue) [OPTION]...\(operands.isEmpty ? "" : " " + operands)\n"
            + HelpText.wrap(summary.prefix(1).uppercased() + summary.dropFirst() + ".", width: 78).joined(separator: "\n") + "\n\n"
            + "Options:\n" + options.joined(separator: "\n") + "\n\n" + (notes ?? Self.footer)
    }

    static let footer = """
        DATE is any form --from takes (YYYY-MM-DD, YYYY-MM, YYYY, +N/-N), today,
        tomorrow, yesterday or a weekday name (English or the locale's: the next such
        day, today included). TIME is HH:MM, TIME-TIME a start and an end (an end
        before the start is on the next day). Timed events are written in TZ's zone
        (or /etc/localtime's) with a VTIMEZONE; a UTC or POSIX-rule TZ writes UTC.
        Without --to, events go to the configured default calendar, else to
        $XDG_DATA_HOME/infcal/calendar.ics (~/.local/share/...).
        Exit status: 0 done, 1 not written (and why), 64 usage, 66 no such calendar,
        77 a read-only calendar.

        """
}

extension OptionSpec {
    /// The options of `add`, `edit` and `delete` (which also take `--today` and `--help`).
    public static let commandOptions: [OptionSpec] = [
        OptionSpec(key: .retitle, long: "summary", short: nil, value: .required(placeholder: "TEXT"),
                   summary: "the new summary", expected: "a text without control characters"),
        OptionSpec(key: .lasting, long: "for", short: nil, value: .required(placeholder: "DURATION"),
                   summary: "how long: 90m, 1h30m, 2d, 1w, PT1H; a bare number is seconds (default: the TIME-TIME given, else 1h, else all day)",
                   expected: "a duration such as " + DurationText.examples + ", more than zero"),
        OptionSpec(key: .every, long: "every", short: nil, value: .required(placeholder: "RULE"),
                   summary: "repeat: day, week, month, year, or an RRULE such as FREQ=WEEKLY;BYDAY=MO,WE (RSCALE too)",
                   expected: "day, week, month, year or an RRULE (FREQ=...)"),
        OptionSpec(key: .count, long: "count", short: nil, value: .required(placeholder: "N"),
                   summary: "with --every, N occurrences in all", expected: "a count: a whole number from 1 to \(largestEventCount)"),
        OptionSpec(key: .ending, long: "until", short: nil, value: .required(placeholder: "DATE"),
                   summary: "with --every, the last day it repeats on; without, the last day of an all-day event",
                   expected: "a DATE as for the date operand"),
        OptionSpec(key: .location, long: "location", short: nil, value: .required(placeholder: "TEXT"),
                   summary: "where", expected: "a text without control characters"),
        OptionSpec(key: .details, long: "description", short: nil, value: .required(placeholder: "TEXT"),
                   summary: "a longer text (line breaks allowed)", expected: "a text without control characters other than line breaks"),
        OptionSpec(key: .occurrence, long: "occurrence", short: nil, value: .required(placeholder: "DATE"),
                   summary: "only the occurrence on DATE of a recurring event (edit: an override; delete: an EXDATE)",
                   expected: "a DATE on which the event occurs"),
        OptionSpec(key: .to, long: "to", short: nil, value: .required(placeholder: "CALENDAR"),
                   summary: "the calendar: a configured name, or the path of an .ics file or a directory (vdir)",
                   expected: "a configured calendar, an .ics file or a directory"),
    ]
}
