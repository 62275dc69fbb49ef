import InfCalModel

/// One thing `infcal check` found in a calendar: where it is, a stable name for what it is,
/// and what it means in words.
public struct CheckFinding: Equatable, Sendable {
    /// What was found: a stable machine name (`--json`'s `kind`) and whether it fails the check.
    public enum Kind: String, CaseIterable, Sendable {
        /// The same UID (and RECURRENCE-ID) twice in one calendar: in one file or in two.
        case duplicateUID = "duplicate-uid"
        /// One UID in two files of a calendar, not as copies: the series in one, an occurrence
        /// in the other (a CalDAV server and vdirsyncer want them in one resource).
        case splitUID = "split-uid"
        /// One UID in two calendars (an invitation kept in both, say): milder.
        case duplicateUIDAcrossCalendars = "duplicate-uid-across-calendars"
        /// A VEVENT, VTODO or VJOURNAL without UID.
        case missingUID = "missing-uid"
        /// A VEVENT without DTSTART (the reader skips it).
        case missingStart = "missing-dtstart"
        /// An event the reader skipped, with its reason.
        case skippedEvent = "skipped-event"
        /// A malformed content line the parser left out.
        case skippedLine = "skipped-line"
        /// A structural error the reader read past (a BEGIN without END, an END matching nothing).
        case structure = "structure"
        /// A TZID neither the file's VTIMEZONEs nor the zone database know (read as UTC).
        case unknownZone = "unknown-tzid"
        /// An RRULE whose pattern matches no date after DTSTART (`BYMONTH=2;BYMONTHDAY=30`).
        case ruleNeverRecurs = "rule-never-recurs"
        /// An event whose every occurrence its EXDATEs remove.
        case neverOccurs = "never-occurs"
        /// A VALARM the reader left out or read with a guess.
        case alarm = "alarm"
        /// Something else the reader read with a guess (a rule's part it ignored).
        case note = "note"
        /// A file with no VCALENDAR and no VEVENT at all.
        case notICalendar = "not-icalendar"
        /// A file larger than infcal reads (`InputLimits.fileBytes`).
        case tooLarge = "too-large"
        /// A file that cannot be read (permissions).
        case unreadable = "unreadable"
        /// A FIFO, socket or device where a calendar's files are.
        case specialFile = "special-file"
        /// The temporary file of a write that was killed (`.NAME.infcal-PID-N.tmp`).
        case staleTemporary = "stale-temporary"
        /// A calendar directory without any `.ics` file.
        case emptyDirectory = "empty-directory"
        /// A subscription or CalDAV calendar with no copy fetched yet.
        case notFetched = "not-fetched"

        /// Whether it fails the check (exit 65): every kind but the milder ones, which are
        /// listed as warnings.
        public var isError: Bool {
            switch self {
            case .duplicateUIDAcrossCalendars, .alarm, .note, .emptyDirectory, .notFetched: return false
            default: return true
            }
        }

        /// `error` or `warning`, as the output says it.
        public var severity: String { isError ? "error" : "warning" }
    }

    /// The calendar's name: the configured one, else its path.
    public var calendar: String
    /// The file (or, for a calendar's own finding, the directory or URL) it is in.
    public var file: String
    /// The line, from 1; nil for a finding about the whole file.
    public var line: Int?
    public var kind: Kind
    /// What it means, outside text made inert (`InertText`).
    public var message: String
    /// The UID it concerns, as written; nil where none does.
    public var uid: String?

    /// A finding `kind` in `file` of `calendar`, at `line`, with `message` and `uid`.
    public init(calendar: String, file: String, line: Int?, kind: Kind, message: String, uid: String? = nil) {
        self.calendar = calendar
        self.file = file
        self.line = line
        self.kind = kind
        self.message = message
        self.uid = uid
    }
}
