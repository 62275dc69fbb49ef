import Foundation

/// Debian's Apache httpd (`apache2`, with mod_auth_digest and mod_proxy_http) run by a test
/// in front of another test server: HTTP Digest (RFC 7616, MD5, qop=auth) on 127.0.0.1 and a
/// free port, every request proxied to `upstream`. Tests/Servers/apache_server.py starts it in
/// the foreground with a config file of its own in the test's directory, and stops it when
/// the test closes its standard input (`stop`, or the end of the test's process, however it
/// ends). Its access log holds each request's method, path, status and `Authorization`
/// field, so that a test sees the nonce and its count.
final class ApacheServer {
    let server: TestServer
    var port: Int { server.port }
    static let modules = "/usr/lib/apache2/modules"

    /// Why the Apache tests cannot run here, or nil.
    static let missing: String? = {
        let manager = FileManager.default
        guard manager.isExecutableFile(atPath: "/usr/sbin/apache2") else { return "apache2 is not installed (apt-get install apache2)" }
        for module in ["mod_auth_digest", "mod_proxy_http", "mod_mpm_event", "mod_authn_file"]
        where !manager.fileExists(atPath: modules + "/" + module + ".so") {
            return "apache2's \(module) is not installed"
        }
        return TestServer.missing()
    }()

    /// Starts Apache in `directory` asking for Digest of `users` (user to password) and
    /// proxying to `upstream` (`http://127.0.0.1:PORT`).
    /// - throws: when it does not answer on its port within 20 s.
    init(directory: URL, upstream: String, users: [String: String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try upstream.write(to: directory.appendingPathComponent("upstream"), atomically: true, encoding: .utf8)
        try users.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)\n" }.joined()
            .write(to: directory.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        server = try TestServer("apache_server.py", directory: directory)
    }

    /// The server's address with `path`.
    func url(_ path: String) -> String {
        server.url(path)
    }

    /// The access log: one line a request, "METHOD PATH STATUS AUTHORIZATION".
    var requests: [String] {
        ((try? String(contentsOf: server.directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    func stop() {
        server.stop()
    }
}
