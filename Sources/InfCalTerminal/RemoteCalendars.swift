import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalRemote

/// Subscriptions and CalDAV calendars: when their cached copies are fetched again (by the
/// network helper, `infcal-fetch`), and how the views read those copies as local calendars.
enum RemoteCalendars {
    /// The helper's file name, looked for beside infcal's own executable, then on PATH.
    static let helperName = "infcal-fetch"
    /// Bytes a fetch may bring at most.
    static let sizeLimit = 64 << 20
    /// Seconds a fetch may run before its progress is shown at a terminal.
    static let progressDelay = 0.5

    /// The cache directory of this process's environment; nil when neither XDG_CACHE_HOME nor
    /// HOME names one.
    static func cache() -> RemoteCache? {
        RemoteCache.directory(cacheHome: Platform.variable("XDG_CACHE_HOME"), home: Platform.variable("HOME"))
            .map(RemoteCache.init(directory:))
    }

    /// What is known of the copy of `source` at `url`, when it is there and came from that URL
    /// (and, for a CalDAV account, holds the calendar its `calendar =` names, or all of them).
    static func copy(of name: String, url: String, calendar: String?, in cache: RemoteCache) -> CacheMeta? {
        let files = cache.files(for: name)
        guard case .success(let bytes) = Platform.readFile(files.meta), let meta = CacheMeta(bytes: bytes), meta.url == url,
              meta.fetched != nil, meta.kind != "caldav" || meta.calendar == calendar else { return nil }
        let present = meta.kind == "caldav" ? Platform.isDirectory(files.collections) : Platform.exists(files.copy)
        return present ? meta : nil
    }

    /// The name a calendar of the config file has (a URL source always has one there).
    static func name(of source: CalendarSource) -> String {
        source.name ?? "calendar"
    }

    // MARK: Reading the copies

    /// `sources` with each URL source replaced by the local sources of its cached copy: a
    /// subscription's file, or one directory each CalDAV calendar (named `NAME/CALENDAR`
    /// when the URL named an account rather than one calendar, coloured by the server's
    /// calendar-color unless the config file gives a colour). A URL without a copy adds none.
    static func localSources(_ sources: [CalendarSource], cache: RemoteCache?) -> [CalendarSource] {
        sources.flatMap { localCopies(of: $0, cache: cache) }
    }

    /// The local sources of one source: itself, or the cached copies of a URL source.
    static func localCopies(of source: CalendarSource, cache: RemoteCache?) -> [CalendarSource] {
        guard case .url(let url) = source.location else { return [source] }
        let name = name(of: source)
        guard let cache, let meta = copy(of: name, url: url, calendar: source.collection, in: cache) else { return [] }
        let files = cache.files(for: name)
        guard meta.kind == "caldav" else {
            var local = source
            local.location = .path(files.copy)
            return [local]
        }
        return Platform.entryNames(files.collections).compactMap { entry -> CalendarSource? in
            let directory = files.collections + "/" + entry
            guard case .success(let bytes) = Platform.readFile(directory + "/" + CalendarFiles.collectionFile),
                  let message = CacheMeta(bytes: bytes)?.message else { return nil }
            var collection = CachedCollection()
            collection.meta = message
            var local = source
            local.location = .path(directory)
            if let chosen = source.collection {
                // `calendar =` names one of the account's calendars: that one alone, under the section's name.
                let trimmed = chosen.hasSuffix("/") ? String(chosen.dropLast()) : chosen
                guard CachedCollection.isChosen(chosen, href: collection.href, name: collection.name)
                        || entry.removingPercentEncodingForDisplay == trimmed else { return nil }
            } else if entry != "calendar" || collection.href == nil {
                let label = collection.name ?? entry.removingPercentEncodingForDisplay
                local.name = name + "/" + label
            }
            if source.color == nil, let color = collection.color.flatMap(CalendarColor.init(property:)) {
                local.color = color
            }
            return local
        }
    }

    // MARK: Fetching

    /// One URL source that is to be fetched now.
    struct Due {
        let source: CalendarSource
        let name: String
        let url: String
        /// The copy there is (from this URL), if any.
        let copy: CacheMeta?
    }

