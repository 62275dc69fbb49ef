import InfCalModel

// Whether a rule ever yields an instance after DTSTART: a walk that goes on "until nothing
// more can come" needs to know when a rule without end can never yield (30 February), or it
// would look for ever.

extension RecurrenceExpander {
    /// Whether the rule yields any instance after DTSTART (ignoring COUNT, which can only take
    /// instances away). Worked out once, by walking the rule's periods from DTSTART's:
    ///
    /// - In the Gregorian reckoning every period's candidates depend only on where it lies in
    ///   the 400-year cycle of leap years and weekdays (146,097 days, a whole number of weeks),
    ///   so the periods repeat every 400 years times INTERVAL at most (exactly: 400 years,
    ///   4,800 months, 20,871 weeks or 146,097 days, divided by what they share with
    ///   INTERVAL). A rule with nothing after DTSTART in one whole repetition has nothing ever.
    /// - A sub-daily rule's days repeat when the cycle of days and the run of its INTERVAL
    ///   meet again, and the rules of other scales (RSCALE) follow no such short cycle: those
    ///   are looked at for `InputLimits.farthestLook` days after DTSTART at most, the reach of
    ///   the pager's search, and count as yielding nothing when nothing comes in that time.
    ///
    /// The first period that holds an instance after DTSTART ends the walk, so a rule that
    /// recurs costs a period or two.
    public var yieldsAfterStart: Bool {
        if let known = knownYieldsAfterStart { return known }
        let found = walkForAnInstanceAfterStart()
        knownYieldsAfterStart = found
        return found
    }

    /// Periods in one whole repetition of a Gregorian rule's pattern, or nil when it is not
    /// counted in periods of the 400-year cycle (another scale, a sub-daily frequency).
    var gregorianCycle: Int? {
        guard scale is GregorianScale else { return nil }
        let periods: Int
        switch rule.frequency {
        case .yearly: periods = 400
        case .monthly: periods = 4_800
        case .weekly: periods = 20_871
        case .daily: periods = 146_097
        case .hourly, .minutely, .secondly: return nil
        }
        return periods / Self.greatestCommonDivisor(periods, rule.interval)
    }

    /// Days in one whole repetition of a Gregorian sub-daily rule's instances: the cycle of
    /// 146,097 days times how many of its runs of INTERVAL fit before one starts at the
    /// same second of a day in the same place of the cycle again. Nil when that overflows.
    var subDailyCycleDays: Int? {
        let unit: Int
        switch rule.frequency {
        case .hourly: unit = 3_600
        case .minutely: unit = 60
        case .secondly: unit = 1
        default: return nil
        }
        let cycleSeconds = 146_097 * CivilTime.secondsPerDay
        let (step, overflow) = rule.interval.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        let (days, tooMany) = (146_097).multipliedReportingOverflow(by: step / Self.greatestCommonDivisor(step, cycleSeconds))
        return tooMany ? nil : days
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    /// The first civil day of batch `index`, or nil beyond the scale's range.
    func firstDay(ofBatch index: Int) -> Int? {
        let (step, overflow) = index.multipliedReportingOverflow(by: rule.interval)
        guard !overflow else { return nil }
        switch rule.frequency {
        case .yearly where countsWeekYears: return Self.firstWeekStart(startWeekYear + step, weekStart: rule.weekStart)
        case .yearly: return scale.months(ofYear: startYear + step).first?.firstDay
        case .monthly: return startMonth.flatMap { scale.month($0, offsetBy: step) }?.firstDay
        case .weekly: return startWeek + step * 7
        case .daily: return startDay + step
        case .hourly, .minutely, .secondly: return startDay + index
        }
    }

    private func walkForAnInstanceAfterStart() -> Bool {
        // Past UNTIL nothing can come.
        var last = Int.max
        if let until {
            guard until > start, let (_, batch) = batches(overlapping: start..<until.addingReportingOverflow(1).partialValue) else { return false }
            last = batch
        }
        // One whole repetition and the first, partial, period again; else the farthest look
        // (a sub-daily rule's periods are days).
        let cycle: Int?
        if let periods = gregorianCycle {
            cycle = periods
        } else if rule.frequency < .daily {
            cycle = min(scale is GregorianScale ? subDailyCycleDays ?? Int.max : Int.max, InputLimits.farthestLook)
        } else {
            cycle = nil
        }
        let farthest = startDay + InputLimits.farthestLook
        var batch = 0
        while batch <= last {
            if let cycle {
                if batch > cycle { return false }
            } else {
                guard let day = firstDay(ofBatch: batch), day <= farthest else { return false }
            }
            if dropped(inBatch: batch) > 0 || instances(ofBatch: batch).contains(where: { $0 > start }) { return true }
            batch += 1
        }
        return false
    }
}
