import InfCalModel
import InfCalEvents

/// Which occurrences `--agenda` lists, and how.
public struct AgendaPlan: Equatable, Sendable {
    /// Newest first, from the `--from` day backwards.
    public var backward: Bool
    /// The day (grid day number) the list starts at: occurrences from it on (backward: up to it).
    public var startDay: Int
    /// Months to walk from the `--from` month, the first included; nil: until a bound.
    public var months: Int?
    /// The terminal width lines are cut to; nil in a pipe (nothing is cut).
    public var width: Int?
    /// `--uid`: each line ends in a tab and the event's UID (and is not cut).
    public var showsUID = false
    /// `--days`: under day headings, an occurrence of several days under each of its days.
    public var byDay = false

    /// Months the agenda shows at a terminal when neither a count nor a bound ends it.
    public static let terminalMonths = 12

    public init(backward: Bool, startDay: Int, months: Int?, width: Int?) {
        self.backward = backward
        self.startDay = startDay
        self.months = months
        self.width = width
    }
}