    /// The URL sources of `sources` whose copies are to be fetched under `fetching`.
    static func due(_ sources: [CalendarSource], fetching: EventSettings.Fetching, cache: RemoteCache?) -> [Due] {
        guard fetching != .never, let cache else { return [] }
        let now = Platform.secondsNow()
        return sources.compactMap { source in
            guard case .url(let url) = source.location else { return nil }
            let name = name(of: source)
            let copy = copy(of: name, url: url, calendar: source.collection, in: cache)
            if fetching == .whenDue, let copy, let fetched = copy.fetched {
                switch source.refresh {
                case .never: return nil
                case .after(let seconds): if now - fetched < seconds, now >= fetched { return nil }
                }
            }
            return Due(source: source, name: name, url: url, copy: copy)
        }
    }

    /// What fetching gave: the lines to say (without "infcal: ") and how many calendars failed.
    struct Report: Sendable {
        var lines: [String] = []
        var failures = 0
        /// Whether any copy changed, so the views should read them again.
        var changed = false
    }

    /// The line that says a fetch of `due` failed for `reason`, and which copy is shown.
    static func failure(_ due: Due, _ reason: String) -> String {
        let shown = due.copy?.fetched.map { "showing the copy of " + Platform.localMinute($0) } ?? "no copy to show yet"
        return "\(due.name): fetch failed (\(reason)); \(shown)"
    }

