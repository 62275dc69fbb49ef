import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InfCalRemote
import InfCalTerminal

/// Why a fetch failed, in the words the message shows: `HTTP 503`, `connection refused`.
struct FetchFailure: Error {
    let reason: String
    /// The HTTP status, when the server answered with one.
    var status: Int?

    init(_ reason: String, status: Int? = nil) {
        self.reason = reason
        self.status = status
    }
}

/// A server's answer.
struct HTTPReply {
    let status: Int
    /// Header fields, names lowercased.
    let headers: [String: String]
    let body: Data
    /// The URL that answered, after redirects.
    let url: URL
}

/// The rules of every exchange of one fetch: the deadline for the whole of it, the largest
/// body, who it authenticates as and where progress goes.
struct HTTPClient {
    /// Monotonic time (seconds) by which the whole fetch must end.
    let deadline: Double
    /// Seconds the whole fetch may take, for the message.
    let timeout: Int
    /// The largest body taken, in bytes (decoded: a compressed body is counted as it expands).
    let limit: Int
    /// The credentials and the state of their scheme (a Digest nonce and its count).
    let authenticator: Authenticator
    /// At most this many redirects are followed.
    static let redirectLimit = 5
    /// Called with the bytes of the body so far.
    let progress: @Sendable (Int) -> Void

    /// Sends `method` to `url` and waits for the whole answer. A 401 whose challenge the
    /// credentials can answer (the first Digest or Basic challenge, a stale Digest nonce) is
    /// answered: the request is sent again, at most twice.
    /// - throws: `FetchFailure` for anything but a complete answer (any status) within the deadline.
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws(FetchFailure) -> HTTPReply {
        var target = url
        var answered = 0
        while true {
            let authorization = authenticator.header(method: method, url: target)
            let reply = try exchange(method, target, headers: headers, body: body, authorization: authorization)
            // Credentials go again only where the request was meant to go: not after a redirect elsewhere.
            guard reply.status == 401, answered < 2, Exchange.sameOrigin(reply.url, target),
                  authenticator.accept(AuthChallenge.parse(reply.headers["www-authenticate"] ?? ""), sent: authorization, url: reply.url)
            else { return reply }
            answered += 1
            target = reply.url
        }
    }

    /// One request and its answer (after redirects).
    private func exchange(_ method: String, _ url: URL, headers: [String: String], body: Data?,
                          authorization: String?) throws(FetchFailure) -> HTTPReply {
        let left = deadline - Platform.monotonicSeconds()
        guard left > 0 else { throw FetchFailure("timed out after \(timeout) s") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = left
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("infcal", forHTTPHeaderField: "User-Agent")
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let exchange = Exchange(original: request, limit: limit, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = left
        configuration.timeoutIntervalForResource = left
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: InlineQueue())
        let task = session.dataTask(with: request)
        task.resume()
        var leftRunning = false
        if exchange.done.wait(timeout: .now() + left) == .timedOut {
            exchange.fail(FetchFailure("timed out after \(timeout) s"))
            // Cancelling waits for URLSession's queue, which a transfer that never pauses (a
            // body expanding without end) holds: it is asked from another thread, and waited
            // for a little only.
            DispatchQueue.global().async { task.cancel() }
            if exchange.done.wait(timeout: .now() + 2) == .timedOut {
                Exchange.abandoned()
                leftRunning = true
            }
        }
        if leftRunning || exchange.isOver {
            // A transfer over the limit goes on until its queue lets it stop, dropping what
            // it reads; the session is left to it (invalidating it would wait for that queue).
        } else {
            session.invalidateAndCancel()
        }
        return try exchange.outcome(timeout: timeout)
    }
}

/// URLSession's delegate queue for one exchange: each callback runs at once on the thread of
/// the transfer (URLSession's own queue), rather than queued. A body is then counted, and
/// dropped beyond the limit, as libcurl hands it over (decoded): a queue of callbacks the
/// delegate has not seen yet cannot grow with what a server sends. The delegate never waits
/// on URLSession there (a `cancel` is asked from another thread).
final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}

