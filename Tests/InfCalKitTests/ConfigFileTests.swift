import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The config file: its syntax, every key's values, its mistakes (file and line), and how
/// its options join the command line's.
@Suite struct ConfigFileTests {
    static let file = "/home/me/.config/infcal/config"

    func parse(_ text: String) throws(ConfigError) -> ConfigFile {
        try ConfigParser.parse(Array(text.utf8), file: Self.file, home: "/home/me", directory: "/home/me/.config/infcal")
    }

    func error(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: What a good file says

    @Test func optionsBecomeOccurrencesInOrder() throws {
        let config = try parse("""
            # a comment
            ; another
            [options]
            monday = yes
            locale = de_DE
            week-numbers = iso
              calendar = "hebrew"
            color = always
            day-of-year = no
            span = off
            vertical = TRUE

            """)
        #expect(config.options.map(\.key) == [.monday, .locale, .weekNumbers, .calendar, .color, .vertical])
        #expect(config.options.map(\.value) == [nil, "de_DE", "iso", "hebrew", "always", nil])
        #expect(config.options.map(\.line) == [4, 5, 6, 7, 8, 11])
        #expect(config.options.map(\.spelling) == ["key 'monday'", "key 'locale'", "key 'week-numbers'", "key 'calendar'",
                                                   "key 'color'", "key 'vertical'"])
        #expect(config.calendars.isEmpty)
    }

    @Test func anOptionalValueTakesYesForNone() throws {
        let config = try parse("[options]\nweek-numbers = yes\nforward = 6\nyear = no\n")
        #expect(config.options.map(\.key) == [.weekNumbers, .forward])
        #expect(config.options.map(\.value) == [nil, "6"])
    }

    @Test func calendarsWithEveryKey() throws {
        let config = try parse("""
            [events personal]
            path = ~/.local/share/calendars/personal
            color = #2E8B57
            default = yes

            [events "holidays"]
            url = webcal://example.org/holidays.ics
            color = red
            readonly = yes
            refresh = 7d

            [events work]
            url = https://cloud.example.com/dav/calendars/me/work/
            username = me
            password-command = pass show 'dav entry' "it's" a\\ b ~/.pw
            refresh = never
            timeout = 20s

            [events relative]
            path = cal/other.ics
            color = 208
            refresh = 90
            timeout = 2m
            """)
        #expect(config.calendars == [
            CalendarSource(name: "personal", location: .path("/home/me/.local/share/calendars/personal"),
                           color: .rgb(0x2e, 0x8b, 0x57), isDefault: true),
            CalendarSource(name: "holidays", location: .url("webcal://example.org/holidays.ics"), color: .indexed(1),
                           readonly: true, refresh: .after(seconds: 7 * 86400)),
            CalendarSource(name: "work", location: .url("https://cloud.example.com/dav/calendars/me/work/"),
                           username: "me", passwordCommand: ["pass", "show", "dav entry", "it's", "a b", "/home/me/.pw"],
                           refresh: .never, timeout: 20),
            CalendarSource(name: "relative", location: .path("/home/me/.config/infcal/cal/other.ics"), color: .indexed(208),
                           refresh: .after(seconds: 90), timeout: 120),
        ])
        // A bearer token from a command, for Google's CalDAV; the scheme forced by `auth`.
        let google = try parse("[events g]\nurl = https://apidata.googleusercontent.com/caldav/v2/me/events/\n"
                               + "token-command = gcloud auth print-access-token\nauth = BEARER\n").calendars
        #expect(google.map(\.tokenCommand) == [["gcloud", "auth", "print-access-token"]])
        #expect(google.map(\.authentication) == [.bearer])
        #expect(google.map(\.passwordCommand) == [nil])
        let digest = try parse("[events d]\nurl = https://dav.example.org/\nusername = me\npassword-command = pass dav\nauth = digest\n").calendars
        #expect(digest.map(\.authentication) == [.digest])
        // `calendar =` picks one calendar of an account.
        let chosen = try parse("[events work]\nurl = https://example.org/dav/\ncalendar = Team Work\n").calendars
        #expect(chosen.map(\.collection) == ["Team Work"])
        // Defaults: an hour between fetches, 15 s a fetch, neither readonly nor default.
        let plain = try parse("[events x]\npath = /x.ics\n").calendars
        #expect(plain == [CalendarSource(name: "x", location: .path("/x.ics"), refresh: .after(seconds: 3600), timeout: 15)])
    }

    @Test func windowsLineEndsAndAByteOrderMark() throws {
        let config = try parse("\u{FEFF}[options]\r\nmonday = yes\r\n\r\n[events a]\r\npath = /a\r\ncolor = red\r\n")
        #expect(config.options.map(\.line) == [2])
        #expect(config.calendars == [CalendarSource(name: "a", location: .path("/a"), color: .indexed(1))])
        #expect(error("[options]\r\nmonday = yes\r\nmonday = no\r\n")?.line == 3)
    }

    @Test func anEmptyFileSaysNothing() throws {
        #expect(try parse("") == ConfigFile())
        #expect(try parse("\n# only a comment\n\n") == ConfigFile())
    }

    // MARK: Every key with a bad value: the file, the line, the key, what was expected

    struct Bad: CustomStringConvertible, Sendable {
        let text: String
        let line: Int?
        let message: String
        var description: String { text }
    }

    static let badValues: [Bad] = [
        Bad(text: "[options]\nmonday = maybe", line: 2, message: "key 'monday': expected yes or no, not 'maybe'"),
        Bad(text: "[options]\nlocale =", line: 2, message: "key 'locale': expected a locale such as en_US, de_DE or ja_JP, or C"),
        Bad(text: "[options]\nweek-numbers =", line: 2, message: "key 'week-numbers': expected yes, no or iso or locale"),
        Bad(text: "[events a]\npath =", line: 2, message: "key 'path': expected a file or a directory of .ics files"),
        Bad(text: "[events a]\npath = ~bob/cal", line: 2,
            message: "key 'path': expected a path, '~' or '~/...', not '~bob/cal' (no ~user)"),
        Bad(text: "[events a]\nurl = ftp://x/y", line: 2,
            message: "key 'url': expected an address starting https://, http:// or webcal://, not 'ftp://x/y'"),
        Bad(text: "[events a]\nurl = https://", line: 2,
            message: "key 'url': expected an address starting https://, http:// or webcal://, not 'https://'"),
        Bad(text: "[events a]\npath = /a\ncolor = purpel", line: 3,
            message: "key 'color': expected a colour: a name (red, bright-blue, teal, ...), 0-255 or #rrggbb, not 'purpel'"),
        Bad(text: "[events a]\npath = /a\ncolor = 256", line: 3,
            message: "key 'color': expected a colour: a name (red, bright-blue, teal, ...), 0-255 or #rrggbb, not '256'"),
        Bad(text: "[events a]\npath = /a\ncolor = #12345", line: 3,
            message: "key 'color': expected a colour: a name (red, bright-blue, teal, ...), 0-255 or #rrggbb, not '#12345'"),
        Bad(text: "[events a]\npath = /a\nreadonly = sometimes", line: 3, message: "key 'readonly': expected yes or no, not 'sometimes'"),
        Bad(text: "[events a]\npath = /a\ndefault = 2", line: 3, message: "key 'default': expected yes or no, not '2'"),
        Bad(text: "[events a]\npath = /a\nusername =", line: 3, message: "key 'username': expected a user name"),
        Bad(text: "[events a]\nurl = https://example.org/dav/\ncalendar =", line: 3,
            message: "key 'calendar': expected the display name or the path of one calendar of the account"),
        Bad(text: "[events a]\ncalendar = Work\npath = /a", line: 2,
            message: "key 'calendar': names a calendar of a CalDAV account, so it goes with a url"),
        Bad(text: "[events a]\npath = /a\npassword-command =", line: 3,
            message: "key 'password-command': expected a command whose first line of output is the password: a program and its "
                + "arguments, '...' or \"...\" quoting a word (no shell: for one, sh -c '...')"),
        Bad(text: "[events a]\nurl = https://a.example/\ntoken-command = print 'token", line: 3,
            message: "key 'token-command': expected a command whose first line of output is a bearer token: a program and its "
                + "arguments, '...' or \"...\" quoting a word (no shell: for one, sh -c '...'), not 'print 'token'"),
        Bad(text: "[events a]\nurl = https://a.example/\nauth = ntlm", line: 3, message: "key 'auth': expected basic, digest or bearer, not 'ntlm'"),
        Bad(text: "[events a]\nurl = https://a.example/\nauth = bearer", line: 3, message: "key 'auth': bearer needs a token-command"),
        Bad(text: "[events a]\nurl = https://a.example/\ntoken-command = t\nauth = digest", line: 4,
            message: "key 'auth': digest sends a password, and this calendar has a token-command (auth = bearer)"),
        Bad(text: "[events a]\nurl = https://a.example/\npassword-command = p\ntoken-command = t", line: 4,
            message: "key 'token-command': a calendar has a password-command or a token-command, not both"),
        Bad(text: "[events a]\npath = /a\nrefresh = soon", line: 3,
            message: "key 'refresh': expected never, or seconds, or a number with s, m, h or d (as 90, 30m, 1h), at most 366d, not 'soon'"),
        Bad(text: "[events a]\npath = /a\nrefresh = 0", line: 3,
            message: "key 'refresh': expected never, or seconds, or a number with s, m, h or d (as 90, 30m, 1h), at most 366d, not '0'"),
        Bad(text: "[events a]\npath = /a\ntimeout = 2h", line: 3,
            message: "key 'timeout': expected seconds, or a number with s, m, h or d (as 90, 30m, 1h), at most 1h, not '2h'"),
        Bad(text: "[events a]\npath = /a\ntimeout = -5", line: 3,
            message: "key 'timeout': expected seconds, or a number with s, m, h or d (as 90, 30m, 1h), at most 1h, not '-5'"),
    ]

    @Test(arguments: badValues) func aBadValueNamesFileLineAndKey(_ bad: Bad) {
        let found = error(bad.text)
        #expect(found == ConfigError(file: Self.file, line: bad.line, message: bad.message))
        #expect(found?.description == Self.file + ":" + String(bad.line ?? 0) + ": " + bad.message)
    }

    static let badStructure: [Bad] = [
        Bad(text: "monday = yes", line: 1, message: "key 'monday': expected [options] or [events NAME] before it"),
        Bad(text: "[options]\nmondya = yes", line: 2, message: "unknown key 'mondya' in [options] (did you mean 'monday'?)"),
        Bad(text: "[options]\nhelp = yes", line: 2, message: "unknown key 'help' in [options]"),
        Bad(text: "[options]\nconfig = /x", line: 2, message: "unknown key 'config' in [options]"),
        Bad(text: "[events a]\npath = /a\ncolr = red", line: 3, message: "unknown key 'colr' in [events a] (did you mean 'color'?)"),
        Bad(text: "[events a]\npath = /a\npassword = hunter2", line: 3,
            message: "key 'password': not supported, so that no password sits in a file; use password-command = COMMAND (its first line of output) or ~/.netrc"),
        Bad(text: "[option]\n", line: 1, message: "section '[option]': expected [options] or [events NAME] (did you mean '[options]'?)"),
        Bad(text: "[event work]\n", line: 1, message: "section '[event work]': expected [options] or [events NAME] (did you mean '[events NAME]'?)"),
        Bad(text: "[events]\n", line: 1, message: "section '[events]': expected a name, as [events work]"),
        Bad(text: "[events a,b]\npath = /a", line: 1, message: "section '[events a,b]': a calendar's name cannot hold ','"),
        Bad(text: "[options\n", line: 1, message: "section '[options': expected [options] or [events NAME]"),
        Bad(text: "[options]\njust words", line: 2, message: "'just words': expected key = value"),
        Bad(text: "[options]\n= yes", line: 2, message: "'= yes': expected key = value"),
        Bad(text: "[options]\nmonday = yes\nmonday = no", line: 3, message: "key 'monday': given already on line 2"),
        Bad(text: "[events a]\npath = /a\npath = /b", line: 3, message: "key 'path': given already on line 2"),
        Bad(text: "[events a]\npath = /a\n[events a]\npath = /b", line: 3, message: "section '[events a]': calendar 'a' is named already on line 1"),
        Bad(text: "[events a]\ncolor = red\n", line: 1, message: "[events a]: expected a key 'path' or 'url'"),
        Bad(text: "[events a]\npath = /a\nurl = https://x/y", line: 3, message: "key 'url': a calendar has a path or a url, not both"),
        Bad(text: "[events a]\npath = /a\ndefault = yes\n[events b]\npath = /b\ndefault = yes", line: 4,
            message: "key 'default': another calendar is the default already (line 3)"),
    ]

    @Test(arguments: badStructure) func aBadLineNamesFileAndLine(_ bad: Bad) {
        #expect(error(bad.text) == ConfigError(file: Self.file, line: bad.line, message: bad.message))
    }

    @Test func binaryJunkIsNoConfigFile() {
        func parse(_ bytes: [UInt8]) throws(ConfigError) { _ = try ConfigParser.parse(bytes, file: "f", home: nil, directory: "/") }
        #expect(throws: ConfigError(file: "f", line: 3, message: "not a text file (a NUL byte)")) {
            try parse(Array("[options]\nmonday = yes\n".utf8) + [0, 1, 2])
        }
        #expect(throws: ConfigError(file: "f", line: 2, message: "not a text file (not UTF-8)")) {
            try parse(Array("[options]\n".utf8) + [0x6c, 0x6f, 0xe9, 0x0a])
        }
        #expect(throws: ConfigError(file: "f", line: nil, message: "not a config file (larger than 1024 KiB)")) {
            try parse([UInt8](repeating: 0x23, count: ConfigParser.sizeLimit + 1))
        }
        // A tilde with no HOME to expand it.
        #expect(throws: ConfigError(file: "f", line: 2, message: "key 'path': '~' needs HOME to be set")) {
            try parse(Array("[events a]\npath = ~/cal\n".utf8))
        }
    }

    // MARK: Where the file is

    @Test func location() throws {
        func place(_ arguments: [String], _ variables: [String: String]) throws -> String? {
            let raw = try ArgumentParser.parse(arguments)
            let found = ConfigFile.location(raw, environment: Fixture.environment(variables: variables))
            return found.map { $0.path + ($0.explicit ? " (named)" : "") }
        }
        let all = ["INFCAL_CONFIG": "/env/config", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me"]
        #expect(try place(["--config", "/given"], all) == "/given (named)")
        #expect(try place([], all) == "/env/config (named)")
        #expect(try place([], ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me"]) == "/xdg/infcal/config")
        // The XDG Base Directory specification ignores a relative XDG_CONFIG_HOME.
        #expect(try place([], ["XDG_CONFIG_HOME": "xdg", "HOME": "/home/me"]) == "/home/me/.config/infcal/config")
        #expect(try place([], ["INFCAL_CONFIG": "", "HOME": "/home/me"]) == "/home/me/.config/infcal/config")
        #expect(try place([], [:]) == nil)
        #expect(try place(["--no-config", "--config", "/given"], all) == nil)
        #expect(ConfigFile.directory(of: "/a/b/config") == "/a/b")
        #expect(ConfigFile.directory(of: "/config") == "/")
        #expect(ConfigFile.directory(of: "config") == ".")
    }

    // MARK: The file's options and the command line's

    func run(_ text: String, _ arguments: [String], terminal: Bool = false) throws -> Configuration.Run {
        let config = try parse(text)
        let raw = try ArgumentParser.parse(arguments)
        return try Configuration.resolve(raw, config: config, file: Self.file,
                                         environment: Fixture.environment(terminal: terminal, variables: ["TERM": "xterm"]))
    }

    @Test func theCommandLineWins() throws {
        let file = "[options]\nmonday = yes\nweek-numbers = iso\ncalendar = hebrew\n"
        // Monday is weekday 2, Sunday 1, as Foundation numbers them.
        #expect(try run(file, []).configuration.firstWeekday == 2)
        #expect(try run(file, ["--sunday"]).configuration.firstWeekday == 1)
        #expect(try run(file, ["--first-weekday", "friday"]).configuration.firstWeekday == 6)
        #expect(try run(file, ["--no-monday"]).configuration.firstWeekday == 1)
        // --no-OPTION and the option again: the later counts.
        #expect(try run(file, ["--no-monday", "-m"]).configuration.firstWeekday == 2)
        #expect(try run(file, []).configuration.weekNumbers != nil)
        #expect(try run(file, ["--no-week-numbers"]).configuration.weekNumbers == nil)
        #expect(try run(file, []).configuration.calendar.identifier == .hebrew)
        #expect(try run(file, ["--calendar", "gregorian"]).configuration.calendar.identifier == .gregorian)
    }

    @Test func anOptionTheRunCannotTakeIsLeftOut() throws {
        // The pager needs a terminal: into a pipe, `paged = yes` is left out, not an error.
        #expect(try run("[options]\npaged = yes\n", ["--from", "2024-03"]).configuration.mode != .paged)
        // -1 cannot be used with --paged: the command line's -1 wins.
        let single = try run("[options]\npaged = yes\n", ["-1"], terminal: true).configuration.mode
        #expect(single == .months(count: 1), "\(single)")
    }

    @Test func theFilesOwnMistakesAreItsErrors() throws {
        #expect(throws: ConfigError(file: Self.file, line: 3, message: "key 'sunday' cannot be used together with key 'monday'")) {
            try run("[options]\nmonday = yes\nsunday = yes\n", [])
        }
        #expect(throws: ConfigError(file: Self.file, line: 2,
                                    message: "key 'calendar': expected one of gregorian, iso8601, buddhist, chinese, coptic, dangi, ethiopic, "
                                        + "ethiopic-amete-alem, hebrew, indian, islamic, islamic-civil, islamic-tbla, islamic-umalqura, "
                                        + "japanese, persian, roc, or list, not 'klingon'")) {
            try run("[options]\ncalendar = klingon\n", [])
        }
        #expect(throws: ConfigError(file: Self.file, line: 3, message: "key 'columns': expected a number from 1 to 1000, or auto, not '0'")) {
            try run("[options]\nmonday = yes\ncolumns = 0\n", [])
        }
        // The command line's mistakes stay usage errors.
        #expect(throws: UsageError.invalidValue(option: "--columns", value: "0", expected: "a number from 1 to 1000, or auto")) {
            try run("[options]\nmonday = yes\n", ["--columns", "0"])
        }
    }

    @Test func noOptionIsParsed() throws {
        let raw = try ArgumentParser.parse(["-m", "--no-monday", "--no-locale"])
        #expect(raw.occurrences.isEmpty)
        #expect(raw.negated == [.monday, .locale])
        #expect(throws: UsageError.unexpectedValue(option: "--no-monday", value: "yes")) { try ArgumentParser.parse(["--no-monday=yes"]) }
        #expect(throws: UsageError.unknownOption("--no-mondya", suggestion: "--no-monday")) { try ArgumentParser.parse(["--no-mondya"]) }
        // Not a key, so not an option to turn off.
        #expect(throws: UsageError.unknownOption("--no-help", suggestion: nil)) { try ArgumentParser.parse(["--no-help"]) }
    }

    // MARK: Choosing calendars

    /// The indices of the sources `--only` and `--hide` leave out.
    func hidden(_ settings: EventSettings) -> Set<Int> {
        Set(settings.sources.indices.filter { settings.hides(settings.sources[$0]) })
    }

    @Test func onlyAndHide() throws {
        let file = "[events home]\npath = /h\n[events work]\npath = /w\n[events holidays]\npath = /d\n"
        #expect(hidden(try run(file, []).events) == [])
        #expect(hidden(try run(file, ["--only", "work"]).events) == [0, 2])
        #expect(hidden(try run(file, ["--only", "work,home", "--events", "/x.ics"]).events) == [2])
        #expect(hidden(try run(file, ["--only", "work", "--only", "home"]).events) == [2])
        #expect(hidden(try run(file, ["--hide", "holidays,home"]).events) == [0, 2])
        #expect(hidden(try run(file, ["--only", "work,home", "--hide", "home"]).events) == [0, 2])
        #expect(try run(file, []).events.sources.compactMap(\.name) == ["home", "work", "holidays"])
        #expect(try run(file, []).events.needsEvents)
        #expect(throws: UsageError.invalidValue(option: "--only", value: "wrk",
                                                expected: "a configured calendar (home, work, holidays); did you mean 'work'?")) {
            try run(file, ["--only", "wrk"])
        }
        #expect(throws: UsageError.invalidValue(option: "--hide", value: "",
                                                expected: "a configured calendar (home, work, holidays)")) {
            try run(file, ["--hide", "home,"])
        }
        // A calendar discovered on the server below a configured one goes with it.
        let account = try run(file, ["--only", "work/tasks"]).events
        #expect(account.hides(CalendarSource(name: "work/tasks", location: .path("/t"))) == false)
        #expect(account.hides(CalendarSource(name: "work/other", location: .path("/o"))))
        #expect(account.hides(CalendarSource(name: nil, location: .path("/x"))) == false)
        #expect(try run(file, ["--hide", "work"]).events.hides(CalendarSource(name: "work/tasks", location: .path("/t"))))
        #expect(throws: UsageError.invalidValue(option: "--only", value: "work",
                                                expected: "the name of a configured calendar, and none is configured")) {
            try run("", ["--only", "work"])
        }
    }
}
