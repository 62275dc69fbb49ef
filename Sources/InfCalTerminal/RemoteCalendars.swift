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
    /// Seconds a `password-command` may take.
    static let passwordTimeout = 30.0

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

    /// The user and password for `source` at `url`: `username =`, the first line of
    /// `password-command =`, else `~/.netrc`'s entry for the host.
    /// - returns: nil for the password when none is configured; a failure reason when a
    ///   configured one cannot be had.
    static func credentials(for source: CalendarSource, url: String) -> (user: String?, password: String?, failure: String?) {
        var user = source.username
        var password: String?
        if let command = source.passwordCommand {
            guard let line = Platform.firstLine(ofCommand: command, timeout: passwordTimeout) else {
                return (user, nil, "password-command gave no password")
            }
            password = line
        } else if let home = Platform.variable("HOME"), let host = RemoteURL.parts(RemoteURL.normalized(url))?.host,
                  case .success(let bytes) = Platform.readFile(home + "/.netrc"),
                  let entry = Netrc.credentials(in: String(decoding: bytes, as: UTF8.self), host: host) {
            if user == nil || user == entry.login {
                user = user ?? entry.login
                password = entry.password
            }
        }
        if password != nil, !RemoteURL.allowsPassword(url) {
            return (user, nil, "a password goes over https only, or plain http to this machine")
        }
        return (user, password, nil)
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
        guard let child = Platform.startChild(path, [], errorToNull: true) else {
            for item in due { report.lines.append(failure(item, "cannot start \(path)")) }
            report.failures = due.count
            return report
        }
        defer {
            Platform.closeDescriptor(child.input)
            Platform.closeDescriptor(child.output)
            Platform.waitChild(child.pid)
        }
        var session = HelperSession(child: child)
        var helperGone = false
        for item in due {
            if helperGone {
                report.lines.append(failure(item, "the network helper stopped"))
                report.failures += 1
                continue
            }
            let (user, password, problem) = credentials(for: item.source, url: item.url)
            if let problem {
                report.lines.append(failure(item, problem))
                report.failures += 1
                continue
            }
            let request = FetchMessage("fetch", [
                ("name", item.name), ("url", item.url), ("calendar", item.source.collection), ("cache", cache.files(for: item.name).base),
                ("timeout", String(item.source.timeout)), ("limit", String(sizeLimit)),
                ("etag", item.copy?.etag), ("last-modified", item.copy?.lastModified),
                ("username", user), ("password", password),
            ])
            let started = Platform.monotonicSeconds()
            var shown = false
            let outcome = session.exchange(request, timeout: item.source.timeout) { next in
                if showProgress, let bytes = next.integer("bytes"), Platform.monotonicSeconds() - started >= progressDelay {
                    try? FileOutput(fd: 2).write("\rinfcal: \(item.name): fetching, \(bytes) bytes\u{1B}[K")
                    shown = true
                }
            }
            if shown { try? FileOutput(fd: 2).write("\r\u{1B}[K") }
            guard case .answer(let answer) = outcome else {
                helperGone = true
                report.lines.append(failure(item, outcome == .stopped ? "the network helper stopped" : "the network helper did not answer"))
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
        }
        return report
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
