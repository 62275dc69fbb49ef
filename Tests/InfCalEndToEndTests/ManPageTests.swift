import Foundation
import Testing

@Suite struct ManPageTests {
    static let groff = ["/usr/bin/groff", "/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("man/infcal.1")

    @Test(.enabled(if: groff != nil, "groff is not installed (apt-get install groff); skipping the man page lint"))
    func groffFindsNothingToWarnAbout() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.groff ?? "/usr/bin/groff")
        process.arguments = ["-man", "-ww", "-z", Self.manual.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings == "")
    }
}
