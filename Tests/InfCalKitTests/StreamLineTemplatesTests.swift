import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalCLI

/// The stream's plain lists copy a yearly event's line from the one made for its weekday while
/// its label, pad and time stay the same. Every line the stream prints must be the one the
/// general formatter (`AgendaPrinter.dayLine`, what the lists print for an occurrence) gives
/// for the occurrences the store finds in that month, in their order, over decades of
/// weekdays: labels of one and two digits, all-day and floating times, a summary ending in a
/// space, 29 February, an event on the 31st of the months that have one.
struct StreamLineTemplatesTests {
    static let calendar = """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:1
        SUMMARY:First
        DTSTART;VALUE=DATE:19990101
        RRULE:FREQ=YEARLY;BYMONTH=1,4,7,10;BYMONTHDAY=1
        END:VEVENT
        BEGIN:VEVENT
        UID:2
        SUMMARY:Tea 
        DTSTART:19990315T090500
        RRULE:FREQ=YEARLY
        END:VEVENT
        BEGIN:VEVENT
        UID:3
        SUMMARY:Leap
        DTSTART;VALUE=DATE:20000229
        RRULE:FREQ=YEARLY
        END:VEVENT
        BEGIN:VEVENT
        UID:4
        SUMMARY:Late
        DTSTART:19990531T235900
        RRULE:FREQ=YEARLY;INTERVAL=2
        END:VEVENT
        BEGIN:VEVENT
        UID:5
        SUMMARY:Last day
        DTSTART;VALUE=DATE:19990131
        RRULE:FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=-1
        END:VEVENT
        END:VCALENDAR

        """

    @Test(arguments: ["1", "3"])
    func linesAreTheGeneralFormattersLines(columns: String) throws {
        let store = EventStore(events: EventReader.read(Array(Self.calendar.utf8)).events, display: .utc)
        let environment = Fixture.environment(variables: [:])
        let configuration = try Configuration.resolve(ArgumentParser.parse(["--from", "1999-01", "--forward", "480", "--columns", columns]),
                                                      environment: environment)
        var printer = configuration.makePrinter()
        printer.events = StreamEvents(store: store, marksDays: false, locale: nil)
        let output = CollectingSink()
        try printer.print(configuration.months(), to: output)
        let pattern = try Regex(#"^ ?\d{1,2} (Sun|Mon|Tue|Wed|Thu|Fri|Sat)  "#)
        let printed = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.firstMatch(of: pattern) != nil }

        var expected: [String] = []
        let lines = AgendaPrinter(locale: nil, width: nil)
        for year in 1999..<2039 {
            for month in 1...12 {
                let next = month == 12 ? (year + 1, 1) : (year, month + 1)
                let first = EventFixture.day(year, month, 1)
                for occurrence in store.occurrences(startingOn: first..<EventFixture.day(next.0, next.1, 1)) {
                    let label = String(occurrence.startDay - first + 1)
                    let day = String(repeating: " ", count: max(0, 2 - label.count)) + label
                    var line = lines.dayLine(occurrence, day: day, width: Int.max)
                    while line.hasSuffix(" ") { line.removeLast() }
                    expected.append(line)
                }
            }
        }
        // 1999-2038: four firsts a year, Tea and the last of January every year, 29 February
        // in the ten leap years, Late every other year from 1999.
        #expect(expected.count == 160 + 40 + 40 + 10 + 20)
        #expect(printed == expected)
    }
}
