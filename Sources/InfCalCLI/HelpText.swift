import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The `--help` text, built from the option table.
public enum HelpText {
    public static let version = "infcal 0.1.0"

    /// One option as the help lists it: `-c, --columns N|auto`.
    static func synopsis(of spec: OptionSpec) -> String {
        let names = (spec.short.map { "-\($0), " } ?? "    ") + spec.flag
        switch spec.value {
        case .none: return names
        case .required(let placeholder): return "\(names) \(placeholder)"
        case .optional(let placeholder, _): return "\(names)[=\(placeholder)]"
        }
    }

    /// `text` broken into lines of at most `width` characters, at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// The options of `specs` as the help lists them: synopsis, then the summary wrapped to
    /// fit eighty columns.
    static func optionLines(_ specs: [OptionSpec]) -> [String] {
        let rows = specs.map { (synopsis(of: $0), $0.summary) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { row in
            wrap(row.1, width: 80 - width - 4).enumerated().map { index, line in
                "  " + (index == 0 ? row.0 : "").padding(toLength: width, withPad: " ", startingAt: 0) + "  " + line
            }.joined(separator: "\n")
        }
    }

    /// The whole help text, ending in a newline.
    public static var text: String {
        let options = optionLines(OptionSpec.all)
        return """
        Usage: infcal [OPTION]... [[DAY] MONTH] YEAR
          or:  infcal add|edit|delete [OPTION]... (infcal add --help says more)
          or:  infcal check [OPTION]... (what is wrong in the calendars; check --help)
        A calendar whose months never run out: month grids in the classic cal layout,
        streamed forward or backward until a bound.

        As cal: infcal 2024 prints the year 2024; infcal 3 2024 (or march 2024, mar
        2024, or a month name in the locale) prints March 2024; infcal 15 3 2024 also
        highlights the 15th. A lone number is a year. These print even at a terminal.

        Options:
        \(options.joined(separator: "\n"))

        DATE is YYYY-MM-DD, YYYY-MM (its first day, or its last for --until), YYYY (the
        same), today, or +N/-N (N months after or before this month). Dates are
        Gregorian from 1582-10-15 and Julian before, whatever --calendar says;
        years are astronomical (0000 is 1 BC, -0043-03 is March 44 BC). With
        --calendar, months start at the calendar's month that holds the date.

        -1, -3, -n, -Y, -S, -A and -B print a fixed run of months around the date
        (--from, DAY MONTH YEAR or today), three a row as cal does; --forward and
        --backward stream from it until N months or a bound. A value is written
        --opt=VALUE or --opt VALUE (-c3 or -c 3); [=VALUE] marks an optional one.
        Without --from, --forward starts at --since and --backward at --until.

        With no --forward, --backward or --year, infcal pages through months at a
        terminal (as --paged; press ? there for the keys) and streams forward without
        end into a pipe or file (infcal | less). With TERM dumb or unset it prints the
        --from month at a terminal instead, and --paged is refused. The pager opens on
        the month page, one month filling the screen; v cycles it, the strip of
        compact grids and the year page. --wall prints month pages into a file.

        Environment: LC_ALL, then LC_TIME, then LANG name the locale (C or POSIX:
        English, Sunday first); a UTF-8 codeset in LC_ALL, LC_CTYPE or LANG draws
        the month page with box-drawing lines; NO_COLOR (set and not empty) and TERM
        (unset or dumb) turn off --color auto; COLUMNS is the width --columns auto
        and --wall assume when output is not a terminal; TZ decides which day is
        today and on which day an event falls; INFCAL_EVENTS lists event files and
        directories, colon-separated, when no --events is given; XDG_CACHE_HOME (else
        HOME/.cache) holds infcal/, the parsed-event cache.

        Config file: --config PATH, else INFCAL_CONFIG, else
        $XDG_CONFIG_HOME/infcal/config (default ~/.config/infcal/config). In
        [options], any long option is a key (monday = yes, locale = de_DE); the
        command line wins, and --no-OPTION (--no-monday) turns off the file's value.
        Each [events NAME] is a calendar: path = or url =, color = (a name, 0-255 or
        #rrggbb; COLORTERM truecolor or 24bit shows #rrggbb as is), readonly,
        default, username, password-command, token-command, auth (basic, digest or
        bearer), refresh, timeout, calendar. Its events show in every view, with its
        name and colour; --only and --hide choose calendars.

        infcal add [DATE] [TIME[-TIME]] SUMMARY... adds an event (to the default
        calendar, else $XDG_DATA_HOME/infcal/calendar.ics, which every view then
        reads); infcal edit UID and delete UID change one; --agenda --uid shows UIDs.
        infcal check lists what is wrong in every calendar (duplicate UIDs, events
        that cannot be read, unknown zones, ...), file by file, and writes nothing.

        Exit status: 0 success (also when the reader of the output goes away),
        1 runtime error (such as a failed write), 64 usage error, 65 events skipped
        with --strict (or errors infcal check found), 66 an events file missing or
        unreadable, 77 a calendar infcal may not write, 78 a config file missing
        (when named), unreadable or wrong.

        """
    }
}
