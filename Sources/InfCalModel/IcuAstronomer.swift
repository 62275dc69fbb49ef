import Foundation

/// The sun and the moon as ICU's `CalendarAstronomer` computes them (`astro.cpp` in the ICU
/// under Foundation, with Apple's tables for 1900-2100): only what its Chinese, Dangi and
/// astronomical Islamic calendars use, step for step in the same `Double` arithmetic, so that
/// infcal's months in those calendars are Foundation's without Foundation's unbounded caches.
///
/// The orbits are Peter Duffett-Smith's (*Practical Astronomy with your Calculator*, pp. 86, 142
/// and 147). Times are milliseconds from 1970-01-01 00:00 UTC, angles radians.
enum IcuAstronomer {
    static let pi = 3.14159265358979323846
    static let twoPi = pi * 2.0
    /// Mean days from one new moon to the next.
    static let synodicMonth = 29.530588853
    static let tropicalYear = 365.242191
    static let dayMs = 86_400_000.0
    static let minuteMs = 60_000.0
    /// 1 January 4713 BC (Julian), 12:00 UTC: Julian day 0.
    static let julianEpochMs = -210_866_760_000_000.0
    /// The Julian day of the epoch of the orbital elements below (0.0 January 1990).
    static let jdEpoch = 2_447_891.5

    private static let sunEtaG = 279.403303 * pi / 180
    private static let sunOmegaG = 282.768422 * pi / 180
    private static let sunE = 0.016713
    private static let moonL0 = 318.351648 * pi / 180
    private static let moonP0 = 36.340410 * pi / 180
    private static let moonN0 = 318.510107 * pi / 180
    private static let moonI = 5.145366 * pi / 180

    /// The longitude of the winter solstice.
    static let winterSolstice = (pi * 3) / 2

    // MARK: Angles

    /// `value` less the whole multiples of `range` below it: in 0..<range.
    @inline(__always)
    static func normalize(_ value: Double, _ range: Double) -> Double {
        value - range * (value / range).rounded(.down)
    }

    @inline(__always)
    static func norm2PI(_ angle: Double) -> Double { normalize(angle, twoPi) }

    @inline(__always)
    static func normPI(_ angle: Double) -> Double { normalize(angle + pi, twoPi) - pi }

    // MARK: The sun

    /// The true anomaly from the mean one, by Kepler's equation solved to 1e-5 radians.
    private static func trueAnomaly(_ meanAnomaly: Double, _ eccentricity: Double) -> Double {
        var delta: Double
        var e = meanAnomaly
        repeat {
            delta = e - eccentricity * sin(e) - meanAnomaly
            e = e - delta / (1 - eccentricity * cos(e))
        } while abs(delta) > 1e-5
        return 2.0 * atan(tan(e / 2) * ((1 + eccentricity) / (1 - eccentricity)).squareRoot())
    }

    /// The sun's ecliptic longitude and mean anomaly at Julian day `julianDay`, from its orbit.
    private static func sunLongitude(julianDay: Double) -> (longitude: Double, meanAnomaly: Double) {
        let day = julianDay - jdEpoch
        let epochAngle = norm2PI(twoPi / tropicalYear * day)
        let meanAnomaly = norm2PI(epochAngle + sunEtaG - sunOmegaG)
        return (norm2PI(trueAnomaly(meanAnomaly, sunE) + sunOmegaG), meanAnomaly)
    }

    /// The Julian day (with its fraction) of `time`.
    @inline(__always)
    static func julianDay(_ time: Double) -> Double { (time - julianEpochMs) / dayMs }

    private static let solsticeFirst = 10_000.0 * -220_984_944
    private static let solsticeLast = 10_000.0 * 413_310_186
    private static let solsticeRange = 10_000.0 * (413_310_186 + 220_984_944)
    /// The mean times from a winter solstice to the next equinox and solstices, in 10 s units.
    private static let toSpringEquinox: Int32 = 768_903
    private static let toSummerSolstice: Int32 = 1_570_332
    private static let toAutumnEquinox: Int32 = 2_379_459

    /// The index of the table entry at or before `time` (10 s units), in a table whose first
    /// entry is at or before it and whose last is after it, found from a linear estimate.
    @inline(__always)
    private static func entry(in table: [Int32], at time: Double, first: Double, range: Double) -> Int {
        var index = Int(Int32(Double(table.count) * (time - first) / range))
        let current = Int32(time / 10_000.0)
        while current < table[index] { index -= 1 }
        while current >= table[index + 1] { index += 1 }
        return index
    }

    /// `longitude` (the sun's at `time`) corrected by Apple's table between the winter solstices
    /// of 1899 and 2100; unchanged elsewhere.
    private static func adjustSunLongitude(_ longitude: Double, at time: Double) -> Double {
        guard time >= solsticeFirst, time < solsticeLast else { return longitude }
        let dates = winterSolsticeDates
        let offset = entry(in: dates, at: time, first: solsticeFirst, range: solsticeRange)
        let current = Int32(time / 10_000.0) - dates[offset]
        let factor: Double
        let start: Int8, end: Int8
        let row = offset * 4
        if current < toSummerSolstice {
            if current < toSpringEquinox {
                factor = Double(current) / Double(toSpringEquinox)
                (start, end) = (sunLongitudeAdjustments[row], sunLongitudeAdjustments[row + 1])
            } else {
                factor = Double(current - toSpringEquinox) / Double(toSummerSolstice - toSpringEquinox)
                (start, end) = (sunLongitudeAdjustments[row + 1], sunLongitudeAdjustments[row + 2])
            }
        } else if current < toAutumnEquinox {
            factor = Double(current - toSummerSolstice) / Double(toAutumnEquinox - toSummerSolstice)
            (start, end) = (sunLongitudeAdjustments[row + 2], sunLongitudeAdjustments[row + 3])
        } else {
            factor = Double(current - toAutumnEquinox) / Double(dates[offset + 1] - dates[offset] - toAutumnEquinox)
            (start, end) = (sunLongitudeAdjustments[row + 3], sunLongitudeAdjustments[row + 4])
        }
        var adjusted = longitude + (Double(start) + factor * Double(Int32(end) - Int32(start))) / 100_000.0
        if adjusted >= 2 * pi {
            adjusted -= 2 * pi
        } else if adjusted < 0 {
            adjusted += 2 * pi
        }
        return adjusted
    }

