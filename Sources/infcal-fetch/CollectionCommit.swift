import Foundation
import InfCalModel
import InfCalRemote
import InfCalTerminal

/// The changes of one CalDAV collection's copy, gathered in memory and put in place in one
/// step, as SQLite commits and Radicale's storage writes: a new directory is made beside the
/// copy (`.NAME.new-PID`), its unchanged files hard-linked from the old one (no byte copied,
/// their identity kept for the parsed-event cache), the new ones written and flushed, then the
/// two directories are exchanged (`Platform.exchangeDirectory`) and the old one removed. A
/// failure at any point before the exchange leaves the copy as it was, and removes the new
/// directory; a crash leaves it to the next fetch, which removes it.
struct CollectionCommit {
    /// The collection's directory in the cache.
    let directory: String
    /// Whether the new copy starts empty (a first download) rather than from the old one.
    var fresh: Bool
    /// Files written anew (events, `etags`, `collection`), by name.
    var files: [String: [UInt8]] = [:]
    /// Files of the old copy left out.
    private(set) var removed: Set<String> = []

    init(directory: String, fresh: Bool) {
        self.directory = directory
        self.fresh = fresh
    }

    /// Leaves the file `name` out of the new copy.
    mutating func remove(_ name: String) {
        files[name] = nil
        removed.insert(name)
    }

    /// Whether an event file changes.
    var hasChanges: Bool {
        !removed.isEmpty || files.keys.contains { $0 != CalendarFiles.etagsFile && $0 != CalendarFiles.collectionFile } || fresh
    }

    /// Puts the new copy in place.
    /// - throws: `FetchFailure` naming the step that failed; the old copy is then whole.
    func apply() throws(FetchFailure) {
        let parent = Platform.directory(of: directory)
        let name = directory.split(separator: "/").last.map(String.init) ?? "calendar"
        let staging = parent + "/." + name + ".new-\(ProcessInfo.processInfo.processIdentifier)"
        Platform.removeTree(staging)
        Platform.removeTree(staging + ".old")
        do {
            try Platform.makeDirectory(staging)
            if !fresh {
                for entry in Platform.entryNames(directory)
                where !entry.hasPrefix(".") && files[entry] == nil && !removed.contains(entry) && !Platform.isDirectory(directory + "/" + entry) {
                    try Platform.hardLink(directory + "/" + entry, as: staging + "/" + entry)
                }
            }
            for (file, bytes) in files.sorted(by: { $0.key < $1.key }) {
                try Platform.writeNewFile(bytes, to: staging + "/" + file)
            }
            try Platform.flushDirectory(staging)
            if let old = try Platform.exchangeDirectory(staging, into: directory) { Platform.removeTree(old) }
        } catch {
            Platform.removeTree(staging)
            throw FetchFailure("cannot write the cache (\(Self.describe(error)))")
        }
    }

    /// A failure to write, in a few words: the step and the system's reason, the path left out
    /// (it may hold an href, and the cache's place is known).
    static func describe(_ error: Error) -> String {
        guard let failure = error as? Platform.WriteFailure else { return "\(error)" }
        return "cannot \(failure.step): \(Platform.describe(errno: failure.code))"
    }
}
