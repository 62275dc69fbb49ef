import Foundation

/// The longest each month of one calendar has been so far, by month number and leap flag: a
/// guess at where the month after it starts.
///
/// Shared by the copies of a `MonthCalendar`, and safe to use from any thread. A guess is only a
/// guess: the step checks it with Foundation and goes the long way when it is wrong. It is never
/// longer than the longest month, so a wrong guess still lies in the month or the next.
final class MonthLengths: @unchecked Sendable {
    private let lock = NSLock()
    /// Days, at index `month * 2 + (leap ? 1 : 0)`; 0 where no month of that name was seen.
    private var longest = [Int](repeating: 0, count: 2 * (slots + 1))
    private static let slots = 15

    /// The storage index of months named as `name` is, or nil for a month number out of range.
    private static func slot(_ name: MonthName) -> Int? {
        (1...slots).contains(name.month) ? name.month * 2 + (name.isLeapMonth ? 1 : 0) : nil
    }

    /// The longest a month named as `name` (whatever its year) has been, or nil if none was seen.
    func longest(of name: MonthName) -> Int? {
        guard let slot = Self.slot(name) else { return nil }
        lock.lock()
        let length = longest[slot]
        lock.unlock()
        return length > 0 ? length : nil
    }

    /// Notes that the month named `name` is `length` days long.
    func record(_ length: Int, for name: MonthName) {
        guard let slot = Self.slot(name) else { return }
        lock.lock()
        if length > longest[slot] { longest[slot] = length }
        lock.unlock()
    }
}
