import Foundation
import Testing
@testable import InfCalRemote

/// The `etags` and `collection` files of a CalDAV collection's copy: no byte of an href (a space, a tab, a line
/// break, a `%`, NEL, the line separator) breaks a line or a field, and a file of the first
/// format (`FILE HREF ETAG` unescaped) is still read. The expected bytes are written out by
/// hand from the format the man page's FILES section and `CachedCollection` describe.
@Suite struct EtagsFileTests {
    static let hrefs = [
        "/cal/team lunch.ics", "/cal/tab\there.ics", "/cal/line\nbreak.ics", "/cal/cr\r\nlf.ics", "/cal/100% sure.ics",
        "/cal/%20 literal.ics", "/cal/nel\u{85}.ics", "/cal/sep\u{2028}par\u{2029}.ics", "/cal/Zahnärztin Öz.ics",
        "/cal/ends with space ", "/cal/  ", "/cal/\u{7F}\u{1B}[2J.ics",
    ]

    @Test func everyHrefComesBackAsItWasWritten() {
        var written = CachedCollection()
        for (place, href) in Self.hrefs.enumerated() {
            let file = RemoteCache.fileName(href.split(separator: "/").last.map(String.init) ?? "x") + "\(place).ics"
            written.items[file] = (href, place.isMultiple(of: 3) ? "" : "\"etag \(place)\"\n")
        }
        let read = CachedCollection(collection: nil, etags: written.etagsBytes)
        #expect(!read.isFirstFormat)
        #expect(read.items.count == written.items.count)
        for (file, item) in written.items {
            #expect(read.items[file]?.href == item.href, "\(file)")
            #expect(read.items[file]?.etag == item.etag, "\(file)")
        }
        // One line an event: every line break in the hrefs was escaped.
        let lines = String(decoding: written.etagsBytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 + Self.hrefs.count + 2)
    }

