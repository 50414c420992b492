"""Real servers on loopback for the remote-check tests (docs/remote.md):

- nginx (Debian's nginx-light, installed by scripts/setup.sh), started with a configuration
  written here, serving a directory with Range support over plain HTTP and over TLS;
- a CA and server certificates made with the openssl command;
- Hostile, a server of our own (Python's standard library) whose first path segment picks a
  misbehaviour: ignoring Range, redirecting, 429 then 200, a file that changes between requests,
  stalling, a wrong Content-Range, and so on.

Every server listens on 127.0.0.1, on a port the kernel picked, and is stopped by the test that
started it."""
import collections
import os
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_certificates(directory):
    """A CA, a server certificate for 127.0.0.1 and localhost signed by it, and one for another
    name only (the host-name check must refuse it). Returns the paths."""
    p = lambda name: os.path.join(directory, name)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", p("ca.key"), "-out", p("ca.pem"), "-days", "2",
            "-subj", "/CN=tensorgate test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign")
    for name, san in (("server", "DNS:localhost,IP:127.0.0.1"), ("other", "DNS:other.example")):
        openssl("req", *ec, "-keyout", p(name + ".key"), "-out", p(name + ".csr"), "-subj", "/CN=" + name)
        with open(p(name + ".ext"), "w") as f:
            f.write(f"subjectAltName={san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
        openssl("x509", "-req", "-in", p(name + ".csr"), "-CA", p("ca.pem"), "-CAkey", p("ca.key"),
                "-CAcreateserial", "-out", p(name + ".pem"), "-days", "2", "-extfile", p(name + ".ext"))
    return {"ca": p("ca.pem"), "cert": p("server.pem"), "key": p("server.key"),
            "other_cert": p("other.pem"), "other_key": p("other.key")}


class Nginx:
    """nginx in the foreground, one process, its configuration and logs in `work`: `root` over
    HTTP, over TLS (the server certificate), and over TLS with a certificate for another name."""

    def __init__(self, work, root, certs):
        self.work = work
        self.http_port, self.https_port, self.wrong_name_port = free_port(), free_port(), free_port()
        temp = os.path.join(work, "temp")
        os.makedirs(temp, exist_ok=True)
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
master_process off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 256; }}
http {{
  # The combined format's start, then the Range asked for: what was sent of an answer the client
  # stopped reading is a matter of timing, what was asked for is not.
  log_format ranges '$remote_addr - - [$time_local] "$request" $status $body_bytes_sent range=$http_range';
  access_log {work}/access.log ranges;
  client_body_temp_path {temp}; proxy_temp_path {temp}; fastcgi_temp_path {temp};
  uwsgi_temp_path {temp}; scgi_temp_path {temp};
  default_type application/octet-stream;
  server {{ listen 127.0.0.1:{self.http_port}; root {root}; }}
  server {{ listen 127.0.0.1:{self.https_port} ssl; root {root};
           ssl_certificate {certs['cert']}; ssl_certificate_key {certs['key']}; }}
  server {{ listen 127.0.0.1:{self.wrong_name_port} ssl; root {root};
           ssl_certificate {certs['other_cert']}; ssl_certificate_key {certs['other_key']}; }}
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([nginx, "-p", work, "-c", conf, "-e", os.path.join(work, "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for port in (self.http_port, self.https_port, self.wrong_name_port):
            wait_for_port(port)

    def access_log(self):
        with open(os.path.join(self.work, "access.log")) as f:
            return f.read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


RANGE = re.compile(r"bytes=(\d+)-(\d+)$")


class Hostile(ThreadingHTTPServer):
    """GET /<behaviour>/<name>: the file root/<name> served as the behaviour says (b_* below).
    Every request is kept in `requests` (path, headers, arrival time)."""
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, root, tls=None, targets=None):
        super().__init__(("127.0.0.1", 0), Handler)
        self.root = root
        self.targets = targets or {}  # name -> base URL, for redirects elsewhere
        self.lock = threading.Lock()
        self.requests = []
        self.hits = collections.Counter()
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls["cert"], tls["key"])
            self.socket = context.wrap_socket(self.socket, server_side=True)
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.server_address[1]}"
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.shutdown()
        self.server_close()

    def seen(self, prefix):
        with self.lock:
            return [r for r in self.requests if r[0].startswith(prefix)]

    def handle_error(self, request, client_address):
        pass  # clients that stop reading are the point of several behaviours


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        behaviour, _, name = self.path.lstrip("/").partition("/")
        with self.server.lock:
            self.server.requests.append((self.path, dict(self.headers.items()), time.monotonic()))
            self.server.hits[self.path] += 1
            hit = self.server.hits[self.path]
        getattr(self, "b_" + behaviour.replace("-", "_"), self.b_missing)(name, hit)

    # --- helpers -------------------------------------------------------------------------
    def file(self, name):
        return os.path.join(self.server.root, name)

    def read(self, name, first, length):
        with open(self.file(name), "rb") as f:
            f.seek(first)
            return f.read(length)

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def ranged(self, name, etag='"v1"', total=None, shift=0, content_range=True, extra=()):
        size = os.path.getsize(self.file(name))
        m = RANGE.match(self.headers.get("Range", ""))
        if not m:
            return self.answer(400, b"this server wants a Range")
        first, last = int(m.group(1)), min(int(m.group(2)), size - 1)
        if first >= size:
            return self.answer(416, headers=[("Content-Range", f"bytes */{size}")])
        body = self.read(name, first, last - first + 1)
        headers = [("ETag", etag), *extra]
        if content_range:
            headers.append(("Content-Range", f"bytes {first + shift}-{last + shift}/{total or size}"))
        self.answer(206, body, headers)

    def stream(self, name, length=True):
        size = os.path.getsize(self.file(name))
        self.send_response(200)
        if length:
            self.send_header("Content-Length", str(size))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        try:
            with open(self.file(name), "rb") as f:
                while chunk := f.read(64 * 1024):
                    self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    # --- behaviours ----------------------------------------------------------------------
    def b_missing(self, name, hit):
        self.answer(404, b"no such behaviour")

    def b_ranged(self, name, hit):  # a well-behaved server of our own
        if not os.path.isfile(self.file(name)):
            return self.answer(404, b"not here")
        self.ranged(name)

    def b_ignore_range(self, name, hit):  # the whole file, Content-Length, whatever was asked
        self.stream(name)

    def b_no_length(self, name, hit):  # the whole file, ended by closing the connection
        self.stream(name, length=False)

    def b_redirect(self, name, hit):  # /redirect/N/name: N more redirects, then /ranged/name
        count, _, rest = name.partition("/")
        n = int(count)
        target = f"/redirect/{n - 1}/{rest}" if n > 1 else f"/ranged/{rest}"
        self.answer(302, b"moved", [("Location", target)])

    def b_elsewhere(self, name, hit):  # /elsewhere/TARGET/name: to another server's URL
        target, _, rest = name.partition("/")
        self.answer(302, b"", [("Location", f"{self.server.targets[target]}/{rest}")])

    def b_throttle(self, name, hit):  # 429 first, then the file
        if hit == 1:
            return self.answer(429, b"slow down", [("Retry-After", "1")])
        self.ranged(name)

    def b_unavailable(self, name, hit):
        self.answer(503, b"down", [("Retry-After", "0")])

    def b_changing_etag(self, name, hit):  # a new ETag for every answer, If-Match ignored
        self.ranged(name, etag=f'"v{hit}"')

    def b_changing_if_match(self, name, hit):  # a new ETag each time, If-Match honoured: 412
        etag = f'"v{hit}"'
        if self.headers.get("If-Match") not in (None, etag):
            return self.answer(412, b"changed", [("ETag", etag)])
        self.ranged(name, etag=etag)

    def b_changing_size(self, name, hit):  # the second answer says the file grew
        size = os.path.getsize(self.file(name))
        self.ranged(name, total=size + (hit > 1))

    def b_wrong_range(self, name, hit):  # bytes a+1..b+1 for a..b
        self.ranged(name, shift=1)

    def b_no_content_range(self, name, hit):
        self.ranged(name, content_range=False)

    def b_gzip(self, name, hit):
        self.ranged(name, extra=[("Content-Encoding", "gzip")])

    def b_stall(self, name, hit):  # the request is read, nothing is ever answered
        time.sleep(5)
        self.close_connection = True

    def b_stall_body(self, name, hit):  # the head, a few bytes, then silence
        self.send_response(206)
        self.send_header("Content-Range", "bytes 0-65535/1000000")
        self.send_header("Content-Length", "65536")
        self.end_headers()
        self.wfile.write(b"\x10\x00")
        self.wfile.flush()
        time.sleep(5)
        self.close_connection = True

    def b_auth(self, name, hit):  # wants "Authorization: Bearer let-me-in"
        if self.headers.get("Authorization") != "Bearer let-me-in":
            return self.answer(401, b"who are you", [("WWW-Authenticate", "Bearer")])
        self.ranged(name)

    def b_forbidden(self, name, hit):
        self.answer(403, b"no")

    def b_to_http(self, name, hit):  # from this (TLS) server to a plain http URL
        self.answer(302, b"", [("Location", f"{self.server.targets['plain']}/{name}")])
