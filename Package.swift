// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "infcal",
    products: [
        .executable(name: "infcal", targets: ["infcal"]),
        .executable(name: "infcal-fetch", targets: ["infcal-fetch"]),
    ],
    targets: [
        // Model, render and command-line layers: Foundation only, no terminal code.
        .target(name: "InfCalKit"),
        // Checked output, tty facts, raw mode, signals and the pager: all libc lives here.
        .target(name: "InfCalTerminal", dependencies: ["InfCalKit", "InfCalRemote"]),
        // What infcal and its network helper share, without any network code: the line
        // protocol between them, ~/.netrc, the cache's files, whether a body is iCalendar.
        .target(name: "InfCalRemote"),
        // The network helper: URLSession (FoundationNetworking, over libcurl) and XMLParser
        // (FoundationXML, over libxml2), which cannot be linked into the static infcal and
        // would slow every start of a dynamic one. infcal starts it only when a fetch is due.
        .executableTarget(name: "infcal-fetch", dependencies: ["InfCalRemote", "InfCalTerminal"]),
        // A thin executable. The README's release build links it fully statically
        // (--static-swift-stdlib -Xswiftc -static-executable), which starts several times
        // faster than a binary that loads the Swift runtime and ICU from shared libraries.
        .executableTarget(name: "infcal", dependencies: ["InfCalKit", "InfCalTerminal"]),
        // Test support: starts programs and waits for them (posix_spawn), and the median; the
        // one launcher of the end-to-end tests, the pseudo-terminal and the benchmark.
        .target(name: "InfCalProcess"),
        // Test support: runs a program under a pseudo-terminal and rebuilds its screen; the
        // end-to-end tests and the benchmark (key press to repaint) drive the pager with it.
        .target(name: "InfCalPTY", dependencies: ["InfCalKit", "InfCalProcess"]),
        // The benchmark (`swift run -c release infcal-bench`): it builds the release
        // infcal itself and times whole processes; InfCalKit only for the in-process measures.
        .executableTarget(name: "infcal-bench", dependencies: ["InfCalKit", "InfCalPTY", "InfCalProcess"]),
        .testTarget(name: "InfCalKitTests", dependencies: ["InfCalKit", "InfCalRemote"]),
        .testTarget(name: "InfCalEndToEndTests", dependencies: ["infcal", "infcal-fetch", "InfCalTerminal", "InfCalPTY", "InfCalProcess"]),
    ]
)
