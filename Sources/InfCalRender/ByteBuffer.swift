import InfCalModel
import InfCalEvents

/// A growable buffer of bytes written through a pointer, so that appending is a store and a
/// copy, with no uniqueness check or generic dispatch per append: the renderer's hot path
/// writes every cell of every month here.
///
/// Its properties opt out of dynamic exclusivity checks, which cost more than the appends
/// themselves; a buffer belongs to one printer on one thread and is never accessed
/// overlappingly.
public final class ByteBuffer {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The bytes written so far.
    @exclusivity(unchecked) public private(set) var count = 0

    /// An empty buffer that holds `capacity` bytes before it grows.
    public init(capacity: Int = 4096) {
        self.capacity = max(16, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    public func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        guard let base = bytes.baseAddress else { return }
        let length = bytes.count, target = storage + count
        if length >= 8, length <= 32 {
            // A short run (a week line, a header) copied in words, the last word overlapping
            // the one before: a call to memcpy costs more than the copy.
            var offset = 0
            while offset + 8 <= length {
                Self.copyWord(from: base + offset, to: target + offset)
                offset += 8
            }
            if offset < length { Self.copyWord(from: base + length - 8, to: target + length - 8) }
        } else {
            target.update(from: base, count: length)
        }
        count += length
    }

    /// Appends the first `count` (at most 16) of the 16 bytes at `source`, copying all 16: a
    /// short run kept padded to 16 bytes (a month's name) costs two word copies.
    @inline(__always)
    public func appendPadded(_ source: UnsafePointer<UInt8>, count: Int) {
        reserve(16)
        let target = storage + self.count
        Self.copyWord(from: source, to: target)
        Self.copyWord(from: source + 8, to: target + 8)
        self.count += min(max(0, count), 16)
    }

    /// Appends what `body` writes at the end of the bytes, at most `limit` of them, and returns
    /// nothing: `body` gets room for `limit` bytes and returns how many it wrote. A line put
    /// together byte by byte is written with plain stores, with no check per byte.
    @inline(__always)
    public func appendWriting(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(limit)
        count += min(limit, max(0, body(storage + count)))
    }

    /// Copies the `count` bytes at `source` to `target` in words, the last one overlapping the
    /// one before; it reads and writes up to 7 bytes past `count` when `count` is under 8, so
    /// both need that much room.
    @inline(__always)
    public static func copyWords(from source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) {
        var offset = 0
        repeat {
            copyWord(from: source + offset, to: target + offset)
            offset += 8
        } while offset + 8 <= count
        if offset < count { copyWord(from: source + count - 8, to: target + count - 8) }
    }

    @inline(__always)
    private static func copyWord(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(target).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
    }

    @inline(__always)
    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 bytes of `text`.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends `count` spaces.
    @inline(__always)
    public func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        reserve(count)
        (storage + self.count).update(repeating: UInt8(ascii: " "), count: count)
        self.count += count
    }

    /// Forgets the bytes from `offset` on.
    public func truncate(to offset: Int) {
        count = min(count, max(0, offset))
    }

    /// The bytes from `offset` on, borrowed until the next append.
    func tail(from offset: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + offset, count: count - offset)
    }

    /// Removes trailing spaces.
    @inline(__always)
    public func trimTrailingSpaces() {
        while count > 0, storage[count - 1] == UInt8(ascii: " ") { count -= 1 }
    }

    /// Writes the bytes written to `sink`, lending them rather than copying them out.
    public func write(to sink: ByteSink) throws {
        try sink.write(borrowing: UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// The bytes written, copied out.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Forgets the bytes written, keeping the storage.
    public func removeAll() {
        count = 0
    }
}
