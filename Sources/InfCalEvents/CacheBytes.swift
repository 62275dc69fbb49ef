import InfCalModel

/// The byte-level pieces of the parsed-event cache: a writer of variable-length integers and
/// strings, a reader that checks every read against the end of its buffer, and a checksum.
/// Nothing here trusts the bytes it reads: a cache file may be truncated, corrupt or foreign.

/// Why a cache could not be read: any of these makes the caller read the calendar afresh.
struct CacheDefect: Error {}

/// The bytes at offsets `start..<end` of a cache, which a reader asks to have present before
/// it reads them. Not a `Range<Int>`: the first array of ranges a process makes needs the
/// metadata of `Range<Int>`, whose `Comparable` bound the runtime checks by a search through
/// every conformance of the program, on the way of every run that reads a cache.
public struct CacheSpan: Sendable {
    public let start: Int
    public let end: Int

    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }
}

/// Appends integers (zigzag LEB128, so small negative numbers stay short), fixed 64-bit words
/// and length-prefixed UTF-8 strings, into memory of its own: a write checks only the room
/// left, not an array's uniqueness and capacity byte by byte. Not copyable, so that the
/// memory has one owner, freed with it.
struct CacheWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    init(bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        bytes.withUnsafeBytes { append($0) }
    }

    deinit { base.deallocate() }

    /// A copy of the bytes written.
    var bytes: [UInt8] { Array(written) }

    /// The bytes written, valid until the next write.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `more` bytes. Inlined, as are the writes below, so that the common case
    /// (room left) is a comparison, not a call: the encoder writes about twenty fields an event.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if capacity - count < more { grow(to: count + more) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
        moved.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Forgets what is written, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// How many bytes `int(value)` appends.
    static func length(ofInt value: Int) -> Int {
        let zigzag = UInt64(bitPattern: Int64(value) << 1) ^ UInt64(bitPattern: Int64(value) >> 63)
        return max(1, (64 - zigzag.leadingZeroBitCount + 6) / 7)
    }

    /// How many bytes `string` appends for a string of `count` UTF-8 bytes.
    static func length(ofString count: Int) -> Int { length(ofInt: count) + count }

    @inline(__always)
    mutating func int(_ value: Int) {
        reserve(10)
        var zigzag = UInt64(bitPattern: Int64(value) << 1) ^ UInt64(bitPattern: Int64(value) >> 63)
        var at = base + count
        while zigzag >= 0x80 {
            at.storeBytes(of: UInt8(truncatingIfNeeded: zigzag) | 0x80, as: UInt8.self)
            at += 1
            zigzag >>= 7
        }
        at.storeBytes(of: UInt8(zigzag), as: UInt8.self)
        count = base.distance(to: at) + 1
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        reserve(1)
        base.storeBytes(of: value ? 1 : 0, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func optional(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }

    mutating func string(_ value: String) {
        let length = value.utf8.count
        int(length)
        reserve(length)
        let target = UnsafeMutableRawBufferPointer(start: base + count, count: length)
        let copied = value.utf8.withContiguousStorageIfAvailable { target.copyMemory(from: UnsafeRawBufferPointer($0)) } != nil
        if !copied {
            for (offset, byte) in value.utf8.enumerated() { target[offset] = byte }
        }
        count += length
    }

    mutating func optional(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func ints(_ values: [Int]) {
        int(values.count)
        for value in values { int(value) }
    }

    /// Appends `raw` as it is.
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        (base + count).copyMemory(from: source, byteCount: raw.count)
        count += raw.count
    }

    /// A 64-bit word in this machine's byte order (the header's byte-order mark tells another
    /// machine's reader that it is not its own).
    mutating func word(_ value: UInt64) {
        reserve(8)
        base.storeBytes(of: value, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    /// Overwrites the word at `offset` (a field known only at the end).
    mutating func setWord(_ value: UInt64, at offset: Int) {
        guard offset >= 0, offset <= count - 8 else { return }
        base.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
    }
}

/// Reads what `CacheWriter` wrote, from `position` up to `end` of `buffer`; every read that
/// would pass `end` throws.
struct CacheReader {
    let buffer: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    init(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) throws(CacheDefect) {
        guard start >= 0, start <= end, end <= buffer.count else { throw CacheDefect() }
        self.buffer = buffer
        position = start
        self.end = end
    }

    var isAtEnd: Bool { position == end }

    /// Takes the next byte when it is 0 (an empty count, false, the number 0): one compare for
    /// what nearly every record holds, such as an event's count of alarms.
    @inline(__always)
    mutating func takesZero() -> Bool {
        guard position < end, buffer[position] == 0 else { return false }
        position += 1
        return true
    }

    mutating func int() throws(CacheDefect) -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end, shift < 64 else { throw CacheDefect() }
            let byte = buffer[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: (result >> 1) ^ (0 &- (result & 1))))
    }

    /// A count of things that each take at least one byte: never more than the bytes left, so
    /// that a corrupt count cannot make the reader reserve or loop for long.
    mutating func count() throws(CacheDefect) -> Int {
        let value = try int()
        guard value >= 0, value <= end - position else { throw CacheDefect() }
        return value
    }

    mutating func bool() throws(CacheDefect) -> Bool {
        guard position < end else { throw CacheDefect() }
        let byte = buffer[position]
        position += 1
        guard byte <= 1 else { throw CacheDefect() }
        return byte == 1
    }

    mutating func optionalInt() throws(CacheDefect) -> Int? {
        try bool() ? try int() : nil
    }

    mutating func string() throws(CacheDefect) -> String {
        let length = try count()
        let start = position
        position += length
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<start + length]), as: UTF8.self)
    }

    mutating func optionalString() throws(CacheDefect) -> String? {
        try bool() ? try string() : nil
    }

    mutating func ints() throws(CacheDefect) -> [Int] {
        let count = try count()
        if count == 0 { return [] }
        var values: [Int] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try int()) }
        return values
    }

    mutating func word() throws(CacheDefect) -> UInt64 {
        guard end - position >= 8 else { throw CacheDefect() }
        let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return value
    }
}

/// A 64-bit checksum of bytes (a multiply-rotate hash over 8-byte words, in four lanes of
/// every fourth word, joined at the end): it catches random bytes and torn writes, not a
/// forger, and is quick enough to check on every run. Each step is invertible in the word and
/// in the lane, so that a change of any one word always changes the sum; the lanes do not wait
/// for each other's multiplication.
enum CacheChecksum {
    @inline(__always)
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return (mixed << 31) | (mixed >> 33)
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var lanes = (0x9E37_79B9_7F4A_7C15 ^ UInt64(count), UInt64(0x6A09_E667_F3BC_C908), UInt64(0xBB67_AE85_84CA_A73B),
                     UInt64(0x3C6E_F372_FE94_F82B))
        var offset = 0
        while offset + 32 <= count {
            lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while offset + 8 <= count {
            hash = mix(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }

    static func of(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        bytes.withUnsafeBytes { of(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
