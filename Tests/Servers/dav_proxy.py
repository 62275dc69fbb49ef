#!/usr/bin/env python3
"""A reverse proxy in front of a CalDAV server, for infcal's end-to-end tests: it asks for
the authentication the test chooses and answers with the quirks of servers people run.

Usage: dav_proxy.py DIRECTORY
Forwards every request to the server DIRECTORY/upstream names (http://127.0.0.1:PORT).
Listens on two ports of 127.0.0.1 (A and B) and prints "A B" on its first line of output,
then serves until stdin closes (or after five minutes). What it does is read from files of
DIRECTORY at each request, so that a test can change it between runs:

  auth      one line: "none" (the default), "basic USER PASSWORD", "bearer TOKEN", or
            "digest USER PASSWORD STALE_AFTER": Digest (RFC 7616) offering SHA-256 and MD5
            in two WWW-Authenticate fields, qop=auth; a nonce answers STALE_AFTER requests,
            then the next one gets 401 with a new nonce and stale=true. The nonce count must
            rise with each request of a nonce (else 401). Checked with Python's hashlib,
            independently of infcal's own hashes.
  home      a URL (as http://p42-caldav.test.localhost:B): the calendar-home-set of every
            answer on port A points there instead of the upstream's own path, as iCloud
            answers p42-caldav.icloud.com to caldav.icloud.com.
  hrefs     "raw": every href of a 207 answer with its escapes decoded (a space as it is);
            "escaped": every byte but letters, digits and "/.-_" escaped (an @ as %40), as
            mailbox.org and Open-Xchange spell them.

Every request is appended to DIRECTORY/requests.log: "PORT METHOD PATH STATUS AUTH", AUTH
being "-", "basic", "bearer TOKEN" or "digest ALGORITHM NONCE-NUMBER NC".
"""
import base64
import hashlib
import http.client
import http.server
import os
import re
import sys
import threading
import urllib.parse

import serving

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")
LOCK = threading.Lock()
NONCES = {}  # nonce -> [number, uses, last nc]
REALM = "infcal-tests"


def setting(name, default=""):
    try:
        with open(os.path.join(DIRECTORY, name)) as file:
            return file.read().strip() or default
    except OSError:
        return default


def new_nonce():
    with LOCK:
        number = len(NONCES) + 1
        nonce = base64.b64encode(os.urandom(12)).decode()
        NONCES[nonce] = [number, 0, 0]
        return nonce


def digest_challenges(stale=False):
    nonce = new_nonce()
    extra = ", stale=true" if stale else ""
    return [("WWW-Authenticate", 'Digest realm="%s", qop="auth", algorithm=%s, nonce="%s", opaque="o"%s'
             % (REALM, algorithm, nonce, extra)) for algorithm in ("MD5", "SHA-256")]


def parse_digest(value):
    fields = {}
    for match in re.finditer(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))', value):
        fields[match.group(1).lower()] = match.group(2) if match.group(2) is not None else match.group(3)
    return fields


