/// Where rendered bytes go. The terminal layer writes them to a file descriptor and checks
/// every write; tests collect them.
public protocol ByteSink: AnyObject {
    /// Takes all of `bytes` or throws.
    func write(_ bytes: [UInt8]) throws
}

/// Prints months in rows of `columns`, one blank line between rows, as the months arrive.
///
/// The months are pulled from the sequence one at a time as output is written, and bytes go to
/// the sink in blocks of `blockSize`, so an endless sequence streams in constant memory and
/// stops as soon as the sink throws (a reader that went away).
public struct MonthPrinter {
    public let renderer: MonthRenderer
    public let calendar: MonthCalendar
    public let firstWeekday: Int
    public let columns: Int
    /// Bytes gathered before each write.
    public var blockSize = 64 * 1024

    public init(renderer: MonthRenderer, calendar: MonthCalendar, firstWeekday: Int, columns: Int) {
        self.renderer = renderer
        self.calendar = calendar
        self.firstWeekday = firstWeekday
        self.columns = max(1, columns)
    }

    /// Writes every month of `months` to `sink`, then what is left in the buffer.
    public func print<Months: Sequence<Month>>(_ months: Months, to sink: ByteSink) throws {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(blockSize + 4096)
        var row: [MonthGrid] = []
        row.reserveCapacity(columns)
        var first = true
        func emitRow() throws {
            if !first { buffer.append(UInt8(ascii: "\n")) }
            first = false
            renderer.appendRow(row, to: &buffer)
            row.removeAll(keepingCapacity: true)
            if buffer.count >= blockSize {
                try sink.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        for month in months {
            row.append(MonthGrid(month: month, in: calendar, firstWeekday: firstWeekday))
            if row.count == columns { try emitRow() }
        }
        if !row.isEmpty { try emitRow() }
        if !buffer.isEmpty { try sink.write(buffer) }
    }
}
