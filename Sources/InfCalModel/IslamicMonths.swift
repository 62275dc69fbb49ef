import Foundation

/// The astronomical Islamic calendar (`islamic`) as ICU computes it (`IslamicCalendar` in
/// `islamcal.cpp`), on `IcuAstronomer`: a month starts on the first day whose midnight (UTC)
/// finds the moon's age past the new moon, searched from the mean month. Names are
/// Foundation's: era 0, the year and the month.
///
/// ICU keeps every month start it computes, for good (about 92 bytes a month); this type keeps
/// the last few thousand (`LunisolarCache`), so a whole stream stays flat.
struct IslamicMonths: ArithmeticMonths {
    private let cache = LunisolarCache()

    /// 16 July 622 (Julian) 00:00 UTC, the day before 1 Muharram 1 AH, in milliseconds from 1970.
    private static let hijraMillis = -42_521_587_200_000.0
    /// Days from the Hijri epoch's day 0 (16 July 622) to day number 0 (2001-01-01).
    private static let epochOffset = 2_451_911 - 1_948_440

    /// The moon's age at `time` in degrees, in -180...180.
    private static func moonAge(_ time: Double) -> Double {
        let age = IcuAstronomer.moonAge(at: time) * 180 / IcuAstronomer.pi
        return age > 180 ? age - 360 : age
    }

    /// The first day (from the Hijri epoch) of month `month` counted from 0 at 1 Muharram 1 AH.
    private func trueMonthStart(_ month: Int) -> Int {
        cache.newMoon(month, after: true) {
            let day = IcuAstronomer.dayMs
            var origin = Self.hijraMillis + (Double(month) * IcuAstronomer.synodicMonth).rounded(.down) * day
            var age = Self.moonAge(origin)
            if age >= 0 {
                // The month has already started.
                repeat {
                    origin -= day
                    age = Self.moonAge(origin)
                } while age >= 0
            } else {
                // The month before has not ended yet.
                repeat {
                    origin += day
                    age = Self.moonAge(origin)
                } while age < 0
            }
            return Int(((origin - Self.hijraMillis) / day).rounded(.down)) + 1
        }
    }

    /// The month (from 0 at 1 Muharram 1 AH) that holds `day`, as ICU's `handleComputeFields`
    /// finds it: from the mean month, one on near its end if the moon has waxed, then back to
    /// the last month that starts on or before the day.
    private func monthIndex(holding day: Int) -> Int {
        let days = day + Self.epochOffset
        var month = Int(Int32((Double(days) / IcuAstronomer.synodicMonth).rounded(.down)))
        let startDate = Int(Int32((Double(month) * IcuAstronomer.synodicMonth).rounded(.down)))
        // Foundation asks at noon UTC.
        let noon = (Double(day) + 0.5) * IcuAstronomer.dayMs + 978_307_200_000
        if days - startDate >= 25 && Self.moonAge(noon) > 0 { month += 1 }
        while trueMonthStart(month) > days { month -= 1 }
        return month
    }

    /// How Foundation names month `month` (from 0 at 1 Muharram 1 AH).
    private static func name(_ month: Int) -> MonthName {
        let year = month >= 0 ? month / 12 + 1 : (month + 1) / 12
        return MonthName(era: 0, year: year, month: ((month % 12) + 12) % 12 + 1)
    }

    func month(holding day: Int) -> (firstDay: Int, name: MonthName, endDay: Int) {
        let month = monthIndex(holding: day)
        return (trueMonthStart(month) - Self.epochOffset, Self.name(month), trueMonthStart(month + 1) - Self.epochOffset)
    }

    func yearStart(holding day: Int) -> Int {
        let month = monthIndex(holding: day)
        return trueMonthStart(month - (((month % 12) + 12) % 12)) - Self.epochOffset
    }
}
