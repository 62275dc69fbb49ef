/// Which file a path names and which version of it: the file (device and inode), its size and
/// when its data last changed, to the nanosecond. The event cache keeps it for every file it
/// was built from; a write takes it before reading a calendar and again before replacing it,
/// with the status change time too (`changed`), which no program can set back.
public struct FileIdentity: Equatable, Sendable {
    public var device: Int
    public var inode: Int
    public var size: Int
    /// The modification time: seconds and nanoseconds.
    public var seconds: Int
    public var nanoseconds: Int
    /// The status change time in nanoseconds since 1970 (wrapping past 2262), where it was
    /// looked at (a write's check); nil for the cache, which does not keep it.
    public var changed: Int?

    public init(device: Int, inode: Int, size: Int, seconds: Int, nanoseconds: Int, changed: Int? = nil) {
        self.device = device
        self.inode = inode
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.changed = changed
    }
}
