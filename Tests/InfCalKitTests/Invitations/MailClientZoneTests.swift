import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// Zones as mail clients write them (issue 35.3): Outlook's TZID is a display name with its
/// commas escaped in the VTIMEZONE (a TEXT value, RFC 5545 §3.8.3.1) and quoted in the TZID
/// parameter (§3.2.19, §3.1); Windows names and display names without a VTIMEZONE go through
/// CLDR's windowsZones.xml. Times are checked in UTC against Python's icalendar reading the
/// same fixtures (Tests/Oracles/ical_times.py), and the table against icalendar's copy of CLDR.
@Suite struct MailClientZoneTests {
    // MARK: The reader

    /// The one VEVENT of `text` read, with the reader's notes.
    static func read(_ text: String) -> EventFile {
        EventReader.read(Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    /// Outlook's own shape: the TZID escaped in the VTIMEZONE and quoted in DTSTART. A 17:00
    /// Berlin meeting is 16:00 UTC in March (before the change of 30 March 2025), and nothing is
    /// guessed; before the fix it was read as UTC (17:00) with a warning.
    @Test func outlooksDisplayNameMatchesItsOwnVTimeZone() throws {
        let file = EventReader.read(InvitationFixtures.bytes("outlook-request.ics"))
        #expect(file.notes.isEmpty, "\(file.notes)")
        let event = try #require(file.events.first)
        let zone = try #require(event.zone)
        #expect(InvitationFixtures.text(zone.utc(ofLocal: event.start.seconds)) == "20250311T160000Z")
        #expect(event.duration == 3600)
    }

    /// The zone's rules are the file's VTIMEZONE, not a guess from the name: a VTIMEZONE named
    /// like Berlin's display name but at +03:00 all year gives +03:00.
    @Test func theFilesVTimeZoneComesBeforeTheDisplayNameTable() throws {
        let file = Self.read("""
        BEGIN:VCALENDAR
        BEGIN:VTIMEZONE
        TZID:(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rome\\, Stockholm\\, Vienna
        BEGIN:STANDARD
        DTSTART:16010101T000000
        TZOFFSETFROM:+0300
        TZOFFSETTO:+0300
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        UID:a
        DTSTART;TZID="(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna":20250311T170000
        END:VEVENT
        END:VCALENDAR
        """)
        let event = try #require(file.events.first)
        #expect(InvitationFixtures.text(event.zone?.utc(ofLocal: event.start.seconds) ?? 0) == "20250311T140000Z")
        #expect(file.notes.isEmpty)
    }

    /// Without a VTIMEZONE, a display name goes through CLDR's table: Outlook 2003 wrote
    /// `(GMT+01.00) Amsterdam / Berlin / ...`; a custom zone's name with commas and colons,
    /// quoted, still finds its VTIMEZONE; a name nothing knows is read as UTC with a warning.
    @Test func displayNamesWithoutVTimeZoneAndCustomNames() throws {
        let legacy = EventReader.read(InvitationFixtures.bytes("outlook-legacy-no-vtimezone.ics"))
        let event = try #require(legacy.events.first)
        #expect(InvitationFixtures.text(event.zone?.utc(ofLocal: event.start.seconds) ?? 0) == "20250311T160000Z")
        #expect(legacy.notes.isEmpty)
        let custom = Self.read("""
        BEGIN:VCALENDAR
        BEGIN:VTIMEZONE
        TZID:Office\\; Pune\\, India: main site
        BEGIN:STANDARD
        DTSTART:19700101T000000
        TZOFFSETFROM:+0530
        TZOFFSETTO:+0530
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        UID:b
        DTSTART;TZID="Office; Pune, India: main site":20250311T100000
        END:VEVENT
        END:VCALENDAR
        """)
        let pune = try #require(custom.events.first)
        #expect(InvitationFixtures.text(pune.zone?.utc(ofLocal: pune.start.seconds) ?? 0) == "20250311T043000Z")
        let unknown = Self.read("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:c\nDTSTART;TZID=\"(UTC+01:00) Atlantis\":20250311T100000\nEND:VEVENT\nEND:VCALENDAR")
        #expect(unknown.notes.count == 1)
    }

    /// Display names as Windows wrote them over the years, against CLDR's comments; a name
    /// that fits two rows as well is no match.
    @Test(arguments: [
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
        ("(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
        ("(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna", "Europe/Berlin"),
        ("(UTC+03:00) Moscow, St. Petersburg, Volgograd", "Europe/Moscow"),
        ("(UTC) Coordinated Universal Time", "Etc/UTC"),
        ("(UTC+00:00) Dublin, Edinburgh, Lisbon, London", "Europe/London"),
        ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"),
        ("(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi", "Asia/Calcutta"),
        ("(UTC+12:45) Chatham Islands", "Pacific/Chatham"),
        ("(UTC+01:00) Amsterdam, Paris", nil),
        ("(UTC+01:00) Atlantis", nil),
        ("W. Europe Standard Time", nil),
        ("(UTC+1) Berlin", nil),
    ] as [(String, String?)])
    func displayNames(name: String, zone: String?) {
        #expect(WindowsZones.iana(forDisplayName: name) == zone)
    }

    /// Every zone of the table is one Foundation knows, and every display name leads back to
    /// its own row.
    @Test func everyRowResolves() {
        for row in WindowsZones.rows {
            #expect(TimeZone(identifier: row.iana) != nil, "\(row.windows): \(row.iana)")
            #expect(WindowsZones.iana(forDisplayName: row.display) == row.iana, "\(row.display)")
        }
        #expect(Set(WindowsZones.rows.map(\.windows)).count == WindowsZones.rows.count)
    }

    /// The Windows names map as CLDR's windowsZones.xml does, in the copy Python's icalendar
    /// carries (an independent transcription of the same file).
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func theWindowsTableIsCLDRs() throws {
        let result = try #require(PythonOracle.run(script: "ical_times.py", ["--windows"]))
        #expect(result.status == 0)
        var theirs: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2 { theirs[String(parts[0])] = String(parts[1]) }
        }
        #expect(theirs.count > 130)
        #expect(theirs == WindowsZones.table)
    }

    /// A parameter value in quotes may hold `:` `;` `,` (RFC 5545 §3.1): the layout that edits
    /// and deletes find TZIDs with reads it whole.
    @Test func theLayoutReadsQuotedParameters() throws {
        let line = try #require(ICalLayout(Array("DTSTART;TZID=\"(UTC+01:00) Amsterdam, Berlin\";X-A=b:20250311T170000\r\n".utf8)).lines.first)
        #expect(line.parameter("TZID") == "(UTC+01:00) Amsterdam, Berlin")
        #expect(line.parameter("X-A") == "b")
        #expect(line.value == "20250311T170000")
        #expect(line.parameter("VALUE") == nil)
    }

    // MARK: Against icalendar

    /// The instances icalendar and recurring_ical_events find in March and April 2025 in every
    /// fixture (times in UTC), against infcal's reader and store; `InvitationTests` compares
    /// each component's own times, cancellations and replies too.
    @Test(.enabled(if: PythonOracle.python != nil, "python3 with icalendar and recurring-ical-events is missing (pip install icalendar recurring-ical-events); skipping"))
    func timesAgreeWithIcalendar() throws {
        for name in InvitationFixtures.calendars {
            let path = InvitationFixtures.directory.appendingPathComponent(name).path
            let result = try #require(PythonOracle.run(script: "ical_times.py", ["--instances", "20250301", "20250501", path]))
            #expect(result.status == 0, "\(name)")
            let lines = result.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            // The instances the views show, against recurring_ical_events (cancelled ones left out by both).
            let file = EventReader.read(InvitationFixtures.bytes(name))
            let store = EventStore(events: file.events, display: .utc)
            let ours = store.occurrences(startingOn: EventFixture.day(2025, 3, 1)..<EventFixture.day(2025, 5, 1))
                .map { "\($0.uid) \(InvitationFixtures.text($0.start))" }.sorted()
            let expected = lines.filter { $0.first == "instance" && !$0[2].hasPrefix("?") }.map { "\($0[1]) \($0[2])" }.sorted()
            if lines.contains(where: { $0.first == "instance" && $0[2].hasPrefix("?") }) {
                // icalendar does not know the zone (Outlook 2003's display name, no VTIMEZONE): CLDR's table says Berlin.
                #expect(ours == ["\(file.events.first?.uid ?? "") 20250311T160000Z"], "\(name)")
            } else {
                #expect(ours == expected, "\(name)")
            }
        }
    }
}
