import Foundation
import InfCalPTY
import Testing

/// `infcal --completions SHELL` loaded into the real shell: bash is asked what it completes,
/// as it asks the function on Tab (COMP_WORDS, COMP_CWORD, then COMPREPLY); zsh and fish,
/// where installed, check that their script parses.
@Suite struct CompletionTests {
    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What bash completes for the words `words` (the last one being completed).
    static func bashCompletes(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try BinaryRunner.runShell("""
            source <("$INFCAL" --completions bash) || exit 3
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"
            _infcal infcal
            printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashRegistersTheFunction() throws {
        let result = try BinaryRunner.runShell("source <(\"$INFCAL\" --completions bash) && complete -p infcal")
        #expect(result.status == 0)
        #expect(result.stdout == "complete -F _infcal infcal\n")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let words: [String]
        let expected: [String]
        var testDescription: String { words.joined(separator: " ") }
    }

    /// The repository's examples directory.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples").path

    static let cases: [Case] = [
        Case(words: ["infcal", "--cal"], expected: ["--calendar"]),
        Case(words: ["infcal", "--we"], expected: ["--week", "--week-numbers"]),
        Case(words: ["infcal", "--view", "w"], expected: ["week"]),
        Case(words: ["infcal", "--zone", "Europe/Ber"], expected: ["Europe/Berlin"]),
        Case(words: ["infcal", "--comp"], expected: ["--completions"]),
        Case(words: ["infcal", "--calendar", "he"], expected: ["hebrew"]),
        Case(words: ["infcal", "--calendar", "islamic-"], expected: ["islamic-civil", "islamic-tbla", "islamic-umalqura"]),
        Case(words: ["infcal", "--calendar", "li"], expected: ["list"]),
        Case(words: ["infcal", "-w", ""], expected: ["iso", "locale"]),
        Case(words: ["infcal", "--week-numbers", "=", "lo"], expected: ["locale"]),
        Case(words: ["infcal", "--first-weekday", "t"], expected: ["thursday", "tuesday"]),
        Case(words: ["infcal", "--color", "=", ""], expected: ["always", "auto", "never"]),
        Case(words: ["infcal", "--color", "="], expected: ["always", "auto", "never"]),
        Case(words: ["infcal", "--completions", "z"], expected: ["zsh"]),
        Case(words: ["infcal", "--locale", "de_D"], expected: ["de_DE"]),
        Case(words: ["infcal", "--locale", "POS"], expected: ["POSIX"]),
        // A value no list holds: nothing is offered rather than options or files.
        Case(words: ["infcal", "--from", ""], expected: ["today"]),
        Case(words: ["infcal", "-n", ""], expected: []),
        Case(words: ["infcal", "--today", "20"], expected: []),
        Case(words: ["infcal", "--reform", ""], expected: ["1582", "1752", "gregorian", "julian"]),
        Case(words: ["infcal", "--reform", "j"], expected: ["julian"]),
        // A file for --events: bash's own file names.
        Case(words: ["infcal", "--events", examples + "/holi"], expected: [examples + "/holidays.ics"]),
    ]

    @Test(.enabled(if: shell("bash") != nil, "bash is not installed; skipping the bash completion tests"), arguments: cases)
    func bashCompletes(_ completion: Case) throws {
        #expect(try Self.bashCompletes(completion.words).sorted() == completion.expected)
    }

    /// Every option of the table is offered after a lone dash, and every locale name given to
    /// --locale is one that infcal accepts.
    @Test(.enabled(if: shell("bash") != nil, "bash is not installed; skipping the bash completion tests"))
    func bashOffersEveryOption() throws {
        let offered = Set(try Self.bashCompletes(["infcal", "-"]))
        for option in ["--from", "--forward", "--backward", "--year", "-y", "-3", "-1", "-n", "--months", "-A", "-B", "-S",
                       "-Y", "--twelve", "--span", "--calendar", "--locale", "-w", "--week-numbers", "--first-weekday",
                       "--completions", "--help", "-V", "-c", "--columns", "--color", "--today", "--paged"] {
            #expect(offered.contains(option), "\(option)")
        }
        let locales = try Self.bashCompletes(["infcal", "--locale", "fr_"])
        #expect(locales.contains("fr_FR"))
        for locale in locales.prefix(5) {
            let result = try BinaryRunner.run(["--locale", locale, "--forward", "1"])
            #expect(result.status == 0, "\(locale): \(result.stderr)")
        }
    }

    /// zsh loads the script from $fpath through compinit and completes at a real prompt (a
    /// pseudo-terminal through zsh's own zpty): Tab after `--calendar heb` writes `hebrew`,
    /// after `--week-numbers=lo` writes `locale`.
    @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed (apt-get install zsh); skipping the zsh completion test"))
    func zshCompletes() throws {
        let zsh = Self.shell("zsh") ?? "zsh"
        let harness = #"""
            zmodload zsh/zpty || exit 3
            zpty z 'zsh -f -i'
            zpty -w z 'PS1="P>"; fpath=($ZDIR $fpath); autoload -Uz compinit; compinit -u -D; infcal() { :; }; print READY'
            zpty -r z out '*READY*'
            zpty -w -n z $'infcal --calendar heb\t'
            zpty -r z out '*hebrew*' && print "calendar ok"
            zpty -w -n z $'\C-u infcal --week-numbers=lo\t'
            zpty -r z out '*locale*' && print "week-numbers ok"
            zpty -d z
            """#
        let result = try BinaryRunner.runShell("""
            ZDIR=$(mktemp -d) && "$INFCAL" --completions zsh > "$ZDIR/_infcal" && export ZDIR && \(zsh) -f -n "$ZDIR/_infcal" \
              && \(zsh) -f -c \(Self.quoted(harness)); status=$?; rm -rf "$ZDIR"; exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "calendar ok\nweek-numbers ok\n")
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test(.enabled(if: shell("fish") != nil, "fish is not installed (apt-get install fish); skipping the fish script check"))
    func fishScriptLoads() throws {
        let fish = Self.shell("fish") ?? "fish"
        let result = try BinaryRunner.runShell("\"$INFCAL\" --completions fish | \(fish) --no-config -c 'source; complete -C \"infcal --calendar heb\"'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("hebrew"))
    }

    @Test func scriptsComeFromTheOptionTable() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try BinaryRunner.run(["--completions", shell])
            #expect(result.status == 0)
            #expect(result.stdout.contains("week-numbers") && result.stdout.contains("hebrew") && result.stdout.contains("saturday"))
        }
    }

