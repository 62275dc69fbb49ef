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
/// body, the credentials and where progress goes.
struct HTTPClient {
    /// Monotonic time (seconds) by which the whole fetch must end.
    let deadline: Double
    /// Seconds the whole fetch may take, for the message.
    let timeout: Int
    /// The largest body taken, in bytes.
    let limit: Int
    /// `user:password` for Basic authentication, or nil.
    let credentials: String?
    /// At most this many redirects are followed.
    static let redirectLimit = 5
    /// Called with the bytes of the body so far.
    let progress: @Sendable (Int) -> Void

    /// Sends `method` to `url` and waits for the whole answer.
    /// - throws: `FetchFailure` for anything but a complete answer (any status) within the deadline.
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws(FetchFailure) -> HTTPReply {
        let left = deadline - now()
        guard left > 0 else { throw FetchFailure("timed out after \(timeout) s") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = left
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("infcal", forHTTPHeaderField: "User-Agent")
        if let credentials, RemoteURL.allowsPassword(url.absoluteString) {
            request.setValue("Basic " + Data(credentials.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        }
        let exchange = Exchange(original: request, limit: limit, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = left
        configuration.timeoutIntervalForResource = left
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        if exchange.done.wait(timeout: .now() + left) == .timedOut {
            exchange.fail(FetchFailure("timed out after \(timeout) s"))
            task.cancel()
            _ = exchange.done.wait(timeout: .now() + 2)
        }
        return try exchange.outcome(timeout: timeout)
    }

    private func now() -> Double {
        Platform.monotonicSeconds()
    }
}

/// The delegate of one exchange: it collects the body, enforces the size limit and the
/// redirect limit, and says how the exchange ended.
private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let original: URLRequest
    private let limit: Int
    private let progress: @Sendable (Int) -> Void
    private var body = Data()
    private var response: HTTPURLResponse?
    private var redirects = 0
    private var failure: FetchFailure?
    private var error: Error?
    private var finished = false

    init(original: URLRequest, limit: Int, progress: @escaping @Sendable (Int) -> Void) {
        self.original = original
        self.limit = limit
        self.progress = progress
    }

    /// Records the first reason the exchange failed for (later ones are its consequences).
    func fail(_ failure: FetchFailure) {
        lock.lock()
        if self.failure == nil { self.failure = failure }
        lock.unlock()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        self.response = response as? HTTPURLResponse
        lock.unlock()
        if response.expectedContentLength > Int64(limit) {
            fail(FetchFailure("body over \(Self.size(limit))"))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        body.append(data)
        let count = body.count
        lock.unlock()
        if count > limit {
            fail(FetchFailure("body over \(Self.size(limit))"))
            dataTask.cancel()
            return
        }
        progress(count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        lock.lock()
        redirects += 1
        let count = redirects
        lock.unlock()
        guard count <= HTTPClient.redirectLimit, let target = request.url else {
            fail(FetchFailure("more than \(HTTPClient.redirectLimit) redirects"))
            completionHandler(nil)
            task.cancel()
            return
        }
        // The method, body and headers go on (PROPFIND and REPORT follow .well-known's
        // redirect as they are); the password only to the same origin, and never in the clear.
        var next = original
        next.url = target
        if response.statusCode == 303 || (original.httpMethod == "POST" && [301, 302].contains(response.statusCode)) {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        let from = original.url.flatMap { RemoteURL.parts($0.absoluteString) }
        let to = RemoteURL.parts(target.absoluteString)
        if from?.host != to?.host || original.url?.port != target.port || !RemoteURL.allowsPassword(target.absoluteString)
            || (from?.scheme == "https" && to?.scheme != "https") {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
    }

    // A 401 ends the exchange with its status: the credentials went with the request, no
    // credential store is asked and no second try made (URLSession's default would retry).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
        fail(FetchFailure("HTTP \(status)", status: status))
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        self.error = error
        let first = !finished
        finished = true
        lock.unlock()
        if first { done.signal() }
    }

    /// The reply, or why there is none.
    func outcome(timeout: Int) throws(FetchFailure) -> HTTPReply {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
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
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPReply(status: response.statusCode, headers: headers, body: body, url: url)
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
