#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The temporary files killed writes leave: a write killed (`kill -9`, a crash, a power cut)
/// between making its new file and renaming it into place leaves `.NAME.infcal-PID-N.tmp`
/// beside the calendar, as large as the calendar, for good. Such a file is known by two
/// signs, both needed: the process named in it is gone, and no process holds the lock its
/// writer takes on it as it makes it (`NewFile`) and keeps until it is in place. The first
/// alone would remove a file that a process of another PID namespace writes, or that the copy
/// of a process `detach` started goes on writing after the run that made it ended; the second
/// alone would remove one in the instant between its creation and its lock.
extension Platform {
    /// The temporary files of infcal's atomic writes in `directory` that a killed write left
    /// (paths, sorted): named `.NAME.infcal-PID-N.tmp`, regular files, their process gone
    /// and unlocked (with `name`, only those of the file `name`). Looking takes each one's lock
    /// for an instant and writes nothing: for `infcal check`, which reports them.
    public static func leftoverTemporaryFiles(in directory: String, of name: String? = nil) -> [String] {
        leftovers(in: directory, of: name, removing: false)
    }

    /// Removes the temporary files `leftoverTemporaryFiles(in:)` lists (with `name`, only
    /// those of the file `name`: `.NAME.infcal-PID-N.tmp`), each while holding its lock, and
    /// returns their paths. What cannot be removed stays, silently: a write goes on without it.
    @discardableResult
    public static func removeLeftoverTemporaryFiles(in directory: String, of name: String? = nil) -> [String] {
        leftovers(in: directory, of: name, removing: true)
    }

    /// The process ID an atomic write's temporary file is named for (`.NAME.infcal-PID-N.tmp`);
    /// nil for any other name.
    public static func writerProcess(ofTemporaryFile name: String) -> Int32? {
        func isNumber(_ text: Substring) -> Bool { !text.isEmpty && text.count <= 10 && text.allSatisfy { ("0"..."9").contains($0) } }
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let body = name.dropLast(4)
        guard let dash = body.lastIndex(of: "-"), isNumber(body[body.index(after: dash)...]) else { return nil }
        let named = body[..<dash]
        // `.` + at least one character of NAME + `.infcal`
        guard let pidDash = named.lastIndex(of: "-"), named[..<pidDash].hasSuffix(".infcal"), named[..<pidDash].count >= 9 else { return nil }
        let digits = named[named.index(after: pidDash)...]
        guard isNumber(digits), let pid = Int32(digits), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process `pid` exists (kill(2) with signal 0; EPERM means it does, another
    /// user's).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    private static func leftovers(in directory: String, of file: String?, removing: Bool) -> [String] {
        var found: [String] = []
        for name in entryNames(directory) {
            if let file, !name.hasPrefix("." + file + ".infcal-") { continue }
            guard let pid = writerProcess(ofTemporaryFile: name), !processExists(pid) else { continue }
            let path = directory + "/" + name
            // Not through a link and without waiting (a FIFO of that name is not ours).
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            // Held while it is removed; the name is unique (O_EXCL), so no new writer can
            // have made a file of this name meanwhile.
            if removing, unlink(path) != 0 { continue }
            found.append(path)
        }
        return found
    }
}