    /// A directory holding `sub/` and `subfile.ics` (the second letter tells them apart).
    static func pathsDirectory() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-complete-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("subdir"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("sub-file.ics"))
        return root
    }

    /// Path options complete as paths in a real interactive bash (Tab at a pseudo-terminal, so
    /// readline adds what `compopt -o filenames` asks for): a directory with its `/`, for every
    /// path option of the table.
    @Test(.enabled(if: shell("bash") != nil, "bash is not installed; skipping the bash completion tests"))
    func bashCompletesADirectoryWithASlash() throws {
        let root = try Self.pathsDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = root.appendingPathComponent("completion.bash")
        try Data(try BinaryRunner.run(["--completions", "bash"]).stdout.utf8).write(to: script)
        let session = try PseudoTerminalSession(executable: Self.shell("bash") ?? "bash", arguments: ["--norc", "--noprofile", "-i"],
                                                environment: PseudoTerminalSession.pinnedEnvironment.merging(["PS1": "P> "]) { $1 })
        // The marker is typed split (LOAD""ED), so that the terminal's echo of the typed line
        // does not show it: only bash's output does. Keys typed before readline takes the
        // terminal back are echoed by the kernel in cooked mode, ahead of the prompt, and the
        // screen no longer shows one line: so wait for the prompt after the marker too, with
        // the cursor on it (readline prints the prompt once the terminal is its own again).
        try session.send("source \(script.path); echo LOAD\"\"ED\n")
        #expect(session.waitFor(timeout: 30) { screen in
            guard let row = screen.row(of: "LOADED"), row + 1 < screen.rows else { return false }
            return screen.cursorRow == row + 1 && screen.cursorColumn == 3 && screen.line(row + 1) == "P>"
        }, "\(session.screen)")
        for option in ["--events", "--config", "add --to"] {
            try session.send("\u{15}infcal \(option) \(root.path)/subd\t")
            #expect(session.waitFor("\(option) \(root.path)/subdir/", timeout: 30), "\(option)\n\(session.screen)")
        }
        try session.send("\u{15}exit\n")
        #expect(session.waitForExit() != nil)
    }

    /// zsh (`_files`) and fish (`-F`) complete a directory with its `/` too.
    @Test(.enabled(if: shell("zsh") != nil, "zsh is not installed (apt-get install zsh); skipping the zsh completion test"))
    func zshCompletesADirectoryWithASlash() throws {
        let root = try Self.pathsDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let harness = """
            zmodload zsh/zpty || exit 3
            zpty z 'zsh -f -i'
            zpty -w z 'PS1="P>"; fpath=($ZDIR $fpath); autoload -Uz compinit; compinit -u -D; infcal() { :; }; print READY'
            zpty -r z out '*READY*'
            zpty -w -n z $'infcal --events \(root.path)/subd\\t'
            # zsh draws the added "/" bold: escapes stand between the name and it.
            zpty -r z out '*subdir*/*' && print "events ok"
            zpty -w -n z $'\\C-u infcal --reform jul\\t'
            zpty -r z out '*julian*' && print "reform ok"
            zpty -d z
            """
        let zsh = Self.shell("zsh") ?? "zsh"
        let result = try BinaryRunner.runShell("""
            ZDIR=$(mktemp -d) && "$INFCAL" --completions zsh > "$ZDIR/_infcal" && export ZDIR \
              && \(zsh) -f -c \(Self.quoted(harness)); status=$?; rm -rf "$ZDIR"; exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "events ok\nreform ok\n")
    }

    @Test(.enabled(if: shell("fish") != nil, "fish is not installed (apt-get install fish); skipping the fish completion test"))
    func fishCompletesADirectoryWithASlash() throws {
        let root = try Self.pathsDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fish = Self.shell("fish") ?? "fish"
        let result = try BinaryRunner.runShell("\"$INFCAL\" --completions fish | \(fish) --no-config -c "
            + Self.quoted("source; complete -C \"infcal --events \(root.path)/subd\"; complete -C \"infcal --reform j\""))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(lines == [root.path + "/subdir/", "julian"], "\(result.stdout)")
    }
}