    /// The helper's path: beside infcal's own executable, else the first on PATH; nil when
    /// there is none.
    static func helper() -> String? {
        if let own = Platform.ownExecutable(), let slash = own.lastIndex(of: "/") {
            let beside = String(own[..<slash]) + "/" + helperName
            if Platform.isExecutable(beside) { return beside }
        }
        for directory in (Platform.variable("PATH") ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + helperName
            if Platform.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// What a request to a server's calendar authenticates with: a user and password, or a
    /// bearer token. Never written anywhere but the helper's standard input.
    struct Credentials {
        var user: String?
        var password: String?
        var token: String?

        /// The request's fields: the user, the secret, and the scheme (`auth =`, else the one
        /// the server took last, which the helper then sends with its first request).
        func fields(for source: CalendarSource, remembered: String?) -> [(String, String?)] {
            [("username", user), ("password", password), ("token", token),
             ("auth", source.authentication?.rawValue), ("auth-hint", source.authentication == nil ? remembered : nil)]
        }
    }

    /// The user and password for `source` at `url`: `username =`, the first line of
    /// `password-command =`, else `~/.netrc`'s entry for the host; or the bearer token the
    /// first line of `token-command =` is.
    /// - returns: the credentials (none when none are configured), or why configured ones
    ///   cannot be had (a command that failed or outlived the calendar's `timeout`), in a few
    ///   words for the calendar's one line.
    static func credentials(for source: CalendarSource, url: String) -> Result<Credentials, Failure> {
        var credentials = Credentials(user: source.username)
        if let command = source.tokenCommand {
            switch secret(command, key: "token-command", what: "token", timeout: source.timeout) {
            case .success(let token): credentials.token = token
            case .failure(let failure): return .failure(failure)
            }
        } else if let command = source.passwordCommand {
            switch secret(command, key: "password-command", what: "password", timeout: source.timeout) {
            case .success(let password): credentials.password = password
            case .failure(let failure): return .failure(failure)
            }
        } else if let home = Platform.variable("HOME"), let host = RemoteURL.parts(RemoteURL.normalized(url))?.host,
                  case .success(let bytes) = Platform.readFile(home + "/.netrc"),
                  let entry = Netrc.credentials(in: String(decoding: bytes, as: UTF8.self), host: host) {
            if credentials.user == nil || credentials.user == entry.login {
                credentials.user = credentials.user ?? entry.login
                credentials.password = entry.password
            }
        }
        if credentials.password != nil || credentials.token != nil, !RemoteURL.allowsPassword(url) {
            return .failure(Failure("\(credentials.token != nil ? "a token" : "a password") goes over https only, or plain http to this machine"))
        }
        return .success(credentials)
    }

    /// Why credentials could not be had, in a few words.
    struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The first line of `command`'s output, run bounded by `timeout` seconds (the
    /// calendar's); `key` names the config key and `what` the secret in the reason a failure gives.
    static func secret(_ command: [String], key: String, what: String, timeout: Int) -> Result<String, Failure> {
        switch Platform.runBounded(command, timeout: Double(timeout)) {
        case .timedOut:
            return .failure(Failure("\(key) did not finish within \(timeout) s and was stopped"))
        case .notStarted(let code):
            return .failure(Failure("\(key) could not be started: \(UsageError.echo(command.first ?? "", limit: 40)): "
                                    + Platform.describe(errno: code)))
        case .finished(let status, let line):
            // A command that goes on writing after its first line ends by SIGPIPE: that line counts.
            guard status == 0 || (status == 128 + Platform.brokenPipeSignal && line != nil) else {
                return .failure(Failure("\(key) failed (exit status \(status))"))
            }
            guard let line, !line.isEmpty else { return .failure(Failure("\(key) gave no \(what)")) }
            return .success(line)
        }
    }

    /// Fetches each of `due` with the helper, one after the other, and says how it went.
    /// `showProgress` shows, on standard error, a fetch that takes longer than `progressDelay`.
    static func fetch(_ due: [Due], cache: RemoteCache?, showProgress: Bool) -> Report {
        var report = Report()
        guard !due.isEmpty, let cache else { return report }
        guard let path = helper() else {
            report.lines.append("the network helper \(helperName) is not installed (beside infcal or on PATH); showing the cached copies")
            report.failures = due.count
            return report
        }
        if let error = Platform.makeDirectories(cache.directory) {
            for item in due { report.lines.append(failure(item, "cannot make \(cache.directory): \(Platform.describe(errno: error.code))")) }
            report.failures = due.count
            return report
        }
        var helper = HelperProcess(path: path)
        defer { helper.stop() }
        for item in due {
            var answer: FetchMessage
            switch fetchOne(item, cache: cache, helper: &helper, showProgress: showProgress) {
            case .success(let fetched): answer = fetched
            case .failure(let problem):
                report.lines.append(failure(item, problem.reason))
                report.failures += 1
                continue
            }
            switch answer["result"] {
            case "fetched": report.changed = true
            case "unchanged": break
            default:
                report.lines.append(failure(item, answer["reason"] ?? "unknown reason"))
                report.failures += 1
            }
            if let line = skippedLine(item, answer: answer) { report.lines.append(line) }
        }
        return report
    }

    /// Fetches `item`: its credentials had (a command run), the request sent to the helper
    /// (started anew when the last one ended), and, when a bearer token was refused (HTTP
    /// 401), the token command run once more and the request sent again.
    /// - returns: the helper's `done` answer, or why there is none.
    static func fetchOne(_ item: Due, cache: RemoteCache, helper: inout HelperProcess, showProgress: Bool) -> Result<FetchMessage, Failure> {
        var retried = false
        while true {
            let credentials: Credentials
            switch self.credentials(for: item.source, url: item.url) {
            case .success(let had): credentials = had
            case .failure(let failure): return .failure(failure)
            }
            let request = FetchMessage("fetch", [
                ("name", item.name), ("url", item.url), ("calendar", item.source.collection), ("cache", cache.files(for: item.name).base),
                ("timeout", String(item.source.timeout)), ("limit", String(sizeLimit)),
                ("etag", item.copy?.etag), ("last-modified", item.copy?.lastModified),
            ] + credentials.fields(for: item.source, remembered: item.copy?.auth?.rawValue))
            let started = Platform.monotonicSeconds()
            var shown = false
            let outcome = helper.exchange(request, timeout: item.source.timeout) { next in
                if showProgress, let bytes = next.integer("bytes"), Platform.monotonicSeconds() - started >= progressDelay {
                    try? FileOutput(fd: 2).write("\rinfcal: \(item.name): fetching, \(bytes) bytes\u{1B}[K")
                    shown = true
                }
            }
            if shown { try? FileOutput(fd: 2).write("\r\u{1B}[K") }
            guard case .answer(let answer) = outcome else {
                return .failure(Failure(outcome == .notStarted ? "cannot start \(helper.path)"
                                        : outcome == .stopped ? "the network helper stopped" : "the network helper did not answer"))
            }
            if answer["result"] == "failed", answer.integer("status") == 401, credentials.token != nil, !retried {
                // A token may have expired since it was printed: one more, once.
                retried = true
                continue
            }
            return .success(answer)
        }
    }

    /// The line that says, once, which calendars of an account discovery skipped as holding
    /// no events (task lists): said when the set differs from the one the last fetch found.
    static func skippedLine(_ item: Due, answer: FetchMessage) -> String? {
        guard let skipped = answer["skipped"], skipped != item.copy?.skipped else { return nil }
        let names = skipped.split(separator: " ").compactMap { OneLineText.unescaped($0) }.map { UsageError.echo($0, limit: 40) }
        guard !names.isEmpty else { return nil }
        return "\(item.name): not shown, as \(names.count == 1 ? "it holds" : "they hold") no events (tasks or notes only): "
            + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", and \(names.count - 5) more" : "")
    }
}

/// The network helper of one run, started when the first request needs it and again when
/// the last one ended (a helper that hit a body it could not stop ends after answering).
struct HelperProcess {
    let path: String
    private var session: HelperSession?

