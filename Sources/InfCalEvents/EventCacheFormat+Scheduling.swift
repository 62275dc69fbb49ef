import InfCalModel

// What the cache keeps of an event's scheduling (organizer, attendees, status): in its record,
// what every view may need (STATUS and the addresses that declined, one byte for an event
// without attendees); in its details record, read only by views that show details, the
// organizer and the attendees. Who "you" are is not stored: `Event.isDeclined(byAnyOf:)`
// matches the addresses when asked, so a change of `addresses =` leaves the cache valid.

extension EventCacheFormat {
    // MARK: In the event's record

    /// STATUS and the number of declining addresses in one integer, then those addresses.
    static func writeScheduling(of event: Event, to out: inout CacheWriter) {
        let status: Int
        switch event.status {
        case nil: status = 0
        case .tentative: status = 1
        case .confirmed: status = 2
        case .cancelled: status = 3
        }
        out.int(status | event.declinedBy.count << 2)
        for address in event.declinedBy { out.string(address) }
    }

    /// What `writeScheduling(of:to:)` wrote.
    static func readScheduling(_ reader: inout CacheReader) throws(CacheDefect) -> (status: EventStatus?, declinedBy: [String]) {
        let word = try reader.int()
        guard word >= 0 else { throw CacheDefect() }
        let status: EventStatus?
        switch word & 3 {
        case 1: status = .tentative
        case 2: status = .confirmed
        case 3: status = .cancelled
        default: status = nil
        }
        let count = word >> 2
        guard count <= reader.end - reader.position else { throw CacheDefect() }
        var declinedBy: [String] = []
        if count > 0 {
            declinedBy.reserveCapacity(count)
            for _ in 0..<count { declinedBy.append(try reader.string()) }
        }
        return (status, declinedBy)
    }

    // MARK: In the details record

    /// Whether `details` needs a record at all.
    static func hasDetails(_ details: EventDetails) -> Bool { !details.isEmpty }

    /// How many bytes `write(_:to:)` writes for `details`.
    static func length(of details: EventDetails) -> Int {
        func string(_ text: String) -> Int { CacheWriter.length(ofString: text.utf8.count) }
        func participant(_ person: Participant) -> Int {
            string(person.address) + 1 + (person.name.map(string) ?? 0) + 1
        }
        var total = string(details.location) + string(details.description) + 1
        if let organizer = details.organizer { total += participant(organizer) }
        total += CacheWriter.length(ofInt: details.attendees.count)
        for attendee in details.attendees { total += participant(attendee) }
        return total
    }

    /// Writes location, description, organizer and attendees.
    static func write(_ details: EventDetails, to out: inout CacheWriter) {
        func participant(_ person: Participant) {
            out.string(person.address)
            out.optional(person.name)
            // Answer, role and RSVP in one byte (5 x 4 x 2 < 128).
            let answer = Participation.allCases.firstIndex(of: person.answer) ?? 0
            let role = ParticipantRole.allCases.firstIndex(of: person.role) ?? 0
            out.int(answer | role << 3 | (person.wantsReply ? 1 << 5 : 0))
        }
        out.string(details.location)
        out.string(details.description)
        out.bool(details.organizer != nil)
        if let organizer = details.organizer { participant(organizer) }
        out.int(details.attendees.count)
        for attendee in details.attendees { participant(attendee) }
    }

    /// What `write(_:to:)` wrote.
    static func readDetails(_ reader: inout CacheReader) throws(CacheDefect) -> EventDetails {
        func participant() throws(CacheDefect) -> Participant {
            let address = try reader.string()
            let name = try reader.optionalString()
            let word = try reader.int()
            let answers = Participation.allCases, roles = ParticipantRole.allCases
            guard word >= 0, word & 7 < answers.count, (word >> 3) & 3 < roles.count, word >> 6 == 0 else { throw CacheDefect() }
            return Participant(address: address, name: name, answer: answers[word & 7], role: roles[(word >> 3) & 3],
                               wantsReply: word & (1 << 5) != 0)
        }
        var details = EventDetails(location: try reader.string(), description: try reader.string())
        if try reader.bool() { details.organizer = try participant() }
        let count = try reader.count()
        if count > 0 {
            details.attendees.reserveCapacity(count)
            for _ in 0..<count { details.attendees.append(try participant()) }
        }
        return details
    }
}
