import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalRemote

/// Writes to CalDAV calendars: infcal changes the cached copy's bytes of an event as it
/// changes a file's, and the network helper sends the result (`put` or `delete`, guarded by
/// the ETag the copy holds) and brings the copy in step, so the next view shows the change
/// without asking the server. infcal itself holds no network code.
enum RemoteWrite {
    /// One CalDAV calendar (a collection) as its copy in the cache shows it.
    struct Collection {
        /// The configured calendar it belongs to (its URL, credentials and timeout).
        let source: CalendarSource
        /// The name its events show: `NAME`, or `NAME/CALENDAR` for a discovered one.
        let name: String
        /// Its directory in the cache: one `.ics` file an event.
        let directory: String
        /// Its path on the server, with one trailing slash.
        let href: String
        /// Its origin when on another host than the configured URL (a calendar home
        /// elsewhere in the domain); nil when on the configured one.
        var origin: String?
        /// Whether the server lets the user only read it (no write privilege).
        var isReadOnly = false
        /// Its name for a message: the server's display name may hold line breaks and controls.
        var shown: String { UsageError.echo(name) }

        /// The path on the server of the event whose file in the copy is `file`.
        func href(of file: String) -> String? {
            let state = state()
            if let known = state.items[file]?.href { return known }
            return file.hasSuffix(".ics") ? href + file : nil
        }

        /// The hrefs and ETags the copy holds.
        func state() -> CachedCollection {
            CachedCollection(collection: try? Platform.readFile(directory + "/" + CalendarFiles.collectionFile).get(),
                             etags: try? Platform.readFile(directory + "/" + CalendarFiles.etagsFile).get())
        }
    }

    typealias Failure = WriteRun.Failure

    /// The CalDAV calendars of the URL calendar `source`, as its copy holds them; its copy is
    /// fetched first when there is none yet (`fetchingFirst`).
    /// - throws: 77 for a subscription (a plain URL) or a `readonly = yes` calendar; 1 when
    ///   no copy can be had.
    static func collections(of source: CalendarSource, fetchingFirst: Bool) throws(Failure) -> [Collection] {
        guard case .url(let url) = source.location else { return [] }
        let name = RemoteCalendars.name(of: source)
        if source.readonly { throw Failure(status: ExitStatus.noPermission, message: "\(name) is readonly = yes; nothing was written") }
        guard let cache = RemoteCalendars.cache() else {
            throw Failure(status: ExitStatus.failure, message: "\(name): no cache directory (HOME and XDG_CACHE_HOME are unset); nothing was written")
        }
        var meta = RemoteCalendars.copy(of: name, url: url, calendar: source.collection, in: cache)
        if meta == nil, RemoteURL.looksLikeSubscription(url) {
            // Its copy was never fetched, and its URL says what it is: refused before any request.
            throw Failure(status: ExitStatus.noPermission,
                          message: "\(name) is a subscription (a plain URL), which infcal reads and does not write; nothing was written")
        }
        if meta == nil, fetchingFirst {
            let due = RemoteCalendars.Due(source: source, name: name, url: url, copy: nil)
            let report = RemoteCalendars.fetch([due], cache: cache, showProgress: Platform.isTerminal(2))
            if let line = report.lines.first { throw Failure(status: ExitStatus.failure, message: line + "; nothing was written") }
            meta = RemoteCalendars.copy(of: name, url: url, calendar: source.collection, in: cache)
        }
        guard let meta else {
            throw Failure(status: ExitStatus.failure, message: "\(name): no copy of the calendar yet (run infcal once, or --refresh); nothing was written")
        }
        guard meta.kind == "caldav" else {
            throw Failure(status: ExitStatus.noPermission,
                          message: "\(name) is a subscription (a plain URL), which infcal reads and does not write; nothing was written")
        }
        return RemoteCalendars.localCopies(of: source, cache: cache).compactMap { local -> Collection? in
            let stored = CachedCollection(collection: try? Platform.readFile((local.path ?? "") + "/" + CalendarFiles.collectionFile).get(), etags: nil)
            guard let directory = local.path, let href = stored.href else { return nil }
            return Collection(source: source, name: local.name ?? name, directory: directory, href: href.hasSuffix("/") ? href : href + "/",
                              origin: stored.origin, isReadOnly: stored.isReadOnly)
        }
    }

