#!/usr/bin/env python3
"""A feed server for infcal's end-to-end tests, on 127.0.0.1 and a free port.

Usage: feed_server.py DIRECTORY
Prints the port on its first line of output, then serves until stdin closes or the
parent test kills it (it also stops by itself after five minutes). Every request is
appended to DIRECTORY/requests.log as "METHOD PATH IF-NONE-MATCH AUTHORIZED".

  /feed.ics        DIRECTORY/feed.ics with ETag and Last-Modified; 304 when they match
  /status/CODE     that HTTP status, with a small HTML body
  /hang            accepts, reads the request, and says nothing (until the client goes)
  /slow            the feed, a few bytes at a time over about two seconds
  /loop/N          a redirect to /loop/N+1, for ever
  /redirect/N      N redirects, then the feed
  /short           a Content-Length larger than the body, then the connection closes
  /html            200 with an HTML login page
  /huge            Content-Length of 65 MiB (more than infcal takes), then zeros
  /auth.ics        the feed for Basic user:secret, else 401
  /bomb            a gzip bomb: Content-Encoding gzip, about 4 MB expanding to 4 GiB of
                   zeros after "BEGIN:VCALENDAR" (one deflate stream, a block repeated)
  /gigabyte        Content-Length of 1 GiB, then that many bytes of a calendar's text
  /endless         a body without Content-Length (the connection closing ends it) that
                   goes on for 1 GiB
  /cut             the feed with a Content-Length of half its size: a client reads half
  /switch.ics      whichever of the above DIRECTORY/mode names (default /feed.ics), so
                   that one URL first serves a good copy and then a fault

/cal/ is a CalDAV calendar collection without sync-tokens (PROPFIND of it and its members'
ETags, calendar-query and calendar-multiget REPORTs), its events the files of DIRECTORY/cal:
the event in FILE has the href /cal/FILE, or the text of FILE.href when there is one (any
bytes, percent-escaped as they go out), and an ETag from its contents. An event whose file
name ends in ".cut" goes out cut short (no END:VCALENDAR), as a lying server sends it.
"""
import base64
import hashlib
import http.server
import os
import re
import sys
import threading
import time
import urllib.parse
import zlib

import serving

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")
LOCK = threading.Lock()


