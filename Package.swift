// swift-tools-version:6.0
import PackageDescription

// Release builds optimise across the layers' module boundaries, as they did when the layers
// were one module: the stream's hot path crosses from the model into the renderer for every
// month (`infcal-bench --baseline` measures the difference).
let layer: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// Release links of infcal use lld and place first, together, the functions and data that the
// common runs use (.ci/link-order.txt, written by .ci/link-order from profiles of
// those runs): a run then faults in a few dozen pages of the large static binary, not a hundred
// scattered ones. A symbol the order names and the code no longer has is skipped.
let linkOrder = String(#filePath.dropLast("Package.swift".count)) + ".ci/link-order.txt"
let orderedLink: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + linkOrder, "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "infcal",
    products: [
        .executable(name: "infcal", targets: ["infcal"]),
        .executable(name: "infcal-fetch", targets: ["infcal-fetch"]),
    ],
    targets: [
        // The layers, each a target so that the compiler keeps a lower one from using a higher
        // one; each imports only the targets listed below it (and Foundation), never one above:
        //
        //   infcal, infcal-bench, infcal-fetch   executables
        //   InfCalTerminal   Platform (all libc), output, raw mode, signals, the pager's loop
        //   InfCalCLI        option table, config file, resolution into a configuration
        //   InfCalPager      pager state, view, keys (pure: a state and a size in, a frame out)
        //   InfCalRender     grids, month page, day view, JSON Lines, agenda, display width
        //   InfCalEvents     .ics reader, event store, recurrence, the parsed-event cache format
        //   InfCalModel      the index, months, calendars, the civil-date kernel, date arguments
        //
        // The CLI sits above the pager because resolving the options decides the pager's first
        // view and builds its PagerView; the pager never reads options. `LayerTests` checks
        // every source file's imports against this graph (its table repeats it).
        .target(name: "InfCalModel", swiftSettings: layer),
        .target(name: "InfCalEvents", dependencies: ["InfCalModel"], swiftSettings: layer),
        .target(name: "InfCalRender", dependencies: ["InfCalModel", "InfCalEvents"], swiftSettings: layer),
        .target(name: "InfCalPager", dependencies: ["InfCalModel", "InfCalEvents", "InfCalRender"], swiftSettings: layer),
        .target(name: "InfCalCLI", dependencies: ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager"], swiftSettings: layer),
        // Checked output, tty facts, raw mode, signals and the pager: all libc lives here.
        .target(name: "InfCalTerminal", dependencies: ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager",
                                                       "InfCalCLI", "InfCalRemote"], swiftSettings: layer),
        // What infcal and its network helper share, without any network code: the line
        // protocol between them, ~/.netrc, the cache's files, whether a body is iCalendar.
        .target(name: "InfCalRemote"),
        // The network helper: URLSession (FoundationNetworking, over libcurl) and XMLParser
        // (FoundationXML, over libxml2), which cannot be linked into the static infcal and
        // would slow every start of a dynamic one. infcal starts it only when a fetch is due.
        .executableTarget(name: "infcal-fetch", dependencies: ["InfCalModel", "InfCalRemote", "InfCalTerminal"]),
        // A thin executable. The README's release build links it fully statically
        // (--static-swift-stdlib -Xswiftc -static-executable), which starts several times
        // faster than a binary that loads the Swift runtime and ICU from shared libraries.
        .executableTarget(name: "infcal", dependencies: ["InfCalTerminal"], swiftSettings: layer,
                          linkerSettings: orderedLink),
        // Test support: starts programs and waits for them (posix_spawn), and the median; the
        // one launcher of the end-to-end tests, the pseudo-terminal and the benchmark.
        .target(name: "InfCalProcess"),
        // Test support: runs a program under a pseudo-terminal and rebuilds its screen; the
        // end-to-end tests and the benchmark (key press to repaint) drive the pager with it.
        .target(name: "InfCalPTY", dependencies: ["InfCalRender", "InfCalPager", "InfCalProcess"]),
        // The benchmark (`swift run -c release infcal-bench`): it builds the release
        // infcal itself and times whole processes; the layers only for the in-process measures.
        .executableTarget(name: "infcal-bench", dependencies: ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager",
                                                               "InfCalCLI", "InfCalPTY", "InfCalProcess"]),
        // The unit tests of every layer, in one target so that fixtures are shared.
        .testTarget(name: "InfCalKitTests", dependencies: ["InfCalModel", "InfCalEvents", "InfCalRender", "InfCalPager",
                                                           "InfCalCLI", "InfCalRemote"]),
        .testTarget(name: "InfCalEndToEndTests", dependencies: ["infcal", "infcal-fetch", "InfCalModel", "InfCalEvents", "InfCalRender",
                                                                 "InfCalPager", "InfCalCLI", "InfCalTerminal", "InfCalPTY", "InfCalProcess"]),
    ]
)
