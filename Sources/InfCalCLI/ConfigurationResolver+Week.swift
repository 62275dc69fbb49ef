import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

// The resolver's week by the hour and its zones: `--week`, `--hours`, `--view`, `--zone`, `--zones`.
extension ConfigurationResolver {
    /// `--zone`'s zone, else the local one.
    /// - throws: `UsageError.invalidValue` for a name Foundation's zone data lacks, with the nearest names.
    func zone() throws(UsageError) -> ZoneChoice {
        guard let option = raw.last(.zone), let value = option.value else { return .local }
        guard let zone = ZoneChoice.parse(value) else {
            throw .invalidValue(option: option.spelling, value: value, expected: ZoneChoice.expectation(for: value))
        }
        return zone
    }

    /// The zones `--zones` names, for the pager's `z` (which cycles them after `zone`); empty
    /// without it.
    /// - throws: `UsageError.invalidValue` for a bad name in the list; `.unavailable` outside the pager.
    func zones(mode: Configuration.Mode) throws(UsageError) -> [ZoneChoice] {
        guard let option = raw.last(.zones), let value = option.value else { return [] }
        guard mode == .paged else { throw .unavailable(option: option.spelling, reason: "it sets the zones the pager's z key shows times in") }
        var zones: [ZoneChoice] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingSpaces
            guard let zone = ZoneChoice.parse(name), zone != .local else {
                throw .invalidValue(option: option.spelling, value: name, expected: ZoneChoice.expectation(for: name))
            }
            if !zones.contains(zone) { zones.append(zone) }
        }
        return zones
    }

    /// `--hours START-END`, or nil without it.
    /// - throws: `UsageError.invalidValue` for anything but whole hours with 0 ≤ START < END ≤ 24;
    ///   `.unavailable` where no week is shown.
    func weekHours(mode: Configuration.Mode) throws(UsageError) -> Range<Int>? {
        guard let option = raw.last(.hours) else { return nil }
        let value = option.value ?? ""
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ OptionSpec.isNumber($0) && $0.count <= 2 }),
              let start = Int(parts[0]), let end = Int(parts[1]), 0 <= start, start < end, end <= 24 else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.hours).expected)
        }
        guard mode == .paged || mode == .weeks else {
            throw .unavailable(option: option.spelling, reason: "it sets the hours of the week (--week, or the pager's week view)")
        }
        return start..<end
    }

    /// The view `--view` opens the pager with, or nil without it.
    /// - throws: `UsageError.invalidValue` for a name of no view; `.unavailable` outside the pager.
    func initialView(mode: Configuration.Mode) throws(UsageError) -> PagerState.View? {
        guard let option = raw.last(.view) else { return nil }
        let value = option.value ?? ""
        guard let view = PagerState.View(name: value.lowercased()) else {
            let names = PagerState.View.allCases.map(\.name)
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.spec(.view).expected
                                + (ArgumentParser.closest(to: value.lowercased(), among: names).map { " (did you mean '\($0)'?)" } ?? ""))
        }
        guard mode == .paged else { throw .unavailable(option: option.spelling, reason: "it chooses the view the pager opens with") }
        return view
    }

    /// The weeks `--week` prints: from the week holding its DATE (else `--from`'s day, the
    /// positional date's, the bound the walk starts from, or today), `--forward N` or
    /// `--backward N` of them (no N: until a bound; neither: one), inside `bounds`; nil
    /// without `--week`.
    /// - throws: `UsageError` for a bad DATE or count, or a first week outside the bounds.
    func shownWeeks(today: Int, date: PositionalDate?, bounds: MonthBounds, firstWeekday: Int) throws(UsageError) -> ShownWeeks? {
        guard let option = raw.last(.week) else { return nil }
        var day: Int
        if let value = option.value {
            day = try weekDay(value, of: option, today: today)
        } else if let from = raw.last(.from) {
            day = try period(of: from, today: today).lowerBound
        } else if let date {
            day = try self.day(of: date, today: today)
        } else {
            day = (raw.has(.backward) ? bounds.until : raw.has(.forward) ? bounds.since : nil) ?? today
        }
        var count: Int? = 1
        var backward = false
        if let direction = raw.last(.forward) ?? raw.last(.backward) {
            count = try direction.value.map { value throws(UsageError) in try self.count(value, of: direction) }
            backward = direction.key == .backward
        }
        let weeks = ShownWeeks(containing: day, firstWeekday: firstWeekday, backward: backward, count: count, bounds: bounds)
        guard weeks.admits(weeks.firstWeek) else {
            let limits = [raw.last(.since), raw.last(.until)].compactMap { $0 }.map { "\($0.spelling) \($0.value ?? "")" }
            throw .invalidValue(option: option.spelling, value: option.value ?? ISODate.text(dayNumber: day),
                                expected: "a week with a day inside " + limits.joined(separator: " and "))
        }
        return weeks
    }

    /// The day `--week VALUE` names: a date as `--from` reads it (its first day), or `+N`/`-N`
    /// weeks from today.
    func weekDay(_ value: String, of option: RawOptions.Occurrence, today: Int) throws(UsageError) -> Int {
        if let sign = value.first, sign == "+" || sign == "-" {
            let digits = value.dropFirst()
            guard OptionSpec.isNumber(digits), digits.count <= 3, let weeks = Int(digits) else {
                throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.weekDateExpected)
            }
            return today + (sign == "+" ? 7 : -7) * weeks
        }
        // A year alone names no week.
        guard let date = DateArgument.parse(value), !{ if case .year = date { return true }; return false }() else {
            throw .invalidValue(option: option.spelling, value: value, expected: OptionSpec.weekDateExpected)
        }
        do {
            return try date.period(today: today, in: gregorian).lowerBound
        } catch {
            throw .invalidValue(option: option.spelling, value: value, expected: Self.expectation(for: error, reform: gregorian.reform))
        }
    }
}

