import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The README's picture of the day view is the frame of this run: khal's two long events
/// (`Tests/Fixtures/khal/long-events.ics`) and the day view opened on 2014-04-10 at 80x24
/// (`ReadmeTests` checks the same picture on a real terminal).
@Suite struct DayViewPictureTests {
    @Test func readmePictureOfTheDayView() throws {
        let environment = RunEnvironment(variables: ["TERM": "xterm", "LC_CTYPE": "C.UTF-8"], stdoutIsTerminal: true,
                                         terminalWidth: 80, localToday: (2014, 4, 10), keyboardIsAvailable: true)
        let configuration = try Configuration.resolve(ArgumentParser.parse(["--paged", "--color", "never"]), environment: environment)
        var view = PagerView(configuration: configuration)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/khal/long-events.ics")
        let data = try Data(contentsOf: fixture)
        view.events = EventStore(events: EventReader.read(Array(data)).events, display: .utc, sources: ["work.ics"])
        var state = PagerState(calendar: configuration.calendar, start: configuration.start, bounds: configuration.bounds,
                               today: configuration.today, view: configuration.page.initialView)
        let size = TerminalSize(columns: 80, rows: 24)
        _ = view.handle(.enter, in: &state, size: size)
        let text = view.frame(for: state, size: size).lines.map { MonthPage.trimmed(MonthPageTests.plain($0)) }.joined(separator: "\n")
        #expect(text.contains("Thursday 10 April 2014"))
        let readme = try String(contentsOf: DocumentationTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("\n" + text + "\n```"), "\(text)")
    }
}
