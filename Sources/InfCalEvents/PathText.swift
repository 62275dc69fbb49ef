/// Paths as text, joined and split in one place: calendars, vdirs, the config file and the
/// caches all name files this way.
public enum PathText {
    /// `name` inside `directory`, with one slash between them however `directory` ends.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The directory part of `path`: "." for a bare name, "/" for a name at the root; trailing
    /// slashes are not a part.
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// `path` below `directory` ("" for `directory` itself), or nil when it is not below it.
    public static func relative(_ path: String, to directory: String) -> String? {
        if path == directory { return "" }
        let prefix = join(directory, "")
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }
}
