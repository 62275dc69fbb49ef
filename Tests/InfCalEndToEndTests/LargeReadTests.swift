import Foundation
import Testing

/// A large calendar read afresh has its heap advised to transparent huge pages first
/// (`Platform.growHeapInHugePages`): strace shows the madvise(2) of a run over a file of
/// 2.6 MB, and none over a small one. (Whether the kernel then uses huge pages is its own
/// affair; the output is the same either way.)
@Suite struct LargeReadTests {
    @Test func aLargeCalendarReadAfreshAdvisesItsHeap() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            print("LargeReadTests: strace is not installed: the heap's advice is not checked")
            return
        }
        let place = try EventCacheTests.Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let large = try place.write(EventCacheTests.large, to: "large.ics")
        let small = try place.write(EventCacheTests.mixed, to: "small.ics")
        func advice(_ path: String) throws -> [Substring] {
            let trace = place.root.appendingPathComponent("trace").path
            let run = try BinaryRunner.runShell("""
                strace -f -e trace=madvise -o '\(trace)' "$INFCAL" --today 2024-02-15 --events '\(path)' --no-cache --from 2024-03 -1
                """)
            #expect(run.status == 0)
            return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("MADV_HUGEPAGE") }
        }
        let advised = try advice(large)
        #expect(advised.count == 1, "\(advised)")
        #expect(advised.allSatisfy { $0.hasSuffix("= 0") || $0.contains("EINVAL") }, "\(advised)")
        #expect(try advice(small).isEmpty)
    }
}
