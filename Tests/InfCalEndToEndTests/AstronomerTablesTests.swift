import Foundation
import Testing

/// `AstronomerTables.swift` is what `Tests/Oracles/astronomer_tables.py` reads out of the ICU
/// library this toolchain ships (its local symbols `newMoonDates`, `winterSolsticeDates`,
/// `sunLongitudeAdjustmts`, `winterSolsticeAdj`, `newYearAdj`): a new toolchain whose ICU
/// changed those tables makes this test fail until the file is regenerated. Skips, saying so,
/// without python3, readelf or the library.
@Suite struct AstronomerTablesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map { "\($0)/\(name)" } + ["/usr/bin/\(name)"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The library beside the running Swift runtime's (the toolchain the tests were built with).
    static let library: String? = {
        let beside = onPath("swift").map { swift -> String in
            URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("lib/swift/linux/lib_FoundationICU.so").path
        }
        let candidates: [String] = [beside, "/opt/swift/usr/lib/swift/linux/lib_FoundationICU.so"].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }()

    static let ready = onPath("python3") != nil && onPath("readelf") != nil && library != nil

    @Test(.enabled(if: ready, "python3, readelf or lib_FoundationICU.so missing; skipping the table extraction check"))
    func tablesAreTheLibrarys() throws {
        let script = Self.root.appendingPathComponent("Tests/Oracles/astronomer_tables.py").path
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: Self.onPath("python3") ?? "python3"),
                                                 [script, Self.library ?? ""],
                                                 environment: ["PATH": ProcessInfo.processInfo.environment["PATH"]], deadline: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/InfCalModel/AstronomerTables.swift"),
                                   encoding: .utf8)
        let generated = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let lines = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(generated, lines).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil && generated.count == lines.count,
                "AstronomerTables.swift differs from the library's tables at line \((first?.offset ?? min(generated.count, lines.count)) + 1): regenerate it with Tests/Oracles/astronomer_tables.py")
    }
}
