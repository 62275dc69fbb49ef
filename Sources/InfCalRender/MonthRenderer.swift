import Foundation
import InfCalModel
import InfCalEvents

/// How a day cell is numbered.
public enum DayNumbering: Sendable {
    /// The day of the month, in two cells.
    case dayOfMonth
    /// The day of the year, in three cells (`--day-of-year`, cal's -j).
    case dayOfYear
}

/// Which week numbers the week-number column shows.
public enum WeekNumbering: Equatable, Sendable {
    /// ISO 8601 weeks: Monday to Sunday, week 1 holds 4 January. A row that is not a Monday
    /// week shows the week of its Thursday, which holds most of its days.
    case iso
    /// Weeks of the calendar's year as the rows show them, week 1 being the first with at
    /// least `minimumDays` days of the new year (the locale's rule).
    case locale(minimumDays: Int)
}

/// Formats month grids as text in the classic `cal` layout.
///
/// A ladder of small steps, as CPython's `TextCalendar`: a day cell, a week, the weekday header,
/// the title, a month, then months side by side. Widths are display widths (terminal cells),
/// and the highlight of today wraps only the digits, so it never moves a column. Lines are
/// appended as UTF-8 bytes to a buffer, each ending in a newline and never in a space.
public struct MonthRenderer {
    /// What the title of a month says.
    public enum TitleStyle: Sendable {
        /// "February 2024", for months one after another.
        case monthAndYear
        /// "February", under a year heading.
        case monthOnly
    }

    /// The names of months and weekdays.
    public let names: CalendarNames
    /// The calendar the months come from.
    public let calendar: MonthCalendar
    /// The weekday of each row's first cell, 1 (Sunday) to 7 (Saturday).
    public let firstWeekday: Int
    public let numbering: DayNumbering
    /// The week-number column, or nil for none.
    public let weekNumbers: WeekNumbering?
    public var titleStyle: TitleStyle = .monthAndYear
    /// Weekdays across (cal) or down the side (ncal, `--vertical`).
    public var layout: MonthLayout = .horizontal
    /// The day to highlight (a day number), or nil for none.
    public var highlightedDay: Int?
    /// Days with events (day numbers), shown bold and underlined; empty when colour is off.
    public var markedDays: Set<Int> = []
    /// The pager's selected day (a day number), or nil for none.
    public var selectedDay: Int?
    /// How the highlighted day, the days with events and the selected day are set apart.
    public var attributes = DayAttributes.stream
    /// The second calendar of `--also`, or nil: a line under each month's grid names its
    /// months (the grid itself stays cal's), and the month page's cells carry its days.
    public var also: AlsoCalendar?

    /// The escape sequences that start and end the highlight (reverse video).
    public static let highlightOn: [UInt8] = Array("\u{1B}[7m".utf8)
    public static let highlightOff: [UInt8] = Array("\u{1B}[27m".utf8)
    /// The escape sequences that start and end the mark of a day with events (bold, underlined).
    public static let markOn: [UInt8] = Array("\u{1B}[1;4m".utf8)
    public static let markOff: [UInt8] = Array("\u{1B}[22;24m".utf8)
    let header: [UInt8]
    /// ISO weeks in the reform the grids follow (proleptic Gregorian under `--reform gregorian`).
    private let isoWeeks: MonthCalendar
    /// Week lines already formatted, shared by the copies of this renderer.
    let weekLines: WeekLineCache

    /// A renderer for months of `calendar` named by `names`, rows starting on `firstWeekday`
    /// (1 is Sunday), days numbered by `numbering`, with an optional week-number column, and
    /// `highlightedDay` (a day number) in reverse video when given.
    public init(names: CalendarNames, calendar: MonthCalendar, firstWeekday: Int, numbering: DayNumbering = .dayOfMonth,
                weekNumbers: WeekNumbering? = nil, highlightedDay: Int? = nil) {
        self.names = names
        self.calendar = calendar
        self.firstWeekday = firstWeekday
        self.numbering = numbering
        self.weekNumbers = weekNumbers
        self.highlightedDay = highlightedDay
        isoWeeks = MonthCalendar(.iso8601, reform: calendar.reform)
        metrics = GridMetrics(numbering: numbering, weekNumbers: weekNumbers, labelWidth: names.labelWidth)
        cellWidth = metrics.dayWidth
        monthWidth = metrics.monthWidth
        weekLines = WeekLineCache(width: monthWidth - metrics.weekColumnWidth)
        header = Array((String(repeating: " ", count: metrics.weekColumnWidth)
            + Self.weekHeader(names: names, firstWeekday: firstWeekday, cellWidth: cellWidth)).utf8)
    }

    /// The grid's widths (see `GridMetrics`).
    public let metrics: GridMetrics
    /// Cells a day takes (`metrics.dayWidth`, kept at hand for the hot loops).
    public let cellWidth: Int
    /// The width of a month's grid (`metrics.monthWidth`, kept at hand for the hot loops).
    public let monthWidth: Int