def make_bomb():
    """A gzip stream of BEGIN:VCALENDAR and 4 GiB of zeros, made in a fraction of a second:
    after a full flush a deflate stream's blocks for the same input repeat byte for byte, so
    one 16 MiB block is compressed and repeated. Its trailer's checksum is not the data's (a
    client that stops at its limit never reads that far)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b"\0" * (16 << 20)
    head = compressor.compress(b"BEGIN:VCALENDAR\r\n" + chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    return head + block * 255 + compressor.flush()


BOMB = make_bomb()


def cal_events():
    """(href, file, body) of each event of DIRECTORY/cal, sorted by file."""
    folder = os.path.join(DIRECTORY, "cal")
    events = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".href"):
            continue
        with open(os.path.join(folder, name), "rb") as file:
            body = file.read()
        href = "/cal/" + name
        if os.path.exists(os.path.join(folder, name + ".href")):
            with open(os.path.join(folder, name + ".href"), "rb") as file:
                href = file.read().decode("utf-8", "surrogateescape")
        if name.endswith(".cut"):
            body = body[:body.rfind(b"END:VCALENDAR")]
        events.append((href, name, body))
    return events


def quoted_href(href):
    return urllib.parse.quote(href, safe="/", errors="surrogateescape").encode()


def etag_of(body):
    return '"%s"' % hashlib.sha1(body).hexdigest()[:16]


def multistatus(responses):
    return (b'<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" '
            b'xmlns:C="urn:ietf:params:xml:ns:caldav">' + b"".join(responses) + b"</D:multistatus>")


def escape_xml(data):
    return data.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def note(self):
        authorized = self.headers.get("Authorization") == "Basic " + base64.b64encode(b"user:secret").decode()
        with LOCK, open(LOG, "a") as log:
            log.write("%s %s %s %s\n" % (self.command, self.path, self.headers.get("If-None-Match", "-"),
                                         "auth" if authorized else "-"))
        return authorized

    def send_body(self, status, body, content_type="text/calendar", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def feed(self):
        path = os.path.join(DIRECTORY, "feed.ics")
        with open(path, "rb") as file:
            body = file.read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        modified = self.date_time_string(int(os.stat(path).st_mtime))
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_body(200, body, extra=[("ETag", etag), ("Last-Modified", modified)])

    def do_GET(self):
        authorized = self.note()
        path = self.path
        if path == "/switch.ics":
            try:
                with open(os.path.join(DIRECTORY, "mode")) as file:
                    path = file.read().strip() or "/feed.ics"
            except OSError:
                path = "/feed.ics"
        if path == "/feed.ics":
            self.feed()
        elif path.startswith("/status/"):
            self.send_body(int(path.split("/")[2]), b"<html><body>error</body></html>", "text/html")
        elif path == "/hang":
            # Holds the connection open without a byte until the client gives up (bounded).
            self.connection.settimeout(60)
            try:
                self.connection.recv(1)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/slow":
            body = self.feed_bytes()
            self.start_calendar(len(body))
            pieces = 20
            step = max(1, len(body) // pieces + 1)
            for start in range(0, len(body), step):
                self.wfile.write(body[start:start + step])
                self.wfile.flush()
                time.sleep(0.1)
        elif path.startswith("/loop/"):
            number = int(path.split("/")[2])
            self.send_redirect("/loop/%d" % (number + 1))
        elif path.startswith("/redirect/"):
            number = int(path.split("/")[2])
            self.send_redirect("/redirect/%d" % (number - 1) if number > 1 else "/feed.ics")
        elif path == "/short":
            self.start_calendar(100000)
            self.wfile.write(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
            self.wfile.flush()
            self.close_connection = True
        elif path == "/html":
            self.send_body(200, b"<!DOCTYPE html><html><body><form>Sign in</form></body></html>", "text/html")
        elif path == "/huge":
            self.start_calendar(65 << 20)
            try:
                self.wfile.write(b"BEGIN:VCALENDAR\r\n")
                chunk = b"\0" * (1 << 20)
                for _ in range(65):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/bomb":
            self.start_calendar(len(BOMB), [("Content-Encoding", "gzip")])
            try:
                self.wfile.write(BOMB)
            except OSError:
                pass
            self.close_connection = True
        elif path in ("/gigabyte", "/endless"):
            self.start_calendar(1 << 30 if path == "/gigabyte" else None)
            try:
                self.wfile.write(b"BEGIN:VCALENDAR\r\n")
                chunk = b"X-FILLER:" + b"x" * 65525 + b"\r\n"
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/cut":
            body = self.feed_bytes()
            self.start_calendar(len(body) // 2)
            try:
                self.wfile.write(body)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/auth.ics":
            if authorized:
                self.feed()
            else:
                self.send_body(401, b"<html>who are you?</html>", "text/html",
                               extra=[("WWW-Authenticate", 'Basic realm="feed"')])
        else:
            self.send_body(404, b"<html>not here</html>", "text/html")

    def feed_bytes(self):
        with open(os.path.join(DIRECTORY, "feed.ics"), "rb") as file:
            return file.read()

    def start_calendar(self, length, extra=()):
        """A 200 of text/calendar with Content-Length `length` (None: the connection's end ends the body)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        if length is None:
            self.send_header("Connection", "close")
        else:
            self.send_header("Content-Length", str(length))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def do_PROPFIND(self):
        self.note()
        self.read_body()
        if not self.path.startswith("/cal/"):
            self.send_body(404, b"<html>not here</html>", "text/html")
            return
        own = (b'<D:response><D:href>/cal/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/>'
               b'</D:resourcetype><D:displayname>Lies</D:displayname></D:prop><D:status>HTTP/1.1 200 OK</D:status>'
               b'</D:propstat></D:response>')
        responses = [own]
        if self.headers.get("Depth") == "1":
            for href, _, body in cal_events():
                responses.append(b"<D:response><D:href>" + quoted_href(href) + b"</D:href><D:propstat><D:prop><D:getetag>"
                                 + etag_of(body).encode() + b"</D:getetag><D:resourcetype/></D:prop>"
                                 b"<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>")
        self.send_body(207, multistatus(responses), "application/xml; charset=utf-8")

    def do_REPORT(self):
        self.note()
        request = self.read_body()
        if not self.path.startswith("/cal/") or b"sync-collection" in request:
            self.send_body(403, b"<html>no</html>", "text/html")
            return
        wanted = None
        if b"calendar-multiget" in request:
            wanted = {urllib.parse.unquote_to_bytes(h.decode()) for h in
                      re.findall(rb"<D:href>([^<]*)</D:href>", request)}
        responses = []
        for href, _, body in cal_events():
            if wanted is not None and href.encode("utf-8", "surrogateescape") not in wanted:
                continue
            responses.append(b"<D:response><D:href>" + quoted_href(href) + b"</D:href><D:propstat><D:prop><D:getetag>"
                             + etag_of(body).encode() + b"</D:getetag><C:calendar-data>" + escape_xml(body)
                             + b"</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>")
        self.send_body(207, multistatus(responses), "application/xml; charset=utf-8")

    def send_redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    serving.serve([serving.HTTPServer(("127.0.0.1", 0), Handler)])


if __name__ == "__main__":
    main()
