import InfCalModel
import InfCalEvents

/// Where rendered bytes go. The terminal layer writes them to a file descriptor and checks
/// every write; tests collect them.
public protocol ByteSink: AnyObject {
    /// Takes all of `bytes` or throws.
    func write(_ bytes: [UInt8]) throws
    /// Takes all of `bytes`, borrowed for the call, or throws: a sink that can write from
    /// memory it does not own spares the stream a copy of every block.
    func write(borrowing bytes: UnsafeRawBufferPointer) throws
}

extension ByteSink {
    public func write(borrowing bytes: UnsafeRawBufferPointer) throws {
        try write(Array(bytes))
    }
}

/// Prints months in rows of `columns`, one blank line between rows, as the months arrive.
///
/// The months are pulled from the sequence one at a time as output is written, and bytes go to
/// the sink in blocks of `blockSize`, so an endless sequence streams in constant memory and
/// stops as soon as the sink throws (a reader that went away).
public struct MonthPrinter {
    public let renderer: MonthRenderer
    public let columns: Int
    /// A line centred over the first row, when given (the year view's heading).
    public var heading: String?
    /// Bytes gathered before each write.
    public var blockSize = 64 * 1024
    /// The events shown with the months: days marked in the grids, a list under each row.
    public var events: StreamEvents?

    public init(renderer: MonthRenderer, columns: Int, heading: String? = nil) {
        self.renderer = renderer
        self.columns = max(1, columns)
        self.heading = heading
    }

    /// Writes every month of `months` to `sink`, then what is left in the buffer.
    public func print<Months: Sequence<Month>>(_ months: Months, to sink: ByteSink) throws {
        let buffer = ByteBuffer(capacity: blockSize + 16 * 1024)
        var row: [MonthGrid] = []
        row.reserveCapacity(columns)
        var first = true
        func emitRow() throws {
            if !first { buffer.append(UInt8(ascii: "\n")) }
            if first, let heading {
                let width = renderer.headingWidth(row)
                buffer.appendSpaces((width - DisplayWidth.of(heading)) / 2)
                buffer.append(heading)
                buffer.append(UInt8(ascii: "\n"))
            }
            first = false
            // Optional chaining borrows the events; `if let` would copy them every row.
            if events != nil {
                events?.appendRow(row, renderer: renderer, to: buffer)
            } else {
                renderer.appendRow(row, to: buffer)
            }
            row.removeAll(keepingCapacity: true)
            if buffer.count >= blockSize {
                try buffer.write(to: sink)
                buffer.removeAll()
            }
        }
        for month in months {
            row.append(renderer.grid(for: month))
            if row.count == columns { try emitRow() }
        }
        if !row.isEmpty { try emitRow() }
        if buffer.count > 0 { try buffer.write(to: sink) }
    }
}
