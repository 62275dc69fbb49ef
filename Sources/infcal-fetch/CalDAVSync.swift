import Foundation
import InfCalRemote
import InfCalTerminal

/// A CalDAV account or collection brought up to date in the cache: discovery (RFC 4791 and
/// RFC 6764), then per calendar a `calendar-query` REPORT the first time and a
/// `sync-collection` REPORT (RFC 6578), or a comparison of ETags, after that, so that one
/// changed event costs one event.
struct CalDAVSync {
    let job: FetchJob
    let client: HTTPClient

    /// A calendar collection found on the server.
    struct Collection {
        let url: URL
        let name: String?
        let color: String?
        let syncToken: String?
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
                                       "<C:calendar-home-set/>"]

    /// PROPFIND `url` at `depth`.
    func propfind(_ url: URL, depth: String, _ properties: [String]) throws(FetchFailure) -> (Multistatus, URL) {
        let reply = try client.send("PROPFIND", url, headers: Self.xmlHeaders.merging(["Depth": depth]) { $1 },
                                    body: Data(Self.propfind(properties).utf8))
        guard reply.status == 207 else { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        guard let answer = Multistatus(reply.body) else { throw FetchFailure("not a WebDAV answer") }
        return (answer, reply.url)
    }

    /// `href` made absolute against `base`.
    static func resolve(_ href: String, against base: URL) -> URL? {
        URL(string: href, relativeTo: base)?.absoluteURL
    }

    /// The path of a URL with one trailing slash, to compare hrefs.
    static func key(_ url: URL) -> String {
        var path = url.path
        if path.isEmpty { path = "/" }
        let decoded = path.removingPercentEncoding ?? path
        return decoded.hasSuffix("/") ? decoded : decoded + "/"
    }

    // MARK: Discovery

    /// The calendars `url` names: itself when it is a calendar collection, else those of the
    /// calendar home its principal names (through `.well-known/caldav` when `url` says nothing).
    func discover(_ url: URL) throws(FetchFailure) -> (collections: [Collection], direct: Bool) {
        let (first, answered) = try propfind(url, depth: "0", Self.collectionProperties)
        if let own = first.responses.first, own.isCalendar {
            return ([collection(own, base: answered) ?? Collection(url: answered, name: nil, color: nil, syncToken: nil)], true)
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
        let collections = listing.responses.filter { $0.isCalendar && $0.holdsEvents }.compactMap { collection($0, base: homeURL) }
        return (collections, false)
    }

    private func collection(_ response: DAVResponse, base: URL) -> Collection? {
        guard let url = Self.resolve(response.href, against: base) else { return nil }
        return Collection(url: url, name: response.text(DAVNamespace.dav, "displayname"),
                          color: response.text(DAVNamespace.apple, "calendar-color"),
                          syncToken: response.text(DAVNamespace.dav, "sync-token"))
    }

    // MARK: Synchronising

    /// Discovers the calendars and brings each one's directory up to date.
    /// - returns: `fetched` when anything changed, else `unchanged`.
    func run(_ url: URL) throws(FetchFailure) -> String {
        var (collections, direct) = try discover(url)
        if let chosen = job.calendar, !direct {
            // `calendar =` names one calendar of the account: the others are not downloaded.
            collections = collections.filter { CachedCollection.isChosen(chosen, href: Self.key($0.url), name: $0.name) }
        }
        let root = job.files.collections
        if let error = Platform.makeDirectories(root) {
            throw FetchFailure("cannot make \(root): \(Platform.describe(errno: error.code))")
        }
        var changed = false
        var kept: Set<String> = []
        for collection in collections {
            let last = collection.url.path.split(separator: "/").last.map(String.init) ?? "calendar"
            let directory = root + "/" + RemoteCache.fileName(direct ? "calendar" : last)
            kept.insert(directory)
            if try sync(collection, into: directory) { changed = true }
        }
        for name in Platform.entryNames(root) where !kept.contains(root + "/" + name) {
            Platform.removeTree(root + "/" + name)
            changed = true
        }
        var meta = CacheMeta()
        meta.url = job.url
        meta.kind = "caldav"
        meta.calendar = job.calendar
        meta.fetched = Platform.secondsNow()
        try job.write(meta)
        return changed ? "fetched" : "unchanged"
    }

    /// What a collection's directory holds (`CachedCollection`), read from its files.
    static func stored(in directory: String) -> CachedCollection {
        CachedCollection(collection: try? Platform.readFile(directory + "/" + CalendarFiles.collectionFile).get(),
                         etags: try? Platform.readFile(directory + "/" + CalendarFiles.etagsFile).get())
    }

    /// Brings one collection's directory up to date.
    /// - returns: whether anything in it changed.
    private func sync(_ collection: Collection, into directory: String) throws(FetchFailure) -> Bool {
        if let error = Platform.makeDirectories(directory) {
            throw FetchFailure("cannot make \(directory): \(Platform.describe(errno: error.code))")
        }
        var stored = Self.stored(in: directory)
        let sameCollection = stored.href == Self.key(collection.url)
        if !sameCollection { stored.items = [:] }
        // An `etags` file of the first format may hold an href it could not keep (a line break
        // in it): every ETag is compared again once, and the file is written anew.
        let oldToken = sameCollection && !stored.isFirstFormat ? stored.syncToken : nil
        var changed = false
        var newToken = collection.syncToken

        if let oldToken, let current = collection.syncToken, oldToken == current, !stored.items.isEmpty || sameCollection {
            // The server says nothing changed since the token we hold.
        } else if let oldToken, collection.syncToken != nil, let delta = try syncCollection(collection.url, token: oldToken) {
            newToken = delta.token ?? collection.syncToken
            changed = try apply(changed: delta.changed, removed: delta.removed, collection: collection.url, stored: &stored, directory: directory)
        } else if sameCollection, !stored.items.isEmpty {
            let listing = try etags(collection.url)
            let byHref = Dictionary(stored.items.map { ($0.value.href, $0.value.etag) }, uniquingKeysWith: { first, _ in first })
            let changedHrefs = listing.filter { byHref[$0.key] != $0.value }.map(\.key)
            let removed = byHref.keys.filter { listing[$0] == nil }
            changed = try apply(changed: changedHrefs, removed: removed, collection: collection.url, stored: &stored, directory: directory)
        } else {
            changed = try fullQuery(collection.url, stored: &stored, directory: directory)
        }
        let meta = CachedCollection.collectionMeta(href: Self.key(collection.url), name: collection.name, color: collection.color,
                                                   syncToken: newToken)
        if meta != stored.meta { changed = true }
        try Self.writeFile(directory + "/" + CalendarFiles.etagsFile, stored.etagsBytes)
        try Self.writeFile(directory + "/" + CalendarFiles.collectionFile, Array(meta.encoded().utf8))
        return changed
    }

    /// The path key of an href inside a collection.
    private func hrefKey(_ href: String, base: URL) -> String? {
        Self.resolve(href, against: base).map { ($0.path.removingPercentEncoding ?? $0.path) }
    }

    /// A file name for the event at `href`: its last segment, made safe, ending in `.ics`.
    private static func fileName(for href: String) -> String {
        let last = href.split(separator: "/").last.map(String.init) ?? "event"
        let name = RemoteCache.fileName(last)
        return name.lowercased().hasSuffix(".ics") ? name : name + ".ics"
    }

    /// The first download: every event, with a `calendar-query` REPORT.
    private func fullQuery(_ url: URL, stored: inout CachedCollection, directory: String) throws(FetchFailure) -> Bool {
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>\
        <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter></C:calendar-query>
        """
        let answer = try report(url, body: body, depth: "1")
        var items: [String: (href: String, etag: String)] = [:]
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: url), let data = response.text(DAVNamespace.caldav, "calendar-data") else { continue }
            let file = Self.fileName(for: path)
            guard ICalendarSniff.isICalendar(Array(data.utf8)) else { continue }
            try Self.writeFile(directory + "/" + file, Array(data.utf8))
            items[file] = (path, response.text(DAVNamespace.dav, "getetag") ?? "")
        }
        // Files of events that are gone from the server go too.
        for name in Platform.entryNames(directory) where name.hasSuffix(".ics") && items[name] == nil {
            Platform.remove(directory + "/" + name)
        }
        stored.items = items
        return true
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
        guard reply.status == 207, let answer = Multistatus(reply.body) else {
            throw FetchFailure("HTTP \(reply.status)", status: reply.status)
        }
        var changed: [String] = [], removed: [String] = []
        let own = Self.key(url)
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: url), path + "/" != own, path != own else { continue }
            if response.status == 404 { removed.append(path) } else { changed.append(path) }
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

    /// Fetches the events at `changed` (one `calendar-multiget`) and drops those at `removed`.
    private func apply(changed: [String], removed: [String], collection: URL, stored: inout CachedCollection,
                       directory: String) throws(FetchFailure) -> Bool {
        let fileOfHref = Dictionary(stored.items.map { ($0.value.href, $0.key) }, uniquingKeysWith: { first, _ in first })
        for href in removed {
            if let file = fileOfHref[href] {
                Platform.remove(directory + "/" + file)
                stored.items[file] = nil
            }
        }
        guard !changed.isEmpty else { return !removed.isEmpty }
        let hrefs = changed.map { "<D:href>\(Self.escape(Self.encodedPath($0)))</D:href>" }.joined()
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>\
        \(hrefs)</C:calendar-multiget>
        """
        let answer = try report(collection, body: body, depth: "1")
        for response in answer.responses {
            guard let path = hrefKey(response.href, base: collection) else { continue }
            let file = fileOfHref[path] ?? Self.fileName(for: path)
            if response.status == 404 {
                Platform.remove(directory + "/" + file)
                stored.items[file] = nil
                continue
            }
            guard let data = response.text(DAVNamespace.caldav, "calendar-data"), ICalendarSniff.isICalendar(Array(data.utf8)) else { continue }
            try Self.writeFile(directory + "/" + file, Array(data.utf8))
            stored.items[file] = (path, response.text(DAVNamespace.dav, "getetag") ?? "")
        }
        return true
    }

    private func report(_ url: URL, body: String, depth: String) throws(FetchFailure) -> Multistatus {
        let reply = try client.send("REPORT", url, headers: Self.xmlHeaders.merging(["Depth": depth]) { $1 }, body: Data(body.utf8))
        guard reply.status == 207 else { throw FetchFailure("HTTP \(reply.status)", status: reply.status) }
        guard let answer = Multistatus(reply.body) else { throw FetchFailure("not a WebDAV answer") }
        return answer
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// A decoded path encoded again for an href.
    private static func encodedPath(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    /// Writes a file of the cache atomically.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(FetchFailure) {
        do {
            try Platform.writeAtomically(bytes, to: path, mode: 0o600)
        } catch {
            throw FetchFailure("cannot write the cache: \(error)")
        }
    }
}
