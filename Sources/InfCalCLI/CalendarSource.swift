import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// One calendar of events a run reads: a `[events NAME]` section of the config file, or a
/// path given by `--events` or `INFCAL_EVENTS` (those have no name).
public struct CalendarSource: Equatable, Sendable {
    /// Where the calendar's data lives.
    public enum Location: Equatable, Sendable {
        /// A `.ics` file, a directory of them, or `-` (standard input); `~` already expanded.
        case path(String)
        /// A subscription or a CalDAV collection, read from its cached copy.
        case url(String)
    }

    /// When a subscription's cached copy is fetched again.
    public enum Refresh: Equatable, Sendable {
        /// When the copy is older than this many seconds.
        case after(seconds: Int)
        /// Only on `--refresh`.
        case never
    }

    /// The name the user gave it (`[events work]`), shown with its events and used by `--only`
    /// and `--hide`; nil for a source of `--events` or `INFCAL_EVENTS`.
    public var name: String?
    public var location: Location
    /// The colour its events are shown in; nil: the calendar's own COLOR, if any.
    public var color: CalendarColor?
    /// `readonly = yes`: infcal never writes into it.
    public var readonly: Bool
    /// `default = yes`: the calendar new events go to.
    public var isDefault: Bool
    /// How a server's calendar authenticates (`auth =`).
    public enum Authentication: String, Equatable, Sendable, CaseIterable {
        case basic, digest, bearer
    }

    /// The user to authenticate as (a server's calendar).
    public var username: String?
    /// A command (an argv: program and arguments, no shell) whose first line of output is the
    /// password; never the password itself.
    public var passwordCommand: [String]?
    /// A command (an argv) whose first line of output is a bearer token (`token-command =`).
    public var tokenCommand: [String]?
    /// The scheme `auth =` forces; nil: the server's challenge chooses.
    public var authentication: Authentication?
    public var refresh: Refresh
    /// The longest a whole fetch may take, in seconds.
    public var timeout: Int
    /// `calendar =`: of the calendars a CalDAV account's URL names, the one this calendar is
    /// (its display name, or its path on the server), shown under the section's own name.
    public var collection: String?

    /// A subscription's copy is fetched again after an hour unless `refresh` says otherwise.
    public static let defaultRefresh = Refresh.after(seconds: 3600)
    /// Seconds a fetch may take unless `timeout` says otherwise.
    public static let defaultTimeout = 15

    public init(name: String?, location: Location, color: CalendarColor? = nil, readonly: Bool = false,
                isDefault: Bool = false, username: String? = nil, passwordCommand: [String]? = nil,
                refresh: Refresh = CalendarSource.defaultRefresh, timeout: Int = CalendarSource.defaultTimeout) {
        self.name = name
        self.location = location
        self.color = color
        self.readonly = readonly
        self.isDefault = isDefault
        self.username = username
        self.passwordCommand = passwordCommand
        self.refresh = refresh
        self.timeout = timeout
    }

    /// A source named by `--events` or `INFCAL_EVENTS`.
    public static func unnamed(path: String) -> CalendarSource {
        CalendarSource(name: nil, location: .path(path))
    }

    /// The path, for a source on the disk.
    public var path: String? {
        if case .path(let path) = location { return path }
        return nil
    }
}