    // MARK: Grids

    /// `month` laid out in weeks, its days numbered as this renderer shows them.
    public func grid(for month: Month) -> MonthGrid {
        switch numbering {
        case .dayOfMonth:
            return MonthGrid(month: month, in: calendar, firstWeekday: firstWeekday)
        case .dayOfYear:
            let first = calendar.dayOfYear(month.firstDay) ?? 1
            return MonthGrid(month: month, labels: .counting(from: first), firstWeekday: firstWeekday)
        }
    }

    // MARK: The ladder

    /// The weekday header: each label right-aligned in its cell, as `cal` does.
    static func weekHeader(names: CalendarNames, firstWeekday: Int, cellWidth: Int) -> String {
        // A loop, not joined(separator:): the generic join costs a runtime type lookup at start-up.
        var header = ""
        for column in 0..<7 {
            let label = names.weekdayLabels[(firstWeekday - 1 + column) % 7]
            if column > 0 { header += " " }
            header += String(repeating: " ", count: max(0, cellWidth - DisplayWidth.of(label))) + label
        }
        return header
    }

    /// The month's title text, without padding.
    public func titleText(_ month: Month) -> String {
        titleStyle == .monthOnly ? names.monthName(of: month) : names.title(of: month)
    }

    /// Appends the day number `value` of `day` right-aligned in `width` cells, set apart as
    /// `attributes` say for today, a day with events and the selected day.
    func appendDay(_ value: Int, day: Int, width: Int, to out: ByteBuffer) {
        let today = day == highlightedDay, marked = isMarked(day), selected = day == selectedDay
        guard today || marked || selected else { return Self.appendNumber(value, width: width, to: out) }
        var on: [UInt8] = [], off: [UInt8] = []
        if today { on += attributes.today.on; off = attributes.today.off + off }
        if marked { on += attributes.marked.on; off = attributes.marked.off + off }
        if selected { on += attributes.selected.on; off = attributes.selected.off + off }
        let digits = String(value)
        if width > digits.utf8.count { out.appendSpaces(width - digits.utf8.count) }
        out.append(on)
        out.append(digits)
        out.append(off)
    }

    /// Appends `value` right-aligned in `width` cells (more if it needs them).
    @inline(__always)
    static func appendNumber(_ value: Int, width: Int, to out: ByteBuffer) {
        // Room for the 20 digits of the largest magnitude.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 && count < 24
        }
        if width > count { out.appendSpaces(width - count) }
        withUnsafeBytes(of: &digits) { buffer in
            out.append(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[(24 - count)...]))
        }
    }

    /// Whether `day` is shown as a day with events.
    @inline(__always)
    func isMarked(_ day: Int) -> Bool {
        !markedDays.isEmpty && markedDays.contains(day)
    }

    /// The week number of the row that starts on `rowStart` (a day number).
    func weekNumber(ofRowStarting rowStart: Int) -> Int? {
        switch weekNumbers {
        case nil:
            return nil
        case .iso:
            // Thursday is weekday 5; its ISO week is the week of most of the row's days.
            let thursday = rowStart + (5 - firstWeekday + 7) % 7
            return isoWeeks.weekOfYear(thursday, firstWeekday: 2, minimumDays: 4)
        case .locale(let minimumDays):
            return calendar.weekOfYear(rowStart, firstWeekday: firstWeekday, minimumDays: minimumDays)
        }
    }

    /// Appends week `week` of `grid`: exactly `monthWidth` cells, blank cells as spaces.
    func appendWeek(_ grid: borrowing MonthGrid, week: Int, to out: ByteBuffer) {
        if let first = cachedSlot(grid) { return appendCachedWeek(grid, slot: first + week, week: week, to: out) }
        appendWeekCells(grid, week: week, to: out)
    }

    /// The cache slot of week 0 of `grid` when its weeks can come from the cache: a week of
    /// days numbered 1, 2, 3, ... without today, a day with events or the selected day in it
    /// depends only on where the month starts and how long it is. Nil when they cannot.
    @inline(__always)
    func cachedSlot(_ grid: borrowing MonthGrid) -> Int? {
        guard weekNumbers == nil, case .consecutive = grid.labels else { return nil }
        let month = grid.month
        if let highlightedDay, month.contains(day: highlightedDay) { return nil }
        if let selectedDay, month.contains(day: selectedDay) { return nil }
        if !markedDays.isEmpty, markedDays.contains(where: { month.contains(day: $0) }) { return nil }
        return WeekLineCache.slot(leadingBlanks: grid.leadingBlanks, dayCount: month.dayCount, week: 0)
    }

    /// Appends week `week` of `grid` from the cache's `slot`, formatting it there first.
    @inline(__always)
    func appendCachedWeek(_ grid: borrowing MonthGrid, slot: Int, week: Int, to out: ByteBuffer) {
        if let line = weekLines.line(slot) { return out.append(line) }
        let start = out.count
        appendCells(grid, week: week, to: out)
        weekLines.keep(out.tail(from: start), in: slot)
    }

    /// Appends week `week` of `grid` cell by cell, with its week number when shown.
    func appendWeekCells(_ grid: borrowing MonthGrid, week: Int, to out: ByteBuffer) {
        if weekNumbers != nil {
            let rowStart = grid.month.firstDay - grid.leadingBlanks + 7 * week
            if let number = weekNumber(ofRowStarting: rowStart) {
                Self.appendNumber(number, width: 2, to: out)
            } else {
                out.appendSpaces(2)
            }
            out.append(UInt8(ascii: " "))
        }
        appendCells(grid, week: week, to: out)
    }

    /// Appends the seven day cells of week `week` of `grid`.
    private func appendCells(_ grid: borrowing MonthGrid, week: Int, to out: ByteBuffer) {
        for column in 0..<7 {
            if column > 0 { out.append(UInt8(ascii: " ")) }
            if let cell = grid.cell(week: week, column: column) {
                appendDay(cell.label, day: cell.day, width: cellWidth, to: out)
            } else {
                out.appendSpaces(cellWidth)
            }
        }
    }

    /// Appends line `line` of `grid` (0 the title, 1 the header, then the weeks), the title
    /// centred over `width` cells, and returns the cells it took. Lines past the last week are empty.
    func appendLine(_ line: Int, of grid: borrowing MonthGrid, title: String, titleWidth: Int? = nil, width: Int, to out: ByteBuffer) -> Int {
        switch line {
        case 0:
            let titleWidth = titleWidth ?? DisplayWidth.of(title)
            let padding = max(0, (width - titleWidth) / 2)
            out.appendSpaces(padding)
            out.append(title)
            return padding + titleWidth
        case 1:
            out.append(header)
            return monthWidth
        default:
            guard line - 2 < grid.weekCount else { return 0 }
            appendWeek(grid, week: line - 2, to: out)
            return monthWidth
        }
    }
}

