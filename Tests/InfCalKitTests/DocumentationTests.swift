import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The help, the man page and the README describe the same options.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every option of the table (which `--help` is built from) has an entry of its own in the
    /// man page's OPTIONS (a `.TP` heading naming its short and long form) and a row in the
    /// README's table.
    @Test func everyOptionHasAManPageEntryAndAReadmeRow() throws {
        let lines = try read("man/infcal.1").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headings = zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map(\.1)
        let readmeRows = try read("README.md").split(separator: "\n").filter { $0.hasPrefix("| `-") }
        for spec in OptionSpec.all + OptionSpec.commandOptions {
            let long = spec.flag.replacingOccurrences(of: "-", with: "\\-")
            let entry = spec.short.map { "\\-\($0) \", \" " + long } ?? long
            #expect(headings.contains { $0.hasPrefix(".B") && $0.split(separator: " ", maxSplits: 1).last?.hasPrefix(entry) == true },
                    "man page has no entry '\(entry)'")
            let row = spec.short.map { "| `-\($0)`, `\(spec.flag)" } ?? "| `\(spec.flag)"
            #expect(readmeRows.contains { $0.hasPrefix(row) }, "README has no row '\(row)'")
        }
    }

    /// Every key of the pager's table (which the keys, `?` and the status line read) is named
    /// in the README's table of keys and in the man page's KEYS section.
    @Test func everyPagerKeyIsInTheReadmeAndTheManPage() throws {
        let readme = try read("README.md")
        let table = try #require(readme.components(separatedBy: "| keys | action |").dropFirst().first?
            .components(separatedBy: "\n\n").first)
        let manual = try read("man/infcal.1").replacingOccurrences(of: "\\-", with: "-")
        let keys = try #require(manual.components(separatedBy: ".SH KEYS").dropFirst().first?.components(separatedBy: ".SH ").first)
        let headings = keys.split(separator: "\n").filter { $0.hasPrefix(".B") }.joined(separator: "\n")
        for binding in PagerBindings.all {
            for key in binding.keys where key != .wheelUp && key != .wheelDown {
                let name = key.name
                let inReadme = table.contains("`\(name)`") || table.contains("| \(name)") || table.contains(", \(name)")
                    || table.contains("/ \(name)")
                #expect(inReadme, "README lacks \(name) (\(binding.action))")
                let words = headings.split { " \",\n".contains($0) }.map(String.init)
                #expect(words.contains(name), "man page lacks \(name) (\(binding.action))")
            }
        }
    }

    @Test func everyOptionKeyHasOneDefinition() {
        for key in OptionKey.allCases {
            #expect((OptionSpec.all + OptionSpec.commandOptions).filter { $0.key == key }.count == 1, "\(key)")
        }
        // Each subcommand's table: every option once, each long name once.
        for command in Subcommand.all {
            #expect(Set(command.specs.map(\.long)).count == command.options.count, "\(command.name)")
            #expect(command.specs.map(\.key) == command.options, "\(command.name)")
        }
        let shorts = OptionSpec.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
    }

    /// The subcommands are in the man page's synopsis and the README's section, and each
    /// one's help fits eighty columns.
    @Test func subcommandsAreDocumented() throws {
        let manual = try read("man/infcal.1")
        let readme = try read("README.md")
        #expect(readme.contains("## Adding and changing events"))
        for command in Subcommand.all {
            #expect(manual.contains(".B infcal \(command.name.rawValue)\n"), "\(command.name)")
            #expect(readme.contains("infcal \(command.name.rawValue) [OPTION]..."), "\(command.name)")
            for line in command.helpText.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
    }

    @Test func helpLinesFitEightyColumns() {
        for line in HelpText.text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test func exitStatusesAreDocumented() throws {
        let manual = try read("man/infcal.1")
        for status in ["0", "1", "64", "65", "66", "77", "78"] {
            #expect(manual.contains(".B \(status)\n"), "man page lacks exit status \(status)")
        }
    }
}
