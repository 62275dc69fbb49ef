import InfCalModel

extension EventCacheFormat {
    // MARK: Reach

    /// The earliest an instance of `event` can start and the latest one can end, in the
    /// event's reckoning (`Int.max`: no end is known without walking the whole rule).
    /// - parameter walking: whether a rule that yields nothing after DTSTART
    ///   (`RecurrenceExpander.yieldsAfterStart`) is known to end there, as a walk "until nothing
    ///   more can come" needs; the cache's index is built without that look, which costs a
    ///   period or two of every rule.
    static func reach(of event: Event, walking: Bool = false) -> (earliest: Int, latest: Int) {
        // Its instances are known only in the table's years: it may be anywhere.
        if event.rulesLeftOut { return (Int.min, Int.max) }
        let segment = event.segment
        var earliest = min(segment.seriesStart, event.start.seconds)
        var latest = max(segment.seriesStart, event.start.seconds)
        var longest = event.duration
        for extra in event.extraStarts {
            earliest = min(earliest, extra.start)
            latest = max(latest, extra.start)
            longest = max(longest, extra.duration ?? 0)
        }
        var unbounded = false
        for expander in event.expanders {
            // DTSTART, counted above, is all such a rule yields.
            if walking, !expander.yieldsAfterStart { continue }
            if let until = expander.until {
                latest = max(latest, until)
            } else if expander.rule.count != nil, let end = countEnd(of: expander) {
                latest = max(latest, end.latest)
            } else if let last = countBound(of: expander) {
                // The walk gave up before the count: a rule whose every period holds an
                // instance still has a bound.
                latest = max(latest, last)
            } else {
                unbounded = true
            }
        }
        // A part of a series (RANGE=THISANDFUTURE) ends where the next part begins, moved.
        if let to = segment.to {
            latest = min(latest, to - 1)
            unbounded = false
        }
        let (shiftedEarliest, early) = earliest.addingReportingOverflow(min(0, segment.shift))
        earliest = early ? Int.min : shiftedEarliest
        if unbounded { return (earliest, Int.max) }
        let (shiftedLatest, late) = latest.addingReportingOverflow(max(0, segment.shift))
        let (end, overflow) = shiftedLatest.addingReportingOverflow(longest)
        return (earliest, late || overflow ? Int.max : end)
    }

    /// Where the COUNT rule of `expander` ends (`RecurrenceExpander.countEnd`), which it then
    /// keeps: for a rule of which every period after DTSTART's holds exactly one instance,
    /// from DTSTART's period and the one holding the last instance alone; any other rule is
    /// walked from DTSTART.
    static func countEnd(of expander: RecurrenceExpander) -> RecurrenceExpander.CountEnd? {
        guard let count = rule(ofOneInstanceAPeriod: expander) else { return expander.countEnd }
        let first = expander.instances(ofBatch: 0).count + expander.dropped(inBatch: 0)
        guard first < count else { return expander.countEnd }
        // Periods 1, 2, ... each add one instance: the last is the only one of period
        // COUNT - first, and the one before it counted COUNT - 1.
        let batch = count - first
        guard batch < RecurrenceExpander.countEndWalk, expander.dropped(inBatch: batch) == 0,
              let latest = expander.instances(ofBatch: batch).first, expander.instances(ofBatch: batch).count == 1
        else { return expander.countEnd }
        let end = RecurrenceExpander.CountEnd(last: (batch, 1), latest: latest)
        expander.setCountEnd(end)
        return end
    }

    /// The COUNT of `expander` when its rule gives exactly one instance in every period (a
    /// day; a week on DTSTART's weekday or one BYDAY; a month on a day 1-28, one BYMONTHDAY
    /// of those or one weekday with an ordinal up to 4; a year on a day 1-28 of DTSTART's
    /// month or of one BYMONTH), Gregorian, without UNTIL; nil for any other.
    static func rule(ofOneInstanceAPeriod expander: RecurrenceExpander) -> Int? {
        let rule = expander.rule
        guard let count = rule.count, count > 0, expander.until == nil, expander.scale is GregorianScale, rule.skip == .omit,
              rule.bySetPos.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.byHour.isEmpty, rule.byMinute.isEmpty,
              rule.bySecond.isEmpty else { return nil }
        let startDay = CivilTime.date(ofDay: CivilTime.day(ofSeconds: expander.start)).day
        switch rule.frequency {
        case .daily:
            guard rule.byDay.isEmpty, rule.byMonth.isEmpty, rule.byMonthDay.isEmpty else { return nil }
        case .weekly:
            guard rule.byDay.count <= 1, rule.byMonth.isEmpty, rule.byMonthDay.isEmpty else { return nil }
        case .monthly:
            guard rule.byMonth.isEmpty, rule.byDay.count + rule.byMonthDay.count <= 1 else { return nil }
            if let day = rule.byMonthDay.first {
                guard (1...28).contains(day) || (-28 ... -1).contains(day) else { return nil }
            } else if let weekday = rule.byDay.first {
                guard weekday.ordinal != 0, (-4...4).contains(weekday.ordinal) else { return nil }
            } else {
                guard startDay <= 28 else { return nil }
            }
        case .yearly:
            guard rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byMonth.count <= 1, startDay <= 28,
                  rule.byMonth.allSatisfy({ (1...12).contains($0.month) && !$0.isLeap }) else { return nil }
        default:
            return nil
        }
        return count
    }

