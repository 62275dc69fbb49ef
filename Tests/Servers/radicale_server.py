#!/usr/bin/env python3
"""A Radicale CalDAV server for infcal's end-to-end tests, on 127.0.0.1 and a free port.

Usage: radicale_server.py DIRECTORY
Users come from DIRECTORY/htpasswd (plain "user:password" lines, which Radicale reads
without extra packages); the collections live in DIRECTORY/collections. Prints the port on
its first line of output, then serves until stdin closes (or after five minutes).

Radicale runs as a WSGI application under a small wrapper that appends one line a request
to DIRECTORY/requests.log: "METHOD PATH STATUS EVENTS", EVENTS being how many events
(BEGIN:VEVENT) the answer carried, so a test can see what a refresh downloaded.

DIRECTORY/rights, when it exists at the start, names Radicale's rights backend (default
owner_only): owner_write lets every user read every calendar and write only their own, so
that a calendar of another user is one the user may only read (its current-user-privilege-set
then holds read alone, as Nextcloud's "Contact birthdays" does).

While the file DIRECTORY/nosync exists the server acts as one without sync-tokens (RFC
6578 is optional): PROPFIND answers lose their sync-token properties and a sync-collection
REPORT is refused (403), so a client must fall back to comparing ETags.
"""
import os
import re
import sys

import radicale
import radicale.config

import serving

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")

CONFIG = """
[auth]
type = htpasswd
htpasswd_filename = {dir}/htpasswd
htpasswd_encryption = plain
delay = 0
[rights]
type = {rights}
[storage]
filesystem_folder = {dir}/collections
[logging]
level = warning
"""


def application():
    path = os.path.join(DIRECTORY, "radicale.conf")
    with open(path, "w") as file:
        try:
            with open(os.path.join(DIRECTORY, "rights")) as chosen:
                rights = chosen.read().strip() or "owner_only"
        except OSError:
            rights = "owner_only"
        file.write(CONFIG.format(dir=DIRECTORY, rights=rights))
    configuration = radicale.config.load([(path, False)])
    app = radicale.Application(configuration)

    def nosync():
        return os.path.exists(os.path.join(DIRECTORY, "nosync"))

    def before(environ, request):
        if nosync() and environ["REQUEST_METHOD"] == "REPORT" and b"sync-collection" in request:
            return "403 Forbidden", [("Content-Type", "text/plain")], b"no sync-collection here"
        return None

    def after(environ, body):
        if nosync() and environ["REQUEST_METHOD"] == "PROPFIND":
            return re.sub(rb"<([A-Za-z0-9]+:)?sync-token[^>]*?(/>|>[^<]*</([A-Za-z0-9]+:)?sync-token>)", b"", body)
        return body

    return serving.counting(app, LOG, before, after)


def main():
    serving.serve([serving.wsgi_server(application())])


if __name__ == "__main__":
    main()
