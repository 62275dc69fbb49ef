import Foundation
import Testing

/// What a hostile or careless file, file name, variable or signal gets through the built
/// binary: no hang, no crash, memory bounded, nothing raw on the terminal, no good event lost.
/// Each case is one a fuzzing run found, reproduced with a file of a few lines.
@Suite struct HostileInputTests {
    /// A fresh directory for the files a test writes.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    /// A calendar of `body` (VEVENT lines and components), CRLF-free as most tests write them.
    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\n" + body + "END:VCALENDAR\n"
    }

    /// Whether `text` holds a byte that drives a terminal: C0 controls other than newline, DEL,
    /// C1 controls (as UTF-8) or the bidi embeddings, overrides and isolates.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    // MARK: The environment

    /// TZ=$'\xff' trapped in Foundation's CFTimeZoneCreateWithName (SIGILL). A malformed TZ
    /// counts as unset: UTC, so the run is the one without TZ.
    @Test(arguments: ["\\xff", "\\xc3", "Europe/Berlin\\x01", "\\xe2\\x80\\xae"])
    func malformedZoneCountsAsUnset(value: String) throws {
        let bad = try BinaryRunner.runShell("TZ=$'\(value)' \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        let unset = try BinaryRunner.runShell("unset TZ; \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        #expect(!bad.signalled)
        #expect(bad.stdout == unset.stdout, "TZ=$'\(value)'")
        #expect(bad.stdout.hasSuffix("status 0\n"))
        #expect(bad.stderr == "")
        let directory = try BinaryRunner.runShell("TZDIR=$'\\xff' \"$INFCAL\" --calendar hebrew --today 2024-02-15 -1; echo \"status $?\"")
        #expect(directory.stdout == unset.stdout)
    }

    // MARK: Nothing raw on the terminal

    /// An OSC 52 payload after DTSTART put `rm -rf ~` into the clipboard; OSC 0 in a value or a
    /// file name set the window title; a newline in a file name forged a second message line.
    @Test func warningsQuoteFileValuesAndNamesInert() throws {
        let dir = try Self.directory()
        let payload = "\u{1B}]52;c;cm0gLXJmIH4K\u{07}"
        let values = [
            "DTSTART:" + payload, "DTSTART:20240301T090000Z\nDURATION:" + payload,
            "DTSTART:20240301T090000Z\nRRULE:FREQ=" + payload, "DTSTART;TZID=\u{1B}]0;title\u{07}:20240301T090000",
            "DTSTART:20240301T090000Z\nEXDATE:" + payload, "DTSTART:20240301T090000Z\nRDATE:" + payload,
            "DTSTART:20240301T090000Z\nRECURRENCE-ID:\u{9B}2J\u{202E}",
        ]
        for (index, value) in values.enumerated() {
            let name = "bad\u{1B}]0;title\u{07}\nforged: line \(index)\u{202E}.ics"
            try Self.write(Self.calendar("BEGIN:VEVENT\nUID:x\(index)\nSUMMARY:s\n\(value)\nEND:VEVENT\n"),
                           to: dir.appendingPathComponent(name))
        }
        let result = try BinaryRunner.run(["--events", dir.path, "--agenda", "--from", "2024-03-01", "--forward", "1"])
        #expect(result.status == 0)
        #expect(!Self.hasRawControl(result.stderr), "\(result.stderr.debugDescription)")
        // One line per warning: no forged line.
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("infcal: ") }, "\(result.stderr)")
        #expect(result.stderr.contains("\\x1b]52;c;"))
        #expect(result.stderr.contains("bad\\x1b]0;title\\x07\\nforged: line 0\\u{202e}.ics"))
        // The go-to prompt's error and missing paths quote the same way.
        let missing = try BinaryRunner.run(["--events", "/nonexistent/\u{1B}[2J\u{202E}.ics"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "infcal: cannot read events from '/nonexistent/\\x1b[2J\\u{202e}.ics': No such file or directory\n")
        let variable = try BinaryRunner.run(["-1"], environment: ["INFCAL_EVENTS": "/nonexistent/\u{9B}x"])
        #expect(variable.stderr == "infcal: cannot read events from '/nonexistent/\\u{9b}x': No such file or directory\n")
    }

    /// Text views never show C0, C1 or bidi controls from a file; JSON escapes them as \uXXXX
    /// (U+009B came through raw, as did U+202E in every text view).
    @Test func viewsAndJSONCarryNoRawControls() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("evil.ics")
        try Self.write(Self.calendar("""
            BEGIN:VEVENT
            UID:e1
            DTSTART:20240305T090000Z
            SUMMARY:csi\u{9B}2Jx bidi\u{202E}desrever\u{202C} iso\u{2066}late\u{2069} esc\u{1B}[31m del\u{7F}
            END:VEVENT

            """), to: file)
        // The stream cuts its lines to the month's width; the agenda and the page show the rest.
        let views: [(arguments: [String], showsAll: Bool)] = [
            (["--agenda"], true), (["--forward", "1"], false), (["--wall", "--forward", "1", "--width", "200"], true),
            (["--forward", "1", "--color", "always"], false),
        ]
        for view in views {
            let result = try BinaryRunner.run(["--events", file.path, "--from", "2024-03"] + view.arguments,
                                              environment: ["LC_ALL": "C.UTF-8"])
            #expect(result.status == 0)
            #expect(!view.showsAll || result.stdout.contains("csi 2Jx bidi"), "\(view)")
            // Colour itself is infcal's (bold and underline around a day): only the rest is checked.
            let text = result.stdout.replacingOccurrences(of: "\u{1B}[1;4m", with: "").replacingOccurrences(of: "\u{1B}[22;24m", with: "")
            #expect(!Self.hasRawControl(text), "\(view): \(text.debugDescription)")
        }
        let json = try BinaryRunner.run(["--events", file.path, "--from", "2024-03", "--agenda", "--json", "--forward", "1"])
        #expect(json.status == 0)
        #expect(!Self.hasRawControl(json.stdout), "\(json.stdout.debugDescription)")
        // Python's json.dumps (ensure_ascii) writes these characters the same way.
        #expect(json.stdout.contains("csi\\u009b2Jx bidi\\u202edesrever\\u202c iso\\u2066late\\u2069 esc\\u001b[31m del\\u007f"))
    }

    /// Emoji joined by U+200D, flags and skin tones are one wide cluster: the month page's
    /// borders line up, as Python's `wcwidth.wcswidth` measures each line (skips without it).
    @Test func emojiClustersKeepTheMonthPageAligned() throws {
        let dir = try Self.directory()
        let file = dir.appendingPathComponent("emoji.ics")
        try Self.write(Self.calendar("""
            BEGIN:VEVENT
            DTSTART;VALUE=DATE:20240305
            SUMMARY:👨‍👩‍👧 family 🇩🇪 flag 👍🏽 ok
            END:VEVENT
            BEGIN:VEVENT
            DTSTART;VALUE=DATE:20240306
            SUMMARY:🇩🇪🇫🇷
            END:VEVENT

            """), to: file)
        let result = try BinaryRunner.run(["--events", file.path, "--wall", "--from", "2024-03", "--forward", "1", "--width", "80"],
                                          environment: ["LC_ALL": "C.UTF-8"])
        #expect(result.status == 0)
        let script = "import sys,wcwidth\nprint(sorted({wcwidth.wcswidth(l) for l in sys.stdin.read().split('\\n')[2:-2] if l.strip()}))"
        let path = try Self.directory().appendingPathComponent("page.txt")
        try Self.write(result.stdout, to: path)
        let measured = try BinaryRunner.runShell("python3 -c \"import wcwidth\" 2>/dev/null || { echo skip; exit 0; }; python3 -c '\(script)' < '\(path.path)'")
        if measured.stdout == "skip\n" {
            print("python3 with wcwidth is not installed (pip install wcwidth); skipping the width check against it")
            return
        }
        // Every line of the grid (the title and the weekday header aside) is equally wide.
        #expect(measured.stdout.split(separator: ",").count == 1, "\(measured.stdout) \(result.stdout)")
    }
}
