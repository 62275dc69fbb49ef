import InfCalModel

// `infcal check`: what is wrong with the calendars, file by file and line by line, found from
// one parse of each file (the reader's own: its skipped events, problems and notes, and the
// components it reads them from) and compared across the files of a calendar and across
// calendars. Pure: the terminal layer reads the files and says what it could not read.

/// One file of a calendar as the check sees it: what it holds that other files can clash with
/// (its components' UIDs), and what the file shows on its own.
public struct CheckedFile: Sendable {
    /// The path as shown.
    public let name: String
    /// The components with a UID, in file order.
    let items: [Item]
    /// What the file shows on its own, in file order (a whole-file finding first).
    let own: [Own]

    /// A component with a UID: which occurrence it is (nil for a master), and its line.
    struct Item: Sendable {
        let uid: String
        let recurrence: Recurrence?
        /// The RECURRENCE-ID as written, for messages.
        let recurrenceText: String?
        let line: Int
    }

    /// Which occurrence a RECURRENCE-ID names: a date, a floating time, an instant (a UTC
    /// time, or a zoned one in UTC, so that `TZID=Europe/Berlin:...T100000` and `...T090000Z`
    /// are one), or its text when it is no date or names a zone nothing knows.
    enum Recurrence: Hashable, Sendable {
        case date(Int)
        case floating(Int)
        case instant(Int)
        case text(String)
    }

    /// A finding without its calendar and file.
    struct Own: Sendable {
        let line: Int?
        let kind: CheckFinding.Kind
        let message: String
        var uid: String? = nil
    }

    /// The file `name` with `bytes`: parsed once, read by the reader, and looked over.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        let document = ICalDocument.parse(bytes)
        var look = FileLook(document: document, file: EventReader.read(document))
        look.run()
        items = look.items
        own = look.own
    }

    /// A file that could not be read: `kind` (`tooLarge`, `unreadable`, `specialFile`) and why.
    public init(name: String, failure kind: CheckFinding.Kind, reason: String) {
        self.name = name
        items = []
        own = [Own(line: nil, kind: kind, message: reason)]
    }
}

/// One calendar as the check sees it: its files, and what is wrong beside them.
public struct CheckedCalendar: Sendable {
    /// The configured name, else the path.
    public var name: String
    /// Where it is: a path (a cached copy's, for a subscription) or a URL.
    public var location: String
    public var files: [CheckedFile]
    /// The temporary files killed writes left in its directories.
    public var leftovers: [String] = []
    /// A directory without any `.ics` file.
    public var isEmptyDirectory = false
    /// A subscription or CalDAV calendar whose copy was never fetched.
    public var isNotFetched = false

    /// The calendar `name` at `location` with `files`.
    public init(name: String, location: String, files: [CheckedFile]) {
        self.name = name
        self.location = location
        self.files = files
    }
}

/// The findings of `infcal check`.
public enum CalendarCheck {
    /// Every finding in `calendars`, calendar by calendar (`findingsByCalendar`), in one list.
    public static func findings(_ calendars: [CheckedCalendar]) -> [CheckFinding] {
        findingsByCalendar(calendars).flatMap { $0 }
    }

    /// The findings of each of `calendars`, file by file (in the order given), line by line:
    /// each file's own, duplicate UIDs within a calendar (the later copy is the finding,
    /// naming the first), and UIDs met again in a later calendar (a warning); then the
    /// calendar's own (no copy fetched, no file, temporary files left).
    public static func findingsByCalendar(_ calendars: [CheckedCalendar]) -> [[CheckFinding]] {
        var all: [[CheckFinding]] = []
        // Where each UID was first met, by calendar.
        var earlierCalendars: [String: (calendar: Int, file: String, line: Int)] = [:]
        for (index, calendar) in calendars.enumerated() {
            var result: [CheckFinding] = []
            defer { all.append(result) }
            var perFile = calendar.files.map { file in file.own }
            compareFiles(calendar.files, into: &perFile)
            // UIDs of this calendar met in an earlier one: once each, at their first line here.
            var firstHere: [String: (file: Int, line: Int)] = [:]
            for (fileIndex, file) in calendar.files.enumerated() {
                for item in file.items where firstHere[item.uid] == nil { firstHere[item.uid] = (fileIndex, item.line) }
            }
            for (uid, here) in firstHere.sorted(by: { ($0.value.file, $0.value.line) < ($1.value.file, $1.value.line) }) {
                if let earlier = earlierCalendars[uid] {
                    perFile[here.file].append(CheckedFile.Own(
                        line: here.line, kind: .duplicateUIDAcrossCalendars,
                        message: "UID '\(shown(uid))' is also in calendar '\(InertText.path(calendars[earlier.calendar].name))' "
                            + "(\(InertText.path(earlier.file)):\(earlier.line))",
                        uid: uid))
                } else {
                    earlierCalendars[uid] = (index, calendar.files[here.file].name, here.line)
                }
            }
            for (fileIndex, file) in calendar.files.enumerated() {
                // Whole-file findings first, then by line; findings of one line in the order found.
                let ordered = perFile[fileIndex].enumerated().sorted { a, b in
                    (a.element.line ?? 0, a.offset) < (b.element.line ?? 0, b.offset)
                }.map(\.element)
                for own in ordered {
                    result.append(CheckFinding(calendar: calendar.name, file: file.name, line: own.line, kind: own.kind,
                                               message: own.message, uid: own.uid))
                }
            }
            if calendar.isNotFetched {
                result.append(CheckFinding(calendar: calendar.name, file: calendar.location, line: nil, kind: .notFetched,
                                           message: "no copy fetched yet (infcal --refresh fetches it)"))
            }
            if calendar.isEmptyDirectory {
                result.append(CheckFinding(calendar: calendar.name, file: calendar.location, line: nil, kind: .emptyDirectory,
                                           message: "no .ics file in this directory"))
            }
            for leftover in calendar.leftovers {
                result.append(CheckFinding(calendar: calendar.name, file: leftover, line: nil, kind: .staleTemporary,
                                           message: "the temporary file of a write that was killed (its process is gone); "
                                               + "the next write into this calendar removes it"))
            }
        }
        return all
    }

