import Foundation
import Testing
@testable import InfCalKit

/// The help, the man page and the README describe the same options.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyOptionInTheHelpIsInTheManPageAndTheReadme() throws {
        // The man page escapes dashes: \-\-from.
        let manual = try read("man/infcal.1").replacingOccurrences(of: "\\-", with: "-")
        let readme = try read("README.md")
        for spec in OptionSpec.all {
            #expect(HelpText.text.contains(spec.flag))
            #expect(manual.contains(spec.flag), "man page lacks \(spec.flag)")
            #expect(readme.contains("`\(spec.flag)"), "README lacks \(spec.flag)")
            if let short = spec.short {
                #expect(manual.contains("-\(short)"), "man page lacks -\(short)")
            }
        }
    }

    @Test func everyOptionKeyHasOneDefinition() {
        for key in OptionKey.allCases {
            #expect(OptionSpec.all.filter { $0.key == key }.count == 1, "\(key)")
        }
        let shorts = OptionSpec.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
    }

    @Test func helpLinesFitEightyColumns() {
        for line in HelpText.text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test func exitStatusesAreDocumented() throws {
        let manual = try read("man/infcal.1")
        for status in ["0", "1", "64"] {
            #expect(manual.contains(".B \(status)\n"), "man page lacks exit status \(status)")
        }
    }
}
