import Foundation
import Testing

/// The layers as `Package.swift` declares them: each source directory (a target) and the
/// project's modules its files may import. SwiftPM on Linux lets a file import a module of the
/// package that its target does not declare (when that module happens to be built first), so
/// the build alone does not keep a lower layer from reaching up; this table and the test do.
@Suite struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Model < Events < Render < Pager < CLI < Terminal < executables; Remote, Process and PTY
    /// are support targets beside them.
    static let mayImport: [String: Set<String>] = [
        "InfCalModel": [],
        "InfCalEvents": ["InfCalModel"],
        "InfCalRender": ["InfCalModel", "InfCalEvents"],
        "InfCalPager": ["InfCalModel", "InfCalEvents", "InfCalRender"],
        "InfCalCLI": ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager"],
        "InfCalRemote": [],
        "InfCalTerminal": ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager", "InfCalCLI", "InfCalRemote"],
        "InfCalProcess": [],
        "InfCalPTY": ["InfCalRender", "InfCalPager", "InfCalProcess"],
        "infcal": ["InfCalTerminal"],
        "infcal-fetch": ["InfCalModel", "InfCalRemote", "InfCalTerminal"],
        "infcal-bench": ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager", "InfCalCLI", "InfCalPTY", "InfCalProcess"],
    ]

    /// The project's modules a Swift source imports (`import X`, `@testable import X`,
    /// `import struct X.Y`), other modules (Foundation, Glibc) left out.
    static func projectImports(of source: String) -> Set<String> {
        var found: Set<String> = []
        for line in source.split(separator: "\n") {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let path = words.count >= 3 && ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(words[1])
                ? words[2] : words[1]
            let module = String(path.split(separator: ".").first ?? "")
            if mayImport[module] != nil || mayImport[module.replacingOccurrences(of: "_", with: "-")] != nil {
                found.insert(module)
            }
        }
        return found
    }

    /// The imports of `source`, a file of `target`, that the table forbids.
    static func violations(target: String, source: String) -> Set<String> {
        projectImports(of: source).subtracting(mayImport[target] ?? [])
    }

    /// The check itself: a model file importing the CLI, or a render file the pager, is caught;
    /// an allowed import and Foundation are not.
    @Test func theCheckCatchesAnUpwardImport() {
        #expect(Self.violations(target: "InfCalModel", source: "import Foundation\nimport InfCalCLI\n") == ["InfCalCLI"])
        #expect(Self.violations(target: "InfCalRender", source: "@testable import InfCalPager\n") == ["InfCalPager"])
        #expect(Self.violations(target: "InfCalEvents", source: "import struct InfCalRender.TerminalSize\n") == ["InfCalRender"])
        #expect(Self.violations(target: "InfCalPager", source: "import Foundation\nimport InfCalRender\n").isEmpty)
    }

    /// No source file imports a module above its own layer, and every target is in the table.
    @Test func noLayerImportsAHigherOne() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        #expect(Set(targets) == Set(Self.mayImport.keys), "Sources/ and the table of layers name different targets")
        var checked = 0
        for target in targets {
            let directory = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                let wrong = Self.violations(target: target, source: text)
                #expect(wrong.isEmpty, "Sources/\(target)/\(file) imports \(wrong.sorted()), above its layer")
                checked += 1
            }
        }
        #expect(checked > 100, "only \(checked) source files found under \(sources.path)")
    }

    /// `Package.swift` declares no dependency the table forbids, so the two tell one story.
    @Test func packageDependenciesFollowTheTable() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declarations = manifest.components(separatedBy: "arget(name: \"").dropFirst()
        var seen = 0
        for declaration in declarations {
            guard let name = declaration.split(separator: "\"").first.map(String.init),
                  let allowed = Self.mayImport[name] else { continue }
            let body = declaration.components(separatedBy: ")").first ?? ""
            let named = body.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).dropFirst()
            let wrong = Set(named).subtracting(allowed)
            #expect(wrong.isEmpty, "Package.swift: \(name) depends on \(wrong.sorted()), above its layer")
            seen += 1
        }
        #expect(seen == Self.mayImport.count, "Package.swift declares \(seen) of the table's \(Self.mayImport.count) targets")
    }
}
