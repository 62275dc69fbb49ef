import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// A byte sink that writes to a file descriptor and checks every write.
public final class FileOutput: ByteSink {
    public let fd: Int32

    public init(fd: Int32) {
        self.fd = fd
    }

    /// Writes all of `bytes`.
    /// - throws: `Platform.WriteError.closed` when the reader went away, `.failed` otherwise.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try Platform.writeAll(fd, $0) }
    }

    /// Writes all of `bytes`, without copying them.
    public func write(borrowing bytes: UnsafeRawBufferPointer) throws {
        try Platform.writeAll(fd, bytes)
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws {
        try write(Array(text.utf8))
    }
}
