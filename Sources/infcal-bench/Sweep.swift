import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The whole-range sweep (`--sweep`): every calendar's months from its first (the month holding
/// 1 January 4713 BC) forward to its last, then backward from the last to the first, in process.
/// The two walks must give the same months (first day, length, name), reversed; a title depends
/// on nothing else (Chinese, Dangi and Hebrew titles on the name alone, the others on the first
/// day), so the same months have the same titles.
enum Sweep {
    struct Row {
        let name: String
        let months: Int
        let forward: Double
        let backward: Double
        let differences: Int
    }

    /// Sweeps `identifier` both ways.
    static func sweep(_ name: String, _ identifier: Calendar.Identifier) -> Row {
        let calendar = MonthCalendar(identifier)
        guard let first = calendar.month(containing: MonthCalendar.lowerLimitDay) else {
            return Row(name: name, months: 0, forward: 0, backward: 0, differences: 1)
        }
        var started = DispatchTime.now().uptimeNanoseconds
        // Each month as its first day and a digest of its length and name (16 bytes, where a
        // `Month` takes 80: the Gregorian calendar has six million months).
        let forward = MonthIndex(calendar: calendar, start: first).forward.map { (day: $0.firstDay, digest: digest($0)) }
        let forwardSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        started = DispatchTime.now().uptimeNanoseconds
        var differences = 0
        var index = forward.count - 1
        guard let last = calendar.month(containing: forward[forward.count - 1].day) else {
            return Row(name: name, months: forward.count, forward: forwardSeconds, backward: 0, differences: 1)
        }
        for month in MonthIndex(calendar: calendar, start: last).backward {
            if index < 0 || forward[index].day != month.firstDay || forward[index].digest != digest(month) { differences += 1 }
            index -= 1
        }
        differences += max(0, index + 1)
        let backwardSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return Row(name: name, months: forward.count, forward: forwardSeconds, backward: backwardSeconds, differences: differences)
    }

    /// The month's length and name packed into one number (names differ in these fields only).
    static func digest(_ month: Month) -> Int {
        var hasher = Hasher()
        hasher.combine(month.dayCount)
        hasher.combine(month.name)
        return hasher.finalize()
    }

    /// Sweeps every calendar this platform computes (or those `names` lists) and prints a table.
    static func run(_ names: [String]) -> Int32 {
        let chosen = names.isEmpty ? CalendarChoice.usableNames : names
        print("| calendar | months | forward | backward | differences |")
        print("|:--|--:|--:|--:|--:|")
        var failed = false
        for name in chosen {
            guard let identifier = CalendarChoice.identifier(named: name) else {
                log("no calendar '\(name)'")
                failed = true
                continue
            }
            log("sweeping \(name)")
            let row = sweep(name, identifier)
            failed = failed || row.differences > 0 || row.months == 0
            print("| \(row.name) | \(row.months) | \(String(format: "%.1f s", row.forward)) | \(String(format: "%.1f s", row.backward)) | \(row.differences) |")
        }
        return failed ? 1 : 0
    }
}
