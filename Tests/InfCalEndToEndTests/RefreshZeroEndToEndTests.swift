import Foundation
import InfCalPTY
import Testing

/// `refresh = 0` in the config file fetches a subscription on every run (it was refused), and
/// the config's durations read as the command line's (`90`, `1h30m`, `PT1H`).
@Suite(.serialized) struct RefreshZeroEndToEndTests {
    @Test func refreshZeroFetchesOnEveryRun() throws {
        try #require(SubscriptionTests.skip == nil, Comment(rawValue: SubscriptionTests.skip ?? ""))
        for zero in ["0", "0s"] {
            let setup = try SubscriptionTests.Setup(extra: "refresh = \(zero)\n")
            defer { setup.server.stop() }
            for run in 1...3 {
                let result = try setup.home.run(SubscriptionTests.agenda)
                #expect(result.status == 0 && result.stdout.contains("Standup"), "\(result.stderr)")
                #expect(setup.server.requests.count == run, "refresh = \(zero), run \(run)")
            }
        }
    }

    /// A duration the command line takes, the config takes too: a fresh copy is not fetched again.
    @Test func theConfigTakesTheCommandLinesDurations() throws {
        try #require(SubscriptionTests.skip == nil, Comment(rawValue: SubscriptionTests.skip ?? ""))
        let setup = try SubscriptionTests.Setup(extra: "refresh = 1h30m\ntimeout = PT20S\n")
        defer { setup.server.stop() }
        for _ in 1...2 {
            let result = try setup.home.run(SubscriptionTests.agenda)
            #expect(result.status == 0 && result.stdout.contains("Standup"), "\(result.stderr)")
        }
        #expect(setup.server.requests.count == 1)
    }
}
