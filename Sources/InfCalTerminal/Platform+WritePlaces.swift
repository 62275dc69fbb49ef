#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a write goes, and whether it may go there. rename(2) replaces whatever the last
/// component of its path is: a symbolic link becomes a regular file (the file it pointed to
/// never sees the write), and, for root, a device node or a FIFO is replaced too. So a write
/// follows the links to the file they name and writes beside that file, in its directory;
/// and it writes only a regular file (or a new one) or into a directory: a FIFO, a socket or
/// a device is refused before anything is opened or made beside it, as is a file with
/// several hard links, whose other names a new file would leave with the old bytes.
extension Platform {
    /// A calendar file or directory as a write finds it, its symbolic links followed.
    public struct WritePlace: Sendable, Equatable {
        /// What is there.
        public enum Kind: Sendable, Equatable {
            /// Nothing yet (a new file is made there).
            case missing
            /// A regular file with one name.
            case file
            /// A directory (a vdir).
            case directory
        }

        /// The path as it was named: what messages quote, and the name a removal removes.
        public let named: String
        /// Where the links lead: the file a write replaces, beside which its new file is made.
        public let path: String
        /// What is at `path`.
        public let kind: Kind

        /// The file flock(2) is held on for a read-modify-write: the directory itself, or a
        /// lock file `.NAME.lock` beside the file the links lead to, so that two links to one
        /// file share one lock (and no calendar's own inode, which every write replaces).
        public var lockPath: String { Platform.lockPath(followed: path, isDirectory: kind == .directory) }
    }

    /// The file flock(2) is held on for a read-modify-write of the calendar `path` (a
    /// directory when `isDirectory`): `WritePlace.lockPath`, its links followed here.
    public static func lockPath(of path: String, isDirectory: Bool) -> String {
        lockPath(followed: (try? followingLinks(path)) ?? path, isDirectory: isDirectory)
    }

    private static func lockPath(followed path: String, isDirectory: Bool) -> String {
        isDirectory ? path : directory(of: path) + "/." + lastComponent(of: path) + ".lock"
    }

    /// The most symbolic links a path is followed through (Linux's own limit, MAXSYMLINKS).
    static let linkLimit = 40

    /// `path` as a write finds it: its links followed, what is there, and whether it may be
    /// written. Throws, before anything is opened or made, when what is there is a FIFO, a
    /// socket or a device (or anything else that is not a regular file or a directory), a
    /// regular file with more than one hard link, or a link that loops; each with a reason
    /// that says so.
    public static func writePlace(_ path: String) throws(WriteFailure) -> WritePlace {
        let followed = try followingLinks(path)
        var info = stat()
        guard lstat(followed, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw WriteFailure(path: path, step: "write", code: code) }
            return WritePlace(named: path, path: followed, kind: .missing)
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return WritePlace(named: path, path: followed, kind: .directory)
        case S_IFREG:
            try refuseHardLinks(path, links: Int(info.st_nlink))
            return WritePlace(named: path, path: followed, kind: .file)
        default:
            throw WriteFailure(path: path, step: "write", reason: notWritable(info))
        }
    }

    /// Why a write refuses what `info` describes (a FIFO, a socket, a device).
    static func notWritable(_ info: stat) -> String {
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFIFO: kind = "a FIFO (a named pipe)"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "not a regular file"
        }
        return "it is \(kind); infcal writes calendars only as regular files and into directories"
    }

    /// Throws when a regular file has more than one name (`links`): a new file renamed over
    /// one name would part it from the others, which would keep the old bytes.
    static func refuseHardLinks(_ path: String, links: Int) throws(WriteFailure) {
        guard links > 1 else { return }
        throw WriteFailure(path: path, step: "write", reason: "it has \(links) hard links (names of one file, as cp -al and backups "
            + "made with hard links leave), and a new file in its place would part this name from the others; give it a file "
            + "of its own (cp FILE FILE.new && mv FILE.new FILE), or share a calendar by a symbolic link, which infcal writes through")
    }

    /// `path` with its symbolic links followed to the name they lead to, which need not
    /// exist (a link to a file not made yet leads to where it is to be made). Links in the
    /// directories above are left to the kernel; a relative link is read from the link's
    /// own directory. Throws ELOOP after `linkLimit` links.
    public static func followingLinks(_ path: String) throws(WriteFailure) -> String {
        var current = path
        for _ in 0..<linkLimit {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            guard let target = linkTarget(current), !target.isEmpty else {
                throw WriteFailure(path: path, step: "follow the link", code: errno == 0 ? EINVAL : errno)
            }
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        throw WriteFailure(path: path, step: "follow the link", code: ELOOP)
    }

    /// The last component of `path` (the path itself when it has no slash).
    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Writes `bytes` as the calendar file `path` (`writeAtomically`, through its links),
    /// first removing the temporary files that killed writes left beside it
    /// (`removeLeftoverTemporaryFiles`): called with the calendar's lock held, under which
    /// every other writer makes its temporary file, it removes those of that file (with
    /// `replacing`), or, with `replacing` false (a vdir's new item, which must not be there
    /// yet; the vdir's lock held), those of every file in the vdir.
    public static func writeCalendar(_ bytes: [UInt8], to path: String, replacing: Bool = true, mode: UInt32? = nil) throws {
        let followed = try followingLinks(path)
        removeLeftoverTemporaryFiles(in: directory(of: followed), of: replacing ? lastComponent(of: followed) : nil)
        try writeAtomically(bytes, to: followed, replacing: replacing, mode: mode)
    }
}
