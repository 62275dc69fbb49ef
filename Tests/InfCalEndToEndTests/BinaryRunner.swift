import Foundation
import Testing

/// Runs the built `infcal` binary, as a user would, and collects what it did.
enum BinaryRunner {
    /// The `infcal` built next to the test bundle.
    static let executable: URL = {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("infcal")
    }()

    /// The environment every run starts from: no locale, no colour preferences, a fixed zone,
    /// so that no test depends on the machine it runs on.
    static let baseEnvironment: [String: String] = [
        "PATH": "/usr/bin:/bin",
        "TZ": "UTC",
        "LC_ALL": "C",
        "TERM": "xterm",
    ]

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Whether the process ended by a signal rather than exit().
        let signalled: Bool
    }

    /// The day every run counts as today unless it says otherwise.
    static let today = ["--today", "2024-02-15"]

    /// Runs infcal with `arguments` (after `--today 2024-02-15` unless they name a today),
    /// `environment` laid over the base one (a nil value removes a variable), stdin from
    /// /dev/null; fails the test if it takes longer than `deadline` seconds.
    static func run(_ arguments: [String], environment: [String: String?] = [:], deadline: Double = 20) throws -> Result {
        try runProgram(executable, (arguments.contains("--today") ? [] : today) + arguments, environment: environment, deadline: deadline)
    }

    /// Runs a bash command line with INFCAL naming the built binary, as `run` runs infcal.
    static func runShell(_ command: String, deadline: Double = 20) throws -> Result {
        try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", command], environment: ["INFCAL": executable.path], deadline: deadline)
    }

    /// Runs `program` with `arguments` in the base environment with `environment` laid over it.
    static func runProgram(_ program: URL, _ arguments: [String], environment: [String: String?], deadline: Double) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var env = baseEnvironment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        // Read both pipes while the process runs, so a large output cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let finished = waitForExit(process, deadline: deadline)
        #expect(finished, "\(program.lastPathComponent) \(arguments) did not finish within \(deadline) s")
        if !finished { process.terminate(); process.waitUntilExit() }
        group.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self),
                      signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Waits for `process` to exit; false if `deadline` seconds pass first.
    static func waitForExit(_ process: Process, deadline: Double) -> Bool {
        let end = Date().addingTimeInterval(deadline)
        while process.isRunning {
            if Date() > end { return false }
            usleep(2_000)
        }
        return true
    }
}
