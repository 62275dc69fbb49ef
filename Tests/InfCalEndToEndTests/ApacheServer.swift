import Foundation
import Glibc
import InfCalProcess

/// Debian's Apache httpd (`apache2`, with mod_auth_digest and mod_proxy_http) run by a test
/// in front of another test server: HTTP Digest authentication (RFC 7616, MD5, qop=auth) on
/// 127.0.0.1 and a free port, every request proxied to `upstream`. It runs in the foreground
/// (`-DFOREGROUND`) with a config file of its own in the test's directory, and is stopped by
/// the test (SIGTERM, then SIGKILL). Its access log holds each request's method, path, status
/// and `Authorization` field, so that a test sees the nonce and its count.
final class ApacheServer {
    let pid: pid_t
    let port: Int
    let directory: URL
    /// Whether `stop` ended it (and reaped it: its pid is no longer ours to signal).
    private var stopped = false
    static let binary = "/usr/sbin/apache2"
    static let modules = "/usr/lib/apache2/modules"
    static let realm = "infcal"

    /// Why the Apache tests cannot run here, or nil.
    static let missing: String? = {
        let manager = FileManager.default
        guard manager.isExecutableFile(atPath: binary) else { return "apache2 is not installed (apt-get install apache2)" }
        for module in ["mod_auth_digest", "mod_proxy_http", "mod_mpm_event", "mod_authn_file"]
        where !manager.fileExists(atPath: modules + "/" + module + ".so") {
            return "apache2's \(module) is not installed"
        }
        return TestServer.missing()
    }()

    /// Starts Apache in `directory` asking for Digest of `users` (user to password) and
    /// proxying to `upstream` (`http://127.0.0.1:PORT`); `nonceLifetime` seconds a nonce lives
    /// (Apache's AuthDigestNonceLifetime).
    /// - throws: when it does not answer on its port within 20 s (a port taken meanwhile is
    ///   tried again with another, at most five times).
    init(directory: URL, upstream: String, users: [String: String], nonceLifetime: Int = 300) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The password file as htdigest(1) writes it: user:realm:MD5(user:realm:password), by Python's hashlib.
        let lines = users.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: "\n")
        let digest = try ChildProcess.run("/usr/bin/env", ["python3", "-c", """
            import hashlib, sys
            for line in sys.argv[1].splitlines():
                user, password = line.split(":", 1)
                print("%s:%s:%s" % (user, sys.argv[2], hashlib.md5(("%s:%s:%s" % (user, sys.argv[2], password)).encode()).hexdigest()))
            """, lines, Self.realm], environment: nil, deadline: 30)
        try Data(digest.standardOutput).write(to: directory.appendingPathComponent("htdigest"))
        var lastError = ""
        for _ in 0..<5 {
            let port = try Self.freePort()
            try Self.config(directory: directory, port: port, upstream: upstream, nonceLifetime: nonceLifetime)
                .write(to: directory.appendingPathComponent("httpd.conf"), atomically: true, encoding: .utf8)
            let pid = try ChildProcess.spawn(Self.binary, ["-f", directory.appendingPathComponent("httpd.conf").path, "-DFOREGROUND"],
                                             environment: ["PATH": "/usr/sbin:/usr/bin:/bin", "LANG": "C"],
                                             redirections: [.open(fd: 0, path: "/dev/null", flags: O_RDONLY),
                                                            .output(1, toFile: directory.appendingPathComponent("stdout.log").path),
                                                            .output(2, toFile: directory.appendingPathComponent("stderr.log").path)])
            switch Self.waitUntilListening(port, pid: pid) {
            case .listening:
                self.pid = pid
                self.port = port
                return
            case .ended: break
            case .silent: Self.end(pid)
            }
            lastError = ((try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? "")
                + ((try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")
        }
        throw ChildProcess.Failure(description: "apache2 did not start: \(lastError)")
    }

    /// The server's address with `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// The access log: one line a request, "METHOD PATH STATUS AUTHORIZATION".
    var requests: [String] {
        ((try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        Self.end(pid)
    }

    deinit {
        stop()
    }

    /// SIGTERM (Apache stops its workers), waited for at most 10 s, then SIGKILL.
    private static func end(_ pid: pid_t) {
        guard ChildProcess.reap(pid) == nil else { return }
        _ = kill(pid, SIGTERM)
        if ChildProcess.wait(pid, deadline: 10) == nil {
            _ = kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
        }
    }

    /// A port of 127.0.0.1 that nothing listens on now (bound, read, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(description: "socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ChildProcess.Failure(description: "bind") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// How waiting for Apache to listen ended.
    private enum Start { case listening, ended, silent }

    /// Whether something accepts connections on `port` within 20 s (tried 50 ms apart), or
    /// `pid` ended first (it is then reaped), or neither.
    private static func waitUntilListening(_ port: Int, pid: pid_t) -> Start {
        let end = ChildProcess.now() + 20
        while ChildProcess.now() < end {
            if ChildProcess.reap(pid) != nil { return .ended }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return .listening }
            usleep(50_000)
        }
        return .silent
    }

    private static func config(directory: URL, port: Int, upstream: String, nonceLifetime: Int) -> String {
        let root = directory.path
        let modules = ["mpm_event", "authn_core", "authn_file", "authz_core", "authz_user", "auth_digest", "proxy", "proxy_http"]
        // As root, Apache's workers run as nobody (the files they read are world-readable);
        // as another user, it keeps that user.
        let user = getuid() == 0 ? "User nobody\nGroup nogroup\n" : ""
        return """
        ServerRoot \(root)
        ServerName 127.0.0.1
        PidFile \(root)/httpd.pid
        Listen 127.0.0.1:\(port)
        \(modules.map { "LoadModule \($0)_module \(Self.modules)/mod_\($0).so" }.joined(separator: "\n"))
        \(user)ErrorLog \(root)/error.log
        LogLevel warn
        LogFormat "%m %U %>s %{Authorization}i" infcal
        CustomLog \(root)/access.log infcal
        Timeout 30
        <Location />
          AuthType Digest
          AuthName "\(realm)"
          AuthDigestProvider file
          AuthUserFile \(root)/htdigest
          AuthDigestNonceLifetime \(nonceLifetime)
          Require valid-user
          ProxyPass \(upstream)/
          ProxyPassReverse \(upstream)/
        </Location>

        """
    }
}
