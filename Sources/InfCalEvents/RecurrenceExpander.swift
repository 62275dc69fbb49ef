import InfCalModel

/// Expands one recurrence rule from its DTSTART, for any range of wall-clock time, lazily.
///
/// The rule's periods (years, months, weeks or days; days for the sub-daily frequencies, each
/// holding its hours, minutes or seconds) are numbered from the one holding DTSTART, and any of
/// them is computed directly, as python-dateutil's `rrule` does: a range costs what its own
/// periods cost, however far it lies from DTSTART. A rule with COUNT must count what comes
/// before; it is walked once, and the count before every 256th period is kept, so that a later
/// range starts counting from the nearest checkpoint. DTSTART is always the first instance, and
/// counts toward COUNT, whether or not the rule produces it (RFC 5545 §3.8.5.3: it "always
/// counts as the first occurrence"; libical and python-dateutil leave it out).
public final class RecurrenceExpander {
    public let rule: RecurrenceRule
    /// DTSTART in wall-clock civil seconds.
    public let start: Int
    let startDay: Int
    let isDate: Bool
    let scale: RecurrenceScale
    /// UNTIL in the same reckoning as `start`, inclusive.
    let until: Int?

    /// The rule's parts with DTSTART's defaults filled in, kept whole: made once, not copied
    /// part by part.
    let parts: RuleParts
    var months: [RecurrenceRule.MonthNumber] { parts.months }
    var monthDays: [Int] { parts.monthDays }
    var yearDays: [Int] { parts.yearDays }
    var weekNumbers: [Int] { parts.weekNumbers }
    /// Plain weekdays (and, below MONTHLY, ordinal ones read as plain): bit 0 Monday.
    var plainWeekdays: UInt8 { parts.plainWeekdays }
    var hasPlainWeekdays: Bool { parts.plainWeekdays != 0 }
    var ordinals: [RecurrenceRule.WeekdayNumber] { parts.ordinals }
    /// The hours, minutes and seconds of the day a sub-daily rule's instances fall on.
    var hours: [Int] { parts.hours }
    var minutes: [Int] { parts.minutes }
    var seconds: [Int] { parts.seconds }
    /// Seconds of the day of each instance within a day, sorted (DAILY and coarser).
    var timeOfDay: [Int] { parts.timeOfDay }
    let needsMonth: Bool
    let startMonth: ScaleMonth?
    let startYear: Int
    let startWeek: Int
    /// Whether `weekday` (0 Monday) is one of the plain weekdays.
    func isPlainWeekday(_ weekday: Int) -> Bool { plainWeekdays & 1 << UInt8(weekday) != 0 }
    /// A YEARLY rule with BYWEEKNO counts in week-numbering years (by WKST), not calendar years.
    let countsWeekYears: Bool
    let startWeekYear: Int
    let includesStart: Bool
    /// Whether DTSTART was added to the first period, the rule not producing it.
    var startIsExtra = false

    /// Periods from DTSTART's to the first one a later walk need not look past: no instance
    /// can come then (COUNT reached) ...
    var countWalk = CountWalk()
    /// Where the COUNT rule ends (`countEnd`), once looked for: nil when not yet, `.some(nil)`
    /// when it is not known.
    var knownCountEnd: CountEnd??
    /// Whether the rule yields an instance after DTSTART (`yieldsAfterStart`), once looked at.
    var knownYieldsAfterStart: Bool?
    /// The last two batches computed: a month's range can reach into the year before.
    var cachedBatch: (index: Int, instances: [Int], dropped: Int)?
    var olderBatch: (index: Int, instances: [Int], dropped: Int)?
    /// The days (civil day numbers) on which more than `InputLimits.instancesPerDay`
    /// instances fell, with the last one kept and how many were left out after it: a rule
    /// denser than that (every second) shows its first ones and says how many more.
    public internal(set) var cuts: [Int: (lastKept: Int, dropped: Int)] = [:]

