import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalPager
import InfCalPTY
import Testing

/// The day view's writes at a real pseudo-terminal, 80x24: `+` adds an event on the
/// selected day, `e` changes the highlighted one's time and summary, `d` deletes it after a
/// y/n question; each checked in the calendar file afterwards, as `infcal add`, `edit` and
/// `delete` write it (the same code). The file holds a daily event and a meeting on
/// 2024-02-15, the pager's today.
@Suite struct PagerWriteEndToEndTests {
    typealias P = PagerEndToEndTests

    /// A calendar file and a config file naming it as the default calendar.
    final class Home {
        let root: URL
        var file: URL { root.appendingPathComponent("home.ics") }
        static let original = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:daily@example.org\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240201T080000Z\r\n"
            + "DTEND:20240201T081500Z\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Daily\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:standup@example.org\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240215T100000Z\r\n"
            + "DTEND:20240215T103000Z\r\nSUMMARY:Standup\r\nX-KEPT:as it was\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-pagerwrite-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Data(Self.original.utf8).write(to: file)
            try "[events home]\npath = \(file.path)\ndefault = yes\n".write(to: root.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }

        var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        /// The pager on February 2024 with the day view of the 15th open.
        func openDay() throws -> PseudoTerminalSession {
            // The writes read the config file the pager's --config names.
            let session = try P.start(["--config", root.appendingPathComponent("config").path], environment: MonthPageEndToEndTests.utf8.merging([
                "HOME": root.path,
                "XDG_DATA_HOME": root.appendingPathComponent("data").path]) { $1 })
            try session.send("\r")
            try #require(session.waitFor { $0.contains("Thursday 15 February 2024") && $0.contains("Standup") }, "\(session.screen.text)")
            return session
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static func status(_ screen: TerminalScreen) -> String { screen.line(screen.rows - 1) }

    @Test func plusAddsAnEventOnTheSelectedDay() throws {
        let home = try Home()
        let session = try home.openDay()
        try session.send("l+")
        #expect(session.waitFor { $0.contains("Friday 16 February 2024") && Self.status($0).hasPrefix("add (TIME[-TIME] SUMMARY):") },
                "\(session.screen.text)")
        try session.send("14:00-15:15 Coffee with Ana")
        #expect(session.waitFor { Self.status($0).hasSuffix("Coffee with Ana") })
        let before = WrittenFiles.Snapshot(home.file)
        try session.send("\r")
        // The page repaints with the event, and the status line says what was added.
        #expect(session.waitFor { $0.contains("14:00-15:15  Coffee with Ana") && Self.status($0).contains("Coffee with Ana") },
                "\(session.screen.text)")
        if let report = try WrittenFiles.check(home.file, since: before) { #expect(report.added.count == 1 && report.touched.count == 1) }
        let text = home.text
        // Inserted before the last END:VCALENDAR, every old byte kept; TZ=UTC writes UTC times.
        #expect(text.hasPrefix(String(Home.original.dropLast("END:VCALENDAR\r\n".count))), "\(text)")
        #expect(text.contains("SUMMARY:Coffee with Ana\r\n") && text.contains("DTSTART:20240216T140000Z\r\n")
                && text.contains("DTEND:20240216T151500Z\r\n"), "\(text)")
        // A bad time is the command's usage error, on the status line, and nothing is written.
        try session.send("+25:00 Late\r")
        #expect(session.waitFor { Self.status($0).contains("25:00") }, "\(session.screen.text)")
        #expect(home.text == text)
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test func eChangesTheHighlightedEventsTimeAndSummary() throws {
        let home = try Home()
        let session = try home.openDay()
        // j: from Daily (08:00) to Standup; e offers its time and summary to change.
        try session.send("je")
        #expect(session.waitFor { Self.status($0) == "change (TIME[-TIME] SUMMARY): 10:00-10:30 Standup" }, "\(session.screen.text)")
        try session.send([0x15])
        let before = WrittenFiles.Snapshot(home.file)
        try session.send("11:00-11:45 Standup moved\r")
        #expect(session.waitFor { $0.contains("11:00-11:45  Standup moved") }, "\(session.screen.text)")
        if let report = try WrittenFiles.check(home.file, since: before) { #expect(report.changed == ["standup@example.org"] && report.touched.count == 1) }
        let text = home.text
        #expect(text.contains("DTSTART:20240215T110000Z\r\n") && text.contains("DTEND:20240215T114500Z\r\n")
                && text.contains("SUMMARY:Standup moved\r\n") && text.contains("SEQUENCE:1\r\n"), "\(text)")
        // What infcal does not change stays: the other event, and the X- property.
        #expect(text.contains("X-KEPT:as it was\r\n") && text.contains("RRULE:FREQ=DAILY\r\nSUMMARY:Daily\r\n"), "\(text)")
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    @Test func dDeletesTheHighlightedEventAfterAYesAndOneOccurrenceOfARecurringOne() throws {
        let home = try Home()
        let session = try home.openDay()
        try session.send("jd")
        #expect(session.waitFor { Self.status($0).hasPrefix("delete '10:00-10:30 Standup'? (y or n)") }, "\(session.screen.text)")
        try session.send("n")
        #expect(session.waitFor { Self.status($0).hasPrefix("nothing deleted") })
        #expect(home.text == Home.original)
        let before = WrittenFiles.Snapshot(home.file)
        try session.send("dy")
        #expect(session.waitFor { !$0.contains("Standup") && $0.contains("Daily") }, "\(session.screen.text)")
        #expect(!home.text.contains("standup@example.org"))
        if let report = try WrittenFiles.check(home.file, since: before) { #expect(report.removed == ["standup@example.org"] && report.touched.count == 1) }
        let beforeOne = WrittenFiles.Snapshot(home.file)
        // The daily event: that day's occurrence goes (an EXDATE), the others stay.
        try session.send("d")
        #expect(session.waitFor { Self.status($0).hasPrefix("delete '08:00-08:15 Daily'? (y or n)") }, "\(session.screen.text)")
        try session.send("y")
        #expect(session.waitFor { !$0.contains("Daily") && Self.status($0).contains("one occurrence") }, "\(session.screen.text)")
        #expect(home.text.contains("EXDATE:20240215T080000Z\r\n"), "\(home.text)")
        if let report = try WrittenFiles.check(home.file, since: beforeOne) { #expect(report.changed == ["daily@example.org"] && report.touched.count == 1) }
        try session.send("l")
        #expect(session.waitFor { $0.contains("Friday 16 February 2024") && $0.contains("Daily") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }

    /// `e` on an event whose UID holds a right-to-left override, an ESC and a tab, in a file
    /// whose directory holds an OSC 52 sequence: the day view hands the UID on escaped, the
    /// edit finds it, and the status line shows the UID and the path escaped (a raw ESC would
    /// have driven the terminal, not shown as text).
    @Test func eOnAnEventWithAHostileUIDIsSaidInert() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-pagerwrite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("x\u{1B}]52;c;aGk=\u{07}y\u{202E}z")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("cal.ics")
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\nBEGIN:VEVENT\r\nUID:a\u{202E}b\u{1B}c\td\r\n"
                  + "DTSTAMP:20240101T000000Z\r\nDTSTART:20240215T100000Z\r\nDTEND:20240215T103000Z\r\nSUMMARY:Hostile\r\n"
                  + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8).write(to: file)
        let before = WrittenFiles.Snapshot(file)
        let session = try P.start(["--events", file.path], columns: 200, environment: MonthPageEndToEndTests.utf8.merging([
            "HOME": root.path, "XDG_CONFIG_HOME": root.appendingPathComponent("none").path]) { $1 })
        try session.send("\r")
        try #require(session.waitFor { $0.contains("Thursday 15 February 2024") && $0.contains("Hostile") }, "\(session.screen.text)")
        try session.send("e")
        #expect(session.waitFor { Self.status($0).hasPrefix("change (TIME[-TIME] SUMMARY): 10:00-10:30 Hostile") }, "\(session.screen.text)")
        try session.send([0x15])
        try session.send("10:00-10:30 Tamed\r")
        let said = "changed a\\u{202e}b\\x1bc\\td in " + root.path + "/x\\x1b]52;c;aGk=\\x07y\\u{202e}z/cal.ics"
        #expect(session.waitFor { Self.status($0).hasPrefix(said) }, "\(Self.status(session.screen))")
        #expect(session.waitFor { $0.contains("Tamed") }, "\(session.screen.text)")
        if let report = try WrittenFiles.check(file, since: before) { #expect(report.changed == ["a\u{202E}b\u{1B}c\td"]) }
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
    }
}
