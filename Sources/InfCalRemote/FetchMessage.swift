/// One message of the line protocol infcal and `infcal-fetch` speak over the helper's
/// standard input and output, as git speaks to its remote helpers: a verb on a line of its
/// own, then `key value` lines, then an empty line.
///
/// infcal sends `fetch` (one calendar to bring up to date); the helper answers with any
/// number of `progress` messages and one `done` for it. A value never holds a line break:
/// `encoded()` turns those into spaces, so no value can forge a field.
public struct FetchMessage: Equatable, Sendable {
    public var verb: String
    /// The fields in the order they were added; a key may appear once.
    public private(set) var fields: [(key: String, value: String)]

    public init(_ verb: String, _ fields: [(String, String?)] = []) {
        self.verb = verb
        self.fields = []
        for (key, value) in fields { if let value { self[key] = value } }
    }

    /// The value of `key`, or nil when the message has none. Setting nil removes it.
    public subscript(key: String) -> String? {
        get { fields.first { $0.key == key }?.value }
        set {
            fields.removeAll { $0.key == key }
            if let newValue { fields.append((key, newValue)) }
        }
    }

    /// The value of `key` as a whole number, or nil when it has none or it is not one.
    public func integer(_ key: String) -> Int? {
        self[key].flatMap { Int($0) }
    }

    /// The message as it goes over the pipe, ending with its empty line.
    public func encoded() -> String {
        var text = Self.clean(verb) + "\n"
        for field in fields { text += Self.clean(field.key) + " " + Self.clean(field.value) + "\n" }
        return text + "\n"
    }

    public static func == (left: FetchMessage, right: FetchMessage) -> Bool {
        left.verb == right.verb && left.fields.elementsEqual(right.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    private static func clean(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// Cuts a stream of bytes into `FetchMessage`s as they arrive.
public struct FetchMessageReader: Sendable {
    private var pending: [UInt8] = []
    private var current: FetchMessage?

    /// The longest line kept: a peer that sends more without a line break is cut off there
    /// rather than filling the memory.
    public static let longestLine = 1 << 20

    public init() {}

    /// The messages `bytes` complete, in order.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [FetchMessage] where Bytes.Element == UInt8 {
        var messages: [FetchMessage] = []
        for byte in bytes {
            guard byte == 10 else {
                if pending.count < Self.longestLine { pending.append(byte) }
                continue
            }
            let line = String(decoding: pending, as: UTF8.self)
            pending.removeAll(keepingCapacity: true)
            if line.isEmpty {
                if let message = current { messages.append(message) }
                current = nil
            } else if current == nil {
                current = FetchMessage(line)
            } else if let space = line.firstIndex(of: " ") {
                current?[String(line[..<space])] = String(line[line.index(after: space)...])
            } else {
                current?[line] = ""
            }
        }
        return messages
    }
}
