import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// A mistake in the config file: one line naming the file, the line (when there is one), the
/// key and what was expected. The process exits with `ExitStatus.config`.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// The line, from 1; nil for the file as a whole (missing, unreadable, not text).
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// The line printed after "infcal: ", with the file name and values echoed inert.
    public var description: String {
        UsageError.echo(file, limit: UsageError.longEchoLimit) + (line.map { ":\($0)" } ?? "") + ": "
            + UsageError.echo(message, limit: UsageError.longEchoLimit)
    }
}

/// What the config file says: options, as if typed before the command line, and calendars.
public struct ConfigFile: Equatable {
    /// The `[options]` keys as option occurrences (spelled `key 'monday'`, with their line),
    /// in the order written.
    public var options: [RawOptions.Occurrence] = []
    /// The `[events NAME]` sections, in the order written.
    public var calendars: [CalendarSource] = []

    public init() {}
}

/// Reads the config file: an INI file of `# comments` (or `;`), `[section]` headings and
/// `key = value` lines.
///
/// `[options]` takes any long option that is a setting (`OptionSpec.isConfigKey`), with the
/// value it takes on the command line; a flag takes `yes` or `no` (also true/false, on/off,
/// 1/0), an option with an optional value takes `yes` for none. `[events NAME]` describes one
/// calendar. A value may be put in double quotes; there are no comments after a value (a
/// colour is written `#rrggbb`).
public enum ConfigParser {
    /// The largest config file read: anything bigger is not one.
    public static let sizeLimit = 1 << 20

    /// The keys of an `[events NAME]` section, in the order the documentation lists them.
    public static let calendarKeys = ["path", "url", "color", "readonly", "default", "username", "password-command",
                                      "token-command", "auth", "refresh", "timeout", "calendar"]

    /// The schemes a `url =` may have.
    public static let urlSchemes = ["https://", "http://", "webcal://"]

    /// The longest `timeout` and the longest finite `refresh`, in seconds.
    static let longestTimeout = 3600
    static let longestRefresh = 366 * 86400

