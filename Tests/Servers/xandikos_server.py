#!/usr/bin/env python3
"""A Xandikos CalDAV server for infcal's end-to-end tests, on 127.0.0.1 and a free port.

Usage: xandikos_server.py DIRECTORY
Xandikos (PyPI `xandikos`) serves DIRECTORY/store as one user whose principal is /user/,
with the calendar /user/calendars/calendar/ made at the start (its --defaults). It takes no
authentication of its own (a proxy in front of it, Apache or dav_proxy.py, asks for it).
Prints the port on its first line of output, then serves until stdin closes (or after five
minutes).

Xandikos runs as a WSGI application under a small wrapper that appends one line a request to
DIRECTORY/requests.log: "METHOD PATH STATUS EVENTS", EVENTS being how many events
(BEGIN:VEVENT) the answer carried, so that a test can see what a refresh downloaded.
"""
import logging
import os
import sys

from xandikos.web import SingleUserFilesystemBackend, XandikosApp

import serving

DIRECTORY = sys.argv[1]
LOG = os.path.join(DIRECTORY, "requests.log")


def application():
    store = os.path.join(DIRECTORY, "store")
    os.makedirs(store, exist_ok=True)
    backend = SingleUserFilesystemBackend(store)
    backend._mark_as_principal("/user/")
    backend.create_principal("/user/", create_defaults=True)
    app = XandikosApp(backend, current_user_principal="/user/")

    return serving.counting(app.handle_wsgi_request, LOG)


def main():
    logging.disable(logging.WARNING)
    serving.serve([serving.wsgi_server(application())])


if __name__ == "__main__":
    main()
