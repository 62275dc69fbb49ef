import Foundation
import Testing

/// Issue 31: a read-only calendar refuses a write with 77 before any network request. The
/// feed server of the tests' own (Tests/Servers/feed_server.py) records every request, so
/// "before any request" is a log with nothing in it; a calendar at a port where nothing
/// listens shows the same from the other side (no connection is even tried: the refusal comes
/// at once, with 77, never "fetch failed").
@Suite(.serialized) struct ReadOnlyRefusalTests {
    static let skip = TestServer.missing()

    func write(_ home: TemporaryHome, _ arguments: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.runProgram(BinaryRunner.executable, arguments,
                                    environment: home.environment.merging(["INFCAL_CONFIG": home.config.path, "TZ": "UTC"]) { $1 },
                                    deadline: 30)
    }

    @Test func aSubscriptionWhoseCopyWasNeverFetchedIsRefusedAtOnce() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try SubscriptionTests.Setup(path: "/feed.ics", extra: "default = yes\n")
        defer { setup.server.stop() }
        let refused = "infcal: work is a subscription (a plain URL), which infcal reads and does not write; nothing was written\n"
        let named = try write(setup.home, ["add", "--to", "work", "2024-02-21", "Lunch"])
        #expect(named.status == 77 && named.stderr == refused, "\(named.stderr)")
        // The default calendar, when it is a subscription, is refused the same way.
        let byDefault = try write(setup.home, ["add", "2024-02-21", "Lunch"])
        #expect(byDefault.status == 77 && byDefault.stderr == refused, "\(byDefault.stderr)")
        #expect(setup.server.requests.isEmpty, "\(setup.server.requests)")
        #expect(!FileManager.default.fileExists(atPath: setup.home.cache.path))
    }

    @Test(arguments: ["webcal://127.0.0.1:9/holidays", "https://127.0.0.1:9/holidays.ics?key=1"])
    func aSubscriptionAtAPortWhereNothingListensIsRefusedNotFetched(url: String) throws {
        let home = try TemporaryHome()
        try home.write("[events feed]\nurl = \(url)\n", to: "config.ini")
        let run = try write(home, ["add", "--to", "feed", "2024-02-21", "Lunch"])
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr == "infcal: feed is a subscription (a plain URL), which infcal reads and does not write; nothing was written\n")
    }

    @Test func readonlyYesIsRefusedBeforeAnyRequest() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try SubscriptionTests.Setup(path: "/cal/", extra: "readonly = yes\n")
        defer { setup.server.stop() }
        let run = try write(setup.home, ["add", "--to", "work", "2024-02-21", "Lunch"])
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr == "infcal: the calendar 'work' is readonly = yes; nothing was written\n", "\(run.stderr)")
        #expect(setup.server.requests.isEmpty, "\(setup.server.requests)")
    }
}
