import Foundation
import Testing

@Suite struct ManPageTests {
    static let groff = ["/usr/bin/groff", "/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("man/infcal.1")

    @Test(.enabled(if: groff != nil, "groff is not installed (apt-get install groff); skipping the man page lint"))
    func groffFindsNothingToWarnAbout() throws {
        let run = try BinaryRunner.runProgram(URL(fileURLWithPath: Self.groff ?? "/usr/bin/groff"),
                                              ["-man", "-ww", "-z", Self.manual.path], environment: [:], deadline: 60)
        #expect(run.status == 0)
        #expect(run.stderr == "")
    }
}
