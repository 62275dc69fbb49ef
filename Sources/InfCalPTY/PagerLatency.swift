import InfCalProcess

/// Measures the pager's response: from a key press to the end of the frame it caused.
///
/// Each frame the pager draws ends in a cursor show or hide sequence (`FrameDiff` always
/// closes a frame so), written in the same write(2) as the rest of the frame; the time from
/// writing a key into the terminal to reading that last sequence is the key-to-repaint latency.
public enum PagerLatency {
    /// The statistics of a run, in seconds.
    public struct Summary: Sendable, CustomStringConvertible {
        /// Each press's latency, in seconds, in the order pressed.
        public let samples: [Double]
        public var median: Double { InfCalProcess.median(samples) }
        public var worst: Double { samples.max() ?? 0 }
        public var best: Double { samples.min() ?? 0 }

        /// The `fraction` percentile (nearest rank) of the samples.
        public func percentile(_ fraction: Double) -> Double {
            let sorted = samples.sorted()
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(sorted.count - 1, max(0, rank))]
        }

        public var description: String {
            func us(_ value: Double) -> String { "\(Int((value * 1_000_000).rounded())) us" }
            return "\(samples.count) presses: best \(us(best)), median \(us(median)), 90% \(us(percentile(0.9))), "
                + "99% \(us(percentile(0.99))), worst \(us(worst))"
        }
    }

    static let frameEnds: [[UInt8]] = [Array("\u{1B}[?25l".utf8), Array("\u{1B}[?25h".utf8)]

    /// Presses `keys` in turn (the first, the second, ... again) `presses` times in `session`,
    /// which must show the pager, and returns the time of each press to its finished frame.
    /// Keys must each cause a new frame (n and p do; at a bound they change the status line).
    /// - throws: `PseudoTerminalSession.Failure` when a frame does not come within `timeout` s.
    public static func measure(_ session: PseudoTerminalSession, keys: [String] = ["n", "p"],
                               presses: Int = 100, timeout: Double = 5) throws -> Summary {
        var samples: [Double] = []
        samples.reserveCapacity(presses)
        let clock = ContinuousClock()
        for press in 0..<presses {
            // Whatever was still on its way belongs to the previous frame.
            while session.pump(timeout: 0) > 0 {}
            let mark = session.output.count
            let start = clock.now
            try session.send(keys[press % keys.count])
            let deadline = start + .milliseconds(Int(timeout * 1000))
            while !endsWithFrameEnd(session.output, after: mark) {
                guard clock.now < deadline else {
                    throw PseudoTerminalSession.Failure(description: "no frame within \(timeout) s after press \(press)")
                }
                session.pump(timeout: 0.05)
            }
            let elapsed = start.duration(to: clock.now)
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Summary(samples: samples)
    }

    /// Starts `executable` in pager mode under a pseudo-terminal of `columns` x `rows` (pinned
    /// today, zone and locale, `environment` laid over them), waits for its first frame,
    /// measures `presses` presses of n and p, and quits it. The one call a benchmark needs.
    public static func run(executable: String, arguments: [String] = [], presses: Int = 200,
                           columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws -> Summary {
        let session = try PseudoTerminalSession(
            executable: executable, arguments: ["--paged", "--today", "2024-02-15"] + arguments,
            environment: PseudoTerminalSession.pinnedEnvironment.merging(environment) { $1 }, columns: columns, rows: rows)
        guard session.waitFor("February 2024") else {
            throw PseudoTerminalSession.Failure(description: "the pager did not show February 2024")
        }
        let summary = try measure(session, presses: presses)
        try session.send("q")
        session.waitForExit(timeout: 5)
        return summary
    }

    private static func endsWithFrameEnd(_ output: [UInt8], after mark: Int) -> Bool {
        frameEnds.contains { end in
            output.count - mark >= end.count && output[(output.count - end.count)...].elementsEqual(end)
        }
    }
}
