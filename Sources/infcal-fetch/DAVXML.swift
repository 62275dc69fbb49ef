import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of an XML document, as XMLParser reports it with namespaces processed.
final class XMLElementNode {
    let namespace: String
    let name: String
    /// Its attributes by local name (`name` of `<C:comp name="VTODO"/>`).
    var attributes: [String: String] = [:]
    var text = ""
    var children: [XMLElementNode] = []

    init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// The first child called `name` in `namespace`.
    func child(_ namespace: String, _ name: String) -> XMLElementNode? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    /// Every child called `name` in `namespace`.
    func all(_ namespace: String, _ name: String) -> [XMLElementNode] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The text of the element, blanks at both ends removed.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Parses `data` into its root element; nil when it is not well-formed XML.
    static func parse(_ data: Data) -> XMLElementNode? {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        // A server's document names no external entities that infcal would want to load.
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }
}

/// Builds the tree of `XMLElementNode`s as XMLParser walks the document.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLElementNode?
    private var stack: [XMLElementNode] = []
    /// Deeper than any DAV answer goes: a document nested further is refused, not followed.
    private static let deepest = 64

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard stack.count < Self.deepest else {
            parser.abortParsing()
            return
        }
        let node = XMLElementNode(namespace: namespaceURI ?? "", name: elementName)
        for (key, value) in attributeDict {
            // With namespaces processed, a prefixed attribute keeps its prefix: the local name counts.
            node.attributes[key.split(separator: ":").last.map(String.init) ?? key] = value
        }
        if let parent = stack.last { parent.children.append(node) } else { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
    }
}

/// The namespaces of WebDAV (RFC 4918), CalDAV (RFC 4791) and Apple's calendar colour.
enum DAVNamespace {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let apple = "http://apple.com/ns/ical/"
    static let calendarServer = "http://calendarserver.org/ns/"
}

/// One `response` of a WebDAV multistatus answer.
struct DAVResponse {
    /// The resource's href as the server wrote it.
    let href: String
    /// The status of the response itself (sync-collection marks removed members with 404).
    let status: Int?
    /// The properties the server found (status 2xx), by namespace and name.
    let properties: [XMLElementNode]

    func property(_ namespace: String, _ name: String) -> XMLElementNode? {
        properties.first { $0.namespace == namespace && $0.name == name }
    }

    /// The text of a property, trimmed; nil when absent or empty.
    func text(_ namespace: String, _ name: String) -> String? {
        property(namespace, name).map(\.trimmedText).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The href inside a property such as `current-user-principal`.
    func hrefIn(_ namespace: String, _ name: String) -> String? {
        property(namespace, name)?.child(DAVNamespace.dav, "href")?.trimmedText
    }

    /// Whether the resource's `resourcetype` holds a CalDAV `calendar`.
    var isCalendar: Bool {
        property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.caldav, "calendar") != nil
    }

    /// Whether the calendar takes events: its `supported-calendar-component-set` names
    /// `VEVENT` (no set, or an empty one, counts as yes, as RFC 4791 section 5.2.3 says any
    /// component may then be stored). A task list (`VTODO` alone) does not.
    var holdsEvents: Bool {
        guard let set = property(DAVNamespace.caldav, "supported-calendar-component-set") else { return true }
        let components = set.all(DAVNamespace.caldav, "comp")
        return components.isEmpty || components.contains { node in
            (node.attributes["name"] ?? node.trimmedText).uppercased() == "VEVENT"
        }
    }

    /// Whether the user may only read the resource: its `current-user-privilege-set` (RFC
    /// 3744 section 5.4) is given and holds none of `all`, `write`, `write-content` and
    /// `bind` (Nextcloud's "Contact birthdays" has `read` and `write-properties`).
    var isReadOnly: Bool {
        guard let set = property(DAVNamespace.dav, "current-user-privilege-set") else { return false }
        let granted = set.all(DAVNamespace.dav, "privilege").flatMap(\.children).filter { $0.namespace == DAVNamespace.dav }.map(\.name)
        return !granted.contains { ["all", "write", "write-content", "bind"].contains($0) }
    }
}

/// A parsed multistatus answer.
struct Multistatus {
    let responses: [DAVResponse]
    /// The `sync-token` a sync-collection REPORT returns.
    let syncToken: String?

    /// The answer in `data`; nil when it is not a DAV multistatus document.
    init?(_ data: Data) {
        guard let root = XMLElementNode.parse(data), root.namespace == DAVNamespace.dav, root.name == "multistatus" else { return nil }
        responses = root.all(DAVNamespace.dav, "response").compactMap { response in
            guard let href = response.child(DAVNamespace.dav, "href")?.trimmedText, !href.isEmpty else { return nil }
            var found: [XMLElementNode] = []
            for propstat in response.all(DAVNamespace.dav, "propstat") {
                let status = propstat.child(DAVNamespace.dav, "status").flatMap { Self.code(of: $0.trimmedText) }
                guard (200..<300).contains(status ?? 200) else { continue }
                found += propstat.child(DAVNamespace.dav, "prop")?.children ?? []
            }
            let status = response.child(DAVNamespace.dav, "status").flatMap { Self.code(of: $0.trimmedText) }
            return DAVResponse(href: href, status: status, properties: found)
        }
        syncToken = root.child(DAVNamespace.dav, "sync-token")?.trimmedText
    }

    /// The code of a status line such as `HTTP/1.1 404 Not Found`.
    static func code(of line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
