import Foundation
import Glibc
import Testing

/// Issue 34.2: every outside command is bounded. A `password-command` or `token-command` gets
/// the calendar's `timeout`; after it, its whole process group is ended (SIGTERM and
/// SIGCONT, then SIGKILL), the run says so in one line and goes on without it. The commands
/// here hang, ignore SIGTERM, or stop themselves; each run is bounded by the runner's
/// deadline (far below the commands' own 30 s), and the runner waits for every holder of
/// infcal's standard error, so a process of the command's group left running would hold it
/// past that deadline. The feed server records requests: none is made without the password.
@Suite(.serialized) struct OutsideCommandTests {
    static let skip = TestServer.missing()

    /// A home whose calendar `work` (a subscription of the feed server) gets its password
    /// from `command`, with `timeout = 3s`.
    struct Setup {
        let base: SubscriptionTests.Setup
        var home: TemporaryHome { base.home }

        init(_ command: String, key: String = "password-command") throws {
            base = try SubscriptionTests.Setup(path: "/auth.ics")
            try use(command, key: key)
        }

        /// Makes `command` the calendar's `key` (its user `user`, its `timeout` 3 s).
        func use(_ command: String, key: String = "password-command") throws {
            try home.write("[events work]\nurl = \(base.server.url("/auth.ics"))\n" + (key == "password-command" ? "username = user\n" : "")
                           + "\(key) = \(command)\ntimeout = 3s\n", to: "config.ini")
        }

        /// Makes a shell script of `body` in the home the password command (`/bin/sh SCRIPT`);
        /// its process id goes to `name.pid`.
        func useScript(_ name: String, _ body: String) throws {
            let path = home.root.appendingPathComponent(name).path
            try ("echo $$ > '\(path).pid'\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
            // Run by sh, which only reads it: a script executed itself fails with ETXTBSY while
            // a process another test forks at that moment still holds the descriptor it was
            // written through.
            try use("/bin/sh " + path)
        }

        /// The process id the script `name` wrote.
        func pid(_ name: String) -> pid_t? {
            (try? String(contentsOfFile: home.root.appendingPathComponent(name).path + ".pid", encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }

        func run() throws -> BinaryRunner.Result {
            try home.run(SubscriptionTests.agenda, environment: ["PATH": "/usr/bin:/bin"])
        }
    }

    /// Whether no process of the group `pid` led is left running: /proc lists none in that
    /// group but zombies (dead, waiting for their new parent to reap them).
    static func groupIsGone(_ pid: pid_t) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where Int32(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // state, ppid, pgrp
            if fields.count > 2, Int32(fields[2]) == pid, fields[0] != "Z" { return false }
        }
        return true
    }

    @Test func aCommandThatHangsIsStoppedAtTheTimeout() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup("sleep 30")
        defer { setup.base.server.stop() }
        let run = try setup.run()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "infcal: work: fetch failed (password-command did not finish within 3 s and was stopped); no copy to show yet\n")
        #expect(setup.base.server.requests.isEmpty, "\(setup.base.server.requests)")
    }

    /// A shell that ignores SIGTERM (so do the `sleep`s it starts, which inherit that), and a
    /// child it left in the background: SIGKILL ends the whole group.
    @Test func aCommandThatIgnoresSIGTERMAndItsChildrenAreKilled() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup("true")
        defer { setup.base.server.stop() }
        try setup.useScript("stubborn", "trap '' TERM\nsleep 30 &\nwhile :; do sleep 1; done\n")
        let run = try setup.run()
        #expect(run.stderr == "infcal: work: fetch failed (password-command did not finish within 3 s and was stopped); no copy to show yet\n")
        let pid = try #require(setup.pid("stubborn"))
        #expect(Self.groupIsGone(pid), "the group of \(pid) is still there")
    }

    /// A command that stops itself (SIGSTOP, or SIGTSTP as ^Z sends) wakes to SIGCONT and
    /// ends: neither infcal nor the shell that started it is left waiting.
    @Test(arguments: ["STOP", "TSTP"])
    func aCommandThatStopsItselfIsEnded(signal: String) throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup("true")
        defer { setup.base.server.stop() }
        try setup.useScript("stopping", "kill -\(signal) $$\nsleep 30\necho late\n")
        // Run from a shell, as a user would: the shell ends when infcal does.
        let shell = try BinaryRunner.runShell("\"$INFCAL\" --config '\(setup.home.config.path)' --agenda --from 2024-02 --forward 1; echo shell-done",
                                              deadline: 20)
        #expect(shell.stdout.hasSuffix("shell-done\n"), "\(shell.stdout) \(shell.stderr)")
        #expect(shell.stderr.contains("password-command did not finish within 3 s and was stopped"), "\(shell.stderr)")
        let pid = try #require(setup.pid("stopping"))
        #expect(Self.groupIsGone(pid), "the group of \(pid) is still there")
    }

    /// The first line counts when the command ends in time; a failing or silent command, or
    /// one that cannot start, is said in one line, and nothing is asked of the server.
    @Test func aCommandsFailureIsSaidInOneLine() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let cases: [(String, String)] = [
            ("sh -c 'echo secret; exit 3'", "password-command failed (exit status 3)"),
            ("true", "password-command gave no password"),
            ("no-such-infcal-command x", "password-command could not be started: no-such-infcal-command: No such file or directory"),
        ]
        for (command, reason) in cases {
            let setup = try Setup(command)
            defer { setup.base.server.stop() }
            let run = try setup.run()
            #expect(run.stderr == "infcal: work: fetch failed (\(reason)); no copy to show yet\n", "\(command)")
            #expect(setup.base.server.requests.isEmpty, "\(command): \(setup.base.server.requests)")
        }
        // A password printed by a command that then goes on writing (and ends by SIGPIPE) counts.
        let setup = try Setup("sh -c 'echo secret; yes'")
        defer { setup.base.server.stop() }
        let run = try setup.run()
        #expect(run.stderr.isEmpty && run.stdout.contains("Standup"), "\(run.stderr)")
    }

    @Test func aTokenCommandIsBoundedToo() throws {
        try #require(Self.skip == nil, Comment(rawValue: Self.skip ?? ""))
        let setup = try Setup("sleep 30", key: "token-command")
        defer { setup.base.server.stop() }
        let run = try setup.run()
        #expect(run.stderr == "infcal: work: fetch failed (token-command did not finish within 3 s and was stopped); no copy to show yet\n")
        #expect(setup.base.server.requests.isEmpty)
    }
}