/// A value handed to another thread that URLSession calls once (its completion handler).
private final class Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The delegate of one exchange: it collects the body, enforces the size limit and the
/// redirect limit, and says how the exchange ended.
final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let original: URLRequest
    private let limit: Int
    private let progress: @Sendable (Int) -> Void
    private var body = Data()
    private var response: HTTPURLResponse?
    /// The 401 answer URLSession handed over as a challenge.
    private var challenged: HTTPURLResponse?
    private var redirects = 0
    private var failure: FetchFailure?
    private var error: Error?
    private var finished = false
    private var signalled = false
    private var over = false

    /// Whether some transfer of this process could not be stopped in time (a body expanding
    /// beyond the limit, a deadline passed while it still ran): the helper then ends after
    /// answering, rather than share a process with it.
    static var isStuck: Bool { stuckLock.withLock { stuck } }
    nonisolated(unsafe) private static var stuck = false
    private static let stuckLock = NSLock()

    static func abandoned() {
        stuckLock.withLock { stuck = true }
    }

    init(original: URLRequest, limit: Int, progress: @escaping @Sendable (Int) -> Void) {
        self.original = original
        self.limit = limit
        self.progress = progress
    }

    /// Whether the body went over the limit (the transfer is then left to end by itself).
    var isOver: Bool { lock.withLock { over } }

    /// Records the first reason the exchange failed for (later ones are its consequences).
    func fail(_ failure: FetchFailure) {
        lock.lock()
        if self.failure == nil { self.failure = failure }
        lock.unlock()
    }

    /// Wakes `send` once.
    private func signal() {
        let first = lock.withLock { () -> Bool in
            defer { signalled = true }
            return !signalled
        }
        if first { done.signal() }
    }

    /// Whether `one` and `other` have the same scheme, host and port.
    static func sameOrigin(_ one: URL?, _ other: URL?) -> Bool {
        guard let one, let other else { return false }
        return one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased()
            && (one.port ?? defaultPort(one)) == (other.port ?? defaultPort(other))
    }

    private static func defaultPort(_ url: URL) -> Int {
        url.scheme?.lowercased() == "https" ? 443 : 80
    }

    /// The body is over the limit: the rest is dropped, the exchange answered now, and the
    /// transfer cancelled from another thread (when URLSession's queue lets it).
    private func overLimit(_ task: URLSessionTask) {
        let first = lock.withLock { () -> Bool in
            defer { over = true }
            return !over
        }
        guard first else { return }
        fail(FetchFailure("body over \(Self.size(limit))"))
        lock.withLock { body = Data() }
        Self.abandoned()
        signal()
        DispatchQueue.global().async { task.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { self.response = response as? HTTPURLResponse }
        completionHandler(.allow)
        // A length over the limit is refused before a byte of the body is read (for an
        // identity body; a compressed one is counted as it expands).
        if response.expectedContentLength > Int64(limit) { overLimit(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let count = lock.withLock { () -> Int? in
            guard !over, body.count + data.count <= limit else { return nil }
            body.append(data)
            return body.count
        }
        guard let count else {
            overLimit(dataTask)
            return
        }
        progress(count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let count = lock.withLock { () -> Int in
            redirects += 1
            return redirects
        }
        guard count <= HTTPClient.redirectLimit, let target = request.url else {
            fail(FetchFailure("more than \(HTTPClient.redirectLimit) redirects"))
            completionHandler(nil)
            DispatchQueue.global().async { task.cancel() }
            return
        }
        // The method, body and headers go on (PROPFIND and REPORT follow .well-known's
        // redirect as they are); the credentials only to the same origin, and never in the clear.
        var next = original
        next.url = target
        if response.statusCode == 303 || (original.httpMethod == "POST" && [301, 302].contains(response.statusCode)) {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        if !Self.sameOrigin(original.url, target) || !RemoteURL.allowsPassword(target.absoluteString) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
    }

    // A 401 with a challenge ends the exchange with that answer: `HTTPClient.send` decides
    // whether and how to answer it. No credential store is asked (URLSession's own Digest
    // handling on Linux stops the process).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        if let response = challenge.failureResponse as? HTTPURLResponse {
            lock.withLock { challenged = response }
        } else {
            fail(FetchFailure("HTTP 401", status: 401))
        }
        // Cancelling waits for URLSession's queue, which runs this callback.
        let handler = Handover(completionHandler)
        DispatchQueue.global().async { handler.value(.cancelAuthenticationChallenge, nil) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock {
            self.error = error
            finished = true
        }
        signal()
    }

    /// The reply, or why there is none.
    func outcome(timeout: Int) throws(FetchFailure) -> HTTPReply {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        if let challenged, let url = challenged.url ?? original.url {
            return HTTPReply(status: challenged.statusCode, headers: Self.headers(of: challenged), body: Data(), url: url)
        }
        guard finished else { throw FetchFailure("timed out after \(timeout) s") }
        let expected = response?.expectedContentLength ?? -1
        let encoded = response?.value(forHTTPHeaderField: "Content-Encoding").map { $0.lowercased() != "identity" } ?? false
        if let error {
            if expected > 0, Int64(body.count) < expected {
                throw FetchFailure("body cut short: \(body.count) of \(expected) bytes")
            }
            throw Self.describe(error, timeout: timeout, url: original.url)
        }
        guard let response, let url = response.url ?? original.url else { throw FetchFailure("no answer") }
        if expected >= 0, !encoded, Int64(body.count) != expected {
            throw FetchFailure("body cut short: \(body.count) of \(expected) bytes")
        }
        return HTTPReply(status: response.statusCode, headers: Self.headers(of: response), body: body, url: url)
    }

    /// The header fields of `response`, names lowercased.
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            let key = name.lowercased()
            // Two fields of one name read as one joined with a comma (RFC 9110 section 5.3).
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        return headers
    }

    /// The reason a transport error gives, in a few words (never the URL, which may hold a user).
    static func describe(_ error: Error, timeout: Int, url: URL?) -> FetchFailure {
        guard let error = error as? URLError else { return FetchFailure("network error") }
        let host = url.flatMap { RemoteURL.parts($0.absoluteString)?.host } ?? "the host"
        switch error.code {
        case .cannotConnectToHost: return FetchFailure("connection refused")
        case .cannotFindHost, .dnsLookupFailed: return FetchFailure("unknown host \(host)")
        case .timedOut: return FetchFailure("timed out after \(timeout) s")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            return FetchFailure("TLS failure")
        case .networkConnectionLost: return FetchFailure("connection lost")
        case .notConnectedToInternet: return FetchFailure("no network")
        case .httpTooManyRedirects: return FetchFailure("more than \(HTTPClient.redirectLimit) redirects")
        case .badServerResponse: return FetchFailure("bad answer from the server")
        default:
            // libcurl's failed handshakes reach URLSession as an unknown error.
            if url?.scheme?.lowercased() == "https" { return FetchFailure("TLS failure") }
            return FetchFailure("network error \(error.code.rawValue)")
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
