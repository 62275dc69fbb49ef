/// The HTTP authentication schemes infcal speaks: Basic (RFC 7617), Digest (RFC 7616) and
/// Bearer (RFC 6750). The config file's `auth =` forces one; without it the server's
/// challenge chooses.
public enum AuthScheme: String, Sendable, CaseIterable {
    case basic, digest, bearer
}

/// One challenge of a `WWW-Authenticate` field (RFC 9110 section 11.6.1): a scheme and its
/// parameters (names lowercased, quoted values unquoted), or a token68.
public struct AuthChallenge: Equatable, Sendable {
    /// The scheme, lowercased: `basic`, `digest`, `bearer`, or another.
    public let scheme: String
    /// Its parameters by lowercased name.
    public let parameters: [String: String]

    public init(scheme: String, parameters: [String: String] = [:]) {
        self.scheme = scheme.lowercased()
        self.parameters = parameters
    }

    /// The challenges of one or more `WWW-Authenticate` field values (several fields joined
    /// with commas read the same): `scheme`, `scheme token68` or `scheme name=value, ...`.
    /// Malformed parts are skipped, never trusted: the result may be empty.
    public static func parse(_ field: String) -> [AuthChallenge] {
        var challenges: [AuthChallenge] = []
        var scheme: String?
        var parameters: [String: String] = [:]
        func finish() {
            if let scheme { challenges.append(AuthChallenge(scheme: scheme, parameters: parameters)) }
            (scheme, parameters) = (nil, [:])
        }
        func add(_ parameter: (name: String, value: String)) {
            // A parameter given twice makes a challenge invalid (RFC 7616 section 3.3): the first stays.
            if scheme != nil, parameters[parameter.name] == nil { parameters[parameter.name] = parameter.value }
        }
        for element in elements(Array(field.utf8)) {
            var reader = ElementReader(element)
            let name = reader.token()
            guard !name.isEmpty else { continue }
            if let value = reader.parameterValue() {
                add((name.lowercased(), value))
                continue
            }
            // A scheme, then nothing, a token68, or its first parameter.
            finish()
            scheme = name
            reader.skipBlanks()
            let next = reader.token()
            if !next.isEmpty, let value = reader.parameterValue() { add((next.lowercased(), value)) }
        }
        finish()
        return challenges
    }

    /// The comma-separated elements of a field value, commas in quoted strings kept.
    private static func elements(_ bytes: [UInt8]) -> [[UInt8]] {
        var elements: [[UInt8]] = []
        var current: [UInt8] = []
        var quoted = false
        var escaped = false
        for byte in bytes {
            if quoted {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { quoted = false }
                current.append(byte)
            } else if byte == 0x2C {
                elements.append(current)
                current = []
            } else {
                if byte == 0x22 { quoted = true }
                current.append(byte)
            }
        }
        elements.append(current)
        return elements
    }
}

/// Reads one comma-separated element of a `WWW-Authenticate` value.
private struct ElementReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        skipBlanks()
    }

    mutating func skipBlanks() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    /// The token at the position (empty when there is none); blanks before it are skipped.
    mutating func token() -> String {
        skipBlanks()
        let start = position
        while position < bytes.count, Self.isTokenByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// After a name: `= token` or `= "quoted"`, the value; nil (the position kept) when no
    /// `=` follows or only the `=` padding of a token68 does.
    mutating func parameterValue() -> String? {
        let start = position
        skipBlanks()
        guard position < bytes.count, bytes[position] == 0x3D else {
            position = start
            return nil
        }
        position += 1
        skipBlanks()
        if position < bytes.count, bytes[position] == 0x22 {
            position += 1
            var value: [UInt8] = []
            while position < bytes.count, bytes[position] != 0x22 {
                if bytes[position] == 0x5C, position + 1 < bytes.count { position += 1 }
                value.append(bytes[position])
                position += 1
            }
            return String(decoding: value, as: UTF8.self)
        }
        let value = token()
        if value.isEmpty, position == bytes.count || bytes[position] == 0x3D {
            // `abc==`: a token68's padding, not a parameter.
            position = start
            return nil
        }
        return value
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return tokenPunctuation.contains(byte)
        }
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~/".utf8)
}