    /// Sends the event file `file` of `collection` as `bytes` (nil: removes the event), with
    /// `If-Match` and the copy's ETag for a known event, `If-None-Match: *` for a new one.
    /// - throws: 1 when the server's event changed meanwhile (the copy then shows the
    ///   server's version), when the server could not be reached or refused it (77 for 401
    ///   and 403); nothing is written then.
    static func send(_ bytes: [UInt8]?, file: String, uid: String, in collection: Collection, isNew: Bool) throws(Failure) {
        let url: String
        if case .url(let configured) = collection.source.location { url = configured } else { return }
        if collection.isReadOnly {
            throw Failure(status: ExitStatus.noPermission,
                          message: "\(collection.shown) is read-only on the server (no write privilege for the user); nothing was written")
        }
        guard let href = collection.href(of: file) else {
            throw Failure(status: ExitStatus.failure, message: "\(collection.shown): \(file) is not an event of the server; nothing was written")
        }
        let etag = collection.state().items[file]?.etag
        if !isNew, etag?.isEmpty ?? true {
            throw Failure(status: ExitStatus.failure,
                          message: "\(collection.shown): the copy holds no ETag for \(UsageError.echo(uid)) (--refresh, then try again); nothing was written")
        }
        let encoded = bytes.map { Data($0).base64EncodedString() }
        if let encoded, encoded.utf8.count + 8 > FetchMessageReader.longestLine {
            throw Failure(status: ExitStatus.failure, message: "\(collection.shown): the event is too large to send; nothing was written")
        }
        guard let path = RemoteCalendars.helper() else {
            throw Failure(status: ExitStatus.failure,
                          message: "the network helper \(RemoteCalendars.helperName) is not installed (beside infcal or on PATH); nothing was written")
        }
        var helper = HelperProcess(path: path)
        defer { helper.stop() }
        var retried = false
        var answer: FetchMessage
        while true {
            let credentials: RemoteCalendars.Credentials
            switch RemoteCalendars.credentials(for: collection.source, url: url) {
            case .success(let had): credentials = had
            case .failure(let problem):
                throw Failure(status: ExitStatus.failure, message: "\(collection.shown): \(problem.reason); nothing was written")
            }
            let remembered = RemoteCalendars.cache().flatMap { cache in
                RemoteCalendars.copy(of: RemoteCalendars.name(of: collection.source), url: url, calendar: collection.source.collection, in: cache)
            }?.auth?.rawValue
            // The name, the href and the ETag escaped: a line break in any would cut its field short
            // (and a name cut so would not match the answer's).
            let request = FetchMessage(bytes == nil ? "delete" : "put", [
                ("name", OneLineText.escaped(collection.name)), ("url", url), ("origin", collection.origin),
                ("href", OneLineText.escaped(href)), ("directory", collection.directory),
                ("file", file), ("body", encoded), ("etag", isNew ? nil : etag.map(OneLineText.escaped)),
                ("timeout", String(collection.source.timeout)),
            ] + credentials.fields(for: collection.source, remembered: remembered))
            guard case .answer(let answered) = helper.exchange(request, timeout: collection.source.timeout) else {
                throw Failure(status: ExitStatus.failure, message: "\(collection.shown): the network helper did not answer; nothing was written")
            }
            answer = answered
            if answer["result"] == "failed", answer.integer("status") == 401, credentials.token != nil, !retried {
                // The token may have expired: the command once more, and the write again (a 401 wrote nothing).
                retried = true
                continue
            }
            break
        }
        switch answer["result"] {
        case "written":
            return
        case "conflict":
            throw Failure(status: ExitStatus.failure,
                          message: isNew ? "\(collection.shown): an event named \(UsageError.echo(uid)) is on the server already; nothing was written"
                              : "\(collection.shown): the event \(UsageError.echo(uid)) changed on the server; nothing was written (the copy now shows the server's version)")
        default:
            let status = answer.integer("status")
            throw Failure(status: status == 401 || status == 403 ? ExitStatus.noPermission : ExitStatus.failure,
                          message: "\(collection.shown): write failed (\(answer["reason"] ?? "unknown reason")); nothing was written")
        }
    }
}
