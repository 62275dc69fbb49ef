import Foundation
import InfCalModel
import InfCalRemote
import InfCalTerminal

/// One `fetch` request: what infcal asks the helper to bring up to date.
struct FetchJob {
    let name: String
    /// The URL as the user wrote it (`webcal://` included).
    let url: String
    /// The one calendar of a CalDAV account to bring up to date (`calendar =`); nil for all.
    let calendar: String?
    let files: CalendarFiles
    let timeout: Int
    let limit: Int
    /// The credentials, and the scheme forced or remembered (never written anywhere).
    let message: FetchMessage
    /// From the copy's meta, when the copy is there.
    let etag: String?
    let lastModified: String?

    /// The largest body taken unless the request says otherwise.
    static let defaultLimit = 64 << 20

    /// The job `message` asks for; nil when it lacks a name, a URL or a cache.
    init?(_ message: FetchMessage) {
        guard message.verb == "fetch", let name = message["name"], let url = message["url"], let cache = message["cache"] else {
            return nil
        }
        self.name = name
        self.url = url
        calendar = message["calendar"]
        files = CalendarFiles(base: cache)
        timeout = max(1, message.integer("timeout") ?? 15)
        limit = max(1, message.integer("limit") ?? Self.defaultLimit)
        self.message = message
        etag = message["etag"]
        lastModified = message["last-modified"]
    }

    /// What was there before: the meta of the copy, when it came from this URL.
    var meta: CacheMeta? {
        guard case .success(let bytes) = Platform.readFile(files.meta), let meta = CacheMeta(bytes: bytes),
              meta.url == url else { return nil }
        return meta
    }

    /// Brings the copy up to date, holding the calendar's lock in the cache (another run's
    /// fetch or write of the same calendar waits, at most as long as this fetch may take).
    /// - returns: `fetched` or `unchanged`, and the calendars discovery skipped.
    /// - throws: `FetchFailure`; the copy there is then as it was.
    func run(progress: @escaping @Sendable (Int) -> Void) throws(FetchFailure) -> (result: String, skipped: [String]) {
        let address = RemoteURL.normalized(url)
        guard RemoteURL.isSupported(url), let target = URL(string: address) else {
            throw FetchFailure("not an http, https or webcal URL")
        }
        let authenticator = Authenticator(message, url: url)
        if authenticator.hasCredentials, !RemoteURL.allowsPassword(url) {
            throw FetchFailure("a password or token is sent over https only (or plain http to this machine)")
        }
        let client = HTTPClient(deadline: Platform.monotonicSeconds() + Double(timeout), timeout: timeout, limit: limit,
                                authenticator: authenticator, progress: progress)
        return try Self.holding(files.base + ".lock", timeout: timeout) { () throws(FetchFailure) in try fetch(target, client: client) }
    }

    /// Runs `body` holding the calendar's lock `path` in the cache, waiting for it at most
    /// `timeout` seconds (as long as another run's fetch of it may take).
    /// - throws: what `body` throws, or a `FetchFailure` when the lock cannot be had.
    static func holding<T>(_ path: String, timeout: Int, _ body: () throws(FetchFailure) -> T) throws(FetchFailure) -> T {
        let locked: Result<T, FetchFailure>?
        do {
            locked = try Platform.withLock(on: path, timeout: Double(timeout)) { () -> Result<T, FetchFailure> in
                do throws(FetchFailure) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw FetchFailure("cannot lock the cache (\(CollectionCommit.describe(error)))")
        }
        guard let locked else { throw FetchFailure("another infcal is fetching or writing this calendar") }
        return try locked.get()
    }

    /// What `run` does under the lock.
    private func fetch(_ target: URL, client: HTTPClient) throws(FetchFailure) -> (result: String, skipped: [String]) {
        let known = meta
        let kind: String
        if let known, let stored = known.kind {
            kind = stored
        } else if RemoteURL.looksLikeSubscription(url) || target.path.lowercased().hasSuffix(".ics") {
            kind = "ics"
        } else {
            kind = try CalDAVSync.probe(target, client: client) ? "caldav" : "ics"
        }
        if kind == "caldav" {
            return try CalDAVSync(job: self, client: client).run(target)
        }
        return (try subscription(target, client: client, known: known), [])
    }

    /// A subscription: a conditional GET, the copy replaced when a new body is iCalendar.
    private func subscription(_ target: URL, client: HTTPClient, known: CacheMeta?) throws(FetchFailure) -> String {
        var headers: [String: String] = ["Accept": "text/calendar, */*;q=0.5"]
        let haveCopy = known != nil && Platform.exists(files.copy)
        if haveCopy {
            if let etag = etag ?? known?.etag { headers["If-None-Match"] = etag }
            if let modified = lastModified ?? known?.lastModified { headers["If-Modified-Since"] = modified }
        }
        let reply = try client.send("GET", target, headers: headers)
        var meta = known ?? CacheMeta()
        meta.url = url
        meta.kind = "ics"
        if reply.status == 304, haveCopy {
            meta.auth = client.authenticator.usedScheme
            meta.fetched = Platform.secondsNow()
            try write(meta)
            return "unchanged"
        }
        guard (200..<300).contains(reply.status) else { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        guard ICalendarSniff.isICalendar(reply.body) else {
            let type = reply.headers["content-type"]?.split(separator: ";").first.map(String.init) ?? "no type"
            throw FetchFailure("not iCalendar data: \(InertText.echo(type, limit: 40))")
        }
        guard ICalendarSniff.isComplete(reply.body) else {
            throw FetchFailure("body cut short: no END:VCALENDAR at its end (\(reply.body.count) bytes)")
        }
        do {
            let body = reply.body
            try Platform.writeAtomically(to: files.copy, mode: 0o600) { fd in
                try body.withUnsafeBytes { try Platform.writeAll(fd, $0) }
            }
        } catch {
            throw FetchFailure("cannot write the copy (\(CollectionCommit.describe(error)))")
        }
        meta.auth = client.authenticator.usedScheme
        meta.etag = reply.headers["etag"]
        meta.lastModified = reply.headers["last-modified"]
        meta.fetched = Platform.secondsNow()
        try write(meta)
        return "fetched"
    }

    /// Writes the copy's meta, last, so that a copy is never described by what it replaced.
    func write(_ meta: CacheMeta) throws(FetchFailure) {
        do {
            try Platform.writeAtomically(meta.bytes, to: files.meta, mode: 0o600)
        } catch {
            throw FetchFailure("cannot write the cache (\(CollectionCommit.describe(error)))")
        }
    }
}
