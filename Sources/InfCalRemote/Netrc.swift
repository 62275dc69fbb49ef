/// Reading `~/.netrc` (the format of ftp(1), curl and git): `machine HOST login USER password
/// SECRET`, `default`, `account`, and `macdef` bodies, which are skipped.
public enum Netrc {
    /// The login and password `text` gives for `host`: its `machine` entry, else the
    /// `default` entry; nil when neither names the host.
    public static func credentials(in text: String, host: String) -> (login: String?, password: String?)? {
        // Each entry: the machine it names (nil for `default`), its login and password.
        var entries: [(machine: String?, login: String?, password: String?)] = []
        let tokens = self.tokens(text)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let value = index + 1 < tokens.count ? tokens[index + 1] : nil
            switch token {
            case "machine":
                entries.append((value?.lowercased() ?? "", nil, nil))
                index += 1
            case "default":
                entries.append((nil, nil, nil))
            case "login", "password", "account", "port", "protocol":
                if let last = entries.indices.last, let value {
                    if token == "login", entries[last].login == nil { entries[last].login = value }
                    if token == "password", entries[last].password == nil { entries[last].password = value }
                }
                index += 1
            default:
                break
            }
            index += 1
        }
        let wanted = host.lowercased()
        guard let entry = entries.first(where: { $0.machine == wanted }) ?? entries.first(where: { $0.machine == nil }) else {
            return nil
        }
        return (entry.login, entry.password)
    }

    /// The words of `text`: blanks separate them, `"..."` quotes one (with `\"` inside), and a
    /// `macdef` body (up to an empty line) is left out.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            var word = ""
            var quoted = false
            var escaped = false
            var hasWord = false
            for character in line {
                if quoted {
                    if escaped { word.append(character); escaped = false }
                    else if character == "\\" { escaped = true }
                    else if character == "\"" { quoted = false }
                    else { word.append(character) }
                } else if character == "\"" {
                    quoted = true
                    hasWord = true
                } else if character == " " || character == "\t" || character == "\r" {
                    if hasWord { tokens.append(word) }
                    (word, hasWord) = ("", false)
                } else {
                    word.append(character)
                    hasWord = true
                }
            }
            if hasWord { tokens.append(word) }
            if tokens.last == "macdef" || (tokens.count >= 2 && tokens[tokens.count - 2] == "macdef") {
                // The macro's body runs to the next empty line.
                while let body = lines.popFirst(), !body.trimmingBlanks.isEmpty {}
            }
        }
        return tokens
    }
}

extension Substring {
    var trimmingBlanks: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}
