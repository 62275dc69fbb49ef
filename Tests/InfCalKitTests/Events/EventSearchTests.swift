import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalCLI
@testable import InfCalPager

/// `--search` and the pager's `/`: the matcher folds case (Unicode's full case folding, as
/// Python's `str.casefold` and ICU do: `ß` is `ss`, `İ` is `i` with a dot that accents
/// folding drops), accents and widths; the store restricted to its matches answers every view,
/// and says how far a walk may skip. Expected days are expanded by hand from the fixture's
/// rules (Tests/Fixtures/search/README.md), weekdays by `ncal`.
@Suite struct EventSearchTests {
    struct Case: Sendable, CustomStringConvertible {
        let text: String
        let haystack: String
        let matches: Bool
        var description: String { "\(text) in \(haystack)" }
    }

    static let cases: [Case] = [
        Case(text: "dentist", haystack: "DENTIST", matches: true),
        Case(text: "DENTIST", haystack: "Dentist appointment", matches: true),
        Case(text: "Zahnärztin", haystack: "ZAHNÄRZTIN", matches: true),
        Case(text: "ZAHNÄRZTIN", haystack: "bei der Zahnärztin", matches: true),
        // Accents are folded away, as a browser's find does by default.
        Case(text: "zahnarztin", haystack: "Zahnärztin", matches: true),
        // ä as one code point and as a + U+0308 are the same letter.
        Case(text: "za\u{308}hn", haystack: "Zähne", matches: true),
        Case(text: "straße", haystack: "HAUPTSTRASSE", matches: true),
        Case(text: "STRASSE", haystack: "Hauptstraße", matches: true),
        Case(text: "istanbul", haystack: "İstanbul", matches: true),
        Case(text: "İSTANBUL", haystack: "istanbul", matches: true),
        // The dotless ı is a letter of its own, not an accented i.
        Case(text: "istanbul", haystack: "ıstanbul", matches: false),
        Case(text: "σοφος", haystack: "ΣΟΦΟΣ", matches: true),
        Case(text: "abc", haystack: "ＡＢＣ", matches: true),
        Case(text: "会議", haystack: "午後の会議", matches: true),
        Case(text: "dentist", haystack: "Dentis", matches: false),
        Case(text: "tist", haystack: "", matches: false),
        // Byte for byte in UTF-8 matches only whole characters: é's bytes do not hold e's.
        Case(text: "e", haystack: "日本", matches: false),
    ]

    @Test(arguments: cases) func matcher(_ c: Case) throws {
        let matcher = try #require(EventMatcher(c.text))
        #expect(matcher.matches(c.haystack) == c.matches)
    }

    @Test func nothingToLookFor() {
        #expect(EventMatcher("") == nil)
        #expect(EventMatcher(" ") != nil)
    }

    static func store() throws -> EventStore {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/search/search.ics")
        let file = EventReader.read(Array(try Data(contentsOf: url)))
        #expect(file.events.count == 6)
        return EventStore(events: file.events, display: .utc)
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int { EventFixture.day(year, month, day) }

    /// The summary, the location and the description are searched.
    @Test func theStoreKeepsTheMatches() throws {
        let store = try Self.store()
        func summaries(_ text: String) throws -> [String] {
            let found = store.restricted(to: try #require(EventMatcher(text)))
            return found.occurrences(startingOn: Self.day(2024, 3, 1)..<Self.day(2024, 6, 1)).map(\.summary)
        }
        #expect(try summaries("dentist") == ["Dentist", "Lunch", "Dentist", "Dentist"])
        #expect(try summaries("MARKT") == ["Zahnärztin Dr. Öz"])
        #expect(try summaries("oz") == ["Zahnärztin Dr. Öz"])
        #expect(try summaries("istanbul") == ["Trip"])
        #expect(try summaries("strasse") == ["Party in the Hauptstraße"])
        #expect(try summaries("upstairs") == ["Lunch"])
        #expect(try summaries("nowhere") == [])
    }

    /// Where a walk may skip to: the next possible start, nil once every rule is done.
    @Test func skippingToTheNextPossibleStart() throws {
        let store = try Self.store()
        let dentist = store.restricted(to: try #require(EventMatcher("dentist")))
        // Inside the rule's span nothing is skipped; after its last instance (2024-05-05) and
        // the lunch, nothing can start.
        #expect(dentist.earliestStartDay(from: Self.day(2024, 1, 1)).map { $0 <= Self.day(2024, 3, 5) } == true)
        #expect(dentist.earliestStartDay(from: Self.day(2024, 6, 1)) == nil)
        #expect(dentist.firstDayWithOccurrence(in: Self.day(2024, 3, 13)..<Self.day(2100, 1, 1)) == Self.day(2024, 4, 5))
        #expect(dentist.firstDayWithOccurrence(in: Self.day(2024, 5, 6)..<Self.day(2100, 1, 1)) == nil)
        #expect(dentist.lastDayWithOccurrence(in: Self.day(2000, 1, 1)..<Self.day(2024, 4, 5)) == Self.day(2024, 3, 12))
        #expect(dentist.lastDayWithOccurrence(in: Self.day(2000, 1, 1)..<Self.day(2024, 3, 5)) == nil)
        #expect(dentist.latestStartDay(before: Self.day(2024, 3, 1)) == nil)
        let zahn = store.restricted(to: try #require(EventMatcher("zahn")))
        #expect(zahn.firstDayWithOccurrence(in: Self.day(2024, 4, 11)..<Self.day(3000, 1, 1)) == Self.day(2025, 4, 10))
        #expect(zahn.firstDayWithOccurrence(in: Self.day(2026, 4, 11)..<Self.day(3000, 1, 1)) == nil)
        // From far before, the first start is reached in one step, not year by year.
        #expect(zahn.earliestStartDay(from: Self.day(-7000, 1, 1)).map { $0 >= Self.day(2024, 4, 1) } == true)
        #expect(zahn.firstDayWithOccurrence(in: Self.day(-7000, 1, 1)..<Self.day(3000, 1, 1)) == Self.day(2024, 4, 10))
        // A weekly rule without end: always something later.
        let standup = store.restricted(to: try #require(EventMatcher("standup")))
        #expect(standup.earliestStartDay(from: Self.day(9000, 1, 1)) != nil)
        // The first Monday of 9000 is the 6th (ncal 1 9000).
        #expect(standup.firstDayWithOccurrence(in: Self.day(9000, 1, 1)..<Self.day(9001, 1, 1)) == Self.day(9000, 1, 6))
    }

    /// A hidden calendar's events are neither found nor hold a walk.
    @Test func hiddenCalendarsAreNotSearched() throws {
        let file = EventReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/search/search.ics"))))
        let store = EventStore(events: file.events, display: .utc, calendars: [EventCalendar(name: "a", color: nil)],
                               calendarOfEvent: Array(repeating: 0, count: file.events.count))
        store.hidden = [0]
        let found = store.restricted(to: try #require(EventMatcher("standup")))
        #expect(found.earliestStartDay(from: Self.day(2024, 1, 1)) == nil)
        #expect(found.firstDayWithOccurrence(in: Self.day(2024, 1, 1)..<Self.day(2025, 1, 1)) == nil)
    }
}