    /// Duplicate UIDs within each file and across `files`, appended to the findings of the
    /// file they are in (`perFile`): a second copy of a component (same UID and RECURRENCE-ID)
    /// at each copy after the first; a UID that a later file holds again, once for that file,
    /// as a copy when one of its components is one, else as a split.
    static func compareFiles(_ files: [CheckedFile], into perFile: inout [[CheckedFile.Own]]) {
        struct Key: Hashable {
            let uid: String
            let recurrence: CheckedFile.Recurrence?
        }
        var earlierKeys: [Key: (file: Int, line: Int)] = [:]
        var earlierUIDs: [String: (file: Int, line: Int)] = [:]
        for (index, file) in files.enumerated() {
            var keysHere: [Key: Int] = [:]
            var uidsHere: [String] = []
            var seen = Set<String>()
            var clashes: [String: (line: Int, earlier: (file: Int, line: Int))] = [:]
            for item in file.items {
                let key = Key(uid: item.uid, recurrence: item.recurrence)
                if seen.insert(item.uid).inserted { uidsHere.append(item.uid) }
                if let first = keysHere[key] {
                    let what = item.recurrence == nil ? "a second copy of the event" : "a second copy of the same occurrence"
                    perFile[index].append(CheckedFile.Own(
                        line: item.line, kind: .duplicateUID,
                        message: "UID '\(shown(item.uid))'\(occurrence(item)) again in this file (first at line \(first)): \(what)",
                        uid: item.uid))
                    continue
                }
                keysHere[key] = item.line
                if clashes[item.uid] == nil, let earlier = earlierKeys[key] { clashes[item.uid] = (item.line, earlier) }
            }
            for uid in uidsHere {
                guard let earlier = earlierUIDs[uid] else { continue }
                if let clash = clashes[uid] {
                    perFile[index].append(CheckedFile.Own(
                        line: clash.line, kind: .duplicateUID,
                        message: "UID '\(shown(uid))' is also in \(InertText.path(files[clash.earlier.file].name)):\(clash.earlier.line): "
                            + "two files hold the same component",
                        uid: uid))
                } else {
                    let line = file.items.first { $0.uid == uid }?.line
                    perFile[index].append(CheckedFile.Own(
                        line: line, kind: .splitUID,
                        message: "UID '\(shown(uid))' is also in \(InertText.path(files[earlier.file].name)):\(earlier.line): "
                            + "a series and its overrides belong in one file (CalDAV and vdirsyncer take a UID once a calendar)",
                        uid: uid))
                }
            }
            for (key, line) in keysHere where earlierKeys[key] == nil { earlierKeys[key] = (index, line) }
            for item in file.items where earlierUIDs[item.uid] == nil { earlierUIDs[item.uid] = (index, item.line) }
        }
    }

    /// A UID in a message: inert, cut to a line's worth.
    static func shown(_ uid: String) -> String {
        InertText.echo(uid, limit: 60)
    }

    /// ` with RECURRENCE-ID VALUE` for an override, nothing for a master.
    static func occurrence(_ item: CheckedFile.Item) -> String {
        guard let text = item.recurrenceText else { return "" }
        return " and RECURRENCE-ID '\(InertText.echo(text, limit: 40))'"
    }
}
