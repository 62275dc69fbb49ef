import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender

/// The zone a run shows its times in (`--zone`, config `zone =`, and each of `zones =`): the
/// local one, as the C library reads TZ, or one named by its IANA name.
public enum ZoneChoice: Equatable, Sendable {
    /// TZ's zone (`--zone local`, and no `--zone`): what the C library makes of TZ, POSIX
    /// rules included (Foundation's `TimeZone.current` ignores them).
    case local
    /// A zone Foundation knows by this name, as the user spelled it (`Europe/Berlin`, `UTC`).
    case named(String)

    /// What `--zone` takes.
    static let expected = "an IANA zone name such as Europe/Berlin, America/New_York or UTC, or local"

    /// The names of the zones Foundation lists, for completions and suggestions.
    public static var knownNames: [String] { TimeZone.knownTimeZoneIdentifiers }

    /// The zone `value` names: `local`, or a name Foundation's zone data has (which takes more
    /// than it lists: `UTC`, `US/Eastern`, `Etc/GMT-14`); nil for anything else.
    static func parse(_ value: String) -> ZoneChoice? {
        if value == "local" { return .local }
        // Printable names only, of the lengths zone names have: nothing else reaches Foundation.
        guard !value.isEmpty, value.utf8.count <= 64,
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !value.hasPrefix("/"), !value.contains(".."),
              TimeZone(identifier: value) != nil else { return nil }
        return .named(value)
    }

    /// The known names nearest to `value` (at most three, nearest first): those whose last part
    /// is `value` in any case (`berlin`), else those within a few edits of it, the name or its
    /// last part, in any case (`Europe/Berln`, `Tokio`).
    static func nearest(to value: String) -> [String] {
        let typed = value.lowercased()
        let typedLast = typed.split(separator: "/").last.map(String.init) ?? typed
        let names = knownNames
        func last(_ name: String) -> String { name.split(separator: "/").last.map { $0.lowercased() } ?? name.lowercased() }
        let exact = names.filter { $0.lowercased() == typed || last($0) == typedLast }
        if !exact.isEmpty { return Array(exact.prefix(3)) }
        let limit = max(1, min(3, typedLast.count / 3))
        let scored = names.compactMap { name -> (String, Int)? in
            let distance = min(ArgumentParser.editDistance(name.lowercased(), typed), ArgumentParser.editDistance(last(name), typedLast))
            return distance <= limit ? (name, distance) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    /// What a message about the bad zone `value` expects: the nearest names, when some are near.
    static func expectation(for value: String) -> String {
        let near = nearest(to: value)
        return expected + (near.isEmpty ? "" : " (did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?)")
    }

    /// How the views name it: the name as spelled, or `local`.
    public var name: String {
        switch self {
        case .local: return "local"
        case .named(let name): return name
        }
    }

    /// The zone's offsets: `local` for `.local` (the terminal layer's, on the C library), a
    /// Foundation zone for a name.
    public func display(local: DisplayZone) -> DisplayZone {
        switch self {
        case .local: return local
        case .named(let name): return TimeZone(identifier: name).map(DisplayZone.init) ?? local
        }
    }

    /// How the views name it in `environment`: for `local`, TZ's IANA name where it has one
    /// (`Europe/Berlin`), else `local`; a named zone by its name.
    func label(in environment: RunEnvironment) -> String {
        guard self == .local else { return name }
        return environment.writingZoneName(localtimeLink: nil) ?? name
    }
}
