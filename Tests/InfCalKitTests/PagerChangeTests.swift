import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The day view's keys make the same typed change as the command line, from the text the user
/// typed (`TIME[-TIME] SUMMARY`), read by the command line's own time parser: no argument list,
/// so a word such as `--every` in a summary is text. The day is 2024-03-05.
@Suite struct PagerChangeTests {
    static let day = Fixture.day(2024, 3, 5)
    static let civil = CivilDay(year: 2024, month: 3, day: 5)

    /// The day's events: a single one and a recurring one.
    static func event(_ index: Int) -> (uid: String, recurring: Bool)? {
        [("single@test", false), ("weekly@test", true)].indices.contains(index) ? [("single@test", false), ("weekly@test", true)][index] : nil
    }

    static func change(_ write: PagerState.Write) throws -> EventChange? {
        try EventChange.fromPager(write, event: event)
    }

    @Test func adds() throws {
        guard case .add(let timed)? = try Self.change(.add(day: Self.day, text: "16:30-17:15 Coffee  with Ana --every week")) else {
            Issue.record("no add"); return
        }
        #expect(timed.day == Self.civil)
        #expect(timed.time?.start == 16 * 3600 + 1800 && timed.time?.end == 17 * 3600 + 900)
        #expect(timed.summary == "Coffee with Ana --every week")
        #expect(timed.rule == nil)
        guard case .add(let allDay)? = try Self.change(.add(day: Self.day, text: "Holiday")) else { Issue.record("no add"); return }
        #expect(allDay.time == nil && allDay.summary == "Holiday")
        // The same event as `infcal add 2024-03-05 16:30-17:15 Coffee with Ana` writes.
        let zone = WritingZone(zone: nil) { _ in 0 }
        let typed = try WriteCommandTests.add(["2024-03-05", "16:30-17:15", "Coffee", "with", "Ana", "--every", "week"])
        let keyed = timed.event(zone: zone)
        #expect(keyed.start == typed.start && keyed.end == typed.end)
    }

    @Test func editsAndDeletes() throws {
        guard case let .edit(uid, scope, fields)? = try Self.change(.edit(day: Self.day, event: 1, text: "10:00 Later")) else {
            Issue.record("no edit"); return
        }
        #expect(uid == "weekly@test" && scope == .occurrence(Self.civil))
        #expect(fields.time?.start == 36_000 && fields.time?.end == nil && fields.summary == "Later")
        guard case let .edit(_, single, onlyTime)? = try Self.change(.edit(day: Self.day, event: 0, text: "09:00-09:30")) else {
            Issue.record("no edit"); return
        }
        #expect(single == .series && onlyTime.summary == nil && onlyTime.time?.end == 34_200)
        guard case let .delete(gone, occurrence)? = try Self.change(.delete(day: Self.day, event: 1)) else { Issue.record("no delete"); return }
        #expect(gone == "weekly@test" && occurrence == .occurrence(Self.civil))
        guard case let .delete(_, series)? = try Self.change(.delete(day: Self.day, event: 0)) else { Issue.record("no delete"); return }
        #expect(series == .series)
        // An event gone meanwhile: no change.
        #expect(try Self.change(.delete(day: Self.day, event: 5)) == nil)
        #expect(try Self.change(.edit(day: Self.day, event: 5, text: "x")) == nil)
    }

    /// What the command line refuses, the keys refuse with the same words.
    @Test func refusals() throws {
        #expect(throws: UsageError.invalidValue(option: "TIME", value: "25:00", expected: "a time HH:MM or a span HH:MM-HH:MM (24-hour clock)")) {
            try Self.change(.add(day: Self.day, text: "25:00 Late"))
        }
        #expect(throws: UsageError.self) { try Self.change(.add(day: Self.day, text: "10:00")) }
        #expect(throws: UsageError.self) { try Self.change(.add(day: Self.day, text: "a\u{1B}b")) }
        #expect(throws: UsageError.self) { try Self.change(.edit(day: Self.day, event: 0, text: "   ")) }
    }
}