    /// The sun's ecliptic longitude at `time` (`getSunLongitudeForTime`, and what an astronomer
    /// set to `time` gives).
    static func sunLongitude(at time: Double) -> Double {
        adjustSunLongitude(sunLongitude(julianDay: julianDay(time)).longitude, at: time)
    }

    /// The time of the next (or previous) winter solstice from `time` (`getSunTime`).
    static func winterSolsticeTime(from time: Double, next: Bool) -> Double {
        if time >= solsticeFirst, time < solsticeLast {
            let offset = entry(in: winterSolsticeDates, at: time, first: solsticeFirst, range: solsticeRange)
            return 10_000.0 * Double(winterSolsticeDates[next ? offset + 1 : offset])
        }
        return timeOfAngle(winterSolstice, periodDays: tropicalYear, next: next, from: time, sunLongitude(at:))
    }

    // MARK: The moon

    private static let newMoonFirst = 10_000.0 * -221_149_158
    private static let newMoonLast = 10_000.0 * 413_644_464
    private static let newMoonRange = 10_000.0 * (413_644_464 + 221_149_158)

    /// The age of the moon at `time`: the angle from the sun's ecliptic longitude to the moon's,
    /// in 0..<2 pi (`getMoonAge`). Apple's source has a table of full moons for it too, which
    /// the library under Foundation on Linux does not hold: there it is always computed.
    static func moonAge(at time: Double) -> Double {
        let julianDay = julianDay(time)
        let sun = sunLongitude(julianDay: julianDay)
        let sunLongitude = adjustSunLongitude(sun.longitude, at: time)
        let meanAnomalySun = sun.meanAnomaly
        let day = julianDay - jdEpoch

        let meanLongitude = norm2PI(13.1763966 * pi / 180 * day + moonL0)
        var meanAnomalyMoon = norm2PI(meanLongitude - 0.1114041 * pi / 180 * day - moonP0)
        let evection = 1.2739 * pi / 180 * sin(2 * (meanLongitude - sunLongitude) - meanAnomalyMoon)
        let annual = 0.1858 * pi / 180 * sin(meanAnomalySun)
        let a3 = 0.3700 * pi / 180 * sin(meanAnomalySun)
        meanAnomalyMoon += evection - annual - a3
        let center = 6.2886 * pi / 180 * sin(meanAnomalyMoon)
        let a4 = 0.2140 * pi / 180 * sin(2 * meanAnomalyMoon)
        var moonLongitude = meanLongitude + evection + center - annual + a4
        let variation = 0.6583 * pi / 180 * sin(2 * (moonLongitude - sunLongitude))
        moonLongitude += variation
        var nodeLongitude = norm2PI(moonN0 - 0.0529539 * pi / 180 * day)
        nodeLongitude -= 0.16 * pi / 180 * sin(meanAnomalySun)
        let y = sin(moonLongitude - nodeLongitude)
        let x = cos(moonLongitude - nodeLongitude)
        let moonEclipticLongitude = atan2(y * cos(moonI), x) + nodeLongitude
        return norm2PI(moonEclipticLongitude - sunLongitude)
    }

    /// The time of the next (or previous) new moon from `time` (`getMoonTime(NEW_MOON)`): from
    /// Apple's table between December 1899 and January 2101, else by iteration on the moon's age.
    static func newMoonTime(from time: Double, next: Bool) -> Double {
        if time >= newMoonFirst, time < newMoonLast {
            let offset = entry(in: newMoonDates, at: time, first: newMoonFirst, range: newMoonRange)
            return 10_000.0 * Double(newMoonDates[next ? offset + 1 : offset])
        }
        return timeOfAngle(0, periodDays: synodicMonth, next: next, from: time, moonAge(at:))
    }

    /// The next (or previous) time from `start` at which `angle` reaches `desired`, to within
    /// a minute (`timeOfAngle`, with its restart an eighth of a period away where it diverges).
    private static func timeOfAngle(_ desired: Double, periodDays: Double, next: Bool, from start: Double,
                                    _ angle: (Double) -> Double) -> Double {
        var startTime = start
        restart: while true {
            var time = startTime
            var lastAngle = angle(time)
            let deltaAngle = norm2PI(desired - lastAngle)
            var deltaT = (deltaAngle + (next ? 0.0 : -twoPi)) * (periodDays * dayMs) / twoPi
            var lastDeltaT = deltaT
            time += deltaT.rounded(.up)
            repeat {
                let current = angle(time)
                let factor = abs(deltaT / normPI(current - lastAngle))
                deltaT = normPI(desired - current) * factor
                if abs(deltaT) > abs(lastDeltaT) {
                    let delta = (periodDays * dayMs / 8.0).rounded(.up)
                    startTime += next ? delta : -delta
                    continue restart
                }
                lastDeltaT = deltaT
                lastAngle = current
                time += deltaT.rounded(.up)
            } while abs(deltaT) > minuteMs
            return time
        }
    }
}
