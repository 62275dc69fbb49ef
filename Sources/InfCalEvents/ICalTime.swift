import InfCalModel

/// A DATE or DATE-TIME value as written: its wall-clock seconds (civil seconds, see `CivilTime`)
/// and what they are reckoned in.
public struct ICalTime: Equatable, Hashable, Sendable {
    public enum Form: Equatable, Hashable, Sendable {
        /// A DATE: a whole day, no zone.
        case date
        /// A date-time with no zone: the same wall clock everywhere.
        case floating
        /// A date-time ending in Z.
        case utc
        /// A date-time with TZID: the zone's name as written.
        case zoned(String)
    }

    public var seconds: Int
    public var form: Form

    public init(seconds: Int, form: Form) {
        self.seconds = seconds
        self.form = form
    }

    public var isDate: Bool { form == .date }

    /// Parses `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`.
    /// - parameter isDate: true for VALUE=DATE, false for VALUE=DATE-TIME, nil to take the form written.
    /// - parameter zone: the TZID parameter, if any (ignored for dates and UTC times).
    /// - returns: nil for anything else, or a day or time that does not exist.
    public static func parse(_ text: some StringProtocol, isDate: Bool?, zone: String?) -> ICalTime? {
        let bytes = Array(text.utf8)
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 { end -= 1 }
        return parse(bytes[0..<end], isDate: isDate, zone: zone)
    }

    static func parse(_ bytes: ArraySlice<UInt8>, isDate: Bool?, zone: String?) -> ICalTime? {
        let base = bytes.startIndex
        func digits(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for i in base + offset ..< base + offset + count {
                let byte = bytes[i]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 8, let year = digits(0, 4), let month = digits(4, 2), let day = digits(6, 2),
              (1...12).contains(month), day >= 1, day <= CivilTime.monthLength(year: year, month: month) else { return nil }
        let civilDay = CivilTime.day(year: year, month: month, day: day)
        if bytes.count == 8 {
            if isDate == false { return nil }
            return ICalTime(seconds: civilDay * CivilTime.secondsPerDay, form: .date)
        }
        guard isDate != true, bytes.count == 15 || bytes.count == 16, bytes[base + 8] == 0x54 || bytes[base + 8] == 0x74,
              let hour = digits(9, 2), let minute = digits(11, 2), let second = digits(13, 2),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let form: Form
        if bytes.count == 16 {
            guard bytes[base + 15] == 0x5A || bytes[base + 15] == 0x7A else { return nil }
            form = .utc
        } else if let zone, !zone.isEmpty {
            form = .zoned(zone)
        } else {
            form = .floating
        }
        // A leap second (:60) is read as the second before it.
        let seconds = civilDay * CivilTime.secondsPerDay + hour * 3600 + minute * 60 + min(second, 59)
        return ICalTime(seconds: seconds, form: form)
    }

    /// Parses a DURATION (`P1D`, `-PT15M`, `P2W`, `P1DT2H`) into seconds.
    /// - returns: nil when it is not one.
    public static func parseDuration(_ text: some StringProtocol) -> Int? {
        var bytes = Array(text.utf8)[...]
        while bytes.last == 0x20 { bytes = bytes.dropLast() }
        var sign = 1
        if bytes.first == 0x2B { bytes = bytes.dropFirst() } else if bytes.first == 0x2D { sign = -1; bytes = bytes.dropFirst() }
        guard bytes.first == 0x50 else { return nil }
        bytes = bytes.dropFirst()
        var total = 0
        var number: Int?
        var inTime = false
        var any = false
        for byte in bytes {
            switch byte {
            case 0x30...0x39:
                let digit = Int(byte - 0x30)
                let (times, overflow1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (value, overflow2) = times.addingReportingOverflow(digit)
                if overflow1 || overflow2 || value > 100_000_000 { return nil }
                number = value
            case 0x54: // T
                if inTime || number != nil { return nil }
                inTime = true
            default:
                guard let value = number else { return nil }
                let unit: Int
                switch (byte, inTime) {
                case (0x57, false): unit = 7 * 86_400
                case (0x44, false): unit = 86_400
                case (0x48, true): unit = 3600
                case (0x4D, true): unit = 60
                case (0x53, true): unit = 1
                default: return nil
                }
                total += value * unit
                number = nil
                any = true
            }
        }
        guard any, number == nil else { return nil }
        return sign * total
    }
}
