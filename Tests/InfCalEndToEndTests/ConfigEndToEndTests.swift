import Foundation
import Testing

/// The config file through the built binary, in a temporary XDG_CONFIG_HOME and HOME (never
/// the real ones): named calendars in the views, `--only`/`--hide`, and exit status 78.
@Suite struct ConfigEndToEndTests {
    /// A fresh home with `.config/infcal/config` holding `config` and the calendars
    /// `home` (a directory, a vdir) and `work` (a file).
    func home(_ config: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-config-\(UUID().uuidString)")
        try write(config, to: root.appendingPathComponent(".config/infcal/config"))
        try write("""
            BEGIN:VCALENDAR
            COLOR:turquoise
            BEGIN:VEVENT
            UID:1
            DTSTART;VALUE=DATE:20240305
            SUMMARY:Dentist
            END:VEVENT
            END:VCALENDAR

            """, to: root.appendingPathComponent("cal/home/1.ics"))
        try write("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:2
            DTSTART:20240306T090000Z
            DTEND:20240306T100000Z
            SUMMARY:Standup
            END:VEVENT
            END:VCALENDAR

            """, to: root.appendingPathComponent("cal/work.ics"))
        return root
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let calendars = """
        [options]
        monday = yes

        [events home]
        path = ~/cal/home

        [events work]
        path = ../../cal/work.ics
        color = #ff8800

        """

    func run(_ home: URL, _ arguments: [String], _ extra: [String: String?] = [:]) throws -> BinaryRunner.Result {
        var environment: [String: String?] = ["HOME": home.path, "XDG_CONFIG_HOME": nil]
        for (key, value) in extra { environment[key] = value }
        return try BinaryRunner.run(arguments, environment: environment)
    }

    @Test func everyViewShowsTheConfiguredCalendars() throws {
        let root = try home(Self.calendars)
        defer { try? FileManager.default.removeItem(at: root) }
        let agenda = try run(root, ["--agenda", "--from", "2024-03", "--forward", "1"])
        #expect(agenda.status == 0)
        #expect(agenda.stderr == "")
        #expect(agenda.stdout == """
            2024-03-05 Tue  all-day      home  Dentist
            2024-03-06 Wed  09:00-10:00  work  Standup

            """)
        // The stream: Monday first from [options], the list under the month (whole, into a pipe).
        let stream = try run(root, ["-1", "--from", "2024-03"])
        #expect(stream.stdout.hasPrefix("     March 2024\nMo Tu We Th Fr Sa Su\n"))
        #expect(stream.stdout.hasSuffix("\n 5 Tue  home  Dentist\n 6 Wed  09:00  work  Standup\n"))
        // The command line wins, and --no-monday turns the file's value off.
        #expect(try run(root, ["-1", "--from", "2024-03", "--sunday"]).stdout.hasPrefix("     March 2024\nSu Mo Tu We Th Fr Sa\n"))
        #expect(try run(root, ["-1", "--from", "2024-03", "--no-monday"]).stdout.hasPrefix("     March 2024\nSu Mo Tu We Th Fr Sa\n"))
        let json = try run(root, ["--json", "-1", "--from", "2024-03"])
        #expect(json.stdout.contains(#""summary":"Dentist","uid":"1","source":"\#(root.path)/cal/home/1.ics","calendarName":"home"}"#))
        #expect(json.stdout.contains(#""calendarName":"work"}"#))
        // The wall in colour: work in its own colour (24-bit where COLORTERM says so, else
        // the nearest of 256), home in its calendar's COLOR (turquoise).
        let wall = try run(root, ["--wall", "--width", "78", "--color=always", "--from", "2024-03", "--forward", "1"],
                           ["COLORTERM": "truecolor"])
        #expect(wall.stdout.contains("\u{1b}[38;2;255;136;0m09:00"))
        #expect(wall.stdout.contains("\u{1b}[38;2;64;224;208mDentist"))
        let palette = try run(root, ["--wall", "--width", "78", "--color=always", "--from", "2024-03", "--forward", "1"])
        #expect(palette.stdout.contains("\u{1b}[38;5;208m09:00"))
        // --events adds a calendar without a name.
        let more = try run(root, ["--agenda", "--from", "2024-03", "--forward", "1", "--events", root.appendingPathComponent("cal/work.ics").path])
        #expect(more.stdout.split(separator: "\n").last == "2024-03-06 Wed  09:00-10:00        Standup")
    }

    @Test func onlyAndHideChooseCalendars() throws {
        let root = try home(Self.calendars)
        defer { try? FileManager.default.removeItem(at: root) }
        let only = try run(root, ["--agenda", "--from", "2024-03", "--forward", "1", "--only", "work"])
        #expect(only.stdout == "2024-03-06 Wed  09:00-10:00  work  Standup\n")
        let hide = try run(root, ["--agenda", "--from", "2024-03", "--forward", "1", "--hide", "work"])
        #expect(hide.stdout == "2024-03-05 Tue  all-day      home  Dentist\n")
        let unknown = try run(root, ["--agenda", "--only", "wrk"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr == "infcal: invalid value 'wrk' for --only: expected a configured calendar (home, work); did you mean 'work'?\n")
    }

    @Test func aMistakeIsOneLineAndStatus78() throws {
        let root = try home("[options]\nmonday = yes\n\n[events work]\npath = /x\ncolor = purpel\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent(".config/infcal/config").path
        let bad = try run(root, ["-1"])
        #expect(bad.status == 78)
        #expect(bad.stdout == "")
        #expect(bad.stderr == "infcal: \(file):6: key 'color': expected a colour: a name (red, bright-blue, teal, ...), 0-255 or #rrggbb, not 'purpel'\n")
        // A bad option value in [options] is the file's mistake too.
        try write("[options]\nlocale = en_US\ncolumns = many\n", to: URL(fileURLWithPath: file))
        let value = try run(root, ["-1"])
        #expect(value.status == 78)
        #expect(value.stderr == "infcal: \(file):3: key 'columns': expected a number from 1 to 1000, or auto, not 'many'\n")
        // --no-config reads none, --help answers first, and a missing default file is no error.
        #expect(try run(root, ["-1", "--no-config"]).status == 0)
        #expect(try run(root, ["--help"]).status == 0)
        #expect(try run(root, ["-1"], ["HOME": "/nonexistent"]).status == 0)
        // XDG_CONFIG_HOME is where it is looked for first.
        let xdg = try run(URL(fileURLWithPath: "/nonexistent"), ["-1"], ["XDG_CONFIG_HOME": root.appendingPathComponent(".config").path])
        #expect(xdg.status == 78)
    }

    @Test func filesThatAreNoConfigFiles() throws {
        let root = try home("")
        defer { try? FileManager.default.removeItem(at: root) }
        func status(_ arguments: [String], _ extra: [String: String?] = [:]) throws -> (Int32, String) {
            let result = try run(root, ["-1"] + arguments, extra)
            #expect(result.stdout == "")
            return (result.status, result.stderr)
        }
        let missing = root.appendingPathComponent("missing").path
        #expect(try status(["--config", missing]) == (78, "infcal: \(missing): cannot be read: No such file or directory\n"))
        #expect(try status([], ["INFCAL_CONFIG": missing]) == (78, "infcal: \(missing): cannot be read: No such file or directory\n"))
        #expect(try status(["--config", root.path]) == (78, "infcal: \(root.path): is a directory, not a config file\n"))
        #expect(try status(["--config", "/dev/null"]) == (78, "infcal: /dev/null: is not a regular file\n"))
        let junk = root.appendingPathComponent("junk")
        try Data([0x5b, 0x6f, 0x0a, 0x00, 0xff, 0xfe]).write(to: junk)
        #expect(try status(["--config", junk.path]) == (78, "infcal: \(junk.path):2: not a text file (a NUL byte)\n"))
        let locked = root.appendingPathComponent("locked")
        try Data("[options]\n".utf8).write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        if FileManager.default.isReadableFile(atPath: locked.path) {
            // Root reads whatever the mode says: there is nothing unreadable to try.
            print("skipped: an unreadable file cannot be made (running as root)")
        } else {
            #expect(try status(["--config", locked.path]) == (78, "infcal: \(locked.path): cannot be read: Permission denied\n"))
        }
    }

    /// In the pager, key `c` lists the calendars and hides one: the page and the status line follow.
    @Test func thePagerHidesACalendar() throws {
        let config = CalCompatibilityTests.examples + "/config"
        let session = try PagerEndToEndTests.start(["--config", config, "--from", "2024-03", "--color", "never"], firstFrame: "March 2024")
        #expect(session.waitFor("08:00"))
        try session.send("c")
        #expect(session.waitFor("> [x] 1 holidays"), "\(session.screen.text)")
        try session.send(" ")
        #expect(session.waitFor("1 of 1 calendar hidden"), "\(session.screen.text)")
        try session.send("c")
        #expect(session.waitFor { !$0.contains("08:00") && !$0.contains("[ ] 1 holidays") && $0.line(23).contains("1 of 1 calendar hidden") },
                "\(session.screen.text)")
        try session.send("q")
        #expect(session.waitForExit() != nil)
    }
}
