import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The agenda's lines: ISO date, weekday, times or all-day, summary; cut to a width at a
/// terminal; control characters from a file never reach the terminal. Expected lines are the
/// issue's own examples (2024-03-31 was a Sunday, 2024-04-02 a Tuesday, by `ncal 4 2024`).
@Suite struct AgendaPrinterTests {
    static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int {
        CivilTime.day(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
    }

    let easter = Occurrence(summary: "Easter Sunday", calendarName: nil, isAllDay: true,
                            start: seconds(2024, 3, 31), end: seconds(2024, 4, 1))
    let standup = Occurrence(summary: "Standup", calendarName: nil, isAllDay: false,
                             start: seconds(2024, 4, 2, 9), end: seconds(2024, 4, 2, 10))
    let instant = Occurrence(summary: "Bell\u{1B}[2J", calendarName: nil, isAllDay: false,
                             start: seconds(2024, 4, 3, 12, 5), end: seconds(2024, 4, 3, 12, 5))

    @Test func linesAsTheIssueShowsThem() {
        let printer = AgendaPrinter(locale: nil, width: nil)
        #expect(printer.line(easter) == "2024-03-31 Sun  all-day      Easter Sunday")
        #expect(printer.line(standup) == "2024-04-02 Tue  09:00-10:00  Standup")
        #expect(printer.line(instant) == "2024-04-03 Wed  12:05        Bell [2J")
    }

    /// The stream's byte path writes exactly what `line` gives.
    @Test func bytesMatchLines() {
        let printer = AgendaPrinter(locale: nil, width: nil)
        for occurrence in [easter, standup, instant] {
            var bytes: [UInt8] = []
            printer.append(occurrence, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == printer.line(occurrence) + "\n")
        }
    }

    @Test func cutToTheWidthAtATerminal() {
        #expect(AgendaPrinter(locale: nil, width: 20).line(standup) == "2024-04-02 Tue  09:0")
        let wide = Occurrence(summary: "会議の時間", calendarName: nil, isAllDay: true, start: easter.start, end: easter.end)
        // 29 cells of prefix, then two-cell characters: 34 cells hold two of them.
        #expect(AgendaPrinter(locale: nil, width: 34).line(wide) == "2024-03-31 Sun  all-day      会議")
    }

    @Test func weekdayNamesOfTheLocale() {
        let german = AgendaPrinter(locale: Locale(identifier: "de_DE"), width: nil)
        #expect(german.line(standup).hasPrefix("2024-04-02 Di"))
    }
}
