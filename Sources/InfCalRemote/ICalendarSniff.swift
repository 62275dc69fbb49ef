/// Whether a body a server sent is iCalendar at all, before it replaces a good copy: a login
/// page or an error page served with status 200 must not.
public enum ICalendarSniff {
    /// Whether `bytes` start (after a byte-order mark and blank lines) with `BEGIN:VCALENDAR`,
    /// in any case, as RFC 5545 requires of an iCalendar object.
    public static func isICalendar<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        while let first = rest.first, first == 0x20 || first == 0x09 || first == 0x0D || first == 0x0A { rest = rest.dropFirst() }
        let expected = Array("BEGIN:VCALENDAR".utf8)
        guard rest.count >= expected.count else { return false }
        return zip(rest.prefix(expected.count), expected).allSatisfy { byte, wanted in
            (byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) == wanted
        }
    }

    /// Whether `bytes` end (before blank lines) with the line `END:VCALENDAR`, in any case:
    /// a body cut short (a Content-Length shorter than the calendar, a connection that closed
    /// early) does not, and must never replace a good copy.
    public static func isComplete<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var rest = bytes[...]
        while let last = rest.last, last == 0x20 || last == 0x09 || last == 0x0D || last == 0x0A { rest = rest.dropLast() }
        let expected = Array("END:VCALENDAR".utf8)
        guard rest.count >= expected.count else { return false }
        let tail = rest.suffix(expected.count)
        let before = rest.dropLast(expected.count).last
        guard before == nil || before == 0x0A else { return false }
        return zip(tail, expected).allSatisfy { byte, wanted in
            (byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) == wanted
        }
    }
}
