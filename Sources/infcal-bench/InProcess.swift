import Foundation
import InfCalKit

/// Measure 5 inside the benchmark's own process: months of one calendar stepped, laid out and
/// rendered with InfCalKit directly, as a stream does, without starting infcal.
///
/// Used while infcal has no `--calendar` option. It runs the same code a stream runs per month
/// (`MonthCalendar.month(after:)`, `MonthGrid(month:in:firstWeekday:)`,
/// `MonthRenderer.appendRow`), with names in the POSIX locale, into a buffer that is emptied
/// every 64 KiB instead of written.
enum InProcessCalendars {
    /// Every calendar Foundation has, with the identifier infcal would be given.
    static let all: [(name: String, identifier: Calendar.Identifier)] = [
        ("gregorian", .gregorian), ("iso8601", .iso8601), ("buddhist", .buddhist), ("chinese", .chinese),
        ("coptic", .coptic), ("dangi", .dangi), ("ethiopic", .ethiopicAmeteMihret),
        ("ethiopic-amete-alem", .ethiopicAmeteAlem), ("hebrew", .hebrew), ("indian", .indian),
        ("islamic", .islamic), ("islamic-civil", .islamicCivil), ("islamic-tbla", .islamicTabular),
        ("islamic-umalqura", .islamicUmmAlQura), ("japanese", .japanese), ("persian", .persian),
        ("roc", .republicOfChina),
    ]

    /// Seconds per month of one run: stepping, grid and rendering together, and stepping alone.
    struct Sample {
        let whole: Double
        let stepping: Double
    }

    /// Times `months` months of `identifier` from the month holding 2001-01-01, `columns` a row.
    /// - returns: nil when the calendar has no such month.
    static func sample(_ identifier: Calendar.Identifier, months: Int, columns: Int) -> Sample? {
        let calendar = MonthCalendar(identifier)
        guard let first = calendar.month(containing: 0) else { return nil }
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: calendar), calendar: calendar, firstWeekday: 1)
        let buffer = ByteBuffer(capacity: 70_000)
        var row: [MonthGrid] = []

        // Stepping, grid and rendering, as a stream does.
        var month = first
        var start = Processes.now()
        for index in 0..<months {
            row.append(renderer.grid(for: month))
            if row.count == columns || index == months - 1 {
                renderer.appendRow(row, to: buffer)
                buffer.append(UInt8(ascii: "\n"))
                row.removeAll(keepingCapacity: true)
                if buffer.count >= 65_536 { buffer.removeAll() }
            }
            guard let next = calendar.month(after: month) else { return nil }
            month = next
        }
        let whole = (Processes.now() - start) / Double(months)

        // Stepping alone.
        month = first
        start = Processes.now()
        for _ in 0..<months {
            guard let next = calendar.month(after: month) else { return nil }
            month = next
        }
        let stepping = (Processes.now() - start) / Double(months)
        return Sample(whole: whole, stepping: stepping)
    }
}
