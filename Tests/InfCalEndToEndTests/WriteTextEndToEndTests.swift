import Foundation
import InfCalProcess
import Testing

/// What `edit` and `delete` write and say, run as a user runs them: an override's SEQUENCE
/// above its series' (RFC 5545 3.8.7.4), DTSTAMP in UTC (3.8.7.2) whatever the zone and the
/// form the file had, each file checked by `WrittenFiles`; and every confirmation inert: a
/// path holding an OSC 52 sequence and a UID with U+202E, ESC and a tab are printed escaped,
/// and the UID `--agenda --uid` prints is taken back by `edit` and `delete`.
@Suite(.serialized) struct WriteTextEndToEndTests {
    typealias W = WriteCommandEndToEndTests

    static func calendar(_ events: [[String]]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN"]
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// The SEQUENCE lines of the components with `uid` and a RECURRENCE-ID `id` ("" for the
    /// master), in file order.
    static func sequences(_ file: URL, id: String) -> [String] {
        let text = String(decoding: W.bytes(file), as: UTF8.self)
        return text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().filter { block in
            id.isEmpty ? !block.contains("RECURRENCE-ID") : block.contains("RECURRENCE-ID:" + id + "\r\n")
        }.map { block in block.split(separator: "\r\n").first { $0.hasPrefix("SEQUENCE:") }.map(String.init) ?? "-" }
    }

    /// A new override is a revision of the occurrence it overrides: its SEQUENCE is one above
    /// the series' (3 here: 4, not the master's 3, as before); changed again, one above its
    /// own; an override below its master's (1 against 5) changed goes above the master (6).
    @Test func anOverridesSequenceIsAboveItsSeries() throws {
        let home = try W.scratch("sequence")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        try Data(Self.calendar([
            ["UID:s", "DTSTAMP:20240101T000000Z", "SEQUENCE:3", "DTSTART:20240304T100000Z", "DTEND:20240304T110000Z",
             "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Weekly"],
            ["UID:t", "DTSTAMP:20240101T000000Z", "SEQUENCE:5", "DTSTART:20240305T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Other"],
            ["UID:t", "DTSTAMP:20240101T000000Z", "SEQUENCE:1", "RECURRENCE-ID:20240312T100000Z", "DTSTART:20240312T120000Z", "SUMMARY:Old"],
        ]).utf8).write(to: file)
        let first = try W.write(["edit", "--to", file.path, "s", "--occurrence", "2024-03-11", "--summary", "Once"], on: file, home: home)
        #expect(first.run.status == 0, "\(first.run.stderr)")
        if let report = first.report { #expect(report.added == ["s"] && report.touched == ["s"]) }
        #expect(Self.sequences(file, id: "20240311T100000Z") == ["SEQUENCE:4"])
        #expect(Self.sequences(file, id: "").prefix(1) == ["SEQUENCE:3"], "the master is as it was")
        let again = try W.write(["edit", "--to", file.path, "s", "--occurrence", "2024-03-11", "--summary", "Twice"], on: file, home: home)
        #expect(again.run.status == 0, "\(again.run.stderr)")
        if let report = again.report { #expect(report.changed == ["s"] && report.touched == ["s"]) }
        #expect(Self.sequences(file, id: "20240311T100000Z") == ["SEQUENCE:5"])
        let old = try W.write(["edit", "--to", file.path, "t", "--occurrence", "2024-03-12", "--summary", "New"], on: file, home: home)
        #expect(old.run.status == 0, "\(old.run.stderr)")
        if let report = old.report { #expect(report.changed == ["t"] && report.touched == ["t"]) }
        #expect(Self.sequences(file, id: "20240312T100000Z") == ["SEQUENCE:6"])
        // The instances as recurring-ical-events reads them: the overrides in their places.
        if W.python != nil {
            let instances = try W.recurringEvents(file)
            #expect(instances.contains("2024-03-11T11:00 Twice") && instances.contains("2024-03-12T13:00 New"), "\(instances)")
        }
    }

    /// DTSTAMP (and LAST-MODIFIED) are written in UTC whatever the user's zone (UTC+14 here)
    /// and whatever form the file had (floating, with a TZID): the stamp is the time of the
    /// run in UTC, not on the local clock.
    @Test func dtstampIsUTC() throws {
        let home = try W.scratch("dtstamp")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        try Data(Self.calendar([
            ["UID:floating", "DTSTAMP:20240101T000000", "DTSTART:20240304T100000Z", "SUMMARY:Floating stamp"],
            ["UID:zoned", "DTSTAMP;TZID=Europe/Berlin:20240101T000000", "DTSTART:20240305T100000Z", "SUMMARY:Zoned stamp"],
        ]).utf8).write(to: file)
        let started = Date()
        for uid in ["floating", "zoned"] {
            let edit = try W.write(["edit", "--to", file.path, uid, "--summary", "Stamped"], on: file, home: home, zone: "Pacific/Kiritimati")
            #expect(edit.run.status == 0, "\(edit.run.stderr)")
            if let report = edit.report { #expect(report.changed == [uid] && report.touched == [uid]) }
        }
        let added = try W.write(["add", "--to", file.path, "2024-03-06", "10:00", "New"], on: file, home: home, zone: "Pacific/Kiritimati")
        #expect(added.run.status == 0, "\(added.run.stderr)")
        let ended = Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamps = String(decoding: W.bytes(file), as: UTF8.self).split(separator: "\r\n").filter { $0.hasPrefix("DTSTAMP") }
        #expect(stamps.count == 3)
        for stamp in stamps {
            let date = stamp.hasPrefix("DTSTAMP:") ? formatter.date(from: String(stamp.dropFirst(8))) : nil
            #expect(date.map { $0 >= started.addingTimeInterval(-2) && $0 <= ended.addingTimeInterval(2) } == true,
                    "\(stamp) is not the time of the run in UTC (\(started) to \(ended))")
        }
    }

    /// A UID with a right-to-left override, an ESC and a tab, in a calendar whose directory
    /// holds an OSC 52 sequence (it writes the terminal's clipboard) and a right-to-left
    /// override: `--agenda --uid` (by start and by day) prints the UID escaped, edit and
    /// delete take that form back, and what they print holds no control character and no
    /// bidirectional control, the path and the UID escaped the same way.
    @Test func confirmationsAreInertAndTheUIDComesBack() throws {
        let home = try W.scratch("inert")
        defer { try? FileManager.default.removeItem(at: home) }
        let directory = home.appendingPathComponent("x\u{1B}]52;c;aGk=\u{07}y\u{202E}z")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("cal.ics")
        let uid = "a\u{202E}b\u{1B}c\td\\e"
        let escapedUID = "a\\u{202e}b\\x1bc\\td\\\\e"
        let escapedPath = home.path + "/x\\x1b]52;c;aGk=\\x07y\\u{202e}z/cal.ics"
        try Data(Self.calendar([
            ["UID:" + uid, "DTSTAMP:20240101T000000Z", "DTSTART:20240304T100000Z", "DTEND:20240304T110000Z", "RRULE:FREQ=DAILY;COUNT=3",
             "SUMMARY:Hostile"],
            ["UID:plain@example.org", "DTSTAMP:20240101T000000Z", "DTSTART:20240305T100000Z", "SUMMARY:Plain"],
        ]).utf8).write(to: file)
        func isInert(_ text: String) -> Bool {
            !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        }
        for days in [[], ["--days"]] {
            let agenda = try W.infcal(["--agenda", "--uid", "--events", file.path, "--from", "2024-03", "--forward", "1", "--today", "2024-02-15"]
                                      + days, home: home)
            #expect(agenda.status == 0, "\(agenda.stderr)")
            #expect(isInert(agenda.stdout), "\(agenda.stdout.debugDescription)")
            let uids = agenda.stdout.split(separator: "\n").filter { $0.contains("Hostile") }.map { String($0.split(separator: "\t").last ?? "") }
            #expect(uids == [escapedUID, escapedUID, escapedUID], "\(agenda.stdout)")
        }
        let edit = try W.write(["edit", "--to", file.path, escapedUID, "--occurrence", "2024-03-05", "--summary", "Changed"], on: file, home: home)
        #expect(edit.run.status == 0, "\(edit.run.stderr)")
        #expect(edit.run.stdout == "changed \(escapedUID) in \(escapedPath)\n", "\(edit.run.stdout.debugDescription)")
        if let report = edit.report { #expect(report.added == [uid] && report.touched == [uid]) }
        // An error names both the same way, on standard error.
        let missing = try W.infcal(["delete", "--to", file.path, "no\\u{202e}such"], home: home)
        #expect(missing.status == 1 && isInert(missing.stderr) && missing.stderr.contains("no\\u{202e}such"), "\(missing.stderr.debugDescription)")
        let delete = try W.write(["delete", "--to", file.path, escapedUID], on: file, home: home)
        #expect(delete.run.status == 0, "\(delete.run.stderr)")
        #expect(delete.run.stdout == "deleted \(escapedUID) from \(escapedPath)\n", "\(delete.run.stdout.debugDescription)")
        if let report = delete.report { #expect(report.removed == [uid] && report.touched == [uid]) }
        #expect(!String(decoding: W.bytes(file), as: UTF8.self).contains("Hostile"))
        #expect(String(decoding: W.bytes(file), as: UTF8.self).contains("UID:plain@example.org\r\n"))
    }

    /// A UID holding a backslash is printed with it doubled and taken back; typed as the
    /// file has it (one backslash, no escape), it is found too.
    @Test func aUIDWithABackslashIsFoundEitherWay() throws {
        let home = try W.scratch("backslash")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("cal.ics")
        try Data(Self.calendar([["UID:win\\path", "DTSTAMP:20240101T000000Z", "DTSTART:20240304T100000Z", "SUMMARY:Backslash"]]).utf8)
            .write(to: file)
        let agenda = try W.infcal(["--agenda", "--uid", "--events", file.path, "--from", "2024-03", "--forward", "1", "--today", "2024-02-15"],
                                  home: home)
        #expect(agenda.stdout.hasSuffix("\twin\\\\path\n"), "\(agenda.stdout)")
        let printed = try W.write(["edit", "--to", file.path, "win\\\\path", "--summary", "By the printed form"], on: file, home: home)
        #expect(printed.run.status == 0 && printed.run.stdout.hasPrefix("changed win\\\\path in "), "\(printed.run.stdout) \(printed.run.stderr)")
        let typed = try W.write(["edit", "--to", file.path, "win\\path", "--summary", "As typed"], on: file, home: home)
        #expect(typed.run.status == 0, "\(typed.run.stderr)")
        if let report = typed.report { #expect(report.changed == ["win\\path"]) }
    }
}