/// Which weeks `--week` prints: the one holding a day, then those after it or before it, as
/// many as asked or until a bound. The one place the printed weeks are decided.
public struct ShownWeeks: Equatable, Sendable {
    /// The first day (a day number) of the first week printed.
    public let firstWeek: Int
    /// Whether the weeks go back from it, newest first.
    public let backward: Bool
    /// How many weeks; nil: until a bound (or the calendar's end).
    public let count: Int?
    public let bounds: MonthBounds

    /// The weeks from the one holding `day`, weeks starting on `firstWeekday` (1 is Sunday).
    public init(containing day: Int, firstWeekday: Int, backward: Bool = false, count: Int?, bounds: MonthBounds = MonthBounds()) {
        firstWeek = day - CivilTime.floorMod(CivilTime.foundationWeekday(ofGrid: day) - firstWeekday, 7)
        self.backward = backward
        self.count = count
        self.bounds = bounds
    }

    /// Whether the week starting on `first` has a day inside the bounds.
    public func admits(_ first: Int) -> Bool {
        if let since = bounds.since, first + 6 < since { return false }
        if let until = bounds.until, first > until { return false }
        return true
    }

    /// The first days of the weeks printed, in order, lazily (endless without a count or a
    /// bound, as far as the calendar's range goes).
    public func weeks() -> some Sequence<Int> {
        let step = backward ? -7 : 7
        let gregorian = MonthCalendar(.gregorian)
        return sequence(first: firstWeek) { first in
            let next = first + step
            guard admits(next), gregorian.month(containing: next) != nil, gregorian.month(containing: next + 6) != nil else { return nil }
            return next
        }.prefix(count ?? Int.max)
    }

    /// The days of the weeks printed, when they are at most `limit` weeks; nil for more or
    /// an endless run. What the event cache decodes events for.
    public func days(limit: Int) -> Range<Int>? {
        guard let count, count <= limit else { return nil }
        let weeks = Array(weeks())
        guard let low = weeks.min(), let high = weeks.max() else { return nil }
        return low..<(high + 7)
    }
}
