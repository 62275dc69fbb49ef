"""What the server scripts of infcal's end-to-end tests share: serving on 127.0.0.1 and free
ports until the test closes stdin, and the WSGI wrapper that logs each request of a CalDAV
server with the events its answer carried."""
import http.server
import io
import os
import socketserver
import sys
import threading
import wsgiref.simple_server


class HTTPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """A server of an http.server handler, a thread a connection."""
    daemon_threads = True
    allow_reuse_address = True


class WSGIServer(socketserver.ThreadingMixIn, wsgiref.simple_server.WSGIServer):
    """A server of a WSGI application, a thread a connection."""
    daemon_threads = True


class QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        pass


def wsgi_server(application):
    """A WSGI server of `application` on 127.0.0.1 and a free port."""
    return wsgiref.simple_server.make_server("127.0.0.1", 0, application, server_class=WSGIServer,
                                             handler_class=QuietHandler)


def serve(servers):
    """Serves each of `servers`, prints their ports on one line, and ends the process when
    the test closes stdin or after five minutes, whichever comes first."""
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(" ".join(str(server.server_address[1]) for server in servers), flush=True)
    wait_for_end()


def wait_for_end(on_end=lambda: None):
    """Waits until the test closes stdin (it is done, or its process ended however it ended)
    or five minutes pass, then runs `on_end` and ends the process."""
    def end():
        on_end()
        os._exit(0)

    deadline = threading.Timer(300, end)
    deadline.daemon = True
    deadline.start()
    try:
        sys.stdin.read()
    except Exception:
        pass
    end()


LOCK = threading.Lock()


def counting(app, log_path, before=None, after=None):
    """`app` wrapped so that each request appends "METHOD PATH STATUS EVENTS" to `log_path`,
    EVENTS being how many events (BEGIN:VEVENT) the answer carried; answers uncompressed,
    with their Content-Length. `before(environ, request)` may answer instead of `app` (a
    (status, headers, body)); `after(environ, body)` may change the body."""
    def wrapped(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        request = environ["wsgi.input"].read(length) if length > 0 else b""
        environ["wsgi.input"] = io.BytesIO(request)
        held = []

        def start(status, headers, exc_info=None):
            held.append((status, headers, exc_info))
            return lambda data: None

        environ.pop("HTTP_ACCEPT_ENCODING", None)
        answer = before(environ, request) if before else None
        if answer:
            start(answer[0], answer[1])
            body = answer[2]
        else:
            body = b"".join(app(environ, start))
        if after:
            body = after(environ, body)
        status, headers, exc_info = held[0]
        headers = [(name, value) for name, value in headers if name.lower() != "content-length"]
        headers.append(("Content-Length", str(len(body))))
        start_response(status, headers, exc_info)
        with LOCK, open(log_path, "a") as log:
            log.write("%s %s %s %d\n" % (environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                                         status.split(" ")[0], body.count(b"BEGIN:VEVENT")))
        return [body]

    return wrapped
