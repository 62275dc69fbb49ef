import Foundation
import InfCalModel
import InfCalRemote
import InfCalTerminal

/// A CalDAV account or collection brought up to date in the cache: discovery (RFC 4791 and
/// RFC 6764), then per calendar a `calendar-query` REPORT the first time and a
/// `sync-collection` REPORT (RFC 6578), or a comparison of ETags, after that, so that one
/// changed event costs one event. Each collection's changes are gathered in memory first and
/// put in place in one step (`CollectionCommit`): a failure at any point leaves its last good
/// copy whole.
struct CalDAVSync {
    let job: FetchJob
    let client: HTTPClient

    /// A calendar collection found on the server.
    struct Collection {
        let url: URL
        let name: String?
        let color: String?
        let syncToken: String?
        /// Whether the user's privileges on it hold no write privilege.
        var isReadOnly = false
    }

    /// What discovery found: the calendars, whether the URL was one itself, and the names of
    /// those skipped as holding no events (task lists).
    struct Discovery {
        var collections: [Collection]
        var direct: Bool
        var skipped: [String] = []
    }

    static let xmlHeaders = ["Content-Type": "application/xml; charset=utf-8"]

    /// Whether `url` answers PROPFIND as a WebDAV server does (207 Multi-Status).
    static func probe(_ url: URL, client: HTTPClient) throws(FetchFailure) -> Bool {
        let reply = try client.send("PROPFIND", url, headers: xmlHeaders.merging(["Depth": "0"]) { $1 },
                                    body: Data(propfind(["<D:resourcetype/>"]).utf8))
        if reply.status == 401 || reply.status == 403 { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        return reply.status == 207 && Multistatus(reply.body) != nil
    }

    /// A PROPFIND body asking for `properties`.
    static func propfind(_ properties: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/" \
        xmlns:CS="http://calendarserver.org/ns/"><D:prop>\(properties.joined())</D:prop></D:propfind>
        """
    }

    static let collectionProperties = ["<D:resourcetype/>", "<D:displayname/>", "<A:calendar-color/>", "<D:sync-token/>",
                                       "<C:supported-calendar-component-set/>", "<D:current-user-principal/>",
                                       "<C:calendar-home-set/>", "<D:current-user-privilege-set/>"]

    /// PROPFIND `url` at `depth`.
    func propfind(_ url: URL, depth: String, _ properties: [String]) throws(FetchFailure) -> (Multistatus, URL) {
        let reply = try client.send("PROPFIND", url, headers: Self.xmlHeaders.merging(["Depth": depth]) { $1 },
                                    body: Data(Self.propfind(properties).utf8))
        guard reply.status == 207 else { throw failure(reply, url) }
        guard let answer = Multistatus(reply.body) else { throw FetchFailure("not a WebDAV answer") }
        return (answer, reply.url)
    }

    /// The failure an answer of another status than expected is: `HTTP 401`, and, when the
    /// request went to another site than the configured one (where no credentials go), which.
    func failure(_ reply: HTTPReply, _ url: URL) -> FetchFailure {
        if reply.status == 401, !RemoteURL.sameSite(job.url, url.absoluteString) {
            let host = RemoteURL.parts(url.absoluteString)?.host ?? "?"
            return FetchFailure("HTTP 401 from \(InertText.echo(host, limit: 60)), outside the configured host's domain, "
                                + "where no credentials are sent", status: 401)
        }
        return FetchFailure("HTTP \(reply.status)", status: reply.status)
    }

    /// `href` made absolute against `base`; nil when it is not a URL reference even with its
    /// blanks and other bytes a URL cannot hold escaped.
    static func resolve(_ href: String, against base: URL) -> URL? {
        if let url = URL(string: href, relativeTo: base)?.absoluteURL { return url }
        return URL(string: escapeInvalid(href), relativeTo: base)?.absoluteURL
    }

    /// `href` with every byte a URL reference cannot hold as `%XX` (a `%` that opens no escape too).
    static func escapeInvalid(_ href: String) -> String {
        let bytes = Array(href.utf8)
        var result = ""
        for (index, byte) in bytes.enumerated() {
            let isEscape = byte == 0x25 && index + 2 < bytes.count && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
            if byte > 0x20, byte < 0x7F, !Array("\"<>\\^`{|}".utf8).contains(byte), byte != 0x25 || isEscape {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// The path of a URL, percent escapes decoded once, with one trailing slash, to compare
    /// hrefs: `/a%20b/`, `/a b/` and `/a%20b` are one collection.
    static func key(_ url: URL) -> String {
        let path = url.path.isEmpty ? "/" : url.path
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// The origin (`scheme://host:port`) of `url`.
    static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "https"
        let host = url.host.map { $0.contains(":") ? "[" + $0 + "]" : $0 } ?? ""
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }

    // MARK: Discovery

    /// The calendars `url` names: itself when it is a calendar collection, else those of the
    /// calendar home its principal names (through `.well-known/caldav` when `url` says
    /// nothing). The home may be on another host (iCloud's `p42-caldav.icloud.com` for
    /// `caldav.icloud.com`): it is followed, credentials going only within the configured
    /// host's domain. Calendars that hold no events are left out, and named.
    func discover(_ url: URL) throws(FetchFailure) -> Discovery {
        let (first, answered) = try propfind(url, depth: "0", Self.collectionProperties)
        if let own = first.responses.first, own.isCalendar {
            return Discovery(collections: [collection(own, base: answered) ?? Collection(url: answered, name: nil, color: nil, syncToken: nil)],
                             direct: true)
        }
        var home = first.responses.first?.hrefIn(DAVNamespace.caldav, "calendar-home-set").flatMap { Self.resolve($0, against: answered) }
        var principal = first.responses.first?.hrefIn(DAVNamespace.dav, "current-user-principal").flatMap { Self.resolve($0, against: answered) }
        if home == nil, principal == nil, let wellKnown = Self.resolve("/.well-known/caldav", against: url) {
            let (known, knownURL) = try propfind(wellKnown, depth: "0", ["<D:current-user-principal/>", "<C:calendar-home-set/>"])
            home = known.responses.first?.hrefIn(DAVNamespace.caldav, "calendar-home-set").flatMap { Self.resolve($0, against: knownURL) }
            principal = known.responses.first?.hrefIn(DAVNamespace.dav, "current-user-principal").flatMap { Self.resolve($0, against: knownURL) }
        }
        if home == nil, let principal {
            let (answer, principalURL) = try propfind(principal, depth: "0", ["<C:calendar-home-set/>"])
            home = answer.responses.first?.hrefIn(DAVNamespace.caldav, "calendar-home-set").flatMap { Self.resolve($0, against: principalURL) }
        }
        guard let home else { throw FetchFailure("no CalDAV calendars found (no calendar-home-set)") }
        let (listing, homeURL) = try propfind(home, depth: "1", Self.collectionProperties)
        let calendars = listing.responses.filter(\.isCalendar)
        var discovery = Discovery(collections: calendars.filter(\.holdsEvents).compactMap { collection($0, base: homeURL) }, direct: false)
        discovery.skipped = calendars.filter { !$0.holdsEvents }.map { response in
            response.text(DAVNamespace.dav, "displayname") ?? Self.resolve(response.href, against: homeURL).map(Self.key) ?? response.href
        }.sorted()
        return discovery
    }

    private func collection(_ response: DAVResponse, base: URL) -> Collection? {
        guard let url = Self.resolve(response.href, against: base) else { return nil }
        return Collection(url: url, name: response.text(DAVNamespace.dav, "displayname"),
                          color: response.text(DAVNamespace.apple, "calendar-color"),
                          syncToken: response.text(DAVNamespace.dav, "sync-token"), isReadOnly: response.isReadOnly)
    }

    // MARK: Synchronising

    /// Discovers the calendars and brings each one's directory up to date.
    /// - returns: `fetched` when anything changed, else `unchanged`, and the names of the
    ///   calendars skipped as holding no events.
    func run(_ url: URL) throws(FetchFailure) -> (result: String, skipped: [String]) {
        var discovery = try discover(url)
        if let chosen = job.calendar, !discovery.direct {
            // `calendar =` names one calendar of the account: the others are not downloaded.
            discovery.collections = discovery.collections.filter { CachedCollection.isChosen(chosen, href: Self.key($0.url), name: $0.name) }
            discovery.skipped = []
        }
        let root = job.files.collections
        if let error = Platform.makeDirectories(root) {
            throw FetchFailure("cannot make the cache's directory: \(Platform.describe(errno: error.code))")
        }
        var changed = false
        var kept: Set<String> = []
        for collection in discovery.collections {
            let last = collection.url.path.split(separator: "/").last.map(String.init) ?? "calendar"
            let name = RemoteCache.fileName(discovery.direct ? "calendar" : last)
            guard !kept.contains(name) else { continue }
            kept.insert(name)
            if try sync(collection, into: root + "/" + name) { changed = true }
        }
        // Calendars gone from the server go from the copy, and so do the leftovers of a
        // refresh that was stopped (dot names: the account is locked, none is in use).
        for name in Platform.entryNames(root) where !kept.contains(name) {
            Platform.removeTree(root + "/" + name)
            if !name.hasPrefix(".") { changed = true }
        }
        var meta = CacheMeta()
        meta.url = job.url
        meta.kind = "caldav"
        meta.calendar = job.calendar
        meta.auth = client.authenticator.usedScheme
        meta.skipped = discovery.skipped.isEmpty ? nil : discovery.skipped.map(OneLineText.escaped).joined(separator: " ")
        meta.fetched = Platform.secondsNow()
        try job.write(meta)
        return (changed ? "fetched" : "unchanged", discovery.skipped)
    }

    /// What a collection's directory holds (`CachedCollection`), read from its files.
    static func stored(in directory: String) -> CachedCollection {
        CachedCollection(collection: try? Platform.readFile(directory + "/" + CalendarFiles.collectionFile).get(),
                         etags: try? Platform.readFile(directory + "/" + CalendarFiles.etagsFile).get())
    }

    /// Brings one collection's directory up to date: the changes gathered, then put in place
    /// in one step.
    /// - returns: whether anything in it changed.
    private func sync(_ collection: Collection, into directory: String) throws(FetchFailure) -> Bool {
        var stored = Self.stored(in: directory)
        let sameCollection = stored.href == Self.key(collection.url)
        var commit = CollectionCommit(directory: directory, fresh: !sameCollection)
        if !sameCollection { stored.items = [:] }
        // An `etags` file of the first format may hold an href it could not keep (a line break
        // in it): every ETag is compared again once, and the file is written anew.
        let oldToken = sameCollection && !stored.isFirstFormat ? stored.syncToken : nil
        var newToken = collection.syncToken

        if let oldToken, let current = collection.syncToken, oldToken == current, !stored.items.isEmpty || sameCollection {
            // The server says nothing changed since the token we hold.
        } else if let oldToken, collection.syncToken != nil, let delta = try syncCollection(collection.url, token: oldToken) {
            newToken = delta.token ?? collection.syncToken
            try apply(changed: delta.changed, removed: delta.removed, collection: collection.url, stored: &stored, commit: &commit)
        } else if sameCollection, !stored.items.isEmpty {
            let listing = try etags(collection.url)
            let byHref = Dictionary(stored.items.map { ($0.value.href, $0.value.etag) }, uniquingKeysWith: { first, _ in first })
            let changedHrefs = listing.filter { byHref[$0.key] != $0.value }.map(\.key)
            let removed = byHref.keys.filter { listing[$0] == nil }
            try apply(changed: changedHrefs, removed: removed, collection: collection.url, stored: &stored, commit: &commit)
        } else {
            commit.fresh = true
            try fullQuery(collection.url, stored: &stored, commit: &commit)
        }
        let configuredOrigin = URL(string: RemoteURL.normalized(job.url)).map(Self.origin)
        let origin = Self.origin(collection.url)
        let meta = CachedCollection.collectionMeta(href: Self.key(collection.url), name: collection.name, color: collection.color,
                                                   syncToken: newToken, origin: origin == configuredOrigin ? nil : origin,
                                                   readOnly: collection.isReadOnly)
        let etags = stored.etagsBytes
        guard commit.hasChanges || meta != stored.meta || (try? Platform.readFile(directory + "/" + CalendarFiles.etagsFile).get()) != etags
        else { return false }
        commit.files[CalendarFiles.etagsFile] = etags
        commit.files[CalendarFiles.collectionFile] = Array(meta.encoded().utf8)
        try commit.apply()
        return true
    }

    /// The path key of an href inside a collection: the path, its escapes decoded once.
    private func hrefKey(_ href: String, base: URL) -> String? {
        Self.resolve(href, against: base).map(\.path)
    }

    /// A file name for the event at `href`: its last segment, made safe, ending in `.ics`; a
    /// hash of the whole href when that name is another href's already (`taken`).
    static func fileName(for href: String, taken: [String: (href: String, etag: String)] = [:]) -> String {
        let last = href.split(separator: "/").last.map(String.init) ?? "event"
        let escaped = RemoteCache.fileName(last)
        let name = escaped.lowercased().hasSuffix(".ics") ? escaped : escaped + ".ics"
        if let holder = taken[name], holder.href != href {
            return "h-" + Hashes.hex(Hashes.sha256(href.utf8)) + ".ics"
        }
        return name
    }

    /// The calendar data of `response`, when it is a whole iCalendar object; a failure (the
    /// href quoted short and inert) when it is cut short, so that the refresh changes nothing.
    private func calendarData(_ response: DAVResponse, path: String) throws(FetchFailure) -> [UInt8]? {
        guard let data = response.text(DAVNamespace.caldav, "calendar-data").map({ Array($0.utf8) }) else { return nil }
        guard ICalendarSniff.isICalendar(data) else { return nil }
        guard ICalendarSniff.isComplete(data) else {
            throw FetchFailure("the event at \(InertText.echo(path, limit: 60)) is cut short (no END:VCALENDAR)")
        }
        return data
    }

    /// The first download: every event, with a `calendar-query` REPORT.
    private func fullQuery(_ url: URL, stored: inout CachedCollection, commit: inout CollectionCommit) throws(FetchFailure) {
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>\
        <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter></C:calendar-query>
        """
        let answer = try report(url, body: body, depth: "1")
        var items: [String: (href: String, etag: String)] = [:]
        let own = Self.key(url)
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: url), path != own, path + "/" != own,
                  let data = try calendarData(response, path: path) else { continue }
            // The same event under two spellings of its href (escaped, or not) is one file.
            if items.values.contains(where: { $0.href == path }) { continue }
            let file = Self.fileName(for: path, taken: items)
            commit.files[file] = data
            items[file] = (path, response.text(DAVNamespace.dav, "getetag") ?? "")
        }
        stored.items = items
    }

    /// The changes since `token`, by `sync-collection`; nil when the server refuses the token
    /// (then everything is compared again).
    private func syncCollection(_ url: URL, token: String) throws(FetchFailure) -> (changed: [String], removed: [String], token: String?)? {
        let escaped = token.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(escaped)</D:sync-token><D:sync-level>1</D:sync-level>\
        <D:prop><D:getetag/></D:prop></D:sync-collection>
        """
        let reply = try client.send("REPORT", url, headers: Self.xmlHeaders.merging(["Depth": "0"]) { $1 }, body: Data(body.utf8))
        if [400, 403, 409, 412].contains(reply.status) { return nil }
        guard reply.status == 207, let answer = Multistatus(reply.body) else { throw failure(reply, url) }
        var changed: [String] = [], removed: [String] = []
        let own = Self.key(url)
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: url), path + "/" != own, path != own else { continue }
            if response.status == 404 { removed.append(path) } else if !changed.contains(path) { changed.append(path) }
        }
        return (changed, removed, answer.syncToken)
    }

    /// Each member's href path and ETag, by PROPFIND.
    private func etags(_ url: URL) throws(FetchFailure) -> [String: String] {
        let (answer, base) = try propfind(url, depth: "1", ["<D:getetag/>", "<D:resourcetype/>"])
        var result: [String: String] = [:]
        let own = Self.key(url)
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: base), path != own, path + "/" != own,
                  let etag = response.text(DAVNamespace.dav, "getetag") else { continue }
            result[path] = etag
        }
        return result
    }

    /// Fetches the events at `changed` (one `calendar-multiget`) and drops those at `removed`,
    /// in `commit` and `stored`.
    private func apply(changed: [String], removed: [String], collection: URL, stored: inout CachedCollection,
                       commit: inout CollectionCommit) throws(FetchFailure) {
        let fileOfHref = Dictionary(stored.items.map { ($0.value.href, $0.key) }, uniquingKeysWith: { first, _ in first })
        for href in removed {
            if let file = fileOfHref[href] {
                commit.remove(file)
                stored.items[file] = nil
            }
        }
        guard !changed.isEmpty else { return }
        let hrefs = changed.map { "<D:href>\(Self.escape(Self.encodedPath($0)))</D:href>" }.joined()
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>\
        \(hrefs)</C:calendar-multiget>
        """
        let answer = try report(collection, body: body, depth: "1")
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: collection) else { continue }
            let known = fileOfHref[path] ?? stored.items.first(where: { $0.value.href == path })?.key
            if response.status == 404 {
                if let known {
                    commit.remove(known)
                    stored.items[known] = nil
                }
                continue
            }
            guard let data = try calendarData(response, path: path) else { continue }
            let file = known ?? Self.fileName(for: path, taken: stored.items)
            commit.files[file] = data
            stored.items[file] = (path, response.text(DAVNamespace.dav, "getetag") ?? "")
        }
    }

    private func report(_ url: URL, body: String, depth: String) throws(FetchFailure) -> Multistatus {
        let reply = try client.send("REPORT", url, headers: Self.xmlHeaders.merging(["Depth": depth]) { $1 }, body: Data(body.utf8))
        guard reply.status == 207 else { throw failure(reply, url) }
        guard let answer = Multistatus(reply.body) else { throw FetchFailure("not a WebDAV answer") }
        return answer
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// A decoded path encoded again for an href.
    static func encodedPath(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
