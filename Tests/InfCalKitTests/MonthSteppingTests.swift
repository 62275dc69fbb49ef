import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Every calendar Foundation has.
let everyCalendar: [Calendar.Identifier] = [
    .gregorian, .iso8601, .buddhist, .chinese, .coptic, .dangi, .ethiopicAmeteMihret, .ethiopicAmeteAlem,
    .hebrew, .indian, .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura, .japanese, .persian,
    .republicOfChina,
]

/// The day number of 1 January 4713 BC (Julian), Foundation's lower limit in every calendar.
let lowerLimitDay = -2_451_911

/// The day number of a Gregorian date as Foundation reads it (Julian before 1582-10-15).
func gregorianDay(_ year: Int, _ month: Int, _ day: Int) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let components = DateComponents(era: year > 0 ? 1 : 0, year: year > 0 ? year : 1 - year, month: month, day: day, hour: 12)
    return DayNumber.day(of: calendar.date(from: components) ?? Date.distantPast)
}

/// The stepping of `MonthCalendar` against Foundation's own month arithmetic.
///
/// The steps find a month's neighbour through a probe day (the day before its first day, or
/// `probeDistance` days after it) instead of `date(byAdding: .month)`. These tests walk wide
/// ranges of every calendar and check each step against `date(byAdding: .month, value: ±1)`,
/// and, at the limits, against the step taken with `date(byAdding:)` as before.
struct MonthSteppingTests {
    /// A walk: `months` months forward from the month holding `day`, in `identifier`.
    struct Walk: CustomTestStringConvertible, Sendable {
        let identifier: Calendar.Identifier
        let label: String
        let day: Int
        let months: Int
        var testDescription: String { "\(identifier) from \(label), \(months) months" }
    }

    /// The Chinese and Dangi calendars cost about 50 us a Foundation step, so they walk less far.
    static func span(_ identifier: Calendar.Identifier, years: Int) -> Int {
        identifier == .chinese || identifier == .dangi ? years * 12 / 8 : years * 12
    }

    static let walks: [Walk] = everyCalendar.flatMap { identifier -> [Walk] in
        let lunisolar = identifier == .chinese || identifier == .dangi
        return [
            // From the lower limit on.
            Walk(identifier: identifier, label: "4713 BC", day: lowerLimitDay + 400, months: span(identifier, years: 1000)),
            // Across the Julian to Gregorian change and the centuries around it.
            Walk(identifier: identifier, label: "1400", day: gregorianDay(1400, 1, 1), months: span(identifier, years: 400)),
            // Present days.
            Walk(identifier: identifier, label: "1900", day: gregorianDay(1900, 1, 1), months: span(identifier, years: 200)),
            // Far future; the Chinese and Dangi calendars break up into islands of months after
            // about year 67000.
            lunisolar
                ? Walk(identifier: identifier, label: "year 60000", day: gregorianDay(60_000, 1, 1), months: span(identifier, years: 200))
                : Walk(identifier: identifier, label: "year 100000", day: gregorianDay(100_000, 1, 1), months: span(identifier, years: 100)),
        ] + (lunisolar ? [] : [
            // Until the upper limit.
            Walk(identifier: identifier, label: "year 506000", day: gregorianDay(506_000, 1, 1), months: span(identifier, years: 800)),
        ])
    }