/// The escape sequences that set apart today, the days with events and the pager's selected
/// day. The stream keeps cal's reverse video for today and marks days with events bold and
/// underlined; the pager, where a selected day moves about, gives each its own attribute.
/// All are attributes rather than colours, which a terminal without colour still shows.
public struct DayAttributes: Sendable {
    public let today: (on: [UInt8], off: [UInt8])
    public let marked: (on: [UInt8], off: [UInt8])
    public let selected: (on: [UInt8], off: [UInt8])

    /// The stream's: today reversed, days with events bold and underlined.
    public static let stream = DayAttributes(today: (MonthRenderer.highlightOn, MonthRenderer.highlightOff),
                                             marked: (MonthRenderer.markOn, MonthRenderer.markOff),
                                             selected: (MonthRenderer.highlightOn, MonthRenderer.highlightOff))
    /// The pager's: the selected day reversed (the cursor), today underlined, days with events bold.
    public static let pager = DayAttributes(today: (Array("\u{1B}[4m".utf8), Array("\u{1B}[24m".utf8)),
                                            marked: (Array("\u{1B}[1m".utf8), Array("\u{1B}[22m".utf8)),
                                            selected: (MonthRenderer.highlightOn, MonthRenderer.highlightOff))
}

/// Formatted week lines of months numbered 1, 2, 3, ..., by where the month starts, its length
/// and the week: each line exactly a grid's width without the week column, kept side by side
/// in one block. A class, so that copies of a renderer share what was formatted; used from one
/// thread, so it opts out of dynamic exclusivity checks on its hot path.
final class WeekLineCache {
    static let longestMonth = 40
    static let weeks = 7
    static let slots = 7 * (longestMonth + 1) * weeks
    /// The bytes of each line.
    let width: Int
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var filled = [Bool](repeating: false, count: slots)

    init(width: Int) {
        self.width = width
    }

    deinit {
        storage?.deallocate()
    }

    /// Where the line is kept, or nil for a month too long to keep.
    static func slot(leadingBlanks: Int, dayCount: Int, week: Int) -> Int? {
        guard dayCount <= longestMonth, week < weeks, (0..<7).contains(leadingBlanks) else { return nil }
        return (leadingBlanks * (longestMonth + 1) + dayCount) * weeks + week
    }

    /// The line kept in `slot`, or nil when none is.
    @inline(__always)
    func line(_ slot: Int) -> UnsafeBufferPointer<UInt8>? {
        guard filled[slot], let storage else { return nil }
        return UnsafeBufferPointer(start: storage + slot * width, count: width)
    }

    /// Keeps `line` in `slot`, when it is a line's width.
    func keep(_ line: UnsafeBufferPointer<UInt8>, in slot: Int) {
        guard line.count == width, let base = line.baseAddress else { return }
        // Made on first use: a run that prints one month needs few lines.
        let storage = self.storage ?? .allocate(capacity: Self.slots * width)
        self.storage = storage
        (storage + slot * width).update(from: base, count: width)
        filled[slot] = true
    }
}
