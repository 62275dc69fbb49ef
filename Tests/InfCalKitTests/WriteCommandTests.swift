import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// `infcal add`, `edit` and `delete` read from the command line: what each form means, and
/// every bad input a usage error naming it. Today is fixed (Thursday 2024-02-15; the weekday
/// checked against Python's `datetime.date(2024, 2, 15).weekday() == 3`).
@Suite struct WriteCommandTests {
    static let environment = RunEnvironment(variables: [:], stdoutIsTerminal: false, terminalWidth: nil, localToday: (2024, 2, 15))
    static let utc = WritingZone(zone: nil) { _ in 0 }

    /// The command `infcal NAME words...` resolves to, without a config file.
    static func command(_ name: String, _ words: [String], environment: RunEnvironment = environment) throws -> ChangeRun {
        guard case .change(let run) = try RunPlan.resolve([name] + words, environment: environment,
                                                          readConfig: { _, _ in .failed(reason: "none", isMissing: true) }) else {
            throw CalendarEdit.Refusal("no change")
        }
        return run
    }

    static func add(_ words: [String], environment: RunEnvironment = environment) throws -> NewEvent {
        guard case .add(let request) = try command("add", words, environment: environment).change else { throw CalendarEdit.Refusal("no add") }
        return request.event(zone: utc)
    }


    struct Case: Sendable, CustomTestStringConvertible {
        let words: [String]
        let start: String
        let end: String
        let rule: String?
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(words: ["Dentist"], start: "20240215", end: "20240216", rule: nil),
        Case(words: ["friday", "10:00", "Dentist"], start: "20240216T100000Z", end: "20240216T110000Z", rule: nil),
        Case(words: ["thursday", "Today's", "weekday"], start: "20240215", end: "20240216", rule: nil),
        Case(words: ["Mon", "x"], start: "20240219", end: "20240220", rule: nil),
        Case(words: ["tomorrow", "Holiday", "--until", "2024-02-20"], start: "20240216", end: "20240221", rule: nil),
        Case(words: ["yesterday", "x"], start: "20240214", end: "20240215", rule: nil),
        Case(words: ["2024-03-05", "16:30-17:15", "Coffee"], start: "20240305T163000Z", end: "20240305T171500Z", rule: nil),
        // An end before the start is on the next day: across midnight, and across a month's end.
        Case(words: ["2024-03-05", "23:00-01:00", "Party"], start: "20240305T230000Z", end: "20240306T010000Z", rule: nil),
        Case(words: ["2024-02-29", "22:30-00:00", "x"], start: "20240229T223000Z", end: "20240301T000000Z", rule: nil),
        Case(words: ["2024-03", "9:05", "x", "--for", "1h30m"], start: "20240301T090500Z", end: "20240301T103500Z", rule: nil),
        Case(words: ["+1", "x", "--for", "2d"], start: "20240301", end: "20240303", rule: nil),
        Case(words: ["2025-05-04", "Birthday", "--every", "year"], start: "20250504", end: "20250505", rule: "FREQ=YEARLY"),
        Case(words: ["x", "--every", "FREQ=WEEKLY;BYDAY=MO,WE", "--count", "4"], start: "20240215", end: "20240216",
             rule: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4"),
        Case(words: ["x", "--every", "RSCALE=HEBREW;FREQ=YEARLY"], start: "20240215", end: "20240216", rule: "RSCALE=HEBREW;FREQ=YEARLY"),
        Case(words: ["10:00", "x", "--every", "day", "--until", "2024-02-20"], start: "20240215T100000Z", end: "20240215T110000Z",
             rule: "FREQ=DAILY;UNTIL=20240220T235959Z"),
        Case(words: ["x", "--every", "month", "--until", "2024-06-01"], start: "20240215", end: "20240216", rule: "FREQ=MONTHLY;UNTIL=20240601"),
        // Not a date: the summary's first word.
        Case(words: ["3", "pigs"], start: "20240215", end: "20240216", rule: nil),
    ]

    @Test(arguments: cases)
    func adds(_ example: Case) throws {
        let event = try Self.add(example.words)
        #expect(ICalText.value(of: event.start) == example.start)
        #expect(ICalText.value(of: event.end) == example.end)
        #expect(event.rule == example.rule)
    }

