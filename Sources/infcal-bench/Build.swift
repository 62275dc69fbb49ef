#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The release build of infcal that the benchmark measures: the README's install build.
enum ReleaseBuild {
    /// The README's release build command, run from the package root.
    static let arguments = ["build", "-c", "release", "--static-swift-stdlib", "-Xswiftc", "-static-executable", "--product", "infcal"]

    /// The command as a user types it.
    static var commandLine: String { "swift " + arguments.joined(separator: " ") }

    /// The infcal package's root: the nearest directory holding infcal's Package.swift above the
    /// benchmark's executable (`.build/<triple>/release/infcal-bench`), else above the current
    /// directory.
    static func packageRoot() -> String? {
        var starts: [String] = []
        if let executable = Processes.executablePath() { starts.append(executable) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if getcwd(&buffer, buffer.count) != nil {
            starts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/.")
        }
        for start in starts {
            var directory = start
            while let slash = directory.lastIndex(of: "/") {
                directory = String(directory[..<slash])
                let manifest = (directory.isEmpty ? "" : directory) + "/Package.swift"
                if Processes.isFile(manifest), Processes.readFile(manifest).contains("name: \"infcal\"") {
                    return directory.isEmpty ? "/" : directory
                }
            }
        }
        return nil
    }

    /// Builds infcal with the README's command in `root` and returns the binary's path.
    /// - throws: `BenchError` when swift cannot be found or the build fails.
    static func build(in root: String) throws -> String {
        guard let swift = Processes.find("swift") else { throw BenchError.failed("swift is not in PATH; pass --infcal PATH") }
        log("building infcal: (cd \(root) && \(commandLine))")
        var saved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        _ = getcwd(&saved, saved.count)
        guard chdir(root) == 0 else { throw BenchError.failed("cannot enter \(root)") }
        defer { _ = chdir(saved) }
        let pid = try Processes.spawn(swift, arguments, streams: .toStandardError, inherit: true)
        let status = Processes.wait(pid)
        guard status == 0 else { throw BenchError.build(status) }
        let binary = root + "/.build/release/infcal"
        guard Processes.isFile(binary) else { throw BenchError.failed("the build left no \(binary)") }
        return binary
    }
}

/// Writes a progress line to standard error, so that standard output holds only the table.
func log(_ message: String) {
    Processes.writeError("infcal-bench: \(message)\n")
}
