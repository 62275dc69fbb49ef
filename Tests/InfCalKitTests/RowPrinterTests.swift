import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The printer that prints: `MonthPrinter.print`, whose rows go through `appendRow` and so,
/// nearly always, through its fast path (`appendPlainRow`, which writes the titles straight
/// into the buffer; infcal-bench: the 120,000-month stream takes 2.01x as long without it).
/// Its bytes against the general row (`appendRow(_:titles:to:)`, which measures each title and
/// pads each line) for every usable calendar, a few locales, week numbers, day-of-year
/// numbers, today highlighted and 1 to 4 columns: the two are one printer's two ways.
@Suite struct RowPrinterTests {
    /// The bytes the general row writes for `months`, `columns` a row, a blank line between
    /// rows, as `MonthPrinter` lays them out.
    static func general(_ months: [Month], renderer: MonthRenderer, columns: Int) -> [UInt8] {
        let buffer = ByteBuffer()
        var first = true
        for start in stride(from: 0, to: months.count, by: columns) {
            if !first { buffer.append(UInt8(ascii: "\n")) }
            first = false
            let grids = months[start..<min(months.count, start + columns)].map(renderer.grid(for:))
            renderer.appendRow(grids, titles: grids.map { renderer.titleText($0.month) }, to: buffer)
        }
        return buffer.bytes
    }

    static let looks: [[String]] = [[], ["-w"], ["-j"], ["-w", "-j", "--monday"], ["--locale", "de_DE"], ["--locale", "ja_JP"],
                                    ["--locale", "pt_BR", "-w"], ["--color", "always", "--today", "2024-03-15"]]

    @Test(arguments: looks)
    func theFastRowPrintsWhatTheGeneralRowPrints(_ look: [String]) throws {
        for name in CalendarChoice.usableNames {
            for columns in 1...4 {
                let configuration = try Fixture.resolve(look + ["--calendar", name, "--from", "2024-01", "--forward", "14",
                                                                "--columns", String(columns)])
                let sink = CollectingSink()
                try configuration.makePrinter().print(configuration.months(), to: sink)
                let expected = Self.general(Array(configuration.months()), renderer: configuration.makeRenderer(), columns: columns)
                #expect(sink.bytes == expected, "\(look) \(name) \(columns) columns")
            }
        }
    }

    /// A title wider than its grid takes the general row (the fast one gives way, having
    /// written nothing): the column widens to the title, and the printer's bytes are the
    /// general row's.
    @Test func aWideTitleTakesTheGeneralRow() throws {
        var found = 0
        for locale in ["C", "de_DE", "fr_FR", "ru_RU", "he_IL", "fa_IR", "ar_EG", "am_ET"] {
            for name in CalendarChoice.usableNames {
                let configuration = try Fixture.resolve(["--locale", locale, "--calendar", name, "--from", "2024-01", "--forward", "13",
                                                         "--columns", "2"])
                let renderer = configuration.makeRenderer()
                for month in configuration.months() where DisplayWidth.of(renderer.titleText(month)) > renderer.metrics.monthWidth {
                    let grids = [renderer.grid(for: month), renderer.grid(for: month)]
                    let plain = ByteBuffer()
                    #expect(!grids.withUnsafeBufferPointer { renderer.appendPlainRow($0, to: plain) })
                    #expect(plain.bytes.isEmpty)
                    #expect(renderer.rowWidth(grids) == 2 * DisplayWidth.of(renderer.titleText(month)) + GridMetrics.gutter)
                    found += 1
                }
            }
        }
        #expect(found > 0, "no title wider than its grid among these calendars and locales")
    }
}
