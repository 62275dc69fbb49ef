import Foundation
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
    let username: String?
    let password: String?
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
        username = message["username"]
        password = message["password"]
        etag = message["etag"]
        lastModified = message["last-modified"]
    }

    /// What was there before: the meta of the copy, when it came from this URL.
    var meta: CacheMeta? {
        guard case .success(let bytes) = Platform.readFile(files.meta), let meta = CacheMeta(bytes: bytes),
              meta.url == url else { return nil }
        return meta
    }

    /// Brings the copy up to date.
    /// - returns: `fetched` or `unchanged`.
    /// - throws: `FetchFailure`; the copy there is then as it was.
    func run(progress: @escaping @Sendable (Int) -> Void) throws(FetchFailure) -> String {
        let address = RemoteURL.normalized(url)
        guard RemoteURL.isSupported(url), let target = URL(string: address) else {
            throw FetchFailure("not an http, https or webcal URL")
        }
        if password != nil, !RemoteURL.allowsPassword(url) {
            throw FetchFailure("a password is sent over https only (or plain http to this machine)")
        }
        let client = HTTPClient(deadline: Platform.monotonicSeconds() + Double(timeout), timeout: timeout, limit: limit,
                                credentials: username.map { "\($0):\(password ?? "")" }, progress: progress)
        let known = meta
        let kind: String
        if let known, let stored = known.kind {
            kind = stored
        } else if url.lowercased().hasPrefix("webcal") || target.path.lowercased().hasSuffix(".ics") {
            kind = "ics"
        } else {
            kind = try CalDAVSync.probe(target, client: client) ? "caldav" : "ics"
        }
        if kind == "caldav" {
            return try CalDAVSync(job: self, client: client).run(target)
        }
        return try subscription(target, client: client, known: known)
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
            meta.fetched = Platform.secondsNow()
            try write(meta)
            return "unchanged"
        }
        guard (200..<300).contains(reply.status) else { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        guard ICalendarSniff.isICalendar(reply.body) else {
            let type = reply.headers["content-type"]?.split(separator: ";").first.map(String.init) ?? "no type"
            throw FetchFailure("not iCalendar data: \(type)")
        }
        do {
            try Platform.writeAtomically(Array(reply.body), to: files.copy, mode: 0o600)
        } catch {
            throw FetchFailure("cannot write the copy: \(error)")
        }
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
            throw FetchFailure("cannot write the cache: \(error)")
        }
    }
}