    /// Instances left out of the batch being computed (the day limit), and the days they were
    /// left out of.
    var droppedInBatch = 0
    var cutDaysInBatch: [Int] = []
    /// The counts of one repetition of the rule's pattern (`cycleCounts()`), once made:
    /// `.some(nil)` when it has none.
    var knownCycle: CycleCounts??
    /// The candidates of every day of a sub-daily rule (`dayCount`), once found.
    var knownDayCount: Int??

    /// One year of the scale: its months, first and last day.
    struct YearFacts {
        let year: Int
        let months: [ScaleMonth]
        let span: (Int, Int)
    }
    /// The facts of the year last asked about (`yearFacts(ofYear:)`), and of the week-numbering
    /// year (`week(of:)`): a period's days ask about the same year day after day.
    var lastYear: YearFacts?
    var lastWeekYear: (year: Int, begin: Int, weeks: Int)?

    /// A rule whose DTSTART is `start` (wall-clock civil seconds; `isDate` for a DATE).
    /// - parameter until: UNTIL converted to `start`'s reckoning.
    /// - parameter includesStart: whether DTSTART is the first instance even where the rule does
    ///   not produce it (false for an EXRULE, which removes only what it produces).
    public init(rule: RecurrenceRule, start: Int, isDate: Bool, until: Int?, scale: RecurrenceScale = GregorianScale.shared,
                includesStart: Bool = true) {
        self.rule = rule
        self.includesStart = includesStart
        self.start = start
        self.isDate = isDate
        self.scale = scale
        self.until = until
        let startDay = CivilTime.day(ofSeconds: start)
        self.startDay = startDay
        let startMonth = scale.month(containing: startDay)
        self.startMonth = startMonth
        startYear = startMonth?.year ?? 0
        startWeek = startDay - CivilTime.floorMod(CivilTime.weekday(ofDay: startDay) - rule.weekStart, 7)
        countsWeekYears = action(.byWeekNo, at: rule.frequency) == .expand && !rule.byWeekNo.isEmpty
        // Read only where the periods are week-numbering years.
        startWeekYear = countsWeekYears ? Self.weekYear(of: startDay, weekStart: rule.weekStart).year : 0
        let parts = RuleParts(rule: rule, startDay: startDay, secondOfDay: start - startDay * CivilTime.secondsPerDay,
                              isDate: isDate, startMonth: startMonth)
        needsMonth = parts.needsMonth
        self.parts = parts
    }

    /// The same rule from the same DTSTART, with none of what this one has computed and kept:
    /// another thread may expand it while this one goes on being used. Nil for a rule of
    /// another scale than the Gregorian, whose months may be kept by its calendar.
    func freshCopy() -> sending RecurrenceExpander? {
        guard scale is GregorianScale else { return nil }
        // Made of values alone, so that it shares nothing with this one.
        return RecurrenceExpander(rule: rule, start: start, startDay: startDay, isDate: isDate, until: until, parts: parts,
                                  months: (startMonth, startYear, startWeek), weeks: (countsWeekYears, startWeekYear),
                                  includesStart: includesStart)
    }

    /// A Gregorian rule, from what `init(rule:start:isDate:until:scale:includesStart:)` finds
    /// of it at once.
    private init(rule: RecurrenceRule, start: Int, startDay: Int, isDate: Bool, until: Int?, parts: RuleParts,
                 months: (startMonth: ScaleMonth?, startYear: Int, startWeek: Int), weeks: (counted: Bool, startWeekYear: Int),
                 includesStart: Bool) {
        self.rule = rule
        self.start = start
        self.startDay = startDay
        self.isDate = isDate
        scale = GregorianScale.shared
        self.until = until
        self.parts = parts
        needsMonth = parts.needsMonth
        (startMonth, startYear, startWeek) = months
        (countsWeekYears, startWeekYear) = weeks
        self.includesStart = includesStart
    }
}
