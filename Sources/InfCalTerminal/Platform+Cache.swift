#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The file-system calls of the parsed-event cache: identities, mapping, atomic writes, and
/// the listing and pruning of the cache directory.
extension Platform {
    // MARK: Identities

    /// The identity `stat` gives. Device and inode numbers are unsigned 64-bit values, which
    /// some file systems fill to the top bit: their bits are kept, never converted with a check
    /// that would trap.
    static func identity(_ info: stat) -> FileIdentity {
        FileIdentity(device: Int(truncatingIfNeeded: info.st_dev), inode: Int(truncatingIfNeeded: info.st_ino),
                     size: Int(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The identity of what `path` names (through symbolic links, as reading it goes), and
    /// whether it is a directory; nil when it cannot be looked at.
    public static func identity(of path: String) -> (identity: FileIdentity, isDirectory: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (identity(info), (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// Whether every entry of `key` (paths below `root`, "" for `root` itself) still has the
    /// identity it had: one stat(2) each, relative to `root` opened once.
    public static func identitiesMatch(_ key: [CacheKeyEntry], under root: String) -> Bool {
        let directory = open(root, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        defer { if directory >= 0 { close(directory) } }
        var info = stat()
        for entry in key {
            let found: Int32
            if entry.path.isEmpty {
                found = stat(root, &info)
            } else if directory >= 0 {
                found = fstatat(directory, entry.path, &info, 0)
            } else {
                found = stat(root + "/" + entry.path, &info)
            }
            guard found == 0, identity(info) == entry.identity,
                  ((info.st_mode & S_IFMT) == S_IFDIR) == entry.isDirectory else { return false }
        }
        return true
    }

    /// The directories below `root` (paths relative to it, `root` itself first as ""), with
    /// their identities: adding, removing or renaming a file changes its directory's.
    public static func directoryTree(_ root: String) -> [CacheKeyEntry] {
        var result: [CacheKeyEntry] = []
        var pending = [""]
        while let relative = pending.popLast(), result.count < 100_000 {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let (found, isDirectory) = identity(of: path), isDirectory,
                  let stream = opendir(path) else { continue }
            result.append(CacheKeyEntry(path: relative, isDirectory: true, identity: found))
            var children: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != "..", entry.pointee.d_type == UInt8(DT_DIR) || entry.pointee.d_type == UInt8(DT_UNKNOWN)
                        || entry.pointee.d_type == UInt8(DT_LNK) else { continue }
                children.append(relative.isEmpty ? name : relative + "/" + name)
            }
            closedir(stream)
            pending += children.sorted().reversed()
        }
        return result
    }

    /// The absolute form of `path` with symbolic links resolved (realpath(3)), or `path` made
    /// absolute against the working directory when it cannot be resolved.
    public static func absolutePath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd + "/" + path
    }

    // MARK: Mapping

    /// A file mapped into memory read-only; unmapped when released.
    public final class MappedFile {
        public let bytes: UnsafeRawBufferPointer
        public let identity: FileIdentity

        fileprivate init(bytes: UnsafeRawBufferPointer, identity: FileIdentity) {
            self.bytes = bytes
            self.identity = identity
        }

        deinit {
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        }
    }

    /// The regular file at `path` mapped read-only (mmap(2): read without copying, only the
    /// pages used are touched); nil when it is missing, empty, not a regular file or cannot be
    /// mapped.
    public static func map(_ path: String) -> MappedFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              info.st_size < Int(Int32.max) else { return nil }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return MappedFile(bytes: UnsafeRawBufferPointer(start: base, count: size), identity: identity(info))
    }

    // MARK: Writing

    /// Sets the modification time of `path` to now (the cache's mark of a recent use).
    public static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    // MARK: The cache directory

    /// The regular files of `directory`: name, size and modification time.
    public static func files(in directory: String) -> [(name: String, size: Int, modified: Int)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var result: [(name: String, size: Int, modified: Int)] = []
        var info = stat()
        while let entry = readdir(stream), result.count < 1_000_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != "..", lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            result.append((name, Int(info.st_size), Int(info.st_mtim.tv_sec)))
        }
        return result
    }

    /// Removes the file at `path`; whether it is gone.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }
}
