import Foundation
import InfCalRemote
import InfCalTerminal

/// The helper's standard output: messages written whole, from any thread.
final class FetchOutput: @unchecked Sendable {
    private let lock = NSLock()
    /// Progress is sent at most this often (seconds), however small the chunks.
    static let progressInterval = 0.1

    func send(_ message: FetchMessage) {
        lock.withLock {
            // infcal went away: nothing is left to tell it.
            try? Array(message.encoded().utf8).withUnsafeBytes { try Platform.writeAll(1, $0) }
        }
    }

    /// Runs `job` and gives the fields of its `done` message.
    static func outcome(of job: FetchJob, output: FetchOutput) -> [(String, String?)] {
        let last = Clock()
        do {
            let (result, skipped) = try job.run { bytes in
                if last.due(Self.progressInterval) {
                    output.send(FetchMessage("progress", [("name", job.name), ("bytes", String(bytes))]))
                }
            }
            return [("name", job.name), ("result", result),
                    ("skipped", skipped.isEmpty ? nil : skipped.map(OneLineText.escaped).joined(separator: " ")), ending]
        } catch {
            return [("name", job.name), ("result", "failed"), ("reason", error.reason), ("status", error.status.map(String.init)), ending]
        }
    }

    /// Runs the `put` or `delete` request `message` and gives the fields of its `done` message.
    static func outcome(of message: FetchMessage) -> [(String, String?)] {
        let name = message["name"] ?? ""
        guard let job = WriteJob(message) else { return [("name", name), ("result", "failed"), ("reason", "bad request")] }
        do {
            return [("name", name), ("result", try job.run()), ending]
        } catch {
            return [("name", name), ("result", "failed"), ("reason", error.reason), ("status", error.status.map(String.init)), ending]
        }
    }

    /// The `ending yes` field when a transfer of this process could not be stopped: the
    /// helper ends after this answer, and infcal starts another for its next request.
    static var ending: (String, String?) {
        ("ending", Exchange.isStuck ? "yes" : nil)
    }
}

/// When progress was last sent.
private final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0.0

    func due(_ interval: Double) -> Bool {
        lock.withLock {
            let now = Platform.monotonicSeconds()
            guard now - last >= interval else { return false }
            last = now
            return true
        }
    }
}
