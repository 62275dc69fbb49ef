/// Where the copies of subscriptions and CalDAV calendars live:
/// `$XDG_CACHE_HOME/infcal/` (default `~/.cache/infcal/`), one set of files a calendar:
///
/// - `NAME.ics`: a subscription's last good copy;
/// - `NAME.caldav/COLLECTION/`: a CalDAV calendar as a vdir (one `.ics` file an event), with
///   `collection` (its href, display name, colour, sync-token) and `etags` (each file's href
///   and ETag), so the views read it as a local directory of events;
/// - `NAME.meta`: the URL the copy came from, its ETag and Last-Modified, when it was last
///   fetched or confirmed, and whether the URL is a subscription or a CalDAV server.
///
/// No password is ever written there.
public struct RemoteCache: Sendable {
    /// The cache directory itself.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The cache directory `XDG_CACHE_HOME` (an absolute path) or `HOME` gives, as the XDG
    /// base directory specification reads them; nil when neither does.
    public static func directory(cacheHome: String?, home: String?) -> String? {
        if let cacheHome, cacheHome.hasPrefix("/") { return trimmed(cacheHome) + "/infcal" }
        guard let home, !home.isEmpty else { return nil }
        return trimmed(home) + "/.cache/infcal"
    }

    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        return String(path)
    }

    /// The files of the calendar called `name`.
    public func files(for name: String) -> CalendarFiles {
        CalendarFiles(base: directory + "/" + Self.fileName(name))
    }

    /// The longest file name `fileName` gives: room is left within NAME_MAX (255 bytes) for
    /// the temporary names an atomic write makes beside a file (`.NAME.infcal-PID-N.tmp`).
    public static let longestFileName = 200

    /// `text` as one file name: letters, digits, `-`, `_` and inner dots as they are, every
    /// other byte as `%XX`, so that two names never share a file and none leaves the directory
    /// (`/`, NUL and a leading dot are escaped). A name that would be longer than
    /// `longestFileName` is `h-` and the SHA-256 of `text` in hex instead (with `.ics` when
    /// `text` ends so). (Only a name that is itself `h-` and such a hash could meet it; the
    /// helper gives any second href of a collection that meets a taken name its own hash.)
    public static func fileName(_ text: String) -> String {
        let name = escapedName(text)
        guard name.utf8.count > longestFileName else { return name }
        return "h-" + Hashes.hex(Hashes.sha256(text.utf8)) + (text.lowercased().hasSuffix(".ics") ? ".ics" : "")
    }

    private static func escapedName(_ text: String) -> String {
        var name = ""
        for (offset, byte) in text.utf8.enumerated() {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || (byte == 0x2E && offset > 0)
            if plain {
                name.append(Character(Unicode.Scalar(byte)))
            } else {
                let digits = Array("0123456789ABCDEF")
                name += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return name.isEmpty ? "%" : name
    }
}

/// The paths of one calendar's cached state.
public struct CalendarFiles: Sendable, Equatable {
    /// The common start of its paths.
    public let base: String

    public init(base: String) {
        self.base = base
    }

    /// A subscription's copy.
    public var copy: String { base + ".ics" }
    /// What is known of the copy (`CacheMeta`).
    public var meta: String { base + ".meta" }
    /// A CalDAV calendar's collections, one directory each.
    public var collections: String { base + ".caldav" }

    /// The file naming a collection in its directory.
    public static let collectionFile = "collection"
    /// The file of a collection's ETags.
    public static let etagsFile = "etags"
}

/// The facts kept beside a copy: a `FetchMessage` written to a file.
public struct CacheMeta: Sendable, Equatable {
    public var message: FetchMessage

    public init(_ message: FetchMessage = FetchMessage("copy")) {
        self.message = message
    }

    /// The meta in `bytes` (a file's contents); nil when they hold none.
    public init?(bytes: [UInt8]) {
        var reader = FetchMessageReader()
        guard let message = reader.feed(bytes).first else { return nil }
        self.message = message
    }

    /// The URL the copy came from.
    public var url: String? { get { message["url"] } set { message["url"] = newValue } }
    /// `ics` for a subscription, `caldav` for a CalDAV server.
    public var kind: String? { get { message["kind"] } set { message["kind"] = newValue } }
    public var etag: String? { get { message["etag"] } set { message["etag"] = newValue } }
    public var lastModified: String? { get { message["last-modified"] } set { message["last-modified"] = newValue } }
    /// When the copy was last fetched or confirmed unchanged, in seconds since 1970.
    public var fetched: Int? {
        get { message.integer("fetched") }
        set { message["fetched"] = newValue.map(String.init) }
    }

    /// The authentication scheme the server took last (`basic`, `digest` or `bearer`), so
    /// that the next run sends Basic credentials with its first request; never a secret.
    public var auth: AuthScheme? {
        get { message["auth"].flatMap(AuthScheme.init(rawValue:)) }
        set { message["auth"] = newValue?.rawValue }
    }

    /// The calendars of a CalDAV account that discovery skipped as holding no events (their
    /// names, each `OneLineText.escaped`, joined by spaces), so that they are said once.
    public var skipped: String? { get { message["skipped"] } set { message["skipped"] = newValue } }

    /// The one calendar of a CalDAV account the copy holds (the config file's `calendar =`);
    /// nil when it holds every calendar of the account.
    public var calendar: String? { get { message["calendar"] } set { message["calendar"] = newValue } }

    /// The file's contents.
    public var bytes: [UInt8] { Array(message.encoded().utf8) }
}

/// Facts about a URL that infcal and the helper both decide on.
public enum RemoteURL {
    /// `url` as it is fetched: `webcal://` read as `https://`.
    public static func normalized(_ url: String) -> String {
        let lower = url.lowercased()
        if lower.hasPrefix("webcal://") { return "https://" + url.dropFirst("webcal://".count) }
        if lower.hasPrefix("webcals://") { return "https://" + url.dropFirst("webcals://".count) }
        return url
    }

    /// The scheme and host of `url` (lowercased), without port or user; nil when it has none.
    public static func parts(_ url: String) -> (scheme: String, host: String)? {
        let characters = Array(url)
        guard let colon = (0..<max(0, characters.count - 2)).first(where: { characters[$0] == ":" && characters[$0 + 1] == "/" && characters[$0 + 2] == "/" }) else {
            return nil
        }
        let scheme = String(characters[..<colon]).lowercased()
        var rest = Substring(String(characters[(colon + 3)...]))
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host: Substring
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
        } else {
            host = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !scheme.isEmpty, !host.isEmpty else { return nil }
        return (scheme, host.lowercased())
    }

    /// Whether `url` is one infcal fetches: http or https (or webcal) with a host.
    public static func isSupported(_ url: String) -> Bool {
        guard let parts = parts(normalized(url)) else { return false }
        return parts.scheme == "http" || parts.scheme == "https"
    }

    /// Whether `host` is a loopback address, where plain http cannot be overheard: 127.x.y.z,
    /// ::1, `localhost` and the names under it (RFC 6761, which libcurl 7.85 and later
    /// resolves to loopback itself, never by DNS).
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether a password may be sent to `url`: over https, or over http to loopback only.
    public static func allowsPassword(_ url: String) -> Bool {
        guard let parts = parts(normalized(url)) else { return false }
        return parts.scheme == "https" || (parts.scheme == "http" && isLoopback(parts.host))
    }

    /// Whether `url` names a subscription rather than a CalDAV server, before anything was
    /// fetched from it: `webcal://` (or `webcals://`), or a path ending in `.ics`.
    public static func looksLikeSubscription(_ url: String) -> Bool {
        let lower = url.lowercased()
        if lower.hasPrefix("webcal://") || lower.hasPrefix("webcals://") { return true }
        var path = Substring(lower)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        return path.hasSuffix(".ics")
    }

    /// Whether credentials configured for `configured` may go to `target`: the same host, or
    /// a host in the configured host's domain, as iCloud answers `p42-caldav.icloud.com` to
    /// `caldav.icloud.com`. The domain is the configured host without its first label when
    /// that leaves two labels or more, unless those two look like a public suffix of a country
    /// (`co.uk`, `com.au`: a second label of at most three letters under a two-letter top
    /// level); else the configured host itself (`example.com` reaches `dav.example.com`). An
    /// IP address matches itself alone. Without the Public Suffix List this errs towards
    /// sending less: a suffix the rule misses is one a user can still name by `url =`.
    public static func sameSite(_ configured: String, _ target: String) -> Bool {
        guard let from = parts(normalized(configured))?.host, let to = parts(normalized(target))?.host else { return false }
        if from == to { return true }
        if isAddress(from) || isAddress(to) { return false }
        let labels = from.split(separator: ".", omittingEmptySubsequences: false)
        var domain = from
        if labels.count >= 3 {
            let parent = labels.dropFirst()
            let publicLike = parent.count == 2 && parent.last?.count == 2 && (parent.first?.count ?? 0) <= 3
            if !publicLike { domain = parent.joined(separator: ".") }
        }
        return to.hasSuffix("." + domain)
    }

    /// Whether `host` is an IP address (IPv4 dotted, or IPv6, which holds a colon).
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// What a CalDAV collection's directory in the cache says of it: the `collection` file (its
/// href, display name, colour and sync-token) and the `etags` file (each event file's href
/// and ETag), which the helper keeps and infcal reads to write an event back.
///
/// The `collection` file is a `FetchMessage`: the verb `collection`, a field `format 3`, then
/// `href`, `name`, `color` and `sync-token`, every value with `OneLineText.escaped`, so that
/// no byte of a display name or a token (a line break, a tab, a control, a `%`) can cut the
/// line, forge another field or read as an escape. Older files are still read: in format 2
/// only the href was escaped, and a file without the `format` field is the first format,
/// every value as it was (a line break written as a space). Such values are read as they
/// stand; an href that differs from the collection's own makes the helper download that
/// collection again, and a token the server no longer knows makes it compare ETags.
///
/// The `etags` file is a `FetchMessage`: the verb `etags`, a field `format 2`, then one line
/// an event, `FILE HREF ETAG`, each of the three with `OneLineText.escaped`, so that no byte of
/// an href (a space, a tab, a line break, a `%`) can cut a line or a field. A file without the
/// `format` field is the first format, `FILE HREF ETAG` unescaped (a line break in an href was
/// written as a space): it is read with the ETag after the last space, as an ETag holds none
/// (RFC 7232 section 2.3), and `isFirstFormat` tells the helper to compare every ETag again,
/// which mends an href that format could not keep.
public struct CachedCollection: Sendable {
    public var meta = FetchMessage("collection")
    /// File name to (href path, ETag).
    public var items: [String: (href: String, etag: String)] = [:]
    /// Whether the `etags` file read was of the first format.
    public private(set) var isFirstFormat = false

    /// The `format` field's value of the `etags` files written now.
    static let etagsFormat = "2"
    /// The `format` field's value of the `collection` files written now.
    static let collectionFormat = "3"
    /// The format of the `collection` files that escaped their href alone.
    static let hrefOnlyFormat = "2"
    /// The fields of the `collection` file.
    static let collectionFields = ["href", "name", "color", "sync-token"]

    public init() {}

    /// The state the two files' contents give; a missing or empty file gives none.
    public init(collection: [UInt8]?, etags: [UInt8]?) {
        if let collection {
            var reader = FetchMessageReader()
            if let message = reader.feed(collection).first { meta = message }
        }
        guard let etags else { return }
        var reader = FetchMessageReader()
        guard let message = reader.feed(etags).first, message.verb == "etags" else { return }
        let format = message["format"]
        isFirstFormat = format == nil
        guard isFirstFormat || format == Self.etagsFormat else { return }
        for field in message.fields where field.key != "format" {
            if isFirstFormat {
                guard let space = field.value.lastIndex(of: " ") else { continue }
                items[field.key] = (String(field.value[..<space]), String(field.value[field.value.index(after: space)...]))
                continue
            }
            let parts = field.value.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, let file = OneLineText.unescaped(Substring(field.key)),
                  let href = OneLineText.unescaped(parts[0]), let etag = OneLineText.unescaped(parts[1]) else { continue }
            items[file] = (href, etag)
        }
    }

    /// The value of the `collection` file's field `key` (`href`, `name`, `color` or
    /// `sync-token`) in `meta`, in whichever format the file has; nil when the file has no
    /// such field, its escape is malformed or the format is unknown.
    public static func field(_ key: String, in meta: FetchMessage) -> String? {
        guard let value = meta[key] else { return nil }
        switch meta["format"] {
        case nil: return value
        case hrefOnlyFormat?: return key == "href" ? OneLineText.unescaped(Substring(value)) : value
        case collectionFormat?: return OneLineText.unescaped(Substring(value))
        default: return nil
        }
    }

    /// The collection's href (the path its events' hrefs are under), read from the `collection`
    /// file's `meta`; nil when it names none, an escape is malformed or the format is unknown.
    public static func href(in meta: FetchMessage) -> String? {
        field("href", in: meta)
    }

    /// The collection's href, as `href(in:)` reads it from `meta`.
    public var href: String? { Self.href(in: meta) }
    /// The collection's display name, as `field(_:in:)` reads it from `meta`.
    public var name: String? { Self.field("name", in: meta) }
    /// Whether the server lets the user only read the collection (its
    /// `current-user-privilege-set` has none of `all`, `write`, `write-content`, `bind`):
    /// infcal then refuses to write to it, before any request.
    public var isReadOnly: Bool { meta["readonly"] == "yes" }
    /// The collection's origin (`https://host:port`) when it is on another host than the
    /// configured URL (a calendar home elsewhere in the domain); nil when on the same one.
    public var origin: String? { Self.field("origin", in: meta) }
    /// The collection's colour (its `calendar-color`), as `field(_:in:)` reads it.
    public var color: String? { Self.field("color", in: meta) }
    /// The sync-token the copy was brought up to, as `field(_:in:)` reads it.
    public var syncToken: String? { Self.field("sync-token", in: meta) }

    /// Whether the collection at `href` (its path, decoded, ending in `/`) called `name` is
    /// the one the config file's `calendar = chosen` names: by its display name, its path
    /// (with or without the trailing slash) or the path's last segment.
    public static func isChosen(_ chosen: String, href: String?, name: String?) -> Bool {
        if let name, name == chosen { return true }
        guard let href else { return false }
        let trimmed = chosen.hasSuffix("/") ? String(chosen.dropLast()) : chosen
        return href == trimmed + "/" || href.split(separator: "/").last.map(String.init) == trimmed
    }

    /// The `collection` file's message, in the present format, for the collection at `href`
    /// (on `origin` when that is another host than the configured one), `readOnly` when the
    /// server grants no write privilege on it.
    public static func collectionMeta(href: String, name: String?, color: String?, syncToken: String?,
                                      origin: String? = nil, readOnly: Bool = false) -> FetchMessage {
        let values = [href, name, color, syncToken, origin].map { $0.map(OneLineText.escaped) }
        var message = FetchMessage("collection", [("format", collectionFormat)] + Array(zip(collectionFields + ["origin"], values)))
        if readOnly { message["readonly"] = "yes" }
        return message
    }

    /// The `etags` file's contents, in the present format.
    public var etagsBytes: [UInt8] {
        var message = FetchMessage("etags")
        message["format"] = Self.etagsFormat
        for (file, item) in items.sorted(by: { $0.key < $1.key }) {
            message[OneLineText.escaped(file)] = OneLineText.escaped(item.href) + " " + OneLineText.escaped(item.etag)
        }
        return Array(message.encoded().utf8)
    }
}

/// Text kept whole in one field of a `FetchMessage`, whatever it holds: every byte of a
/// character that could end a line or a field, or read as an escape (controls, spaces, C1
/// controls with NEL, the line and paragraph separators, `%`), is written `%XX`, as a URL
/// escapes it; the rest stays as it is, so an href reads as itself.
public enum OneLineText {
    /// `text` with no space, line break or control left in it.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let kept = value > 0x20 && value != 0x25 && value != 0x7F && !(0x80...0x9F).contains(value)
                && value != 0x2028 && value != 0x2029
            guard !kept else { result.unicodeScalars.append(scalar); continue }
            for byte in String(scalar).utf8 { result += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 15)] }
        }
        return result
    }

    /// The text `escaped` gave `escaped(_:)`; nil when an escape is malformed or the bytes are
    /// not UTF-8.
    public static func unescaped(_ escaped: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = escaped.utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            guard byte == 0x25 else { bytes.append(byte); continue }
            guard rest.count >= 2, let high = hexValue(rest[rest.startIndex]), let low = hexValue(rest[rest.index(after: rest.startIndex)])
            else { return nil }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x37
        case 0x61...0x66: return byte - 0x57
        default: return nil
        }
    }
}
