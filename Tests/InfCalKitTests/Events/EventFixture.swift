import Foundation
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Helpers for the event tests: a VEVENT around some lines, a store over it, its occurrences as
/// `YYYY-MM-DDTHH:MM` text in a fixed display zone.
enum EventFixture {
    static let newYork = DisplayZone(TimeZone(identifier: "America/New_York") ?? .gmt)

    /// A calendar holding one VEVENT with `lines` (CRLF line ends, as RFC 5545 writes them).
    static func calendar(_ lines: [String], extra: [String] = []) -> [UInt8] {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0"] + extra + ["BEGIN:VEVENT", "UID:test", "SUMMARY:Test"] + lines
            + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        return Array(text.utf8)
    }

    /// The grid day number of a Gregorian date.
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: year, month: month, day: day))
    }

    /// `seconds` (civil) as `YYYY-MM-DDTHH:MM`.
    static func text(_ seconds: Int) -> String {
        let day = CivilTime.day(ofSeconds: seconds)
        let date = CivilTime.date(ofDay: day)
        let minutes = (seconds - day * 86_400) / 60
        return String(format: "%04d-%02d-%02dT%02d:%02d", date.year, date.month, date.day, minutes / 60, minutes % 60)
    }

    /// The days (YYYY-MM-DD, in UTC) of the instances from the start of year `from` to the
    /// end of year `to`, of the calendar holding one event of `lines`.
    static func days(_ lines: [String], from: Int, to: Int) -> [String] {
        starts(calendar(lines), from: from, to: to, display: .utc).map { String($0.prefix(10)) }
    }

    /// The starts of the occurrences from `from` to `to` (years, inclusive), as text.
    static func starts(_ data: [UInt8], from: Int, to: Int, display: DisplayZone = newYork) -> [String] {
        let file = EventReader.read(data)
        let store = EventStore(events: file.events, display: display)
        return store.occurrences(startingOn: day(from, 1, 1)..<day(to + 1, 1, 1)).map { text($0.start) }
    }

    /// Expands the RFC's notation: `"1997-09 2-11,13; 1997-10 1"` at `time`.
    static func dates(_ notation: String, time: String = "09:00") -> [String] {
        var result: [String] = []
        for group in notation.split(separator: ";") {
            let parts = group.split(separator: " ")
            guard parts.count == 2 else { continue }
            for item in parts[1].split(separator: ",") {
                let bounds = item.split(separator: "-").compactMap { Int($0) }
                guard let first = bounds.first else { continue }
                for day in first...(bounds.last ?? first) {
                    result.append("\(parts[0])-\(String(format: "%02d", day))T\(time)")
                }
            }
        }
        return result
    }
}
