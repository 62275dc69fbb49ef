import Foundation

/// The Chinese and Dangi (Korean) calendars as ICU computes them (`ChineseCalendar` in
/// `chnsecal.cpp` and `DangiCalendar` in `dangical.cpp`, with Apple's shortcuts for 1900-2100),
/// on `IcuAstronomer`: a month starts on the day of a new moon in the calendar's zone, month 11
/// holds the winter solstice, and in a year of 13 months the first month without a major solar
/// term is the leap month. Names are Foundation's: the 60-year cycle as the era (counted from
/// 2637 BC in both calendars), the year of the cycle, the month and its leap flag.
///
/// ICU keeps every winter solstice and new year it computes, for good; this type keeps the last
/// few thousand new moons and solar terms (`LunisolarCache`), so a whole stream stays flat.
struct ChineseMonths: ArithmeticMonths {
    /// Where the days begin: the zone ICU computes in.
    enum Zone: Sendable {
        /// UTC+8 (ICU's `CHINA_OFFSET`).
        case china
        /// UTC+8, UTC+7 in 1897, UTC+8 to 1911, UTC+9 from 1912 (ICU's `KOREA_ZONE`).
        case korea
    }

    let zone: Zone
    private let cache = LunisolarCache()

    init(zone: Zone) {
        self.zone = zone
    }

    /// Days to add to or take from a new moon to come near the next or previous one, not past it.
    private static let synodicGap = 25

    // MARK: Zone

    /// The KOREA_ZONE transitions in UTC: rules starting at (year - 1970) * 365 days, local
    /// standard time of the zone before.
    private static let korea1897 = Double((1_897 - 1_970) * 365) * IcuAstronomer.dayMs - 8 * 3_600_000
    private static let korea1898 = Double((1_898 - 1_970) * 365) * IcuAstronomer.dayMs - 7 * 3_600_000
    private static let korea1912 = Double((1_912 - 1_970) * 365) * IcuAstronomer.dayMs - 8 * 3_600_000

    /// The zone's offset from UTC at `time`, in milliseconds.
    private func offset(at time: Double) -> Double {
        let hours: Double
        switch zone {
        case .china: hours = 8
        case .korea: hours = time < Self.korea1897 ? 8 : time < Self.korea1898 ? 7 : time < Self.korea1912 ? 8 : 9
        }
        return hours * 3_600_000
    }

    /// The UTC time at which local day `days` (from 1970) begins, as ICU converts it (with the
    /// offset at the UTC time of the same reading).
    private func daysToMillis(_ days: Double) -> Double {
        let millis = days * IcuAstronomer.dayMs
        return millis - offset(at: millis)
    }

    /// The local day (from 1970) that holds `time`.
    private func millisToDays(_ time: Double) -> Double {
        ((time + offset(at: time)) / IcuAstronomer.dayMs).rounded(.down)
    }

    // MARK: Astronomy

    /// The local day of the winter solstice of Gregorian year `year`.
    private func winterSolstice(_ year: Int) -> Int {
        if (1_900...2_100).contains(year) {
            // Apple's shortcut, for either zone: a linear estimate and a table of corrections.
            let index = year - 1_900
            var result = Int(Int32(365.243 * Double(index) - 0.3)) - 25_211
            let bitmap = Self.winterSolsticeAdjustments[index / 16]
            if bitmap & UInt16(1 << (index % 16)) != 0 { result -= 1 }
            return result
        }
        return cache.solstice(year) {
            let start = daysToMillis(Double(SolarMonths.gregorianDay(year: year, month: 12, day: 1) + CivilTime.dayNumberOffset))
            return Int(Int32(millisToDays(IcuAstronomer.winterSolsticeTime(from: start, next: true))))
        }
    }

    /// The local day of the new moon on or after (`after`) or before local day `days`.
    private func newMoonNear(_ days: Int, after: Bool) -> Int {
        cache.newMoon(days, after: after) {
            let time = IcuAstronomer.newMoonTime(from: daysToMillis(Double(days)), next: after)
            return Int(Int32(millisToDays(time)))
        }
    }

    /// The whole number of mean months nearest the days from `day1` to `day2`.
    private static func synodicMonthsBetween(_ day1: Int, _ day2: Int) -> Int {
        let months = Double(day2 - day1) / IcuAstronomer.synodicMonth
        return Int(Int32(months + (months >= 0 ? 0.5 : -0.5)))
    }

    /// The major solar term on or before local day `days`: 1 for 330 degrees, 2 for 0, ... 12.
    private func majorSolarTerm(_ days: Int) -> Int {
        cache.term(days) {
            let longitude = IcuAstronomer.sunLongitude(at: daysToMillis(Double(days)))
            let term = (Int(Int32(6 * longitude / IcuAstronomer.pi)) + 2) % 12
            return term < 1 ? term + 12 : term
        }
    }

    /// Whether the month that starts at `newMoon` has no major solar term.
    private func hasNoMajorSolarTerm(_ newMoon: Int) -> Bool {
        majorSolarTerm(newMoon) == majorSolarTerm(newMoonNear(newMoon + Self.synodicGap, after: true))
    }