def check_digest(header, method, user, password, stale_after):
    """(ok, stale, note): whether the Authorization value answers a nonce of ours."""
    fields = parse_digest(header[len("Digest "):])
    algorithm = fields.get("algorithm", "MD5")
    hash_name = {"MD5": "md5", "SHA-256": "sha256"}.get(algorithm)
    nonce = fields.get("nonce", "")
    note = "digest %s ? %s" % (algorithm, fields.get("nc", "-"))
    if hash_name is None or nonce not in NONCES or fields.get("qop") != "auth":
        return False, False, note
    number, uses, last = NONCES[nonce]
    note = "digest %s %d %s" % (algorithm, number, fields.get("nc", "-"))

    def h(text):
        return hashlib.new(hash_name, text.encode()).hexdigest()

    ha1 = h("%s:%s:%s" % (user, REALM, password))
    ha2 = h("%s:%s" % (method, fields.get("uri", "")))
    expected = h(":".join([ha1, nonce, fields.get("nc", ""), fields.get("cnonce", ""), "auth", ha2]))
    if fields.get("username") != user or fields.get("response") != expected:
        return False, False, note
    nc = int(fields.get("nc", "0"), 16)
    with LOCK:
        if nc <= last:
            return False, False, note + " (nc did not rise)"
        if uses >= stale_after:
            return False, True, note
        NONCES[nonce] = [number, uses + 1, nc]
    return True, False, note


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def note(self, status, auth):
        with LOCK, open(LOG, "a") as log:
            log.write("%d %s %s %s %s\n" % (self.server.server_address[1], self.command, urllib.parse.unquote(self.path),
                                            status, auth))

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def authorized(self):
        """None when the request may go on, else the (status, headers) of the refusal; and the log note."""
        mode = setting("auth", "none").split()
        header = self.headers.get("Authorization", "")
        if mode[0] == "none":
            return None, "-" if not header else header.split()[0].lower()
        if mode[0] == "basic":
            good = "Basic " + base64.b64encode(("%s:%s" % (mode[1], mode[2])).encode()).decode()
            note = "basic" if header.startswith("Basic ") else ("-" if not header else header.split()[0].lower())
            return (None if header == good else (401, [("WWW-Authenticate", 'Basic realm="%s"' % REALM)])), note
        if mode[0] == "bearer":
            note = "bearer " + header[len("Bearer "):] if header.startswith("Bearer ") else ("-" if not header else header.split()[0].lower())
            refusal = (401, [("WWW-Authenticate", 'Bearer realm="%s", error="invalid_token"' % REALM)])
            return (None if header == "Bearer " + mode[1] else refusal), note
        if mode[0] == "digest":
            if not header.startswith("Digest "):
                return (401, digest_challenges()), "-" if not header else header.split()[0].lower()
            ok, stale, note = check_digest(header, self.command, mode[1], mode[2], int(mode[3]))
            return (None if ok else (401, digest_challenges(stale=stale))), note
        return (500, []), "?"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        refusal, note = self.authorized()
        if refusal is not None:
            status, headers = refusal
            self.note(status, note)
            self.answer(status, b"<html>who are you?</html>", headers + [("Content-Type", "text/html")])
            return
        upstream = urllib.parse.urlsplit(setting("upstream"))
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
        headers = {name: value for name, value in self.headers.items()
                   if name.lower() not in ("authorization", "host", "connection", "accept-encoding", "content-length")}
        headers["Content-Length"] = str(len(body))
        connection.request(self.command, self.path, body=body, headers=headers)
        reply = connection.getresponse()
        data = reply.read()
        connection.close()
        if reply.status == 207:
            data = self.rewrite(data)
        kept = [(name, value) for name, value in reply.getheaders()
                if name.lower() not in ("content-length", "connection", "transfer-encoding", "keep-alive")]
        self.note(reply.status, note)
        self.answer(reply.status, data, kept)

    def rewrite(self, data):
        home = setting("home")
        if home and self.server.server_address[1] == self.server.first_port:
            data = re.sub(rb"(<(\w+:)?calendar-home-set[^>]*>\s*<(\w+:)?href>)([^<]*)(<)",
                          lambda m: m.group(1) + home.encode() + m.group(5), data)
        mode = setting("hrefs")

        def respell(match):
            href = urllib.parse.unquote(match.group(3).decode())
            if mode == "raw":
                spelled = href
            elif mode == "escaped":
                spelled = urllib.parse.quote(href, safe="/.-_:")
            else:
                return match.group(0)
            return match.group(1) + spelled.encode() + match.group(4)

        return re.sub(rb"(<(\w+:)?href>)([^<]*)(</(\w+:)?href>)", respell, data)

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_HEAD = do_MKCALENDAR = do_PROPPATCH = handle_any


def main():
    first = serving.HTTPServer(("127.0.0.1", 0), Handler)
    second = serving.HTTPServer(("127.0.0.1", 0), Handler)
    for server in (first, second):
        server.first_port = first.server_address[1]
    serving.serve([first, second])


if __name__ == "__main__":
    main()
