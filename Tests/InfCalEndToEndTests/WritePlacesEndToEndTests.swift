import Foundation
import InfCalProcess
import InfCalTerminal
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Where `add`, `edit` and `delete` write, run as a user runs them: a calendar that is a
/// symbolic link (a file, a vdir, a vdir's item) is written through and the link stays; a
/// hard-linked calendar, a FIFO, a socket and a device node are refused at once (exit 1),
/// nothing made beside them and the node intact; the temporary files of killed writes are
/// removed by the next write, those of live writers kept. Each write's file is validated
/// (`WrittenFiles`).
@Suite(.serialized) struct WritePlacesEndToEndTests {
    typealias W = WriteCommandEndToEndTests

    static let calendar = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//infcal tests//EN", "BEGIN:VEVENT", "UID:kept@example.org",
                           "DTSTAMP:20240101T000000Z", "DTSTART:20240301T100000Z", "SUMMARY:Kept", "END:VEVENT", "END:VCALENDAR", ""]
        .joined(separator: "\r\n")

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func isLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    static func listing(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    static func agenda(_ calendar: URL, home: URL) throws -> String {
        try W.infcal(["--agenda", "--events", calendar.path, "--from", "2024-03", "--forward", "1", "--today", "2024-02-15"], home: home).stdout
    }

    /// `add --to cal/link.ics`, where the link leads into another directory: the file there
    /// gets the event, in place (its new file made and renamed in its own directory, and the
    /// lock file beside it); the link stays a link, and a second link to the same file, by
    /// an absolute path, sees the event and is written through the same way.
    @Test func aLinkedFileCalendarIsWrittenThroughAndStaysALink() throws {
        let home = try W.scratch("link")
        defer { try? FileManager.default.removeItem(at: home) }
        let real = home.appendingPathComponent("dotfiles/calendar.ics")
        try Self.write(Self.calendar, to: real)
        let link = home.appendingPathComponent("cal/link.ics")
        let other = home.appendingPathComponent("other/second.ics")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../dotfiles/calendar.ics")
        try FileManager.default.createSymbolicLink(atPath: other.path, withDestinationPath: real.path)

        let (added, report) = try W.write(["add", "--to", link.path, "2024-03-05", "Through the link"], on: link, home: home)
        #expect(added.status == 0, "\(added.stderr)")
        if let report { #expect(report.added == [W.uid(added)] && report.touched == [W.uid(added)]) }
        #expect(Self.isLink(link) && Self.isLink(other))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "../dotfiles/calendar.ics")
        #expect(String(decoding: W.bytes(real), as: UTF8.self).contains("SUMMARY:Through the link\r\n"))
        #expect(try Self.agenda(other, home: home).contains("Through the link"))
        // Nothing was made beside the link; the lock file is beside the file itself.
        #expect(Self.listing(link.deletingLastPathComponent()) == ["link.ics"])
        #expect(Self.listing(real.deletingLastPathComponent()) == [".calendar.ics.lock", "calendar.ics"])

        // Through the second link: an edit, then a delete through the first.
        let (edited, editReport) = try W.write(["edit", "--to", other.path, W.uid(added), "--summary", "Edited through the other"],
                                               on: other, home: home)
        #expect(edited.status == 0, "\(edited.stderr)")
        if let editReport { #expect(editReport.changed == [W.uid(added)] && editReport.touched == [W.uid(added)]) }
        #expect(try Self.agenda(link, home: home).contains("Edited through the other"))
        let (deleted, deleteReport) = try W.write(["delete", "--to", link.path, W.uid(added)], on: link, home: home)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        if let deleteReport { #expect(deleteReport.removed == [W.uid(added)]) }
        #expect(W.bytes(real) == Array(Self.calendar.utf8), "add, edit and delete through links give the file back")
        #expect(Self.isLink(link) && Self.isLink(other))
        #expect(Self.listing(link.deletingLastPathComponent()) == ["link.ics"] && Self.listing(other.deletingLastPathComponent()) == ["second.ics"])
    }

    /// A vdir that is a link to a directory takes the new item in that directory; an item
    /// that is a link to a file elsewhere is edited there, the link kept; its delete removes
    /// the item from the vdir (the link), never the file another name leads to.
    @Test func aLinkedVdirAndALinkedItemAreWrittenThrough() throws {
        let home = try W.scratch("vdirlink")
        defer { try? FileManager.default.removeItem(at: home) }
        let real = home.appendingPathComponent("data/work")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let vdir = home.appendingPathComponent("work")
        try FileManager.default.createSymbolicLink(atPath: vdir.path, withDestinationPath: "data/work")
        let (added, report) = try W.write(["add", "--to", vdir.path, "2024-03-05", "In the vdir"], on: vdir, home: home)
        #expect(added.status == 0, "\(added.stderr)")
        if let report { #expect(report.added == [W.uid(added)]) }
        #expect(Self.isLink(vdir))
        #expect(Self.listing(real) == [W.uid(added) + ".ics"])

        let elsewhere = home.appendingPathComponent("shared/item.ics")
        let itemText = Self.calendar.replacingOccurrences(of: "kept@example.org", with: "item@example.org")
        try Self.write(itemText, to: elsewhere)
        let item = real.appendingPathComponent("item.ics")
        try FileManager.default.createSymbolicLink(atPath: item.path, withDestinationPath: "../../shared/item.ics")
        let (edited, editReport) = try W.write(["edit", "--to", vdir.path, "item@example.org", "--summary", "Edited item"], on: vdir, home: home)
        #expect(edited.status == 0, "\(edited.stderr)")
        if let editReport { #expect(editReport.changed == ["item@example.org"] && editReport.touched == ["item@example.org"]) }
        #expect(Self.isLink(item))
        let editedItem = W.bytes(elsewhere)
        #expect(String(decoding: editedItem, as: UTF8.self).contains("SUMMARY:Edited item\r\n"))
        #expect(Self.listing(elsewhere.deletingLastPathComponent()) == ["item.ics"], "no temporary file left beside it")

        let (deleted, deleteReport) = try W.write(["delete", "--to", vdir.path, "item@example.org"], on: vdir, home: home)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        if let deleteReport { #expect(deleteReport.removed == ["item@example.org"]) }
        #expect(!FileManager.default.fileExists(atPath: item.path) && !Self.isLink(item))
        #expect(W.bytes(elsewhere) == editedItem, "the file the link led to stays")
        #expect(Self.isLink(vdir) && Self.listing(real) == [W.uid(added) + ".ics"])
    }

    /// A hard-linked calendar is refused (exit 1), with a message that says how to go on: a
    /// new file in its place would leave the other names with the old bytes. Nothing is made.
    @Test func aHardLinkedCalendarIsRefused() throws {
        let home = try W.scratch("hardlink")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("cal/calendar.ics")
        try Self.write(Self.calendar, to: file)
        let second = home.appendingPathComponent("backup/calendar.ics")
        try FileManager.default.createDirectory(at: second.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(link(file.path, second.path) == 0)
        for arguments in [["add", "--to", file.path, "2024-03-05", "Split"], ["edit", "--to", second.path, "kept@example.org", "--summary", "x"],
                          ["delete", "--to", file.path, "kept@example.org"]] {
            let result = try W.infcal(arguments, home: home)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("2 hard links") && result.stderr.contains("symbolic link") && result.stderr.hasSuffix("nothing was written\n"),
                    "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(W.bytes(file) == Array(Self.calendar.utf8) && W.bytes(second) == Array(Self.calendar.utf8))
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_nlink == 2)
        #expect(Self.listing(file.deletingLastPathComponent()) == ["calendar.ics"])
    }

    /// A FIFO, a socket and (as root) a device node given as the calendar are refused at
    /// once, exit 1: the FIFO is never opened (no run waits for a reader: each has 10 s), no
    /// lock or temporary file is made beside them, and each node is still what it was.
    @Test func aFIFOASocketAndADeviceAreRefusedAtOnce() throws {
        let home = try W.scratch("special")
        defer { try? FileManager.default.removeItem(at: home) }
        let fifo = home.appendingPathComponent("pipe.ics")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let socket = home.appendingPathComponent("socket.ics")
        #expect(mknod(socket.path, S_IFSOCK | 0o644, 0) == 0)
        // A device like /dev/null (major 1, minor 3), made here: mknod needs CAP_MKNOD (root).
        let device = home.appendingPathComponent("null")
        let madeDevice = mknod(device.path, S_IFCHR | 0o666, (1 << 8) | 3) == 0
        if !madeDevice { print("WritePlacesEndToEndTests: mknod of a character device needs root; the device node is not tried") }
        func node(_ url: URL) -> (mode: UInt32, device: UInt) {
            var info = stat()
            _ = lstat(url.path, &info)
            return (info.st_mode, UInt(info.st_rdev))
        }
        let before = [fifo, socket, device].map(node)
        let listing = Self.listing(home)
        for (target, kind) in [(fifo, "a FIFO"), (socket, "a socket")] + (madeDevice ? [(device, "a character device")] : []) {
            for arguments in [["add", "--to", target.path, "2024-03-05", "Nowhere"], ["edit", "--to", target.path, "kept@example.org", "--summary", "x"],
                              ["delete", "--to", target.path, "kept@example.org"]] {
                let result = try W.infcal(arguments, home: home, deadline: 10)
                #expect(result.status == 1, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("it is \(kind)") && result.stderr.contains("nothing was written"), "\(result.stderr)")
            }
        }
        #expect(Self.listing(home) == listing, "nothing was made beside them")
        #expect([fifo, socket, device].map(node).map(\.mode) == before.map(\.mode))
        #expect(node(device).device == before[2].device)
        // A FIFO among the calendars edit looks in (INFCAL_EVENTS) is not read, nor waited for.
        let file = home.appendingPathComponent("calendar.ics")
        try Self.write(Self.calendar, to: file)
        let search = try BinaryRunner.runProgram(BinaryRunner.executable, ["edit", "kept@example.org", "--summary", "Found"],
                                                 environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/none",
                                                               "INFCAL_EVENTS": fifo.path + ":" + file.path], deadline: 10)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(String(decoding: W.bytes(file), as: UTF8.self).contains("SUMMARY:Found\r\n"))
    }

    /// The temporary file of a killed write (its process gone, unlocked) is removed by the
    /// next write; one whose process is gone but that a live process holds locked (a copy
    /// of infcal that goes on writing after the run that made it), and one of a live process,
    /// are kept; the held one goes with the write after its holder ended.
    @Test func staleTemporaryFilesAreRemovedAndLiveOnesKept() throws {
        let home = try W.scratch("leftovers")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("calendar.ics")
        try Self.write(Self.calendar, to: file)
        // A PID no process can have: above the kernel's pid_max.
        let pidMax = Int((try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 4_194_304
        let dead = pidMax + 1
        let stale = home.appendingPathComponent(".calendar.ics.infcal-\(dead)-0.tmp")
        let held = home.appendingPathComponent(".calendar.ics.infcal-\(dead)-1.tmp")
        let live = home.appendingPathComponent(".calendar.ics.infcal-\(getpid())-0.tmp")
        let other = home.appendingPathComponent(".notes.txt.infcal-x-0.tmp")
        for url in [stale, held, live, other] { try Data(repeating: 0x41, count: 4096).write(to: url) }
        #expect(Platform.writerProcess(ofTemporaryFile: stale.lastPathComponent) == Int32(dead))
        #expect(Platform.writerProcess(ofTemporaryFile: other.lastPathComponent) == nil)
        // Another process holds `held` locked, as the writer of a NewFile does.
        // One process (the shell, then sleep in its place) holds it, so that killing it frees it.
        let holder = try ChildProcess.spawn("/bin/bash", ["-c", "exec 9<\"$1\" && /usr/bin/flock -x 9 && exec /bin/sleep 60", "holder", held.path],
                                            environment: nil, redirections: [.inputFromNull])
        defer {
            kill(holder, SIGKILL)
            _ = ChildProcess.wait(holder)
        }
        let probe = open(held.path, O_RDONLY)
        defer { close(probe) }
        var waited = 0
        while flock(probe, LOCK_EX | LOCK_NB) == 0, waited < 1000 {
            flock(probe, LOCK_UN)
            usleep(10_000)
            waited += 1
        }
        try #require(waited < 1000, "flock did not take the lock within 10 s")
        #expect(Platform.leftoverTemporaryFiles(in: home.path) == [stale.path])

        let (added, report) = try W.write(["add", "--to", file.path, "2024-03-05", "Clean"], on: file, home: home)
        #expect(added.status == 0, "\(added.stderr)")
        if let report { #expect(report.added == [W.uid(added)]) }
        #expect(Self.listing(home) == [other.lastPathComponent, held.lastPathComponent, live.lastPathComponent, ".calendar.ics.lock", "calendar.ics"].sorted())
        kill(holder, SIGKILL)
        _ = ChildProcess.wait(holder)
        #expect(Platform.leftoverTemporaryFiles(in: home.path) == [held.path])
        let again = try W.infcal(["delete", "--to", file.path, W.uid(added)], home: home)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.listing(home) == [other.lastPathComponent, live.lastPathComponent, ".calendar.ics.lock", "calendar.ics"].sorted())
        #expect(W.bytes(file) == Array(Self.calendar.utf8))
    }
}
