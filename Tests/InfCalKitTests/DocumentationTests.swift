import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The man page is the complete reference, held here to the tables the program reads: the
/// option table (which `--help`, the parser and the completions read), the pager's key table,
/// the config file's keys, the environment variables infcal reads and the exit statuses. The
/// README is checked by `ReadmeTests`, for what it shows.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of the man page from `.SH heading` (or `.SS heading`) to the next heading.
    static func section(_ heading: String, of manual: String) -> [String] {
        let lines = manual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0 == ".SH \(heading)" || $0 == ".SS \(heading)" }) else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix(".SH ") || $0.hasPrefix(".SS ") } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The heading lines of a section's `.TP` entries, in order.
    static func entryHeadings(_ lines: [String]) -> [String] {
        zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map(\.1)
    }

    // MARK: Options, rendered from the table

    /// `text` as groff reads it literally: every `-` a minus sign.
    static func roff(_ text: String) -> String {
        text.replacingOccurrences(of: "-", with: "\\-")
    }

    /// The man page's heading of `spec`, rendered from the table as `--help` renders its
    /// synopsis: the short and the long form, and the value as the table has it (bold what is
    /// typed, italic a placeholder, `[=...]` an optional value).
    static func manHeading(_ spec: OptionSpec) -> String {
        let long = roff(spec.flag)
        let names = spec.short.map { "\\-\($0) \", \" " + long } ?? long
        switch spec.value {
        case .none:
            return spec.short == nil ? ".B \(long)" : ".BR \(names)"
        case .required(let placeholder) where spec.short == nil && !placeholder.contains("|"):
            return ".BI \(long) \" \(placeholder)\""
        case .required(let placeholder):
            let value = placeholder.split(separator: "|").map { word in
                word.allSatisfy { $0.isUppercase || $0 == "-" } ? "\\fI\(word)\\fR" : "\\fB\(roff(String(word)))\\fR"
            }.joined(separator: "|")
            return ".BR \(names) \" \(value)\""
        case .optional(let placeholder, _):
            return ".BR \(names) \"[=\\fI\(placeholder)\\fR]\""
        }
    }

    /// Checks that the `.TP` headings of `section` are the options of `specs`, rendered, in
    /// the table's order; on a mismatch, prints the headings to paste.
    func expectHeadings(of specs: [OptionSpec], in section: String, table: String) throws {
        let manual = try read("man/infcal.1")
        let lines = Self.section(section, of: manual)
        #expect(!lines.isEmpty, "man/infcal.1 has no section \(section)")
        let headings = Self.entryHeadings(lines)
        let expected = specs.map(Self.manHeading)
        let missing = expected.filter { !headings.contains($0) }
        let stale = headings.filter { !expected.contains($0) }
        let same = headings == expected
        #expect(same, """
            man/infcal.1's \(section) entries are not \(table), rendered in its order.
            Missing: \(missing)
            Not in the table: \(stale)
            The headings, in order (each an entry '.TP', the heading, then its text):
            \(expected.map { ".TP\n" + $0 }.joined(separator: "\n"))
            """)
    }

    /// Every option of `OptionSpec.all` (which `--help`, the parser and the completions read)
    /// has an entry in OPTIONS, in the table's order, headed by its short and long form and its
    /// value as the table has them.
    @Test func optionsSectionIsTheOptionTable() throws {
        try expectHeadings(of: OptionSpec.all, in: "OPTIONS", table: "OptionSpec.all")
    }

    /// The same for the options of `add`, `edit` and `delete` in ADDING AND CHANGING EVENTS.
    @Test func commandOptionsAreTheirTable() throws {
        try expectHeadings(of: OptionSpec.commandOptions, in: "ADDING AND CHANGING EVENTS", table: "OptionSpec.commandOptions")
    }

    /// The same for the options of `check` in CHECKING CALENDARS, and its Findings list every
    /// kind of finding (`CheckFinding.Kind`, the names `--json` gives), in order, the warnings
    /// said to be so.
    @Test func checkOptionsAndFindingsAreTheirTables() throws {
        try expectHeadings(of: OptionSpec.checkOptions, in: "CHECKING CALENDARS", table: "OptionSpec.checkOptions")
        let lines = Self.section("Findings", of: try read("man/infcal.1"))
        let kinds = CheckFinding.Kind.allCases
        #expect(Self.entryHeadings(lines) == kinds.map { ".B " + Self.roff($0.rawValue) })
        // Each entry's text says "(Warning.)" exactly when the kind is one.
        for kind in kinds {
            guard let start = lines.firstIndex(of: ".B " + Self.roff(kind.rawValue)) else { continue }
            let text = lines[(start + 1)...].prefix { $0 != ".TP" }.joined(separator: " ")
            #expect(text.hasPrefix("(Warning.)") == !kind.isError, "\(kind.rawValue): \(text)")
        }
    }

    /// The renderer gives the headings the man page's conventions ask for.
    @Test func headingsAreRenderedAsTheManPageWritesThem() {
        #expect(Self.manHeading(OptionSpec.spec(.from)) == #".BI \-\-from " DATE""#)
        #expect(Self.manHeading(OptionSpec.spec(.one)) == #".BR \-1 ", " \-\-one"#)
        #expect(Self.manHeading(OptionSpec.spec(.paged)) == #".B \-\-paged"#)
        #expect(Self.manHeading(OptionSpec.spec(.columns)) == #".BR \-c ", " \-\-columns " \fIN\fR|\fBauto\fR""#)
        #expect(Self.manHeading(OptionSpec.spec(.year)) == #".BR \-y ", " \-\-year "[=\fIYYYY\fR]""#)
        #expect(Self.manHeading(OptionSpec.spec(.forward)) == #".BR \-\-forward "[=\fIN\fR]""#)
    }

    // MARK: Keys, config keys, variables, statuses

    /// Every key of the pager's table (which the keys, `?` and the status line read) heads an
    /// entry of KEYS.
    @Test func everyPagerKeyIsInTheManPage() throws {
        let manual = try read("man/infcal.1").replacingOccurrences(of: "\\-", with: "-")
        let headings = Self.section("KEYS", of: manual).filter { $0.hasPrefix(".B") }.joined(separator: "\n")
        let words = headings.split { " \",\n".contains($0) }.map(String.init)
        for binding in PagerBindings.all {
            for key in binding.keys where key != .wheelUp && key != .wheelDown {
                #expect(words.contains(key.name), "man page lacks \(key.name) (\(binding.action))")
            }
        }
    }

    /// Every key of an `[events NAME]` section the parser takes has an entry, and `[options]`
    /// names the options that are not keys (all the others are, by the rule it states).
    @Test func everyConfigKeyIsInTheManPage() throws {
        let manual = try read("man/infcal.1")
        let calendar = Self.entryHeadings(Self.section("[events NAME]", of: manual))
        for key in ConfigParser.calendarKeys {
            #expect(calendar.contains { $0.hasPrefix(".BI \(Self.roff(key)) \" = ") }, "man page lacks the key \(key) of [events NAME]")
        }
        #expect(calendar.count == ConfigParser.calendarKeys.count, "man page has keys the parser does not take: \(calendar)")
        let options = Self.section("[options]", of: manual).joined(separator: "\n")
        for spec in OptionSpec.all where !spec.isConfigKey {
            #expect(options.contains(".BR \(Self.roff(spec.long)) ,") || options.contains(".B \(Self.roff(spec.long))\n"),
                    "[options] does not say that \(spec.long) is not a key")
        }
    }

    /// Every variable infcal reads (`RunEnvironment`, the zone's and ICU's, which it checks
    /// before they are used) heads an entry of ENVIRONMENT.
    @Test func everyEnvironmentVariableIsInTheManPage() throws {
        let manual = try read("man/infcal.1")
        let headings = Self.entryHeadings(Self.section("ENVIRONMENT", of: manual)).joined(separator: "\n")
        let words = Set(headings.split { " \",\n".contains($0) }.map(String.init))
        for name in RunEnvironment.variableNames + LocaleSetting.icuVariables + ZoneSetting.variables {
            #expect(words.contains(name), "man page lacks the variable \(name)")
        }
    }

    /// EXIT STATUS has an entry for each status infcal exits with, and no other.
    @Test func exitStatusesAreDocumented() throws {
        let manual = try read("man/infcal.1")
        let statuses = [ExitStatus.success, ExitStatus.failure, ExitStatus.usage, ExitStatus.dataError, ExitStatus.noInput,
                        ExitStatus.noPermission, ExitStatus.config].map { ".B \($0)" }
        #expect(Self.entryHeadings(Self.section("EXIT STATUS", of: manual)) == statuses)
    }

    /// The man page's version is the program's.
    @Test func manPageNamesTheVersion() throws {
        let first = try read("man/infcal.1").split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("\"\(HelpText.version)\""), "\(first)")
    }

    /// Each README section ends by naming the man page's sections that hold its reference:
    /// each of those exists.
    @Test func theReadmesReferencesAreManPageSections() throws {
        let manual = try read("man/infcal.1")
        let readme = try read("README.md").replacingOccurrences(of: "\n", with: " ")
        let references = readme.matches(of: /Reference: infcal\(1\), ([^.]*)\./).map { String($0.1) }
        #expect(references.count >= 8, "the README's references were not found")
        for list in references {
            for item in list.split(separator: ",") {
                let name = item.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                #expect(manual.contains(".SH \(name)\n") || manual.contains(".SS \(name)\n"), "README names '\(name)', no section of the man page")
            }
        }
    }

    // MARK: The tables themselves

    @Test func everyOptionKeyHasOneDefinition() {
        for key in OptionKey.allCases {
            #expect((OptionSpec.all + OptionSpec.commandOptions + OptionSpec.checkOptions).filter { $0.key == key }.count == 1, "\(key)")
        }
        // Each subcommand's table: every option once, each long name once.
        for command in Subcommand.all {
            #expect(Set(command.specs.map(\.long)).count == command.options.count, "\(command.name)")
            #expect(command.specs.map(\.key) == command.options, "\(command.name)")
        }
        let shorts = OptionSpec.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
    }

    /// The subcommands are in the man page's synopsis, and each one's help fits eighty columns.
    @Test func subcommandsAreDocumented() throws {
        let manual = try read("man/infcal.1")
        for command in Subcommand.all {
            #expect(manual.contains(".B infcal \(command.name.rawValue)\n"), "\(command.name)")
            for line in command.helpText.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
    }

    @Test func helpLinesFitEightyColumns() {
        for line in HelpText.text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}
