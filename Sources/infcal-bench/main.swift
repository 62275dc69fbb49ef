import Foundation

// infcal-bench: the benchmark. It builds the release infcal with the README's
// command (or takes --infcal PATH), times it as whole processes side by side with `ncal -C` and
// `python3 -m calendar`, and prints one table of medians, ratios and targets.
//
// The targets live here and nowhere else (never in a test).

let usage = """
    Usage: swift run -c release infcal-bench [--runs N] [--infcal PATH] [--calendar-months N] [--start-up-only] [--events-only] [--lasting-only] [--cache-only] [--day-view-only] [--baseline PATH]
           swift run -c release infcal-bench --sweep [CALENDAR...]
           swift run -c release infcal-bench --write-calendars DIRECTORY

    Builds infcal with the README's release command (\(ReleaseBuild.commandLine))
    unless --infcal names a binary, then times it against ncal -C and python3 -m calendar
    (each skipped with a note when missing), interleaved, after a warm-up, and prints a
    Markdown table of medians on standard output; progress goes to standard error.

      --runs N             timed runs of each command (default 9; start-up runs 5 x N, at least 31)
      --infcal PATH        measure this infcal binary instead of building one
      --calendar-months N  months per calendar in the every-calendar measure (default 12000)
      --sweep [CALENDAR...] instead: walk each calendar's whole range forward, then backward,
                           in process, and print the months, the times and the differences
                           (exit status 1 if the walks differ)
      --start-up-only      measure the start-up alone (its row, against ncal and python3)
      --events-only        run only the events measures
      --lasting-only       run only the measures of an event lasting since year 0 (issue 34)
      --day-view-only      run only the day view, week view and search measures (in process)
      --cache-only         run only the parsed-event cache measures
      --baseline PATH      instead: time this infcal against another build of it (PATH), paired,
                           for the stream, the start-up and reading events (before and after a change)
      --write-calendars DIRECTORY  instead: write the cache measures' generated calendar
                           (DIRECTORY/big.ics) and vdir (DIRECTORY/vdir), to profile by hand
      -h, --help           print this help

    """

struct BenchOptions {
    var runs = 9
    var infcal: String?
    var calendarMonths = 12_000
    var startUpOnly = false
    var eventsOnly = false
    var lastingOnly = false
    var dayViewOnly = false
    var cacheOnly = false
    var baseline: String?

    /// Reads the command line.
    /// - throws: `BenchError.usage` for anything it does not know.
    static func parse(_ arguments: [String]) throws -> BenchOptions? {
        var options = BenchOptions()
        var rest = arguments[...]
        func count(_ option: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value >= 1 else {
                throw BenchError.usage("\(option) needs a whole number from 1")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs": options.runs = try count(argument)
            case "--calendar-months": options.calendarMonths = try count(argument)
            case "--infcal":
                guard let path = rest.popFirst() else { throw BenchError.usage("--infcal needs a path") }
                options.infcal = path
            case "--baseline":
                guard let path = rest.popFirst() else { throw BenchError.usage("--baseline needs a path") }
                options.baseline = path
            case "--start-up-only": options.startUpOnly = true
            case "--events-only": options.eventsOnly = true
            case "--lasting-only": options.lastingOnly = true
            case "--day-view-only": options.dayViewOnly = true
            case "--cache-only": options.cacheOnly = true
            case "-h", "--help": return nil
            default: throw BenchError.usage("unknown argument '\(argument)'")
            }
        }
        return options
    }
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--sweep" { return Sweep.run(Array(arguments.dropFirst())) }
    if arguments.first == "--write-calendars", arguments.count == 2 {
        return Benchmark.writeCalendars(into: arguments[1]) ? 0 : 1
    }
    do {
        guard let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
            print(usage, terminator: "")
            return 0
        }
        let infcal: String
        if let given = options.infcal {
            guard Processes.isFile(given) else { throw BenchError.failed("no infcal binary at \(given)") }
            infcal = given
        } else {
            guard let root = ReleaseBuild.packageRoot() else { throw BenchError.noPackage }
            infcal = try ReleaseBuild.build(in: root)
        }
        let (helpStatus, help) = try Processes.output(infcal, ["--help"])
        guard helpStatus == 0 else { throw BenchError.failed("\(infcal) --help failed with exit status \(helpStatus)") }

        let ncal = Processes.find("ncal")
        let python = Processes.find("python3")
        // GNU time, if `time` in PATH is that (it measures peak RSS).
        let time = Processes.find("time").flatMap { time in
            Processes.find("true").flatMap { Processes.peakKiB($0, [], time: time) } != nil ? time : nil
        }
        var benchmark = Benchmark(infcal: infcal, ncal: ncal, python: python, time: time, runs: options.runs,
                                  calendarMonths: options.calendarMonths)
        if ncal == nil { benchmark.report.notes.append("ncal is not installed (Debian package ncal): its column is empty and no ratio is given.") }
        if python == nil { benchmark.report.notes.append("python3 is not installed: its column is empty.") }

        if let baseline = options.baseline {
            guard Processes.isFile(baseline) else { throw BenchError.failed("no infcal binary at \(baseline)") }
            benchmark.measureAgainst(baseline: baseline)
        } else if options.dayViewOnly {
            log("day view, week view and search")
            benchmark.measureDayView()
            benchmark.measureWeekView()
            benchmark.measureSearch()
        } else if options.startUpOnly {
            log("start-up")
            benchmark.measureStartUp()
        } else if options.lastingOnly {
            log("an event lasting since year 0")
            benchmark.measureLasting()
        } else if options.cacheOnly {
            log("the parsed-event cache")
            benchmark.measureCache()
        } else {
            if !options.eventsOnly {
                log("1-2/8 streams and memory")
                benchmark.measureStreams()
                log("3/8 start-up")
                benchmark.measureStartUp()
                log("4/8 pager")
                benchmark.measurePager(help: help)
                log("5/8 every calendar")
                benchmark.measureCalendars()
            }
            log("6/8 events")
            benchmark.measureEvents()
            benchmark.measureLasting()
            log("7/8 the parsed-event cache")
            benchmark.measureCache()
            log("8/8 day view, week view and search")
            benchmark.measureDayView()
            benchmark.measureWeekView()
            benchmark.measureSearch()
        }

        print("infcal-bench: \(infcal) (\(options.infcal == nil ? ReleaseBuild.commandLine : "given with --infcal")), "
              + "\(Processes.machine()), LC_ALL=C TZ=UTC, output to /dev/null, median of \(options.runs) runs after a warm-up\n")
        print(benchmark.report.table())
        print("")
        for note in benchmark.report.notes { print("- " + note) }
        return 0
    } catch {
        log("\(error)")
        if case BenchError.usage = error { Processes.writeError(usage); return 64 }
        return 1
    }
}

exit(main())
