import Foundation
import InfCalPTY
import Testing

/// The README promises what this suite runs. In its fenced blocks every line `$ COMMAND` is an
/// example: it runs against the built binary, and the lines after it up to the next `$` line or
/// the block's end are the output it must print. The rules, which the README's Hacking section
/// repeats for its writers:
///
/// - Each block is one session: a sandbox home of its own (no config file, an empty default
///   calendar), `TZ=UTC`, `LC_ALL=C.UTF-8`, today 2024-03-04 (`--today` is added unless the
///   command gives one, or is `check`, which takes none), the repository as the working directory. A command runs in bash, so
///   `VAR=value` prefixes, pipes and `~` work; with `set -o pipefail`, it must exit 0.
/// - A UUID in the output shown stands for the one the run printed, and later commands of the
///   block that name it get that one (as a user pastes what `add` printed).
/// - A command whose comment starts `at a terminal` (optionally `of COLSxROWS`, default 80x24,
///   and `, then Enter`) runs under a pseudo-terminal of that size: the screen must become the
///   picture shown (when one is), and `q` must end it with status 0.
/// - `swift run infcal ARGS` (the set-up command) runs `infcal ARGS`; other `swift` and
///   `install` lines build and install, and are not run here.
/// - Every `ini` block must be a config file infcal accepts (the directories its `path =`
///   lines name are made, empty, in the sandbox home; nothing is fetched).
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let today = "2024-03-04"
    static let jq = ["/usr/bin/jq", "/bin/jq", "/usr/local/bin/jq"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One fenced block: its info string, its lines, and the README line it starts on.
    struct Block {
        let info: String
        let lines: [String]
        let line: Int
    }

    /// One `$` line and what follows it.
    struct Example: CustomStringConvertible {
        let command: String
        let comment: String
        /// The output shown, nil when none is.
        let output: [String]?
        let line: Int
        var description: String { "README.md:\(line): $ \(command)" }
    }

    static func blocks() throws -> [Block] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [Block] = []
        var current: (info: String, lines: [String], line: Int)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(Block(info: open.info, lines: open.lines, line: open.line))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [], index + 1)
                }
            } else if current != nil {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    /// The examples of `block`, in order.
    static func examples(in block: Block) -> [Example] {
        var examples: [Example] = []
        var pending: (command: String, comment: String, output: [String], line: Int)?
        func flush() {
            guard let done = pending else { return }
            examples.append(Example(command: done.command, comment: done.comment,
                                    output: done.output.isEmpty ? nil : done.output, line: done.line))
        }
        for (offset, line) in block.lines.enumerated() {
            if line.hasPrefix("$ ") {
                flush()
                let (command, comment) = splitComment(String(line.dropFirst(2)))
                pending = (command, comment, [], block.line + offset + 1)
            } else {
                pending?.output.append(line)
            }
        }
        flush()
        return examples
    }

    /// A shell line cut at its comment: a `#` after a blank and outside quotes.
    static func splitComment(_ line: String) -> (String, String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " {
                return (line[..<index].trimmingCharacters(in: .whitespaces),
                        line[line.index(after: index)...].trimmingCharacters(in: .whitespaces))
            }
            previous = character
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    // MARK: The sandbox

    /// A home of its own for one block.
    struct Sandbox {
        let directory: URL
        var home: URL { directory.appendingPathComponent("home") }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-readme-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        var environment: [String: String] {
            ["PATH": "/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "LC_ALL": "C.UTF-8", "TERM": "xterm",
             "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path]
        }

        /// The start of every script: into the repository, and `infcal` the built binary with
        /// today fixed unless the command fixes it. A shell function, not a script written to
        /// disk: a file written while other tests start processes can be held open by one of
        /// them, and exec(2) of it then fails with ETXTBSY.
        static var prelude: String {
            let real = BinaryRunner.executable.path
            return """
                cd '\(ReadmeTests.root.path)' || exit 99
                infcal() {
                    for word in "$@"; do case $word in --today|--today=*) '\(real)' "$@"; return;; esac; done
                    case $1 in add|edit|delete) local command=$1; shift; '\(real)' "$command" --today \(ReadmeTests.today) "$@"; return;; esac
                    case $1 in check) '\(real)' "$@"; return;; esac
                    '\(real)' --today \(ReadmeTests.today) "$@"
                }
                set -o pipefail

                """
        }

        /// `command` in bash, after the prelude.
        func run(_ command: String) throws -> BinaryRunner.Result {
            var overrides: [String: String?] = [:]
            for (key, value) in environment { overrides[key] = value }
            return try BinaryRunner.runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", Self.prelude + command],
                                               environment: overrides, deadline: 60)
        }
    }

    // MARK: The examples

    /// What the README's block `block` does, one example at a time.
    static func check(_ block: Block) throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        var uuids: [String: String] = [:]
        for example in examples(in: block) {
            var command = example.command
            for (shown, printed) in uuids { command = command.replacingOccurrences(of: shown, with: printed) }
            if command.hasPrefix("swift run infcal ") {
                command = String(command.dropFirst("swift run ".count))
            } else if command.hasPrefix("swift ") || command.hasPrefix("install ") {
                continue
            }
            #expect(command.contains("infcal"), "\(example): not an infcal command, and not one this test knows to leave")
            if command.contains("| jq"), jq == nil {
                print("ReadmeTests: jq is not installed (apt-get install jq); skipping \(example)")
                continue
            }
            if example.comment.hasPrefix("at a terminal") {
                try checkAtTerminal(example, command: command, sandbox: sandbox)
                continue
            }
            let run = try sandbox.run(command)
            #expect(run.status == 0 && !run.signalled, "\(example): status \(run.status)\n\(run.stderr)")
            guard let shown = example.output else { continue }
            let printed = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
            #expect(Array(printed).map(maskUUIDs) == shown.map(maskUUIDs),
                    "\(example) prints, in the sandbox:\n\(run.stdout)")
            for (shownLine, printedLine) in zip(shown, printed) {
                for (a, b) in zip(uuidsIn(shownLine), uuidsIn(printedLine)) { uuids[a] = b }
            }
        }
    }

    /// `example` under a pseudo-terminal: the screen becomes its picture, and `q` ends it.
    static func checkAtTerminal(_ example: Example, command: String, sandbox: Sandbox) throws {
        let size = example.comment.firstMatch(of: /of (\d+)x(\d+)/).map { (Int($0.1) ?? 80, Int($0.2) ?? 24) } ?? (80, 24)
        let session = try PseudoTerminalSession(executable: "/bin/bash",
                                                arguments: ["-c", Sandbox.prelude + command],
                                                environment: sandbox.environment, columns: size.0, rows: size.1)
        #expect(session.waitFor { $0.contains("q quit") || $0.contains("Esc closes") }, "\(example): no pager\n\(session.screen.text)")
        if example.comment.contains("then Enter") {
            try session.send("\r")
        }
        if let picture = example.output {
            let drawn = session.waitFor { $0.lines == picture }
            #expect(drawn, "\(example) draws, at \(size.0)x\(size.1):\n\(session.screen.text)")
        }
        try session.send("q")
        #expect(session.waitForExit() == .exited(0), "\(example): q did not end it with status 0")
    }

    /// A UUID as `add` prints it (a regex is not Sendable, so it is made where used).
    static var uuidPattern: Regex<Substring> { /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/ }

    static func maskUUIDs(_ line: String) -> String {
        line.replacing(uuidPattern, with: "UUID")
    }

    static func uuidsIn(_ line: String) -> [String] {
        line.matches(of: uuidPattern).map { String($0.output) }
    }

    /// The README's blocks with examples, for the test's arguments.
    static let exampleBlocks: [Block] = (try? blocks().filter { !examples(in: $0).isEmpty }) ?? []

    @Test(arguments: exampleBlocks.map(\.line))
    func examplesRunAndPrintWhatTheReadmeShows(line: Int) throws {
        let block = try #require(try Self.blocks().first { $0.line == line }, "the README changed while the tests ran")
        try Self.check(block)
    }

    /// The set-up command the charter names is there, as the README's first example to run.
    @Test func theSetUpCommandsAreThere() throws {
        let commands = try Self.blocks().flatMap(Self.examples).map(\.command)
        #expect(commands.contains("swift run infcal --from 2024-01 --forward 6"))
        #expect(commands.contains("swift test"))
        #expect(Self.exampleBlocks.count >= 10, "the README's examples were not found")
    }

    /// The rules above are the rules: the parser finds comments, outputs and pictures.
    @Test func examplesAreReadAsTheRulesSay() {
        let block = Block(info: "console", lines: ["$ infcal -1   # a month", "   March", "$ echo '#x' # y", "$ infcal"], line: 10)
        let found = Self.examples(in: block)
        #expect(found.map(\.command) == ["infcal -1", "echo '#x'", "infcal"])
        #expect(found.map(\.comment) == ["a month", "y", ""])
        #expect(found.map(\.output) == [["   March"], nil, nil])
        #expect(found.map(\.line) == [11, 13, 14])
        #expect(Self.maskUUIDs("x\t3f2c1b9e-6d0a-4a57-9a43-0c3b2f1d7e55") == "x\tUUID")
    }

    // MARK: Config files

    @Test func everyIniBlockIsAConfigFileInfcalAccepts() throws {
        let blocks = try Self.blocks().filter { $0.info == "ini" }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let sandbox = try Sandbox()
            defer { sandbox.remove() }
            for line in block.lines {
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == "path", parts[1].hasPrefix("~/") {
                    try FileManager.default.createDirectory(at: sandbox.home.appendingPathComponent(String(parts[1].dropFirst(2))),
                                                            withIntermediateDirectories: true)
                }
            }
            let file = sandbox.directory.appendingPathComponent("config")
            try Data((block.lines.joined(separator: "\n") + "\n").utf8).write(to: file)
            let run = try sandbox.run("infcal --config '\(file.path)' --offline -1")
            #expect(run.status == 0, "README.md:\(block.line): \(run.stderr)")
        }
    }
}