    /// A bound of the start of the last instance of a COUNT rule found without walking it,
    /// for a rule of which every period (day, week, month, year) holds an instance: then COUNT
    /// is reached by the end of the COUNTth period after DTSTART's, which lies at most that many
    /// intervals of the longest period, and one more, after DTSTART. A rule without parts that
    /// repeats DTSTART by days or weeks ends exactly COUNT - 1 intervals after it. Nil for any
    /// other rule (it is walked).
    static func countBound(of expander: RecurrenceExpander) -> Int? {
        let rule = expander.rule
        guard let count = rule.count, count > 0, expander.scale is GregorianScale, rule.skip == .omit, rule.bySetPos.isEmpty,
              rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySecond.isEmpty
        else { return nil }
        let day = CivilTime.secondsPerDay
        // DTSTART's day of the month, which a rule without BYMONTHDAY or BYDAY repeats.
        let startDay = CivilTime.date(ofDay: CivilTime.day(ofSeconds: expander.start)).day
        let period: Int
        switch rule.frequency {
        case .daily, .weekly:
            guard rule.byMonth.isEmpty, rule.byMonthDay.isEmpty, rule.frequency == .weekly || rule.byDay.isEmpty else { return nil }
            period = rule.frequency == .daily ? day : 7 * day
            if rule.byDay.isEmpty {
                let (steps, overflow) = (count - 1).multipliedReportingOverflow(by: rule.interval)
                let (reach, tooFar) = steps.multipliedReportingOverflow(by: period)
                let (last, late) = expander.start.addingReportingOverflow(reach)
                return overflow || tooFar || late ? nil : last
            }
        case .monthly:
            guard rule.byMonth.isEmpty else { return nil }
            if rule.byDay.isEmpty {
                // Days 1-28 are in every month; a negative day counts from the month's end.
                guard rule.byMonthDay.allSatisfy({ (1...28).contains($0) || (-28 ... -1).contains($0) }),
                      !rule.byMonthDay.isEmpty || startDay <= 28 else { return nil }
            } else {
                // Every weekday comes four times in every month.
                guard rule.byMonthDay.isEmpty, rule.byDay.allSatisfy({ (-4...4).contains($0.ordinal) }) else { return nil }
            }
            period = 31 * day
        case .yearly:
            guard rule.byDay.isEmpty, rule.byMonthDay.isEmpty, startDay <= 28,
                  rule.byMonth.allSatisfy({ (1...12).contains($0.month) && !$0.isLeap }) else { return nil }
            period = 366 * day
        default:
            return nil
        }
        let (steps, overflow) = count.multipliedReportingOverflow(by: rule.interval)
        let (periods, more) = steps.addingReportingOverflow(1)
        let (reach, tooFar) = periods.multipliedReportingOverflow(by: period)
        let (last, late) = expander.start.addingReportingOverflow(reach)
        return overflow || more || tooFar || late ? nil : last
    }

    // MARK: Halves of months

    /// The 24 halves of the Gregorian months (days 1-15 and 16 on), one bit each: January's
    /// first half is bit 0, December's second bit 23.
    static let everyHalfMonth: UInt32 = (1 << 24) - 1

    /// The halves of months in which an instance of `event` can start or last (in its
    /// reckoning), whatever the year: what lets a run of a few months skip the yearly events
    /// of other seasons, which never end and so have no latest end in the index.
    static func halfMonths(of event: Event) -> UInt32 {
        var mask = halves(from: event.start.seconds, lasting: event.duration)
        for extra in event.extraStarts { mask |= halves(from: extra.start, lasting: extra.duration ?? event.duration) }
        // A part of a series moved by RANGE=THISANDFUTURE may land in any half.
        guard event.segment.shift == 0 else { return event.expanders.isEmpty ? mask : everyHalfMonth }
        for expander in event.expanders {
            let rule = expander.rule
            guard rule.frequency == .yearly, expander.scale is GregorianScale, rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty,
                  rule.skip == .omit else { return everyHalfMonth }
            if !rule.byMonth.isEmpty {
                for month in rule.byMonth {
                    guard (1...12).contains(month.month), !month.isLeap else { return everyHalfMonth }
                    // Any day of the month (2001 is no leap year; a 29 February lasts into March anyway).
                    let first = CivilTime.day(year: 2001, month: month.month, day: 1) * CivilTime.secondsPerDay
                    mask |= halves(from: first, lasting: 31 * CivilTime.secondsPerDay + event.duration)
                }
                continue
            }
            // No BYMONTH, BYMONTHDAY or BYDAY: the month and day of DTSTART, every year.
            guard rule.byDay.isEmpty && rule.byMonthDay.isEmpty else { return everyHalfMonth }
        }
        return mask
    }

    /// The half of a month holding civil day `day`.
    static func halfMonth(ofDay day: Int) -> Int {
        let date = CivilTime.date(ofDay: day)
        return (date.month - 1) * 2 + (date.day > 15 ? 1 : 0)
    }

    /// The halves of months that the time from `start` for `duration` seconds touches.
    static func halves(from start: Int, lasting duration: Int) -> UInt32 {
        let first = CivilTime.day(ofSeconds: start)
        let (end, overflow) = start.addingReportingOverflow(max(0, duration - 1))
        guard !overflow else { return everyHalfMonth }
        let last = CivilTime.day(ofSeconds: end)
        guard last - first < 330 else { return everyHalfMonth }
        var mask: UInt32 = 0
        var day = first
        while day <= last {
            mask |= 1 << UInt32(halfMonth(ofDay: day))
            day += 1
        }
        return mask
    }
}
