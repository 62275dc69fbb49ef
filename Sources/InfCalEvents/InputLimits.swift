import InfCalModel

/// The bounds on what one run reads and expands, whatever a file says, so that no file can
/// make infcal hang or exhaust memory. The man page's LIMITS section states each; a
/// documentation test binds it to these values.
public enum InputLimits {
    /// The most bytes read from one file (or standard input): 64 MiB, some 170,000 events as
    /// calendar programs export them. A larger file is skipped with a warning.
    public static let fileBytes = 64 << 20
    /// The most instances of one event shown on one day of those beginning that day, and of
    /// those still under way from earlier days: a rule denser than this (every minute, every
    /// second), or an event lasting longer than its rule's step many times over, shows the
    /// first ones and says how many more there are.
    public static let instancesPerDay = 48
    /// The most instances of one event shown in one month.
    public static let instancesPerMonth = 500
    /// How deep `--events` walks a directory's subdirectories.
    public static let directoryDepth = 32
    /// How long a FIFO named with `--events` may wait for its writer, in seconds.
    public static let writerWait: Int32 = 10
    /// How far ahead a rule that follows no short cycle (another RSCALE, a sub-daily rule of
    /// a long INTERVAL) is looked at for an instance before it counts as yielding nothing
    /// more, and how far the pager's search looks: 10,000 Gregorian years, in days.
    public static let farthestLook = 3_652_425
    /// How far from its occurrence an alarm may fire, in seconds (366 days): a relative
    /// TRIGGER farther away is refused, and REPEATs that would reach farther are cut. It
    /// bounds how far around a window its alarms' occurrences are looked for.
    public static let alarmReach = 366 * 86_400
}
