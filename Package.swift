// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "infcal",
    products: [
        .executable(name: "infcal", targets: ["infcal"]),
    ],
    targets: [
        // Model, render and command-line layers: Foundation only, no terminal code.
        .target(name: "InfCalKit"),
        // Checked output, tty facts, raw mode, signals and the pager: all libc lives here.
        .target(name: "InfCalTerminal", dependencies: ["InfCalKit"]),
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
        .testTarget(name: "InfCalKitTests", dependencies: ["InfCalKit"]),
        .testTarget(name: "InfCalEndToEndTests", dependencies: ["infcal", "InfCalTerminal", "InfCalPTY", "InfCalProcess"]),
    ]
)
