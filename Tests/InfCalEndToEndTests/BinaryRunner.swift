import Foundation
import InfCalProcess
import Testing

/// Runs the built `infcal` binary, as a user would, and collects what it did.
enum BinaryRunner {
    /// The `infcal` built next to the test bundle.
    static let executable: URL = {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("infcal")
    }()

    /// The parsed-event cache of every run: a directory of this test process, never the
    /// user's ~/.cache (and no HOME is passed either).
    static let cacheHome = NSTemporaryDirectory() + "infcal-tests-cache-\(getpid())"

    /// The environment every run starts from: no locale, no colour preferences, a fixed zone,
    /// the tests' own cache, so that no test depends on (or writes into) the machine it runs on.
    static let baseEnvironment: [String: String] = [
        "PATH": "/usr/bin:/bin",
        "TZ": "UTC",
        "LC_ALL": "C",
        "TERM": "xterm",
        "XDG_CACHE_HOME": cacheHome,
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
    /// With `memoryLimit`, its address space is limited to that many bytes.
    static func run(_ arguments: [String], environment: [String: String?] = [:], deadline: Double = 20,
                    memoryLimit: Int? = nil) throws -> Result {
        try runProgram(executable, (arguments.contains("--today") ? [] : today) + arguments, environment: environment,
                       deadline: deadline, memoryLimit: memoryLimit)
    }

    /// Runs a bash command line with INFCAL naming the built binary, as `run` runs infcal.
    static func runShell(_ command: String, deadline: Double = 20) throws -> Result {
        try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", command], environment: ["INFCAL": executable.path], deadline: deadline)
    }

    /// Runs `program` with `arguments` in the base environment with `environment` laid over it.
    static func runProgram(_ program: URL, _ arguments: [String], environment: [String: String?], deadline: Double,
                           memoryLimit: Int? = nil) throws -> Result {
        var env = baseEnvironment
        for (key, value) in environment { env[key] = value }
        let run = try ChildProcess.run(program.path, arguments, environment: env, deadline: deadline, memoryLimit: memoryLimit)
        #expect(!run.timedOut, "\(program.lastPathComponent) \(arguments) did not finish within \(deadline) s")
        let (status, signalled): (Int32, Bool)
        switch run.exit {
        case .exited(let code): (status, signalled) = (code, false)
        case .signalled(let signal): (status, signalled) = (signal, true)
        }
        return Result(status: status,
                      stdout: String(decoding: run.standardOutput, as: UTF8.self),
                      stderr: String(decoding: run.standardError, as: UTF8.self),
                      signalled: signalled)
    }
}