    /// Each is refused, naming the word or option at fault.
    static let bad: [([String], String)] = [
        (["2023-02-29", "x"], "'2023-02-29' for DATE"),
        (["2024-13-01", "x"], "'2024-13-01' for DATE"),
        (["x", "--every", "FORTNIGHTLY"], "'FORTNIGHTLY' for --every"),
        (["x", "--every", "FREQ=FORTNIGHTLY"], "for --every"),
        (["10:00-10:00", "x"], "'10:00-10:00' for TIME"),
        (["24:00", "x"], "'24:00' for TIME"),
        (["2024-03-05"], "SUMMARY"),
        ([], "SUMMARY"),
        (["a\u{1B}b"], "for SUMMARY"),
        (["x", "--location", "a\u{7}"], "for --location"),
        (["x", "--description", "a\u{0}"], "for --description"),
        (["x", "--until", "2024-01-01"], "'2024-01-01' for --until"),
        (["x", "--count", "3"], "--count"),
        (["x", "--every", "day", "--count", "0"], "'0' for --count"),
        // Beyond what COUNT is kept to: the message names the range.
        (["x", "--every", "day", "--count", "2147483648"], "'2147483648' for --count: expected a count: a whole number from 1 to 2147483647"),
        (["x", "--every", "day", "--count", "2", "--until", "2024-03-01"], "--count"),
        (["10:00", "x", "--until", "2024-03-01"], "--until"),
        (["x", "--for", "soon"], "'soon' for --for"),
        (["x", "--fortnight"], "unknown option '--fortnight'"),
        (["x", "--to", ""], "--to"),
    ]

    @Test func badInputIsAUsageError() throws {
        for (words, named) in Self.bad {
            do {
                _ = try Self.add(words)
                Issue.record("\(words) was accepted")
            } catch let error as UsageError {
                #expect(error.description.contains(named), "\(words): \(error.description)")
            }
        }
    }

    /// Descriptions keep line breaks; other texts may not hold them.
    @Test func lineBreaks() throws {
        let event = try Self.add(["x", "--description", "one\ntwo"])
        #expect(event.description == "one\ntwo")
        #expect(event.lines(uid: "u", stamp: 0).contains("DESCRIPTION:one\\ntwo"))
        #expect(throws: UsageError.self) { try Self.add(["x", "--location", "one\ntwo"]) }
    }

    @Test func editAndDelete() throws {
        let command = try Self.command("edit", ["uid-1", "2024-03-01", "10:00-11:00", "--summary", "New", "--occurrence", "2024-02-20"])
        guard case let .edit(uid, scope, changes) = command.change else { Issue.record("not an edit"); return }
        #expect(uid == "uid-1")
        #expect(scope == .occurrence(CivilDay(year: 2024, month: 2, day: 20)))
        #expect(changes.day == CivilDay(year: 2024, month: 3, day: 1))
        #expect(changes.time?.start == 36_000 && changes.time?.end == 39_600)
        #expect(changes.summary == "New")
        #expect(throws: UsageError.self) { try Self.command("edit", ["uid-1"]) }
        #expect(throws: UsageError.self) { try Self.command("edit", []) }
        #expect(throws: UsageError.self) { try Self.command("edit", ["u", "--count", "3"]) }
        #expect(throws: UsageError.self) { try Self.command("delete", ["u", "extra"]) }
        #expect(throws: UsageError.self) { try Self.command("delete", ["u", "--summary", "x"]) }
    }

    /// The zone new times are written in, from TZ or /etc/localtime.
    @Test func writingZone() {
        func zone(_ tz: String?, link: String? = nil) -> String? {
            RunEnvironment(variables: tz.map { ["TZ": $0] } ?? [:], stdoutIsTerminal: false, terminalWidth: nil, localToday: (2024, 1, 1))
                .writingZoneName(localtimeLink: link)
        }
        #expect(zone("Europe/Berlin") == "Europe/Berlin")
        #expect(zone(":America/New_York") == "America/New_York")
        #expect(zone("/usr/share/zoneinfo/Asia/Tokyo") == "Asia/Tokyo")
        #expect(zone("UTC") == nil)
        #expect(zone("") == nil)
        #expect(zone("EST5EDT,M3.2.0,M11.1.0") == nil)
        #expect(zone("<+14>-14") == nil)
        #expect(zone(nil, link: "/usr/share/zoneinfo/Europe/Lisbon") == "Europe/Lisbon")
        #expect(zone(nil, link: "../usr/share/zoneinfo/Etc/UTC") == nil)
        #expect(zone(nil) == nil)
    }
}
