import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The variables that choose the local zone, which the C library and Foundation read
/// themselves: Foundation's time zone code traps on a `TZ` that is not UTF-8, so the terminal
/// layer removes a malformed value before Foundation starts (it then counts as unset, UTC).
public enum ZoneSetting {
    /// `TZ` (a zone name, `:name` or a POSIX rule) and `TZDIR` (where zone files are).
    public static let variables = ["TZ", "TZDIR"]

    /// The longest value kept: no zone name or POSIX rule comes near it.
    static let maximumLength = 255

    /// Whether `value` of the variable `name` may be handed to the libraries: printable ASCII
    /// (no spaces) of at most `maximumLength` bytes for `TZ`, empty included (UTC, as POSIX
    /// says); an absolute path of printable characters for `TZDIR`.
    public static func isWellFormed(_ value: String, variable name: String) -> Bool {
        if name == "TZDIR" {
            return value.hasPrefix("/") && value.utf8.count <= 4096
                && !value.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{FFFD}" }
        }
        return value.utf8.count <= maximumLength && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
