import InfCalModel

// The scheduling properties of an event (RFC 5545 §3.8.4.1 ATTENDEE, §3.8.4.3 ORGANIZER,
// §3.8.1.11 STATUS) and the iTIP method of a calendar object (RFC 5546 §1.4, §3.2): what the
// reader keeps of them, and what the import and the invitations decide by.

/// PARTSTAT of an attendee of an event (RFC 5545 §3.2.12).
public enum Participation: String, Sendable, Equatable, Hashable, CaseIterable {
    case needsAction = "NEEDS-ACTION"
    case accepted = "ACCEPTED"
    case declined = "DECLINED"
    case tentative = "TENTATIVE"
    case delegated = "DELEGATED"

    /// The value of a PARTSTAT parameter (any case); a value an event cannot have, or one not
    /// known, is NEEDS-ACTION, as §3.2.12 tells applications to treat it. Nil (no parameter)
    /// is NEEDS-ACTION too, its default.
    public init(parameter text: String?) {
        self = text.flatMap { Participation(rawValue: $0.trimmingSpaces.uppercased()) } ?? .needsAction
    }
}

/// ROLE of an attendee (RFC 5545 §3.2.16); an unknown value is REQ-PARTICIPANT, its default.
public enum ParticipantRole: String, Sendable, Equatable, Hashable, CaseIterable {
    case chair = "CHAIR"
    case required = "REQ-PARTICIPANT"
    case optional = "OPT-PARTICIPANT"
    case nonParticipant = "NON-PARTICIPANT"

    /// The value of a ROLE parameter (any case); nil or unknown is REQ-PARTICIPANT.
    public init(parameter text: String?) {
        self = text.flatMap { ParticipantRole(rawValue: $0.trimmingSpaces.uppercased()) } ?? .required
    }
}

/// STATUS of an event (RFC 5545 §3.8.1.11).
public enum EventStatus: String, Sendable, Equatable, Hashable, CaseIterable {
    case tentative = "TENTATIVE"
    case confirmed = "CONFIRMED"
    case cancelled = "CANCELLED"

    /// The STATUS value (any case); nil when it is none of an event's three.
    public init?(value text: String) {
        self.init(rawValue: text.trimmingSpaces.uppercased())
    }
}

/// The organizer or an attendee of an event, as its ORGANIZER or ATTENDEE line names them.
public struct Participant: Sendable, Equatable, Hashable {
    /// The calendar user address as written, without a leading `mailto:`.
    public var address: String
    /// The common name (CN), if given.
    public var name: String?
    /// PARTSTAT (an organizer's line rarely has one: NEEDS-ACTION then).
    public var answer: Participation
    /// ROLE.
    public var role: ParticipantRole
    /// RSVP=TRUE: the organizer asks for an answer.
    public var wantsReply: Bool

    /// A participant with `address` (without `mailto:`) and the rest as given.
    public init(address: String, name: String? = nil, answer: Participation = .needsAction, role: ParticipantRole = .required,
                wantsReply: Bool = false) {
        self.address = address
        self.name = name
        self.answer = answer
        self.role = role
        self.wantsReply = wantsReply
    }

    /// The participant an ORGANIZER or ATTENDEE line names: `value` (the address, escapes not
    /// read: CAL-ADDRESS is a URI) and `parameter` giving each parameter's value (quotes
    /// removed). Nil when the value holds no address.
    public init?(value: String, parameter: (String) -> String?) {
        let address = CalendarAddress.shown(value)
        guard !address.isEmpty else { return nil }
        self.init(address: address, name: parameter("CN").map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 },
                  answer: Participation(parameter: parameter("PARTSTAT")), role: ParticipantRole(parameter: parameter("ROLE")),
                  wantsReply: parameter("RSVP")?.trimmingSpaces.uppercased() == "TRUE")
    }

    /// The address as `CalendarAddress.key` compares it.
    public var key: String { CalendarAddress.key(address) }
}

/// Calendar user addresses (RFC 5545 §3.3.3, a URI: `mailto:ana@example.org`) as infcal shows
/// and compares them.
public enum CalendarAddress {
    /// `value` without spaces at either end and without a leading `mailto:` (any case).
    public static func shown(_ value: String) -> String {
        let trimmed = value.trimmingSpaces
        if trimmed.utf8.count >= 7, trimmed.prefix(7).lowercased() == "mailto:" { return String(trimmed.dropFirst(7)).trimmingSpaces }
        return trimmed
    }

    /// The form two addresses are compared in: as `shown`, lower-cased (mail clients and
    /// servers compare them so, though RFC 5321 leaves the local part's case to the host).
    public static func key(_ value: String) -> String {
        shown(value).lowercased()
    }

    /// The keys of a list of the user's addresses (`addresses = ana@example.org, ...`).
    public static func keys(_ addresses: [String]) -> Set<String> {
        Set(addresses.map(key).filter { !$0.isEmpty })
    }
}

/// The METHOD of an iCalendar object (RFC 5546 §1.4): what its sender asks of its receiver.
public enum ITIPMethod: Sendable, Equatable, Hashable {
    /// §3.2.1: an event published, no answer asked (also a calendar without METHOD, as an
    /// export is).
    case publish
    /// §3.2.2: an invitation, or an update of one.
    case request
    /// §3.2.3: an attendee's answer.
    case reply
    /// §3.2.4: instances added to a series.
    case add
    /// §3.2.5: an event or some of its instances cancelled.
    case cancel
    /// §3.2.6: an attendee asks for the latest version.
    case refresh
    /// §3.2.7: an attendee proposes a change.
    case counter
    /// §3.2.8: the organizer turns a proposed change down.
    case declineCounter
    /// Any other value, upper-cased.
    case other(String)

    /// The method of a METHOD value (any case).
    public init(value text: String) {
        switch text.trimmingSpaces.uppercased() {
        case "PUBLISH": self = .publish
        case "REQUEST": self = .request
        case "REPLY": self = .reply
        case "ADD": self = .add
        case "CANCEL": self = .cancel
        case "REFRESH": self = .refresh
        case "COUNTER": self = .counter
        case "DECLINECOUNTER": self = .declineCounter
        case let other: self = .other(other)
        }
    }

    /// The METHOD value.
    public var value: String {
        switch self {
        case .publish: return "PUBLISH"
        case .request: return "REQUEST"
        case .reply: return "REPLY"
        case .add: return "ADD"
        case .cancel: return "CANCEL"
        case .refresh: return "REFRESH"
        case .counter: return "COUNTER"
        case .declineCounter: return "DECLINECOUNTER"
        case .other(let text): return text
        }
    }
}
