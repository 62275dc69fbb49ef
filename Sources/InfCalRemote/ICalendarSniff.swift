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
}
