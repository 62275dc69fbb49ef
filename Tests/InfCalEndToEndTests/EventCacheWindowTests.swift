import Foundation
import Testing

/// A run of a few months decodes from the cache only the events that can fall in them (its
/// window: the months' days, widened by the zones' reach). At the window's edges a cached run
/// prints what a fresh reading prints: events just before and after each month in the zones
/// farthest east and west, shown in zones as far apart; floating and all-day events on the
/// first and last days; events that start before the month and last into it, single and
/// recurring; inside the cache's table of occurrences (the years around now) and beyond it.
/// The oracle is the same binary with `--no-cache` (`EventCacheTests.expectSameViews`).
@Suite struct EventCacheWindowTests {
    static let edges = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//infcal tests//EN
        BEGIN:VEVENT
        UID:east
        SUMMARY:Early in Kiritimati
        DTSTART;TZID=Pacific/Kiritimati:20240401T013000
        DTEND;TZID=Pacific/Kiritimati:20240401T023000
        END:VEVENT
        BEGIN:VEVENT
        UID:west
        SUMMARY:Late in Pago Pago
        DTSTART;TZID=Pacific/Pago_Pago:20240229T223000
        DTEND;TZID=Pacific/Pago_Pago:20240229T233000
        END:VEVENT
        BEGIN:VEVENT
        UID:floating-last
        SUMMARY:Floating last minute
        DTSTART:20240229T235900
        DURATION:PT1M
        END:VEVENT
        BEGIN:VEVENT
        UID:floating-first
        SUMMARY:Floating first minute
        DTSTART:20240301T000000
        DURATION:PT30M
        END:VEVENT
        BEGIN:VEVENT
        UID:day-before
        SUMMARY:All day before
        DTSTART;VALUE=DATE:20240229
        END:VEVENT
        BEGIN:VEVENT
        UID:day-after
        SUMMARY:All day after
        DTSTART;VALUE=DATE:20240401
        END:VEVENT
        BEGIN:VEVENT
        UID:trip
        SUMMARY:Trip into March
        DTSTART;VALUE=DATE:20240220
        DTEND;VALUE=DATE:20240305
        END:VEVENT
        BEGIN:VEVENT
        UID:overnight
        SUMMARY:Overnight in Berlin
        DTSTART;TZID=Europe/Berlin:20240228T220000
        DTEND;TZID=Europe/Berlin:20240302T010000
        END:VEVENT
        BEGIN:VEVENT
        UID:season
        SUMMARY:Season over three months
        DTSTART;VALUE=DATE:20240110
        DTEND;VALUE=DATE:20240415
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly-east
        SUMMARY:Weekly past midnight in Kiritimati
        DTSTART;TZID=Pacific/Kiritimati:20240104T003000
        DTEND;TZID=Pacific/Kiritimati:20240104T013000
        RRULE:FREQ=WEEKLY
        END:VEVENT
        BEGIN:VEVENT
        UID:monthly-west
        SUMMARY:Last evening of the month in Pago Pago
        DTSTART;TZID=Pacific/Pago_Pago:20240131T230000
        DTEND;TZID=Pacific/Pago_Pago:20240131T233000
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        END:VEVENT
        BEGIN:VEVENT
        UID:leap
        SUMMARY:Leap day
        DTSTART;VALUE=DATE:20200229
        RRULE:FREQ=YEARLY
        END:VEVENT
        BEGIN:VEVENT
        UID:monthly-trip
        SUMMARY:Monthly trip over the month's end
        DTSTART;VALUE=DATE:20240128
        DTEND;VALUE=DATE:20240203
        RRULE:FREQ=MONTHLY;COUNT=120
        END:VEVENT
        END:VCALENDAR

        """

    /// Each view in each display zone, for months inside the table's years and beyond them.
    @Test(arguments: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/New_York"])
    func theWindowsEdgesShowWhatReadingShows(zone: String) throws {
        let place = try EventCacheTests.Place()
        defer { try? FileManager.default.removeItem(at: place.root) }
        let path = try place.write(Self.edges, to: "edges.ics")
        var views: [[String]] = []
        // 2024 lies in the table of a cache written now; 2031 beyond it (the rules are expanded).
        for year in ["2024", "2031"] {
            views += [
                ["-1", "--from", "\(year)-02"], ["-1", "--from", "\(year)-03"], ["-1", "--from", "\(year)-04"],
                ["--json", "-1", "--from", "\(year)-03"],
                ["--agenda", "--from", "\(year)-03", "--forward", "1"],
                ["--wall", "-1", "--from", "\(year)-03", "--width", "120"],
            ]
        }
        try EventCacheTests.expectSameViews(place, path, "edges in \(zone)", views: views, environment: ["TZ": zone])
        #expect(place.caches.count == 1)
    }
}
