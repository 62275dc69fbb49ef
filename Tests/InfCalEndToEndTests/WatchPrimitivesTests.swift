import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalTerminal

/// The primitives of a watcher of alarms, on the real kernel: a timer on the wall clock that
/// fires at an instant, inotify seeing a calendar replaced by a rename into its directory (and
/// a vdir changed), one wait over the timer, the changes and a signal, and the record of
/// delivered alarms written under a lock by two writers at once.
///
/// Not tested here: the timer's answer when the wall clock is set (read(2) fails with
/// ECANCELED, `WallClockTimer.Outcome.clockChanged`), as only setting the system's clock
/// (as root, under every other process of the machine) makes it happen.
@Suite(.serialized) struct WatchPrimitivesTests {
    /// A fresh directory.
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test func theTimerFiresAtTheInstant() throws {
        let timer = try Platform.WallClockTimer()
        #expect(timer.outcome() == .nothing)
        // The next whole second but one: it fires then, not before (by the clock it reads).
        let instant = Platform.wallClock().seconds + 2
        try timer.arm(at: instant)
        let wake = try Platform.waitForWatch(timer: timer, files: nil, signalPipe: nil)
        #expect(wake.timer == .fired)
        #expect(Platform.wallClock().seconds >= instant)
        #expect(timer.outcome() == .nothing, "it fires once")
        // An instant already past fires at once; a disarmed timer says nothing.
        try timer.arm(at: instant - 3600)
        #expect(try Platform.waitForWatch(timer: timer, files: nil, signalPipe: nil).timer == .fired)
        try timer.arm(at: Platform.secondsNow() + 3600)
        try timer.disarm()
        #expect(timer.outcome() == .nothing)
    }

    /// A calendar file replaced by a rename (as atomic writers and sync tools replace it) is
    /// seen through its directory; other names there are not; a symbolic link's target
    /// replaced in its own directory is seen as the link; a vdir is seen changed by a new file.
    @Test func aRenameIntoAWatchedDirectoryIsSeen() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let calendar = root + "/work.ics", vdir = root + "/vdir", elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: calendar))
        try Data("old".utf8).write(to: URL(fileURLWithPath: elsewhere + "/target.ics"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link.ics", withDestinationPath: elsewhere + "/target.ics")
        let watcher = try Platform.FileWatcher()
        let failed = watcher.watch(files: [calendar, root + "/link.ics"], directories: [vdir])
        #expect(failed.isEmpty)
        #expect(watcher.watch(directories: [root + "/missing"]).map(\.error.isMissing) == [true])

        // Another file in the same directory: not a change of the calendar.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        #expect(watcher.changes().paths.isEmpty)
        // Written beside it, renamed over it.
        try Data("new".utf8).write(to: URL(fileURLWithPath: root + "/.work.ics.tmp"))
        #expect(rename(root + "/.work.ics.tmp", calendar) == 0)
        #expect(try Platform.waitForWatch(timer: nil, files: watcher, signalPipe: nil).changed == [calendar])
        // The link's target replaced where it lies.
        try Data("new".utf8).write(to: URL(fileURLWithPath: elsewhere + "/.target.tmp"))
        #expect(rename(elsewhere + "/.target.tmp", elsewhere + "/target.ics") == 0)
        #expect(try Platform.waitForWatch(timer: nil, files: watcher, signalPipe: nil).changed == [root + "/link.ics"])
        // Anything in the vdir.
        try Data("event".utf8).write(to: URL(fileURLWithPath: vdir + "/new.ics"))
        #expect(try Platform.waitForWatch(timer: nil, files: watcher, signalPipe: nil).changed == [vdir])
        // The vdir removed: said once, and no longer watched.
        try FileManager.default.removeItem(atPath: vdir)
        #expect(try Platform.waitForWatch(timer: nil, files: watcher, signalPipe: nil).changed == [vdir])
        #expect(watcher.changes().paths.isEmpty)
    }

    /// One wait over all three: each wakes it, and says which it was.
    @Test func oneWaitOverTimerFilesAndSignals() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let timer = try Platform.WallClockTimer()
        let watcher = try Platform.FileWatcher()
        watcher.watch(directories: [root])
        let pipe = try #require(Platform.catchSignals([.hangUp]))
        defer { Platform.releaseSignals([.hangUp], readEnd: pipe) }
        try timer.arm(at: Platform.secondsNow() + 3600)
        #expect(kill(getpid(), SIGHUP) == 0)
        let bySignal = try Platform.waitForWatch(timer: timer, files: watcher, signalPipe: pipe)
        #expect(bySignal.signals == [.hangUp] && bySignal.timer == nil && bySignal.changed.isEmpty)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/a.ics"))
        let byFile = try Platform.waitForWatch(timer: timer, files: watcher, signalPipe: pipe)
        #expect(byFile.changed == [root] && byFile.timer == nil && byFile.signals.isEmpty)
        try timer.arm(at: Platform.secondsNow() - 1)
        let byTimer = try Platform.waitForWatch(timer: timer, files: watcher, signalPipe: pipe)
        #expect(byTimer.timer == .fired && byTimer.changed.isEmpty && byTimer.signals.isEmpty)
    }

    static func key(_ number: Int, calendar: String = "work") -> AlarmKey {
        AlarmKey(calendar: calendar, uid: "event-\(number)", occurrence: 1_718_000_000 + number, alarm: "#0", repetition: 0)
    }

    /// A first run's record begins 10 minutes back; what is recorded is read back, and a
    /// damaged record is refused and left as it is.
    @Test func theRecordRoundTrips() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = Platform.deliveredAlarmsFile(in: root + "/state/infcal")
        #expect(try Platform.deliveredAlarms(at: path) == nil)
        let now = 1_718_000_000
        let horizon = try Platform.updateDeliveredAlarms(at: path, now: now) { state -> Int in
            state.delivered[Self.key(1, calendar: "tab\there, new\nline, back\\slash, ünïcode")] = now - 60
            return state.horizon
        }
        #expect(horizon == now - 600)
        let read = try #require(try Platform.deliveredAlarms(at: path))
        #expect(read == DeliveredAlarms(horizon: now - 600, delivered: [Self.key(1, calendar: "tab\there, new\nline, back\\slash, ünïcode"): now - 60]))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        try Data("not a record\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Platform.DeliveredAlarmsError.self) {
            try Platform.updateDeliveredAlarms(at: path, now: now) { $0.horizon = 0 }
        }
        #expect(FileManager.default.contents(atPath: path) == Data("not a record\n".utf8))
    }

    /// Two writers at once (each holding the lock for its read, change and write), each
    /// recording 40 firings of its own: all 80 are there at the end; none is lost to the other.
    @Test func theRecordSurvivesAConcurrentWriter() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = Platform.deliveredAlarmsFile(in: root)
        let now = 1_718_000_000
        let failures = LockedCount()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for number in 0..<40 {
                do {
                    try Platform.updateDeliveredAlarms(at: path, now: now) { state in
                        state.delivered[Self.key(writer * 1000 + number)] = now
                    }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.value == 0)
        let state = try #require(try Platform.deliveredAlarms(at: path))
        #expect(state.delivered.count == 80)
    }
}

/// A count several threads add to.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
