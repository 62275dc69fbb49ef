import Foundation
import InfCalRemote

/// Who one request of infcal authenticates as, and how: a user and password (Basic, or
/// Digest with the server's nonce, reused with a counting `nc` until the server says it is
/// stale) or a bearer token. Credentials go only to the configured host's site
/// (`RemoteURL.sameSite`) and only over https or to loopback; a redirect elsewhere drops
/// them (`Exchange`). Nothing here is ever written out but the `Authorization` field.
final class Authenticator: @unchecked Sendable {
    /// The configured URL: the site credentials stay within.
    let configured: String
    private let user: String?
    private let password: String?
    private let token: String?
    /// The scheme `auth =` forces; nil: the server's challenge chooses.
    private let forced: AuthScheme?
    private let lock = NSLock()
    /// The scheme in use: forced, the one the server took last (Basic and Bearer go with the
    /// first request), or the one a challenge chose.
    private var scheme: AuthScheme?
    private var digest: DigestChallenge?
    private var count = 0

    init(configured: String, user: String?, password: String?, token: String?, forced: AuthScheme?, hint: AuthScheme?) {
        self.configured = configured
        self.user = user
        self.password = password
        self.token = token
        self.forced = forced
        if let forced {
            scheme = forced
        } else if token != nil {
            scheme = .bearer
        } else if hint == .basic {
            scheme = .basic
        }
    }

    /// The authenticator of a request's fields: `url`, `username`, `password`, `token`,
    /// `auth` (forced) and `auth-hint` (the scheme the server took last).
    convenience init(_ message: FetchMessage, url: String) {
        self.init(configured: url, user: message["username"], password: message["password"], token: message["token"],
                  forced: message["auth"].flatMap(AuthScheme.init(rawValue:)),
                  hint: message["auth-hint"].flatMap(AuthScheme.init(rawValue:)))
    }

    /// Whether there is anything to authenticate with.
    var hasCredentials: Bool { token != nil || (user != nil && password != nil) }

    /// The scheme the server took, to remember for the next run; nil when none was used.
    var usedScheme: AuthScheme? { lock.withLock { scheme } }

    /// Whether credentials may go to `url`: within the configured site, over https or to loopback.
    func mayAuthenticate(_ url: URL) -> Bool {
        hasCredentials && RemoteURL.allowsPassword(url.absoluteString) && RemoteURL.sameSite(configured, url.absoluteString)
    }

    /// The `Authorization` value for a request of `method` to `url`; nil when none goes
    /// (no credentials, another site, no scheme known yet, or Digest before its challenge).
    func header(method: String, url: URL) -> String? {
        guard mayAuthenticate(url) else { return nil }
        return lock.withLock { () -> String? in
            switch scheme {
            case .basic?:
                guard let user, let password else { return nil }
                return "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
            case .bearer?:
                return token.map { "Bearer " + $0 }
            case .digest?:
                guard let digest, let user, let password else { return nil }
                count += 1
                return digest.authorization(user: user, password: password, method: method, uri: Self.requestTarget(url),
                                            count: count, cnonce: Self.clientNonce())
            case nil:
                return nil
            }
        }
    }

    /// Takes the challenges of a 401 to a request that carried `sent`: whether to send the
    /// request again (with the new scheme or nonce). A Digest answer refused again is
    /// answered once more only when the server says its nonce was stale; Basic and Bearer
    /// refused once are refused (a wrong password, an expired token).
    func accept(_ challenges: [AuthChallenge], sent: String?, url: URL) -> Bool {
        guard mayAuthenticate(url) else { return false }
        let sentScheme = sent.flatMap { $0.split(separator: " ").first }.map { $0.lowercased() }
        return lock.withLock { () -> Bool in
            if forced == nil || forced == .digest, password != nil, user != nil, let offered = DigestChallenge.best(of: challenges) {
                if sentScheme == "digest", !offered.stale { return false }
                (scheme, digest, count) = (.digest, offered, 0)
                return true
            }
            if forced == nil || forced == .basic, password != nil, user != nil, sentScheme != "basic",
               challenges.contains(where: { $0.scheme == "basic" }) {
                scheme = .basic
                return true
            }
            if forced == nil || forced == .bearer, token != nil, sentScheme != "bearer",
               challenges.contains(where: { $0.scheme == "bearer" }) {
                scheme = .bearer
                return true
            }
            return false
        }
    }

    /// The request target Digest signs: the path and query of `url` as sent.
    static func requestTarget(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// A fresh client nonce: 16 random bytes in hex.
    static func clientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hashes.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