/// A Digest challenge (RFC 7616 section 3.3) and the `Authorization` values answering it,
/// one per request, the nonce count rising with each, as RFC 7616 section 3.4 lets a client
/// reuse a nonce until the server says it is stale.
public struct DigestChallenge: Equatable, Sendable {
    /// The hash algorithms infcal answers, by their names in the challenge.
    public enum Algorithm: String, Sendable, CaseIterable {
        case md5 = "MD5"
        case md5Session = "MD5-sess"
        case sha256 = "SHA-256"
        case sha256Session = "SHA-256-sess"

        /// The hash of `text`'s UTF-8 bytes in lowercase hex.
        func hash(_ text: String) -> String {
            switch self {
            case .md5, .md5Session: return Hashes.hex(Hashes.md5(text.utf8))
            case .sha256, .sha256Session: return Hashes.hex(Hashes.sha256(text.utf8))
            }
        }

        var isSession: Bool { self == .md5Session || self == .sha256Session }

        /// Preference when a server offers several: the stronger hash first.
        var rank: Int {
            switch self {
            case .sha256: return 0
            case .sha256Session: return 1
            case .md5: return 2
            case .md5Session: return 3
            }
        }
    }

    public let realm: String
    public let nonce: String
    public let opaque: String?
    public let algorithm: Algorithm
    /// Whether the server takes `qop=auth` (else the RFC 2069 form without nonce count).
    public let qopAuth: Bool
    /// `stale=true`: the last request's nonce had expired, the password was right.
    public let stale: Bool
    /// `userhash=true`: the user name goes hashed (RFC 7616 section 3.4.4).
    public let userhash: Bool

    /// The Digest challenge `challenge` is, if infcal can answer it: a realm and a nonce, an
    /// algorithm it knows, and `auth` among the qop values (or no qop at all); nil otherwise.
    public init?(_ challenge: AuthChallenge) {
        guard challenge.scheme == "digest", let realm = challenge.parameters["realm"],
              let nonce = challenge.parameters["nonce"], !nonce.isEmpty else { return nil }
        let named = challenge.parameters["algorithm"] ?? "MD5"
        guard let algorithm = Algorithm.allCases.first(where: { $0.rawValue.lowercased() == named.lowercased() }) else { return nil }
        if let qop = challenge.parameters["qop"] {
            let offered = qop.split(separator: ",").map { $0.trimmingBlanks.lowercased() }
            guard offered.contains("auth") else { return nil }
            qopAuth = true
        } else {
            qopAuth = false
        }
        self.realm = realm
        self.nonce = nonce
        self.algorithm = algorithm
        opaque = challenge.parameters["opaque"]
        stale = challenge.parameters["stale"]?.lowercased() == "true"
        userhash = challenge.parameters["userhash"]?.lowercased() == "true"
    }

    /// The Digest challenge of `challenges` infcal answers: the strongest algorithm offered.
    public static func best(of challenges: [AuthChallenge]) -> DigestChallenge? {
        challenges.compactMap(DigestChallenge.init).min { $0.algorithm.rank < $1.algorithm.rank }
    }

    /// The `Authorization` value for a request of `method` to `uri` (its request target: the
    /// path and query as sent), the `count`th with this nonce, with the client nonce `cnonce`.
    public func authorization(user: String, password: String, method: String, uri: String, count: Int, cnonce: String) -> String {
        var first = algorithm.hash(user + ":" + realm + ":" + password)
        if algorithm.isSession { first = algorithm.hash(first + ":" + nonce + ":" + cnonce) }
        let second = algorithm.hash(method + ":" + uri)
        let nc = String(repeating: "0", count: max(0, 8 - String(count, radix: 16).count)) + String(count, radix: 16)
        let response = qopAuth ? algorithm.hash([first, nonce, nc, cnonce, "auth", second].joined(separator: ":"))
            : algorithm.hash(first + ":" + nonce + ":" + second)
        let name = userhash ? algorithm.hash(user + ":" + realm) : user
        var parts = ["username=" + Self.quoted(name), "realm=" + Self.quoted(realm), "uri=" + Self.quoted(uri),
                     "algorithm=" + algorithm.rawValue, "nonce=" + Self.quoted(nonce)]
        if qopAuth { parts += ["nc=" + nc, "cnonce=" + Self.quoted(cnonce), "qop=auth"] }
        parts.append("response=" + Self.quoted(response))
        if let opaque { parts.append("opaque=" + Self.quoted(opaque)) }
        if userhash { parts.append("userhash=true") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// `text` as a quoted string: `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            // A line break would end the header field: none goes out.
            result.append(character.isNewline ? " " : character)
        }
        return result + "\""
    }
}
