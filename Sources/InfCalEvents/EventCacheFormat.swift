import Foundation
import InfCalModel

/// One thing a cache was built from: a path below the source ("" for the source itself),
/// whether it is a directory, and its identity then.
public struct CacheKeyEntry: Equatable, Sendable {
    public var path: String
    public var isDirectory: Bool
    public var identity: FileIdentity

    public init(path: String, isDirectory: Bool, identity: FileIdentity) {
        self.path = path
        self.isDirectory = isDirectory
        self.identity = identity
    }
}

/// The binary form of what reading a source gave: its files' warnings, its events with their
/// rules and zones, and an index of the span of time in which each event can occur, so that a
/// run decodes only the events that can fall in the months it shows.
///
/// Layout: a header of 64-bit words (magic, byte-order mark, format version, total length,
/// length of the metadata, number of events, checksums of the header and of metadata plus
/// block directory), the metadata (source, key, files, zone directory) as variable-length
/// integers, the block directory, the index (four words an event: earliest start, latest end,
/// offset of its record, and its length with the halves of months in which it can occur),
/// then the records of events' details (location and description), of zones and of events,
/// each behind its own checksum, checked when decoded.
///
/// The index is sorted so that events near in time lie together (short events by start, then
/// longer ones, then those without end by their halves of months) and cut into blocks of
/// `blockSize` entries; the directory holds four words a block (the earliest start and the
/// latest end of its events, their halves of months, the checksum of its entries), so that a
/// run of a few months checks and reads only the blocks that can hold its events, not the
/// whole index. The events' records lie in the index's order too, so that a run reads few
/// pages of a large cache; each holds its place in the order reading gave the events, and
/// where its details lie: a view that shows no details neither reads nor checks them.
///
/// After the records lies the table of occurrences (`occurrenceTable`): the instances of the
/// recurring events in the years around the cache's writing, in order of start, each naming
/// its event's record, cut into checked blocks behind a directory of their first starts. A run
/// of months inside those years takes its recurring events' instances from there, decodes only
/// the events they name and expands no rule; the index marks those events, which such a run
/// leaves out of its own search. They come last in the index (in its order among themselves),
/// so that their blocks, marked in the directory, hold no other, and such a run passes over
/// those blocks without reading them.
public enum EventCacheFormat {
    /// Bump whenever what is written changes, or what reading a file produces does (a new
    /// field of `Event`, `RecurrenceRule`, `ICalTime` or a zone): a cache of another version
    /// is rebuilt. `EventCacheFormatTests` fails when the model's stored fields change and
    /// this does not. Bump it too when the instances a rule gives change, as the table holds
    /// them already expanded.
    public static let version: UInt64 = 16

    static let magic: UInt64 = 0x5645_4C41_4346_4E49  // "INFCALEV" read as a little-endian word
    static let byteOrderMark: UInt64 = 0x0102_0304_0506_0708
    static let headerSize = 64
    static let indexEntrySize = 32
    static let blockSize = 64
    static let blockEntrySize = 32
    /// An event lasting at most this long (seconds, from its earliest start to its latest end)
    /// is sorted with the single events, by its start.
    static let shortReach = 2 * CivilTime.secondsPerDay
    /// How far an occurrence shown in the display zone can lie from its time in the event's
    /// own reckoning (zone offsets reach about a day), with room to spare.
    static let selectionMargin = 3 * CivilTime.secondsPerDay
}