    @Test(arguments: walks)
    func stepsAgreeWithFoundation(_ walk: Walk) throws {
        let model = MonthCalendar(walk.identifier)
        let calendar = model.calendar
        var month = try #require(model.month(containing: walk.day))
        var names: Set<MonthName> = [month.name]
        var walked = [month]
        // The Hebrew months are computed by the calendar's rules, where Foundation's are wrong in
        // some years (HebrewOracleTests checks them against convertdate): they keep the checks
        // below that do not ask Foundation.
        let foundationComputes = model.rules == nil || walk.identifier != .hebrew
        for _ in 1..<walk.months {
            guard let next = model.month(after: month) else { break }
            // The step is the one Foundation takes.
            if foundationComputes {
            #expect(calendar.date(byAdding: .month, value: 1, to: month.start) == next.start, "after \(month)")
            #expect(calendar.date(byAdding: .month, value: -1, to: next.start) == month.start, "before \(next)")
            let parts = calendar.dateComponents([.era, .year, .month, .day, .isLeapMonth], from: next.start)
            #expect(parts.day == 1)
            #expect(MonthName(era: parts.era ?? -1, year: parts.year ?? -1, month: parts.month ?? -1,
                              isLeapMonth: parts.isLeapMonth ?? false) == next.name)
            }
            #expect(next.firstDay == month.endDay)
            #expect(month.nextName == next.name)
            // The probe day lies in the next month: this month is no longer than the distance,
            // the two together are longer.
            #expect(month.dayCount <= model.probeDistance, "\(month)")
            #expect(month.dayCount + next.dayCount > model.probeDistance, "\(month), \(next)")
            // No month twice.
            #expect(names.insert(next.name).inserted, "\(next) twice")
            walked.append(next)
            month = next
        }
        // The walk went as far as asked, except near the upper limit.
        if walk.day < gregorianDay(500_000, 1, 1) {
            #expect(walked.count == walk.months)
        }
        // Stepping back retraces the same months.
        for (earlier, later) in zip(walked, walked.dropFirst()).reversed() {
            let back = model.month(before: later)
            #expect(back == earlier, "before \(later)")
            if back != earlier { break }
        }
    }

    /// The longest month Foundation states, 30 or 31 days everywhere: shorter than any two
    /// neighbouring months together (35 days at least, a 13th month of 5 days and a month of 30).
    @Test(arguments: everyCalendar)
    func probeDistanceIsAMonthLength(_ identifier: Calendar.Identifier) {
        let distance = MonthCalendar(identifier).probeDistance
        #expect((30...31).contains(distance))
    }

    // MARK: October 1582, 13th months, leap years and leap months

    @Test func gregorianReformMonth() throws {
        let model = MonthCalendar(.gregorian)
        let september = try #require(model.month(containing: gregorianDay(1582, 9, 10)))
        let october = try #require(model.month(after: september))
        let november = try #require(model.month(after: october))
        #expect(september.dayCount == 30)
        #expect(october.dayCount == 21)
        #expect(october.name == MonthName(era: 1, year: 1582, month: 10))
        #expect(november.firstDay == gregorianDay(1582, 11, 1))
        #expect(model.month(before: november) == october)
        #expect(model.month(before: october) == september)
    }

    // Foundation's ethiopic-amete-alem on this toolchain has the months of the Gregorian calendar,
    // so it is left out here (the walks above still check its steps).
    @Test(arguments: [Calendar.Identifier.coptic, .ethiopicAmeteMihret])
    func thirteenthMonths(_ identifier: Calendar.Identifier) throws {
        let model = MonthCalendar(identifier)
        var month = try #require(model.month(containing: gregorianDay(2001, 1, 1)))
        var thirteenths: [Int] = []
        for _ in 0..<(13 * 8) {
            if month.name.month == 13 { thirteenths.append(month.dayCount) }
            month = try #require(model.month(after: month))
        }
        #expect(thirteenths.count == 8)
        #expect(Set(thirteenths) == [5, 6])
    }

    @Test func hebrewLeapYears() throws {
        let model = MonthCalendar(.hebrew)
        var month = try #require(model.month(containing: gregorianDay(2001, 1, 1)))
        var monthsPerYear: [Int: Int] = [:]
        for _ in 0..<(19 * 13) {
            monthsPerYear[month.name.year, default: 0] += 1
            month = try #require(model.month(after: month))
        }
        let whole = monthsPerYear.filter { $0.key > 5761 && $0.key < month.name.year }
        // Seven leap years of 13 months in each 19-year cycle.
        #expect(whole.values.filter { $0 == 13 }.count >= 6)
        #expect(Set(whole.values) == [12, 13])
    }

    @Test(arguments: [Calendar.Identifier.chinese, .dangi])
    func leapMonths(_ identifier: Calendar.Identifier) throws {
        let model = MonthCalendar(identifier)
        var month = try #require(model.month(containing: gregorianDay(2020, 1, 1)))
        var leap: [MonthName] = []
        for _ in 0..<(12 * 20) {
            let next = try #require(model.month(after: month))
            if next.name.isLeapMonth {
                leap.append(next.name)
                // A leap month follows the month of the same number.
                #expect(month.name.month == next.name.month && !month.name.isLeapMonth)
                #expect(model.month(before: next) == month)
            }
            month = next
        }
        // Seven leap months in each 19 years.
        #expect((7...8).contains(leap.count))
        if identifier == .chinese {
            // 2020 had a leap fourth month, 2023 a leap second month.
            #expect(leap.contains { $0.month == 4 && $0.year == 37 })
            #expect(leap.contains { $0.month == 2 && $0.year == 40 })
        }
    }

    // MARK: Limits

    @Test func backFromJanuary4713BCIsNil() throws {
        let model = MonthCalendar(.gregorian)
        let january = try #require(model.month(containing: lowerLimitDay))
        #expect(january.firstDay == lowerLimitDay)
        #expect(january.name == MonthName(era: 0, year: 4713, month: 1))
        #expect(model.month(before: january) == nil)
    }

    @Test func forwardEndsInYear506713() throws {
        let model = MonthCalendar(.gregorian)
        var month = try #require(model.month(containing: gregorianDay(506_712, 1, 1)))
        var count = 0
        while let next = model.month(after: month), count < 100 {
            month = next
            count += 1
        }
        #expect(count < 100)
        #expect(month.name == MonthName(era: 1, year: 506_713, month: 1))
        #expect(model.month(containing: month.endDay + 40) == nil)
    }

    /// The checks alone, without `upperLimit`, end a stream where the components stop mapping back.
    @Test func chineseChecksEndAStreamNearTheFarLimit() throws {
        let model = MonthCalendar(.chinese, limited: false)
        // About 2098032408000 s after 2001, the components stop mapping back.
        let limit = 2_098_032_408_000 / 86_400
        #expect(model.month(containing: limit) == nil)
        var month = try #require(model.month(containing: limit - 2000))
        var count = 0
        while let next = model.month(after: month), count < 100 {
            #expect(next.firstDay > month.firstDay)
            month = next
            count += 1
        }
        #expect(count < 100)
        #expect(month.firstDay < limit)
    }

    /// Where the Chinese and Dangi calendars break up, every month given (and its neighbours)
    /// starts on a day whose components are day 1 and map back to it.
    @Test(arguments: [Calendar.Identifier.chinese, .dangi])
    func brokenRangeGivesOnlyRoundTrippingMonths(_ identifier: Calendar.Identifier) throws {
        // Past `upperLimit`, which keeps this range out of every stream: the checks alone.
        let model = MonthCalendar(identifier, limited: false)
        let calendar = model.calendar
        func roundTrips(_ day: Int) -> Bool {
            let parts = calendar.dateComponents([.era, .year, .month, .day, .hour, .isLeapMonth], from: DayNumber.date(day))
            return parts.day == 1 && calendar.date(from: parts) == DayNumber.date(day)
        }
        var given = 0
        for day in stride(from: 24_280_000, to: 24_300_000, by: 487) {
            guard let month = model.month(containing: day) else { continue }
            given += 1
            #expect(roundTrips(month.firstDay) && roundTrips(month.endDay), "\(month)")
            if let next = model.month(after: month) { #expect(roundTrips(next.endDay), "\(next)") }
            if let previous = model.month(before: month) { #expect(roundTrips(previous.firstDay), "\(previous)") }
        }
        #expect(given > 0)
    }

    /// A walk to a limit: from the month holding `day`, `forward` or not, until nil.
    struct LimitWalk: CustomTestStringConvertible, Sendable {
        let identifier: Calendar.Identifier
        let day: Int
        let forward: Bool
        var testDescription: String { "\(identifier) \(forward ? "forward" : "backward") from day \(day)" }
    }

    static let limitWalks: [LimitWalk] = everyCalendar.flatMap { identifier in
        [
            LimitWalk(identifier: identifier, day: lowerLimitDay + 1200, forward: false),
            LimitWalk(identifier: identifier, day: 184_340_000, forward: true),
            LimitWalk(identifier: identifier, day: 184_342_000, forward: false),
        ]
    } + [
        // Where the Chinese calendar breaks up, in islands of months.
        LimitWalk(identifier: .chinese, day: 24_281_000, forward: true),
        LimitWalk(identifier: .chinese, day: 24_281_000, forward: false),
        LimitWalk(identifier: .chinese, day: 24_200_000, forward: true),
        LimitWalk(identifier: .chinese, day: 24_000_000, forward: false),
        LimitWalk(identifier: .dangi, day: 184_340_000, forward: false),
    ]

    /// At the limits the steps end exactly where stepping with `date(byAdding:)` ends, whether
    /// the calendar has learned its month lengths (so that forward steps start from a guess) or not.
    @Test(arguments: limitWalks, [false, true])
    func limitsAreWhereFoundationStepsEnd(_ walk: LimitWalk, learned: Bool) throws {
        let model = MonthCalendar(walk.identifier)
        if learned {
            var month = try #require(model.month(containing: 0))
            for _ in 0..<48 { month = try #require(model.month(after: month)) }
        }
        guard var month = model.month(containing: walk.day) else { return }
        for _ in 0..<200 {
            let stepped = walk.forward ? model.month(after: month) : model.month(before: month)
            let added: Month?
            if walk.forward {
                added = model.addingStep(from: month.endDay, name: month.nextName, by: 1).map {
                    Month(firstDay: month.endDay, dayCount: $0.day - month.endDay, name: month.nextName, nextName: $0.name)
                }
            } else {
                added = model.addingStep(from: month.firstDay, name: month.name, by: -1).map {
                    Month(firstDay: $0.day, dayCount: month.firstDay - $0.day, name: $0.name, nextName: month.name)
                }
            }
            // The Hebrew months are the calendar's own (see above); only their limits are checked.
            if walk.identifier != .hebrew {
            // At the lower limit, where Foundation clamps, the stream goes on to the month that
            // holds 1 January 4713 BC (which may start before it), and ends there.
            if !walk.forward, added == nil, let stepped, stepped.contains(day: lowerLimitDay) {
                #expect(model.month(before: stepped) == nil)
                return
            }
            #expect(stepped == added, "from \(month)")
            }
            guard let stepped, walk.identifier == .hebrew || stepped == added else {
                if walk.identifier == .hebrew { #expect(walk.forward || month.contains(day: lowerLimitDay)) }
                return
            }
            #expect(walk.forward ? stepped.firstDay > month.firstDay : stepped.firstDay < month.firstDay)
            #expect(stepped.endDay > lowerLimitDay)
            month = stepped
        }
        // Walks from near the lower limit must have reached it.
        #expect(walk.forward || walk.day > 0, "no end within 200 months")
    }
}