    /// Whether a month from the one starting at `newMoon1` to the one at `newMoon2` is a leap month.
    private func isLeapMonthBetween(_ newMoon1: Int, _ newMoon2: Int) -> Bool {
        var moon = newMoon2
        while moon >= newMoon1 {
            // ICU recurses on the earlier months first; the answer is the same.
            if hasNoMajorSolarTerm(moon) { return true }
            moon = newMoonNear(moon - Self.synodicGap, after: false)
        }
        return false
    }

    // MARK: Months

    /// The first day (from 1970, local) and name of the month holding local day `days`, as
    /// ICU's `computeChineseFields` finds them.
    private func fields(_ days: Int) -> (newMoon: Int, name: MonthName) {
        let date = SolarMonths.gregorianDate(days - CivilTime.dayNumberOffset)
        var solsticeBefore: Int
        var solsticeAfter = winterSolstice(date.year)
        if days < solsticeAfter {
            solsticeBefore = winterSolstice(date.year - 1)
        } else {
            solsticeBefore = solsticeAfter
            solsticeAfter = winterSolstice(date.year + 1)
        }
        let firstMoon = newMoonNear(solsticeBefore + 1, after: true)
        let lastMoon = newMoonNear(solsticeAfter + 1, after: false)
        let thisMoon = newMoonNear(days + 1, after: false)
        let isLeapYear = Self.synodicMonthsBetween(firstMoon, lastMoon) == 12
        var month = Self.synodicMonthsBetween(firstMoon, thisMoon)
        if isLeapYear && isLeapMonthBetween(firstMoon, thisMoon) { month -= 1 }
        if month < 1 { month += 12 }
        let isLeapMonth = isLeapYear && hasNoMajorSolarTerm(thisMoon)
            && !isLeapMonthBetween(firstMoon, newMoonNear(thisMoon - Self.synodicGap, after: false))
        // The cycle year that began in Gregorian year `date.year`, less one before its new year.
        var cycleYear = date.year + CivilTime.cycleYearOffset - 1
        if month < 11 || date.month >= 7 { cycleYear += 1 }
        let named = CivilTime.cycleEraAndYear(cycleYear)
        return (thisMoon, MonthName(era: named.era, year: named.year, month: month, isLeapMonth: isLeapMonth))
    }

    func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int) {
        let days = day + CivilTime.dayNumberOffset
        // The new moon before the next day begins. Where a new moon falls seconds from
        // midnight, ICU's own fields put the day before it on day 0 of the month after (or a day
        // after it in the month before), and its steps, which go from new moon to new moon as
        // below, put the day in the other month: Foundation's months, which infcal shows, are
        // those of the steps.
        var start = newMoonNear(days + 1, after: false)
        while start > days { start = newMoonNear(start - Self.synodicGap, after: false) }
        // Those steps go forward, and ICU's search for a new moon can land on another day
        // forward than backward where the moon is new near midnight (once in the Dangi range,
        // in year 50 of cycle 660): the month starts where the step from the month before lands.
        let previous = newMoonNear(start - Self.synodicGap, after: false)
        start = newMoonNear(previous + Self.synodicGap, after: true)
        if start > days { start = previous }
        var end = newMoonNear(start + Self.synodicGap, after: true)
        while end <= days {
            start = end
            end = newMoonNear(start + Self.synodicGap, after: true)
        }
        // The month is named as its first day is.
        return (start - CivilTime.dayNumberOffset, fields(start).name, end - CivilTime.dayNumberOffset)
    }

    func yearStart(holding day: Int) -> Int {
        var found = month(holding: day)
        // At most 13 months back to the first month of the year.
        for _ in 0..<13 where found.name.month != 1 || found.name.isLeapMonth {
            found = month(holding: found.firstDay - 1)
        }
        return found.firstDay
    }
}

/// The last few thousand new moons, solar terms and winter solstices one lunisolar calendar
/// has computed: a bounded stand-in for ICU's caches, which never shrink. Safe from any thread.
final class LunisolarCache: @unchecked Sendable {
    private let lock = NSLock()
    private var newMoons: [Int: Int] = [:]
    private var terms: [Int: Int] = [:]
    private var solstices: [Int: Int] = [:]
    /// Entries per table before it is emptied.
    private static let capacity = 4_096

    private func value(_ key: Int, in table: ReferenceWritableKeyPath<LunisolarCache, [Int: Int]>,
                       _ compute: () -> Int) -> Int {
        lock.lock()
        if let known = self[keyPath: table][key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let computed = compute()
        lock.lock()
        if self[keyPath: table].count >= Self.capacity { self[keyPath: table].removeAll(keepingCapacity: true) }
        self[keyPath: table][key] = computed
        lock.unlock()
        return computed
    }

    func newMoon(_ days: Int, after: Bool, _ compute: () -> Int) -> Int {
        value(days * 2 + (after ? 1 : 0), in: \.newMoons, compute)
    }

    func term(_ days: Int, _ compute: () -> Int) -> Int {
        value(days, in: \.terms, compute)
    }

    func solstice(_ year: Int, _ compute: () -> Int) -> Int {
        value(year, in: \.solstices, compute)
    }
}
