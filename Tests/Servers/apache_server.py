#!/usr/bin/env python3
"""Debian's Apache httpd (apache2, with mod_auth_digest and mod_proxy_http) for infcal's
end-to-end tests: HTTP Digest (RFC 7616: MD5, qop=auth) on 127.0.0.1 and a free port, every
request proxied to the server DIRECTORY/upstream names (http://127.0.0.1:PORT).

Usage: apache_server.py DIRECTORY
DIRECTORY/users holds "user:password" lines; they are written to DIRECTORY/htdigest as
htdigest(1) writes them, by hashlib. Apache runs in the foreground (-DFOREGROUND) with a
config file of its own in DIRECTORY, as this script's child: the script prints Apache's port
once it accepts connections, and stops Apache (SIGTERM, then SIGKILL) when stdin closes (the
test ends, or its process died) or after five minutes. A port taken between choosing it and
Apache's bind is chosen again, at most five times.

Apache's access log, DIRECTORY/access.log, holds one line a request: "METHOD PATH STATUS
AUTHORIZATION", so that a test sees each request's nonce and count.
"""
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time

import serving

DIRECTORY = sys.argv[1]
BINARY = "/usr/sbin/apache2"
MODULES = "/usr/lib/apache2/modules"
REALM = "infcal"


def setting(name):
    with open(os.path.join(DIRECTORY, name)) as file:
        return file.read().strip()


def write_htdigest():
    lines = []
    for line in setting("users").splitlines():
        user, password = line.split(":", 1)
        ha1 = hashlib.md5(("%s:%s:%s" % (user, REALM, password)).encode()).hexdigest()
        lines.append("%s:%s:%s\n" % (user, REALM, ha1))
    with open(os.path.join(DIRECTORY, "htdigest"), "w") as file:
        file.writelines(lines)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def config(port, upstream):
    modules = ["mpm_event", "authn_core", "authn_file", "authz_core", "authz_user", "auth_digest", "proxy", "proxy_http"]
    # As root, Apache's workers run as nobody (what they read is world-readable); as another
    # user, Apache keeps that user.
    user = "User nobody\nGroup nogroup\n" if os.getuid() == 0 else ""
    return """ServerRoot {root}
ServerName 127.0.0.1
PidFile {root}/httpd.pid
Listen 127.0.0.1:{port}
{modules}
{user}ErrorLog {root}/error.log
LogLevel warn
LogFormat "%m %U %>s %{{Authorization}}i" infcal
CustomLog {root}/access.log infcal
Timeout 30
<Location />
  AuthType Digest
  AuthName "{realm}"
  AuthDigestProvider file
  AuthUserFile {root}/htdigest
  Require valid-user
  ProxyPass {upstream}/
  ProxyPassReverse {upstream}/
</Location>
""".format(root=DIRECTORY, port=port, user=user, realm=REALM, upstream=upstream,
           modules="\n".join("LoadModule %s_module %s/mod_%s.so" % (name, MODULES, name) for name in modules))


def listening(port, process, seconds=20):
    """Whether Apache accepts connections on `port` within `seconds` (tried 50 ms apart)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    write_htdigest()
    upstream = setting("upstream")
    process = None
    for _ in range(5):
        port = free_port()
        with open(os.path.join(DIRECTORY, "httpd.conf"), "w") as file:
            file.write(config(port, upstream))
        with open(os.path.join(DIRECTORY, "stderr.log"), "ab") as errors:
            process = subprocess.Popen([BINARY, "-f", os.path.join(DIRECTORY, "httpd.conf"), "-DFOREGROUND"],
                                       stdin=subprocess.DEVNULL, stdout=errors, stderr=errors,
                                       env={"PATH": "/usr/sbin:/usr/bin:/bin", "LANG": "C"})
        if listening(port, process):
            break
        stop(process)
        process = None
    if process is None:
        sys.exit("apache2 did not start")
    print(port, flush=True)
    serving.wait_for_end(lambda: stop(process))


if __name__ == "__main__":
    main()
