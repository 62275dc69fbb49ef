import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The week's headings with `--also hebrew`: under each day's weekday and number, its date in
/// the Hebrew calendar, as PyPI's `convertdate` has it (through `AlsoCalendarTests.oracle`);
/// the title names the Hebrew months the week spans. Skips, saying so, without convertdate.
@Suite struct WeekAlsoTests {
    @Test(.enabled(if: AlsoCalendarTests.hasConvertdate, "convertdate is not installed (pip install convertdate); skipping the Hebrew headings"),
          arguments: [(2024, 12, 29), (2025, 3, 23), (2024, 3, 10)])
    func hebrewHeadingsMatchConvertdate(year: Int, month: Int, day: Int) throws {
        let gregorian = MonthCalendar(.gregorian)
        var renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: 1)
        renderer.also = AlsoCalendar(calendar: MonthCalendar(.hebrew), locale: nil)
        var view = PagerView(renderer: renderer, highlightToday: false, columns: nil, box: .unicode)
        view.events = EventStore(events: [], display: .utc)
        let sunday = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: year, month: month, day: day))
        let start = try #require(gregorian.month(containing: sunday))
        var state = PagerState(calendar: gregorian, start: start, bounds: MonthBounds(), today: sunday, view: .week)
        state.select(sunday)
        let table = try AlsoCalendarTests.oracle("hebrew", first: (year, month, day), count: 7)
        for size in [TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)] {
            let frame = view.frame(for: state, size: size)
            // The line under the weekdays: a heading a column, between the column lines.
            let headings = frame.lines[2].split(separator: "│", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(headings.count == 7, "\(frame.lines[2])")
            var months: [String] = []
            for (offset, heading) in headings.enumerated() {
                let date = ISODate.text(civilDay: CivilTime.day(year: year, month: month, day: day) + offset)
                let hebrew = try #require(table[date])
                let name = hebrew.leap && hebrew.month == 7 ? "Adar II" : AlsoCalendarTests.hebrewNames[hebrew.month - 1]
                #expect(heading == "\(hebrew.day) \(name)", "\(date): '\(heading)', convertdate \(hebrew)")
                if months.last != name { months.append(name) }
            }
            // The title: the Gregorian months, then the Hebrew ones the week spans.
            let title = frame.lines[0].trimmingCharacters(in: .whitespaces)
            #expect(title.contains(" · " + months.joined(separator: " – ")), "\(title), \(months)")
        }
    }
}
