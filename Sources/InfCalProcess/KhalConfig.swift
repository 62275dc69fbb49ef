/// A khal configuration file for one vdir, as the tests and the benchmark give khal to compare
/// against: ISO dates, 24-hour times and one time zone, so that its lines can be read back.
public enum KhalConfig {
    /// The file's text: the calendar `name` at `vdir`, the SQLite database at `database`,
    /// local and default time zone `zone`.
    public static func text(name: String, vdir: String, database: String, zone: String) -> String {
        """
        [calendars]
        [[\(name)]]
        path = \(vdir)
        type = calendar
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        local_timezone = \(zone)
        default_timezone = \(zone)
        [sqlite]
        path = \(database)

        """
    }
}