    @Test func theBytesOfTheFile() {
        var written = CachedCollection()
        written.items["team%20lunch.ics"] = ("/cal/team lunch\t%.ics", "\"1-2\"")
        #expect(String(decoding: written.etagsBytes, as: UTF8.self)
                == "etags\nformat 2\nteam%2520lunch.ics /cal/team%20lunch%09%25.ics \"1-2\"\n\n")
    }

    /// The first format, as earlier versions wrote it: the ETag is what follows the last space
    /// (an ETag holds none, RFC 7232 section 2.3), so an href with spaces reads whole.
    @Test func aFileOfTheFirstFormatIsRead() {
        let old = "etags\nteam%20lunch.ics /cal/team lunch.ics \"abc\"\nplain.ics /cal/plain.ics W/\"7\"\n\n"
        let read = CachedCollection(collection: nil, etags: Array(old.utf8))
        #expect(read.isFirstFormat)
        #expect(read.items["team%20lunch.ics"]?.href == "/cal/team lunch.ics")
        #expect(read.items["team%20lunch.ics"]?.etag == "\"abc\"")
        #expect(read.items["plain.ics"]?.href == "/cal/plain.ics")
        #expect(read.items["plain.ics"]?.etag == "W/\"7\"")
    }

    /// Malformed escapes, bytes that are not UTF-8 and an unknown format leave those lines
    /// out (the helper then fetches them again), and never trap.
    @Test func aBrokenLineIsLeftOut() {
        let text = "etags\nformat 2\na.ics /cal/a%2.ics \"1\"\nb.ics /cal/b%FF.ics \"2\"\nc.ics /cal/c%G0.ics \"3\"\n"
            + "d.ics /cal/d.ics\ne.ics /cal/e.ics \"5\" x\nf.ics /cal/f%25.ics \"6\"\n\n"
        let read = CachedCollection(collection: nil, etags: Array(text.utf8))
        #expect(read.items.count == 1)
        #expect(read.items["f.ics"]?.href == "/cal/f%.ics")
        let later = CachedCollection(collection: nil, etags: Array("etags\nformat 3\nf.ics /cal/f.ics \"6\"\n\n".utf8))
        #expect(later.items.isEmpty)
    }

    @Test func oneLineTextEscapesWhatEndsALineOrAField() {
        #expect(OneLineText.escaped("a b\tc\nd%e\u{85}f\u{2028}g") == "a%20b%09c%0Ad%25e%C2%85f%E2%80%A8g")
        #expect(OneLineText.escaped("Zahnärztin/ok-_.~") == "Zahnärztin/ok-_.~")
        #expect(OneLineText.unescaped("a%20b%09c%0Ad%25e%C2%85f%E2%80%A8g") == "a b\tc\nd%e\u{85}f\u{2028}g")
        #expect(OneLineText.unescaped("%e2%80%a8") == "\u{2028}")
        #expect(OneLineText.unescaped("%") == nil)
        #expect(OneLineText.unescaped("%C3") == nil)
    }

    // MARK: The collection file

    /// The `collection` file keeps its href whole too: every href of the table comes back,
    /// and the file has one line a field.
    @Test func theCollectionsHrefComesBackAsItWasWritten() {
        for href in Self.hrefs {
            let meta = CachedCollection.collectionMeta(href: href + "/", name: "Team", color: nil, syncToken: "http://s/1")
            let bytes = Array(meta.encoded().utf8)
            #expect(CachedCollection(collection: bytes, etags: nil).href == href + "/", "\(href)")
            #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count == 5 + 2, "\(href)")
        }
    }

    @Test func theBytesOfTheCollectionFile() {
        let meta = CachedCollection.collectionMeta(href: "/cal/team lunch\n100%/", name: "Team", color: "#FF0000", syncToken: "http://s/sync/1")
        #expect(meta.encoded() == "collection\nformat 3\nhref /cal/team%20lunch%0A100%25/\nname Team\ncolor #FF0000\nsync-token http://s/sync/1\n\n")
    }

    /// Display names and sync-tokens as a server may send them: line breaks (LF, CR, CRLF,
    /// NEL, U+2028), tabs, `%` (alone, before hex digits, as in a literal `%0A`), `=`, spaces
    /// at either end, non-ASCII, C0 and C1 controls, and text that would read as another field.
    static let names = [
        "team cal%", "Team\nsync-token forged", "line\r\nbreak", "cr\ronly", "tab\there", "100% = sure", "a=b=c", "%0A literal",
        "%", "%%41", " both ends ", "", "Zahnärztin Öz 日本 🗓", "\u{1}\u{1B}[2J\u{7F}", "nel\u{85}c1\u{9B}", "sep\u{2028}par\u{2029}",
        "\u{0}nul", "\n",
    ]

    /// Every field comes back as it was written, and the file keeps one line a field.
    @Test(arguments: names) func aCollectionsNameAndTokenComeBackAsTheyWereWritten(_ text: String) {
        let meta = CachedCollection.collectionMeta(href: "/cal/" + text + "/", name: text, color: text, syncToken: "http://s/sync/" + text)
        let bytes = Array(meta.encoded().utf8)
        let read = CachedCollection(collection: bytes, etags: nil)
        #expect(read.href == "/cal/" + text + "/")
        #expect(read.name == text)
        #expect(read.color == text)
        #expect(read.syncToken == "http://s/sync/" + text)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 + 2)
        #expect(lines.dropLast(2).allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } })
    }

    /// The bytes of a name and a token that need escapes, written out by hand: every byte of
    /// a control, a space or a `%` as `%XX` (UTF-8), the rest (`=`, non-ASCII) as it is.
    @Test func theBytesOfANameAndATokenWithEscapes() {
        let meta = CachedCollection.collectionMeta(href: "/c/", name: "team cal%\n=ö\t\u{85}", color: nil, syncToken: "tok\r\nx")
        #expect(meta.encoded() == "collection\nformat 3\nhref /c/\nname team%20cal%25%0A=ö%09%C2%85\nsync-token tok%0D%0Ax\n\n")
    }

    /// A file of format 2 (the href alone escaped) reads its other fields as they stand, `%`
    /// included; a malformed escape in a field of format 3 names none for that field only.
    @Test func aCollectionFileOfTheSecondFormatIsRead() {
        let second = CachedCollection(collection: Array("collection\nformat 2\nhref /cal/a%20b/\nname 100% sure\ncolor #00FF00\nsync-token http://s/1%2\n\n".utf8),
                                      etags: nil)
        #expect(second.href == "/cal/a b/")
        #expect(second.name == "100% sure")
        #expect(second.color == "#00FF00")
        #expect(second.syncToken == "http://s/1%2")
        let broken = CachedCollection(collection: Array("collection\nformat 3\nhref /cal/a/\nname bad%G0\nsync-token t%C3\n\n".utf8), etags: nil)
        #expect(broken.href == "/cal/a/")
        #expect(broken.name == nil)
        #expect(broken.syncToken == nil)
        #expect(CachedCollection(collection: Array("collection\nformat 4\nname a\n\n".utf8), etags: nil).name == nil)
    }

    /// A `collection` file of the first format (no `format` line) reads its href as it stands;
    /// a malformed escape or an unknown format names no href (the helper then downloads the
    /// collection again), and never traps.
    @Test func aCollectionFileOfTheFirstFormatIsRead() {
        let old = CachedCollection(collection: Array("collection\nhref /cal/team lunch 100%/\nname Team\n\n".utf8), etags: nil)
        #expect(old.href == "/cal/team lunch 100%/")
        #expect(old.meta["name"] == "Team")
        #expect(old.name == "Team")
        #expect(CachedCollection(collection: Array("collection\nformat 2\nhref /cal/a%G0/\n\n".utf8), etags: nil).href == nil)
        #expect(CachedCollection(collection: Array("collection\nformat 9\nhref /cal/a/\n\n".utf8), etags: nil).href == nil)
        #expect(CachedCollection(collection: Array("collection\nformat 2\nname x\n\n".utf8), etags: nil).href == nil)
    }
}