    /// Parses `bytes`, the contents of `file`; `home` expands a leading `~` in paths and
    /// relative paths are taken from `directory` (the file's own).
    /// - throws: `ConfigError` for the first mistake.
    public static func parse(_ bytes: [UInt8], file: String, home: String?, directory: String) throws(ConfigError) -> ConfigFile {
        func fail(_ line: Int?, _ message: String) -> ConfigError { ConfigError(file: file, line: line, message: message) }
        if bytes.count > sizeLimit { throw fail(nil, "not a config file (larger than \(sizeLimit / 1024) KiB)") }
        if let nul = bytes.firstIndex(of: 0) {
            throw fail(bytes[..<nul].filter { $0 == 10 }.count + 1, "not a text file (a NUL byte)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = firstInvalidLine(bytes)
            throw fail(line, "not a text file (not UTF-8)")
        }
        var config = ConfigFile()
        var section: Section?
        var seen: [String: Int] = [:]
        var draft = CalendarDraft(name: "", line: 0)
        var names: [String: Int] = [:]
        var defaultLine: Int?

        func finish() throws(ConfigError) {
            guard case .events = section else { return }
            let source = try draft.source(file: file, home: home, directory: directory)
            if source.isDefault {
                if let defaultLine { throw fail(draft.line, "key 'default': another calendar is the default already (line \(defaultLine))") }
                defaultLine = draft.defaultLine
            }
            config.calendars.append(source)
        }

        var number = 0
        // CRLF ends lines too (Swift reads "\r\n" as one character), and a byte-order mark
        // some editors write is no part of the first line.
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail(number, "section '\(line)': expected [options] or [events NAME]") }
                try finish()
                let inside = String(line.dropFirst().dropLast()).trimmingSpaces
                let words = inside.split(separator: " ", maxSplits: 1).map(String.init)
                seen = [:]
                if words == ["options"] {
                    section = .options
                } else if words.first == "events" {
                    let name = unquoted(words.count > 1 ? words[1].trimmingSpaces : "")
                    if name.isEmpty { throw fail(number, "section '[\(inside)]': expected a name, as [events work]") }
                    if let bad = name.first(where: { $0 == "," || $0 == "/" || $0.isNewline || ($0.asciiValue.map { $0 < 32 } ?? false) }) {
                        throw fail(number, "section '[\(inside)]': a calendar's name cannot hold '\(bad)'")
                    }
                    if let first = names[name] { throw fail(number, "section '[\(inside)]': calendar '\(name)' is named already on line \(first)") }
                    names[name] = number
                    section = .events
                    draft = CalendarDraft(name: name, line: number)
                } else {
                    let suggestion = ArgumentParser.closest(to: words.first ?? "", among: ["options", "events"])
                    throw fail(number, "section '[\(inside)]': expected [options] or [events NAME]"
                               + (suggestion.map { " (did you mean '[\($0 == "events" ? "events NAME" : $0)]'?)" } ?? ""))
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail(number, "'\(line)': expected key = value")
            }
            let key = String(line[..<equals]).trimmingSpaces.lowercased()
            let value = unquoted(String(line[line.index(after: equals)...]).trimmingSpaces)
            guard let current = section else {
                throw fail(number, "key '\(key)': expected [options] or [events NAME] before it")
            }
            if key.isEmpty { throw fail(number, "'\(line)': expected key = value") }
            switch current {
            case .options:
                guard let spec = OptionSpec.all.first(where: { $0.long == key && $0.isConfigKey }) else {
                    let suggestion = ArgumentParser.closest(to: key, among: OptionSpec.all.filter(\.isConfigKey).map(\.long))
                    throw fail(number, "unknown key '\(key)' in [options]" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
                }
                if spec.key != .events, let first = seen[key] { throw fail(number, "key '\(key)': given already on line \(first)") }
                seen[key] = number
                if let occurrence = try option(spec, value: value, line: number, file: file) {
                    config.options.append(occurrence)
                }
            case .events:
                guard calendarKeys.contains(key) else {
                    if key == "password" {
                        throw fail(number, "key 'password': not supported, so that no password sits in a file; "
                                   + "use password-command = COMMAND (its first line of output) or ~/.netrc")
                    }
                    let suggestion = ArgumentParser.closest(to: key, among: calendarKeys)
                    throw fail(number, "unknown key '\(key)' in [events \(draft.name)]" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
                }
                if let first = seen[key] { throw fail(number, "key '\(key)': given already on line \(first)") }
                seen[key] = number
                try draft.set(key, value, line: number, file: file, home: home)
            }
        }
        try finish()
        return config
    }

    enum Section { case options, events }

    /// `value` without the double quotes around it, if it has them.
    static func unquoted(_ value: String) -> String {
        value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
    }

    /// The line of the first byte that is not UTF-8.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 10 {
            if String(validating: bytes[start..<index], as: UTF8.self) == nil { return line }
            line += 1
            start = index + 1
        }
        return line
    }

    /// A yes or no: nil when `value` is neither.
    static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: return nil
        }
    }

    static let booleanExpected = "yes or no"

    /// The occurrence an `[options]` line stands for, or nil for a flag set to `no`.
    static func option(_ spec: OptionSpec, value: String, line: Int, file: String) throws(ConfigError) -> RawOptions.Occurrence? {
        let spelling = "key '\(spec.long)'"
        func make(_ value: String?) -> RawOptions.Occurrence { .init(key: spec.key, spelling: spelling, value: value, line: line) }
        switch spec.value {
        case .none:
            guard let on = boolean(value) else {
                throw ConfigError(file: file, line: line, message: "\(spelling): expected \(booleanExpected), not '\(value)'")
            }
            return on ? make(nil) : nil
        case .optional(_, let accepts):
            if let on = boolean(value), !accepts(value) { return on ? make(nil) : nil }
            guard !value.isEmpty else {
                throw ConfigError(file: file, line: line, message: "\(spelling): expected yes, no or \(spec.expected)")
            }
            return make(value)
        case .required:
            guard !value.isEmpty else {
                throw ConfigError(file: file, line: line, message: "\(spelling): expected \(spec.expected)")
            }
            return make(value)
        }
    }

    /// A length of time: seconds, or a number with `s`, `m`, `h` or `d`; nil when it is not
    /// one, or not from 1 second to `longest`.
    static func duration(_ value: String, longest: Int) -> Int? {
        let lower = value.lowercased()
        let units: [(String, Int)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        let unit = units.first { lower.hasSuffix($0.0) }
        let digits = unit.map { String(lower.dropLast($0.0.count)) } ?? lower
        guard OptionSpec.isNumber(digits), digits.count <= 9, let count = Int(digits) else { return nil }
        let seconds = count * (unit?.1 ?? 1)
        return seconds >= 1 && seconds <= longest ? seconds : nil
    }

    static let durationExpected = "seconds, or a number with s, m, h or d (as 90, 30m, 1h)"

    /// One `[events NAME]` section as its keys come.
    struct CalendarDraft {
        let name: String
        let line: Int
        var path: (String, Int)?
        var url: (String, Int)?
        var color: CalendarColor?
        var readonly = false
        var isDefault = false
        var defaultLine: Int?
        var username: String?
        var passwordCommand: (words: [String], line: Int)?
        var tokenCommand: (words: [String], line: Int)?
        var authentication: (CalendarSource.Authentication, Int)?
        var refresh = CalendarSource.defaultRefresh
        var timeout = CalendarSource.defaultTimeout
        /// `calendar =`: the one calendar of a CalDAV account this section shows.
        var collection: (String, Int)?

        mutating func set(_ key: String, _ value: String, line: Int, file: String, home: String?) throws(ConfigError) {
            func expect(_ what: String) -> ConfigError {
                ConfigError(file: file, line: line, message: "key '\(key)': expected \(what)" + (value.isEmpty ? "" : ", not '\(value)'"))
            }
            switch key {
            case "path":
                guard !value.isEmpty else { throw expect("a file or a directory of .ics files") }
                path = (value, line)
            case "url":
                let scheme = ConfigParser.urlSchemes.first { value.lowercased().hasPrefix($0) }
                guard let scheme, let host = value.dropFirst(scheme.count).first, host != "/",
                      !value.contains(where: { $0 == " " || $0.isNewline })
                else { throw expect("an address starting https://, http:// or webcal://") }
                url = (value, line)
            case "color":
                guard let parsed = CalendarColor(setting: value) else {
                    throw expect("a colour: a name (red, bright-blue, teal, ...), 0-255 or #rrggbb")
                }
                color = parsed
            case "readonly", "default":
                guard let on = ConfigParser.boolean(value) else { throw expect(ConfigParser.booleanExpected) }
                if key == "readonly" { readonly = on } else { (isDefault, defaultLine) = (on, line) }
            case "username":
                guard !value.isEmpty else { throw expect("a user name") }
                username = value
            case "calendar":
                guard !value.isEmpty else { throw expect("the display name or the path of one calendar of the account") }
                collection = (value, line)
            case "password-command", "token-command":
                let what = key == "password-command" ? "the password" : "a bearer token"
                guard let words = ConfigParser.words(value, home: home), !words.isEmpty else {
                    throw expect("a command whose first line of output is \(what): a program and its arguments, "
                                 + "'...' or \"...\" quoting a word (no shell: for one, sh -c '...')")
                }
                if key == "password-command" { passwordCommand = (words, line) } else { tokenCommand = (words, line) }
            case "auth":
                guard let scheme = CalendarSource.Authentication(rawValue: value.lowercased()) else {
                    throw expect("basic, digest or bearer")
                }
                authentication = (scheme, line)
            case "refresh":
                if value.lowercased() == "never" {
                    refresh = .never
                } else if let seconds = ConfigParser.duration(value, longest: ConfigParser.longestRefresh) {
                    refresh = .after(seconds: seconds)
                } else {
                    throw expect("never, or " + ConfigParser.durationExpected + ", at most 366d")
                }
            default:
                guard let seconds = ConfigParser.duration(value, longest: ConfigParser.longestTimeout) else {
                    throw expect(ConfigParser.durationExpected + ", at most 1h")
                }
                timeout = seconds
            }
        }

        /// The calendar, once its section is read.
        func source(file: String, home: String?, directory: String) throws(ConfigError) -> CalendarSource {
            let location: CalendarSource.Location
            switch (path, url) {
            case let ((_, first)?, (_, second)?):
                throw ConfigError(file: file, line: max(first, second), message: "key '\(first > second ? "path" : "url")': "
                                  + "a calendar has a path or a url, not both")
            case let ((value, pathLine)?, nil):
                location = .path(try ConfigParser.expand(value, home: home, directory: directory, file: file, line: pathLine))
            case let (nil, (value, _)?):
                location = .url(value)
            case (nil, nil):
                throw ConfigError(file: file, line: line, message: "[events \(name)]: expected a key 'path' or 'url'")
            }
            if let (_, collectionLine) = collection, url == nil {
                throw ConfigError(file: file, line: collectionLine, message: "key 'calendar': names a calendar of a CalDAV account, so it goes with a url")
            }
            if let (_, passwordLine) = passwordCommand, let (_, tokenLine) = tokenCommand {
                throw ConfigError(file: file, line: max(passwordLine, tokenLine),
                                  message: "key '\(passwordLine > tokenLine ? "password-command" : "token-command")': "
                                      + "a calendar has a password-command or a token-command, not both")
            }
            if let (scheme, authLine) = authentication {
                if scheme == .bearer, tokenCommand == nil {
                    throw ConfigError(file: file, line: authLine, message: "key 'auth': bearer needs a token-command")
                }
                if scheme != .bearer, tokenCommand != nil {
                    throw ConfigError(file: file, line: authLine, message: "key 'auth': \(scheme.rawValue) sends a password, "
                                      + "and this calendar has a token-command (auth = bearer)")
                }
            }
            var source = CalendarSource(name: name, location: location, color: color, readonly: readonly, isDefault: isDefault,
                                        username: username, passwordCommand: passwordCommand?.words, refresh: refresh, timeout: timeout)
            source.tokenCommand = tokenCommand?.words
            source.authentication = authentication?.0
            source.collection = collection?.0
            return source
        }
    }

    /// The words of a command line as a shell splits them, without a shell: blanks separate
    /// words; `'...'` keeps everything inside as it is; `"..."` keeps everything but `\\`
    /// before `"`, `\\`, `$` or a backquote; `\\` outside quotes keeps the next character;
    /// an unquoted `~` or `~/` opening a word is `home`. Nothing else is expanded (no
    /// variables, globs, pipes or `;`). Nil when a quote is not closed or a word needs HOME
    /// and there is none.
    public static func words(_ line: String, home: String?) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch quote {
            case "'":
                if character == "'" { quote = nil } else { word.append(character) }
            case "\"":
                if character == "\"" {
                    quote = nil
                } else if character == "\\", let next = characters.first, "\"\\$`".contains(next) {
                    word.append(next)
                    characters = characters.dropFirst()
                } else {
                    word.append(character)
                }
            default:
                if character == " " || character == "\t" {
                    if inWord { words.append(word) }
                    (word, inWord) = ("", false)
                    continue
                }
                if !inWord, character == "~", characters.first == nil || characters.first == "/" || characters.first == " " {
                    guard let home, !home.isEmpty else { return nil }
                    word += home
                } else if character == "\\" {
                    escaped = true
                } else if character == "'" || character == "\"" {
                    quote = character
                } else {
                    word.append(character)
                }
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// `path` with a leading `~` or `~/` replaced by `home`, and made absolute from `directory`.
    static func expand(_ path: String, home: String?, directory: String, file: String, line: Int) throws(ConfigError) -> String {
        if path == "~" || path.hasPrefix("~/") {
            guard let home, !home.isEmpty else {
                throw ConfigError(file: file, line: line, message: "key 'path': '~' needs HOME to be set")
            }
            return home + path.dropFirst()
        }
        if path.hasPrefix("~") {
            throw ConfigError(file: file, line: line, message: "key 'path': expected a path, '~' or '~/...', not '\(path)' (no ~user)")
        }
        if path.hasPrefix("/") { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}

extension ConfigFile {
    /// Where the config file of a run is: `--config FILE`, else `INFCAL_CONFIG`, else
    /// `$XDG_CONFIG_HOME/infcal/config`, else `~/.config/infcal/config` (XDG Base Directory);
    /// `explicit` when the user named it, so that its absence is an error. Nil with
    /// `--no-config`, or when neither XDG_CONFIG_HOME nor HOME says where to look.
    public static func location(_ raw: RawOptions, environment: RunEnvironment) -> (path: String, explicit: Bool)? {
        if raw.has(.noConfig) { return nil }
        if let given = raw.last(.config)?.value { return (given, true) }
        if let named = environment.variable("INFCAL_CONFIG"), !named.isEmpty { return (named, true) }
        // The specification ignores a relative XDG_CONFIG_HOME.
        if let base = environment.variable("XDG_CONFIG_HOME"), base.hasPrefix("/") { return (base + "/infcal/config", false) }
        if let home = environment.variable("HOME"), home.hasPrefix("/") { return (home + "/.config/infcal/config", false) }
        return nil
    }

    /// The directory holding `path`, which relative paths in it are taken from.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
