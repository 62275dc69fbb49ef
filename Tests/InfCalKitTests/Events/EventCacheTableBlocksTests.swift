import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents

/// The events whose instances a cache's table holds come last in its index, in blocks of
/// their own, marked in the block directory: a run of months inside the table's years passes
/// over those blocks without reading them and shows what reading the file shows; a run outside
/// the years reads them. The oracle is the reader itself (`EventReader.read` of the same bytes).
@Suite struct EventCacheTableBlocksTests {
    /// Single meetings through 2024, and weekly, monthly and yearly series among them: more
    /// than a block of each, so that whole blocks hold only the series.
    static let calendar: [UInt8] = {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//infcal tests//EN\r\n"
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for number in 0..<300 {
            let month = 1 + number % 12, day = 1 + number % 28, hour = 8 + number % 10
            text += "BEGIN:VEVENT\r\nUID:single-\(number)\r\nSUMMARY:Meeting \(number)\r\n"
                + "DTSTART;TZID=Europe/Berlin:2024\(two(month))\(two(day))T\(two(hour))0000\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
        }
        for number in 0..<200 {
            let month = 1 + number % 12, day = 1 + number % 28
            let rule = ["FREQ=WEEKLY;COUNT=\(5 + number % 20)", "FREQ=MONTHLY;BYMONTHDAY=\(day);UNTIL=20260101T000000Z", "FREQ=YEARLY"][number % 3]
            text += "BEGIN:VEVENT\r\nUID:series-\(number)\r\nSUMMARY:Series \(number)\r\n"
                + "DTSTART;VALUE=DATE:\(2020 + number % 5)\(two(month))\(two(day))\r\nRRULE:\(rule)\r\nEND:VEVENT\r\n"
        }
        return Array((text + "END:VCALENDAR\r\n").utf8)
    }()

    /// The cache of `calendar` with a table of the years around 2024, as a run writes it.
    static func cache() -> [UInt8] {
        let layout = EventCacheFormat.layout(source: "/calendars/blocks.ics", key: EventCacheFormatTests.key,
                                             files: [("blocks.ics", EventReader.read(calendar))],
                                             occurrenceYears: EventCacheFormat.occurrenceYears(around: 2024))
        var bytes: [UInt8] = []
        let planned = EventCacheFormat.encode(layout) { piece, offset in
            if bytes.count < offset + piece.count { bytes += [UInt8](repeating: 0, count: offset + piece.count - bytes.count) }
            bytes.replaceSubrange(offset..<(offset + piece.count), with: piece)
        }
        return planned ? bytes : []
    }

    /// The byte ranges of the index entries of each block the directory marks as holding only
    /// events of the table.
    static func markedBlocks(_ bytes: [UInt8]) -> [Range<Int>] {
        func word(_ offset: Int) -> Int { bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) } }
        let (metaLength, count) = (word(32), word(40))
        let directory = 64 + metaLength, blocks = (count + 63) / 64
        let index = directory + blocks * 32
        return (0..<blocks).compactMap { block in
            let halves = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: directory + block * 32 + 16, as: UInt64.self) }
            guard halves >> 63 == 1 else { return nil }
            return (index + block * 64 * 32)..<(index + min(count, (block + 1) * 64) * 32)
        }
    }

    static func window(from year: Int) -> Range<Int> {
        let low = CivilTime.day(year: year, month: 1, day: 1) * CivilTime.secondsPerDay
        return low..<(CivilTime.day(year: year + 1, month: 1, day: 1) * CivilTime.secondsPerDay)
    }

    @Test func aRunInsideTheTableYearsPassesOverTheBlocksOfItsEvents() throws {
        let bytes = Self.cache()
        try #require(!bytes.isEmpty, "the cache's layout did not come out as planned")
        let marked = Self.markedBlocks(bytes)
        // 200 series after 300 meetings: at least two whole blocks of series alone.
        #expect(marked.count >= 2, "blocks of table events: \(marked.count)")
        let fresh = [(name: "blocks.ics", file: EventReader.read(Self.calendar))]
        let (files, loaded) = EventCacheFormatTests.decodedInPart(bytes, window: Self.window(from: 2024))
        let inside = try #require(files, "the cache does not decode for 2024")
        #expect(try EventCacheFormatTests.views(inside, from: 2024, months: 12) == EventCacheFormatTests.views(fresh, from: 2024, months: 12))
        for block in marked { #expect(!block.contains(where: loaded.contains), "a marked block was read: \(block)") }
        // Beyond the table's years the series are expanded from their rules: their blocks are read.
        let (later, read) = EventCacheFormatTests.decodedInPart(bytes, window: Self.window(from: 2031))
        let outside = try #require(later, "the cache does not decode for 2031")
        #expect(try EventCacheFormatTests.views(outside, from: 2031, months: 12) == EventCacheFormatTests.views(fresh, from: 2031, months: 12))
        #expect(marked.contains { block in block.contains(where: read.contains) }, "no marked block was read for 2031")
    }
}
