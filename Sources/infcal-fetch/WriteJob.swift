import Foundation
import InfCalRemote
import InfCalTerminal

/// One `put` or `delete` request: one event written to a CalDAV server (RFC 4791 section
/// 5.3.2), guarded by ETags so that another client's change is never overwritten: a new
/// event goes with `If-None-Match: *`, a change or a removal with `If-Match` and the ETag
/// the cached copy holds. The collection's directory in the cache is brought in step after.
struct WriteJob {
    let name: String
    /// The calendar's URL as configured: the origin the resource's path is resolved against.
    let url: String
    /// The resource's path on the server, not percent-encoded (in the request, escaped by
    /// `OneLineText`).
    let href: String
    /// The collection's directory in the cache, and the event's file in it.
    let directory: String
    let file: String
    /// `PUT` or `DELETE`.
    let method: String
    let body: [UInt8]
    /// The ETag the copy holds; nil for a new event.
    let etag: String?
    let timeout: Int
    /// The collection's origin when it is on another host than `url` (its calendar home elsewhere).
    let origin: String?
    /// The credentials, and the scheme forced or remembered (never written anywhere).
    let message: FetchMessage

    /// The job `message` asks for; nil when a field it needs is missing or bad.
    init?(_ message: FetchMessage) {
        guard message.verb == "put" || message.verb == "delete", let name = message["name"], let url = message["url"],
              let href = message["href"].flatMap({ OneLineText.unescaped(Substring($0)) }), href.hasPrefix("/"),
              let directory = message["directory"], let file = message["file"],
              !file.contains("/"), file != "..", file != "." else { return nil }
        method = message.verb == "put" ? "PUT" : "DELETE"
        var body: [UInt8] = []
        if method == "PUT" {
            guard let encoded = message["body"], let data = Data(base64Encoded: encoded) else { return nil }
            body = Array(data)
        }
        etag = message["etag"].flatMap { OneLineText.unescaped(Substring($0)) }
        guard method == "PUT" || etag != nil else { return nil }
        self.name = name
        self.url = url
        self.href = href
        self.directory = directory
        self.file = file
        self.body = body
        timeout = max(1, message.integer("timeout") ?? 15)
        origin = message["origin"]
        self.message = message
    }

    /// Sends the change.
    /// - returns: `written` (the copy then holds the change) or `conflict` (the server's
    ///   resource changed since the copy was made, or a new event's name is taken; the copy
    ///   then holds the server's version and nothing was written).
    /// - throws: `FetchFailure` when the server refused it or could not be reached.
    func run() throws(FetchFailure) -> String {
        let server = origin ?? url
        guard RemoteURL.isSupported(url), RemoteURL.isSupported(server), let base = URL(string: RemoteURL.normalized(server)),
              let target = URL(string: CalDAVSync.encodedPath(href), relativeTo: base)?.absoluteURL else {
            throw FetchFailure("not an http or https URL")
        }
        let authenticator = Authenticator(message, url: url)
        if authenticator.hasCredentials, !RemoteURL.allowsPassword(url) {
            throw FetchFailure("a password or token is sent over https only (or plain http to this machine)")
        }
        let client = HTTPClient(deadline: Platform.monotonicSeconds() + Double(timeout), timeout: timeout, limit: FetchJob.defaultLimit,
                                authenticator: authenticator, progress: { _ in })
        // The account's lock, as a fetch holds it: `NAME.lock` beside `NAME.caldav/`.
        let account = Platform.directory(of: directory)
        let lock = (account.hasSuffix(".caldav") ? String(account.dropLast(".caldav".count)) : account) + ".lock"
        return try FetchJob.holding(lock, timeout: timeout) { () throws(FetchFailure) in try send(target, client: client) }
    }

    /// What `run` does under the lock.
    private func send(_ target: URL, client: HTTPClient) throws(FetchFailure) -> String {
        var headers: [String: String] = [:]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        if method == "PUT" { headers["Content-Type"] = "text/calendar; charset=utf-8" }
        let reply = try client.send(method, target, headers: headers, body: method == "PUT" ? Data(body) : nil)
        if reply.status == 412 {
            refresh(target, client: client)
            return "conflict"
        }
        guard (200..<300).contains(reply.status) else { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        var stored = CalDAVSync.stored(in: directory)
        var commit = CollectionCommit(directory: directory, fresh: false)
        if method == "DELETE" {
            commit.remove(file)
            stored.items[file] = nil
            commit.files[CalendarFiles.etagsFile] = stored.etagsBytes
            try commit.apply()
            return "written"
        }
        // A strong ETag in the answer says the server stored the bytes as sent (RFC 4791
        // section 5.3.4); otherwise what it stored is fetched back.
        if let newTag = reply.headers["etag"], !newTag.hasPrefix("W/") {
            commit.files[file] = body
            stored.items[file] = (href, newTag)
            commit.files[CalendarFiles.etagsFile] = stored.etagsBytes
            try commit.apply()
        } else {
            refresh(target, client: client)
        }
        return "written"
    }

    /// Brings the event's file in the copy to what the server holds now (gone when it is
    /// gone). A failure leaves the copy as it was: the next refresh mends it.
    private func refresh(_ target: URL, client: HTTPClient) {
        guard let reply = try? client.send("GET", target, headers: ["Accept": "text/calendar"]) else { return }
        var stored = CalDAVSync.stored(in: directory)
        var commit = CollectionCommit(directory: directory, fresh: false)
        if reply.status == 404 || reply.status == 410 {
            commit.remove(file)
            stored.items[file] = nil
        } else if (200..<300).contains(reply.status), ICalendarSniff.isICalendar(reply.body), ICalendarSniff.isComplete(reply.body) {
            commit.files[file] = Array(reply.body)
            stored.items[file] = (href, reply.headers["etag"] ?? "")
        } else {
            return
        }
        commit.files[CalendarFiles.etagsFile] = stored.etagsBytes
        try? commit.apply()
    }
}
