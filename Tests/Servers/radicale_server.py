#!/usr/bin/env python3
"""A Radicale CalDAV server for infcal's end-to-end tests, on 127.0.0.1 and a free port.

Usage: radicale_server.py DIRECTORY
Users come from DIRECTORY/htpasswd (plain "user:password" lines, which Radicale reads
without extra packages); the collections live in DIRECTORY/collections. Prints the port on
its first line of output, then serves until stdin closes (or after five minutes).

Radicale runs as a WSGI application under a small wrapper that appends one line a request
to DIRECTORY/requests.log: "METHOD PATH STATUS EVENTS", EVENTS being how many events
(BEGIN:VEVENT) the answer carried, so a test can see what a refresh downloaded.

While the file DIRECTORY/nosync exists the server acts as one without sync-tokens (RFC
6578 is optional): PROPFIND answers lose their sync-token properties and a sync-collection
REPORT is refused (403), so a client must fall back to comparing ETags.
"""
import io
import re
import os
import socketserver
import sys
import threading
import wsgiref.simple_server

import radicale
import radicale.config

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")
LOCK = threading.Lock()

CONFIG = """
[auth]
type = htpasswd
htpasswd_filename = {dir}/htpasswd
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {dir}/collections
[logging]
level = warning
"""


def application():
    path = os.path.join(DIRECTORY, "radicale.conf")
    with open(path, "w") as file:
        file.write(CONFIG.format(dir=DIRECTORY))
    configuration = radicale.config.load([(path, False)])
    app = radicale.Application(configuration)

    def counting(environ, start_response):
        status_seen = []
        nosync = os.path.exists(os.path.join(DIRECTORY, "nosync"))
        length = int(environ.get("CONTENT_LENGTH") or 0)
        request = environ["wsgi.input"].read(length) if length > 0 else b""
        environ["wsgi.input"] = io.BytesIO(request)
        held = []

        def start(status, headers, exc_info=None):
            status_seen.append(status.split(" ")[0])
            held.append((status, headers, exc_info))
            return lambda data: None

        # Uncompressed answers, so that the events in them can be counted.
        environ.pop("HTTP_ACCEPT_ENCODING", None)
        if nosync and environ["REQUEST_METHOD"] == "REPORT" and b"sync-collection" in request:
            body = b"no sync-collection here"
            start("403 Forbidden", [("Content-Type", "text/plain")])
        else:
            body = b"".join(app(environ, start))
        if nosync and environ["REQUEST_METHOD"] == "PROPFIND":
            body = re.sub(rb"<([A-Za-z0-9]+:)?sync-token[^>]*?(/>|>[^<]*</([A-Za-z0-9]+:)?sync-token>)", b"", body)
        status, headers, exc_info = held[0]
        headers = [(name, value) for name, value in headers if name.lower() != "content-length"]
        headers.append(("Content-Length", str(len(body))))
        start_response(status, headers, exc_info)
        with LOCK, open(LOG, "a") as log:
            log.write("%s %s %s %d\n" % (environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                                         status_seen[0] if status_seen else "-", body.count(b"BEGIN:VEVENT")))
        return [body]

    return counting


class Server(socketserver.ThreadingMixIn, wsgiref.simple_server.WSGIServer):
    daemon_threads = True


class QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main():
    server = wsgiref.simple_server.make_server("127.0.0.1", 0, application(), server_class=Server,
                                               handler_class=QuietHandler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
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
