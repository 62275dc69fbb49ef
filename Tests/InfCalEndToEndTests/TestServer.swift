import Foundation
import Glibc
import InfCalProcess
import Testing

/// A server script of Tests/Servers run by a test: on 127.0.0.1 and a port the kernel picks
/// (it prints the port first, or its ports on one line), stopped when the test is done (its
/// stdin closes, then SIGKILL).
final class TestServer {
    let pid: pid_t
    let port: Int
    /// Every port it named (a server may listen on more than one), `port` first.
    let ports: [Int]
    /// The server's working directory: its files and its request log.
    let directory: URL
    private let input: Int32

    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers")

    /// Whether python3 (and each of `modules`) can be imported; the reason to skip when not.
    static func missing(_ modules: [String] = []) -> String? {
        let check = (["import sys"] + modules.map { "import \($0)" }).joined(separator: "; ")
        guard let run = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", check], environment: nil, deadline: 30),
              run.exit == .exited(0) else {
            return "python3" + (modules.isEmpty ? "" : " with " + modules.joined(separator: ", ")) + " is not installed"
        }
        return nil
    }

    /// Starts `script` (a file of Tests/Servers) serving `directory`.
    /// - throws: when it cannot start or names no port within 20 s.
    init(_ script: String, directory: URL) throws {
        self.directory = directory
        var toServer: [Int32] = [-1, -1], fromServer: [Int32] = [-1, -1]
        guard pipe(&toServer) == 0, pipe(&fromServer) == 0 else { throw ChildProcess.Failure(description: "pipe") }
        for fd in toServer + fromServer { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        pid = try ChildProcess.spawn("/usr/bin/env", ["python3", Self.scripts.appendingPathComponent(script).path, directory.path],
                                     environment: nil,
                                     redirections: [.duplicate(fd: 0, from: toServer[0]), .duplicate(fd: 1, from: fromServer[1]),
                                                    .output(2, toFile: directory.appendingPathComponent("server.err").path)])
        close(toServer[0])
        close(fromServer[1])
        input = toServer[1]
        defer { close(fromServer[0]) }
        var line: [UInt8] = []
        let end = ChildProcess.now() + 20
        while !line.contains(10), ChildProcess.now() < end {
            var entry = pollfd(fd: fromServer[0], events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(fromServer[0], &byte, 1) == 1 else { break }
            line.append(byte)
        }
        let named = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard let port = named.first else {
            close(input)
            _ = kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            let errors = (try? String(contentsOf: directory.appendingPathComponent("server.err"), encoding: .utf8)) ?? ""
            throw ChildProcess.Failure(description: "\(script) named no port: \(errors)")
        }
        self.port = port
        ports = named
    }

    /// The server's address with `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// The request log's lines.
    var requests: [String] {
        ((try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Stops the server and waits for it.
    func stop() {
        close(input)
        if ChildProcess.wait(pid, deadline: 5) == nil {
            _ = kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
        }
    }

    deinit {
        if ChildProcess.reap(pid) == nil {
            _ = kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
        }
    }
}

/// A home of its own for one test: HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME in a fresh
/// temporary directory, removed at the end, so no test reads or writes the real `~`.
final class TemporaryHome {
    let root: URL
    var cache: URL { root.appendingPathComponent("cache/infcal") }
    var config: URL { root.appendingPathComponent("config.ini") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("server"), withIntermediateDirectories: true)
    }

    /// The directory a test server serves.
    var serverDirectory: URL { root.appendingPathComponent("server") }

    var environment: [String: String?] {
        ["HOME": root.path, "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
         "XDG_CACHE_HOME": root.appendingPathComponent("cache").path]
    }

    func write(_ text: String, to name: String) throws {
        try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Runs infcal with the config file and this home.
    func run(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["--config", config.path] + arguments, environment: environment.merging(extra) { $1 }, deadline: 60)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }
}
