import Foundation

/// The `--help` text, built from the option table.
public enum HelpText {
    public static let version = "infcal 0.1.0"

    /// One option as the help lists it: `-c, --columns N|auto`.
    static func synopsis(of spec: OptionSpec) -> String {
        let names = (spec.short.map { "-\($0), " } ?? "    ") + spec.flag
        switch spec.value {
        case .none: return names
        case .required(let placeholder): return "\(names) \(placeholder)"
        case .optional(let placeholder, _): return "\(names) [\(placeholder)]"
        }
    }

    /// The whole help text, ending in a newline.
    public static var text: String {
        let rows = OptionSpec.all.map { (synopsis(of: $0), $0.summary) }
        let width = rows.map(\.0.count).max() ?? 0
        let options = rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
        return """
        Usage: infcal [OPTION]...
        A calendar whose months never run out: month grids in the classic cal layout,
        streamed forward or backward until a bound.

        Options:
        \(options.joined(separator: "\n"))

        DATE is YYYY-MM-DD, YYYY-MM (its first day, or its last for --until), YYYY (the
        same), today, or +N/-N (N months after or before this month). Dates are
        Gregorian from 1582-10-15 and Julian before, as the calendar shows them;
        years are astronomical (0000 is 1 BC, -0043-03 is March 44 BC).

        With no --forward or --backward, infcal pages through months at a terminal
        (as --paged; press ? there for the keys) and streams forward without end into
        a pipe or file (infcal | less). With TERM dumb or unset it prints the --from
        month at a terminal instead, and --paged is refused.

        Environment: NO_COLOR (set and not empty: no highlight with --color auto),
        TERM (unset or dumb: no highlight with --color auto), COLUMNS (the width
        --columns auto assumes when output is not a terminal).

        Exit status: 0 success (also when the reader of the output goes away),
        1 runtime error (such as a failed write), 64 usage error.

        """
    }
}
