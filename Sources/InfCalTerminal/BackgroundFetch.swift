import Dispatch
import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The pager's fetch: the due calendars fetched on another thread while the pager shows the
/// copies there are; a byte on a pipe wakes the pager's poll when the fetch is done.
final class BackgroundFetch: @unchecked Sendable {
    /// The pipe end the pager polls; readable once the fetch has ended.
    let readEnd: Int32
    private let writeEnd: Int32
    private let lock = NSLock()
    private var report: RemoteCalendars.Report?

    /// Starts fetching what of `settings` is due; nil when nothing is (or no pipe can be made).
    init?(_ settings: EventSettings) {
        let cache = RemoteCalendars.cache()
        let due = RemoteCalendars.due(settings.sources, fetching: settings.fetching, cache: cache)
        guard !due.isEmpty, let pipe = Platform.makePipe() else { return nil }
        (readEnd, writeEnd) = pipe
        DispatchQueue.global().async { [self] in
            let result = RemoteCalendars.fetch(due, cache: cache, showProgress: false)
            lock.withLock { report = result }
            var byte: [UInt8] = [1]
            try? byte.withUnsafeBytes { try Platform.writeAll(writeEnd, $0) }
            byte.removeAll()
        }
    }

    /// The report once the fetch has ended, else nil.
    var finished: RemoteCalendars.Report? {
        lock.withLock { report }
    }

    deinit {
        Platform.closeDescriptor(readEnd)
        Platform.closeDescriptor(writeEnd)
    }
}
