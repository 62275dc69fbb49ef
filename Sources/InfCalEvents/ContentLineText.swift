import InfCalModel

/// One unfolded content line taken apart as written (RFC 5545 §3.1): its name, each parameter
/// as it stands (`PARTSTAT=ACCEPTED`, `CN="Lima, Ana"`), and its value; put together again
/// with one parameter changed, every other character as it was.
struct ContentLineText: Equatable {
    var name: String
    /// Each parameter as written, without its leading `;`.
    var parameters: [String]
    var value: String

    /// The parts of `text`; nil when it is no content line.
    init?(_ text: String) {
        var name = ""
        var parameters: [String] = []
        var current: String?
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if !quoted, character == ";" || character == ":" {
                if let parameter = current { parameters.append(parameter) } else { name = String(text[..<index]) }
                if character == ":" {
                    guard !name.isEmpty else { return nil }
                    self.name = name
                    self.parameters = parameters
                    value = String(text[text.index(after: index)...])
                    return
                }
                current = ""
            } else if current != nil {
                current?.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The line written out again.
    var text: String {
        ([name] + parameters).joined(separator: ";") + ":" + value
    }

    /// The parameter's name (upper case) of a parameter as written.
    private static func parameterName(_ parameter: String) -> String {
        String(parameter.prefix { $0 != "=" }).trimmingSpaces.uppercased()
    }

    /// The value of parameter `wanted` (upper case), quotes removed.
    func parameter(_ wanted: String) -> String? {
        guard let found = parameters.first(where: { Self.parameterName($0) == wanted }),
              let equals = found.firstIndex(of: "=") else { return nil }
        let value = found[found.index(after: equals)...]
        return value.count >= 2 && value.first == "\"" && value.last == "\"" ? String(value.dropFirst().dropLast()) : String(value)
    }

    /// Parameter `wanted` (upper case) set to `value` (quoted when it holds `:`, `;` or `,`)
    /// in its place, or added after the others; removed when `value` is nil.
    mutating func set(_ wanted: String, to value: String?) {
        let written = value.map { value in
            wanted + "=" + (value.contains { $0 == ":" || $0 == ";" || $0 == "," } ? "\"" + value.filter { $0 != "\"" } + "\"" : value)
        }
        if let place = parameters.firstIndex(where: { Self.parameterName($0) == wanted }) {
            // In the place of the first; any other copy of it goes.
            var kept: [String] = []
            for (index, parameter) in parameters.enumerated() {
                if Self.parameterName(parameter) != wanted {
                    kept.append(parameter)
                } else if index == place, let written {
                    kept.append(written)
                }
            }
            parameters = kept
        } else if let written {
            parameters.append(written)
        }
    }
}

extension ICalLayout.Line {
    /// The line's unfolded text as a string.
    var string: String { String(decoding: text, as: UTF8.self) }
}