    init(path: String) {
        self.path = path
    }

    /// How one request ended.
    enum Outcome: Equatable {
        case answer(FetchMessage)
        /// The helper could not be started.
        case notStarted
        /// The request could not be sent: the helper is gone.
        case stopped
        /// No answer came in time (the helper is then stopped) or the helper went away.
        case silent
    }

    /// Sends `request` (starting the helper first when none runs) and waits for its answer.
    mutating func exchange(_ request: FetchMessage, timeout: Int, progress: (FetchMessage) -> Void = { _ in }) -> Outcome {
        if session == nil {
            guard let child = Platform.startChild(path, [], errorToNull: true) else { return .notStarted }
            session = HelperSession(child: child)
        }
        guard var current = session else { return .notStarted }
        let outcome = current.exchange(request, timeout: timeout, progress: progress)
        session = current
        switch outcome {
        case .answer(let answer):
            if answer["ending"] == "yes" { stop() }
            return .answer(answer)
        case .stopped:
            stop()
            return .stopped
        case .silent:
            stop()
            return .silent
        }
    }

    /// Ends the helper: its input closed, so that it ends, and waited for.
    mutating func stop() {
        guard let current = session else { return }
        Platform.closeDescriptor(current.child.input)
        Platform.closeDescriptor(current.child.output)
        Platform.waitChild(current.child.pid)
        session = nil
    }
}

/// A started network helper, spoken to one request at a time.
struct HelperSession {
    let child: Platform.Child
    private var reader = FetchMessageReader()
    private var pending: [FetchMessage] = []

    init(child: Platform.Child) {
        self.child = child
    }

    /// How one request ended.
    enum Outcome: Equatable {
        case answer(FetchMessage)
        /// The request could not be sent: the helper is gone.
        case stopped
        /// No answer came in time (the helper is then stopped) or the helper went away.
        case silent
    }

    /// Sends `request` and waits for the `done` that answers it, handing each `progress`
    /// message to `progress` meanwhile. The helper keeps its own deadline of `timeout`
    /// seconds; the one here, ten seconds later, only guards against a helper that hangs.
    mutating func exchange(_ request: FetchMessage, timeout: Int, progress: (FetchMessage) -> Void = { _ in }) -> Outcome {
        do {
            try Array(request.encoded().utf8).withUnsafeBytes { try Platform.writeAll(child.input, $0) }
        } catch {
            return .stopped
        }
        let name = request["name"]
        let deadline = Platform.monotonicSeconds() + Double(timeout) + 10
        waiting: while true {
            if let next = pending.first {
                pending.removeFirst()
                if next.verb == "done", next["name"] == name { return .answer(next) }
                if next.verb == "progress" { progress(next) }
                continue
            }
            let left = deadline - Platform.monotonicSeconds()
            guard left > 0 else { break }
            guard let ready = try? Platform.waitForInput([child.output], timeout: Int(min(left, 0.25) * 1000) + 1) else { break }
            if ready.isEmpty { continue }
            switch Platform.readAvailable(child.output, limit: 65_536) {
            case .bytes(let bytes): pending += reader.feed(bytes)
            case .interrupted: continue
            case .endOfFile, .failed: break waiting
            }
        }
        Platform.terminateChild(child.pid)
        return .silent
    }
}

extension String {
    /// A cache file name shown as the name it was made from (`%XX` decoded where it can be).
    var removingPercentEncodingForDisplay: String {
        var bytes: [UInt8] = []
        let all = Array(utf8)
        var position = 0
        while position < all.count {
            if all[position] == 0x25, position + 2 < all.count,
               let value = UInt8(String(decoding: all[(position + 1)...(position + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                position += 3
            } else {
                bytes.append(all[position])
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
