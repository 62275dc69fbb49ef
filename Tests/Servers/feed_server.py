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
  /switch.ics      whichever of the above DIRECTORY/mode names (default /feed.ics), so
                   that one URL first serves a good copy and then a fault
"""
import base64
import hashlib
import http.server
import os
import socketserver
import sys
import threading
import time

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")
LOCK = threading.Lock()


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
            with open(os.path.join(DIRECTORY, "feed.ics"), "rb") as file:
                body = file.read()
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
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
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
            self.wfile.flush()
            self.close_connection = True
        elif path == "/html":
            self.send_body(200, b"<!DOCTYPE html><html><body><form>Sign in</form></body></html>", "text/html")
        elif path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", str(65 << 20))
            self.end_headers()
            try:
                self.wfile.write(b"BEGIN:VCALENDAR\r\n")
                chunk = b"\0" * (1 << 20)
                for _ in range(65):
                    self.wfile.write(chunk)
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

    def send_redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    # Ends when the test closes our stdin or after five minutes, whichever comes first.
    deadline = threading.Timer(300, lambda: os._exit(0))
    deadline.daemon = True
    deadline.start()
    try:
        sys.stdin.read()
    except Exception:
        pass
    os._exit(0)


if __name__ == "__main__":
    main()
