"""`tensorgate serve` as the soak runs it: a child process on an ephemeral loopback port, its
access log in a file, and what /proc says about it (RSS, peak RSS, open descriptors)."""
import http.client
import os
import re
import signal
import subprocess
import time

# The deadlines are shortened so that every fault (stall, slowloris, unread answer) is cut and
# starts over many times a minute; every other limit keeps its default.
SOAK_LIMITS = {
    "--header-timeout-ms": 2000,
    "--body-idle-timeout-ms": 2000,
    "--keepalive-timeout-ms": 3000,
    "--write-timeout-ms": 5000,
    "--linger-timeout-ms": 500,
    "--drain-timeout-ms": 10000,
}
# The budget option, by the name this build has (the first one its --help lists).
BUDGET_OPTIONS = ["--memory-budget-bytes", "--header-memory-budget-bytes"]


def request(port, path, timeout):
    """(status, body) of a GET on a fresh connection; (0, b"") when there is no answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
    except (OSError, http.client.HTTPException):
        return 0, b""
    finally:
        conn.close()


def get_status(port, path, timeout):
    return request(port, path, timeout)[0]


class Server:
    def __init__(self, tensorgate, budget, threads, extra_args, log_path):
        help_text = subprocess.run([tensorgate, "serve", "--help"], stdout=subprocess.PIPE, text=True).stdout
        budget_option = next((o for o in BUDGET_OPTIONS if o in help_text), None)
        if budget_option is None:
            raise RuntimeError("tensorgate serve has none of " + ", ".join(BUDGET_OPTIONS))
        args = [tensorgate, "serve", "--listen", "127.0.0.1:0", "--threads", str(threads),
                budget_option, str(budget)]
        for option, value in SOAK_LIMITS.items():  # --server-arg may set them otherwise
            if option in help_text and option not in extra_args:
                args += [option, str(value)]
        args += extra_args
        self.args = args
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        self.port = self._wait_port()
        self.own_scrapes = 0

    def _wait_port(self):
        for _ in range(200):
            with open(self.log_path) as f:
                m = re.search(r'"address":"127\.0\.0\.1:(\d+)"', f.read())
            if m:
                return int(m.group(1))
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the server did not start: " + open(self.log_path).read()[-2000:])

    def _status(self, field):
        try:
            with open("/proc/%d/status" % self.pid) as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def rss_kib(self):
        return self._status("VmRSS")

    def peak_rss_kib(self):
        return self._status("VmHWM")

    def fd_count(self):
        try:
            return len(os.listdir("/proc/%d/fd" % self.pid))
        except OSError:
            return 0

    def metrics(self):
        status, body = request(self.port, "/metrics", timeout=10)
        return body.decode() if status == 200 else None

    def _own_metrics(self):
        text = self.metrics()
        if text is not None:
            self.own_scrapes += 1
        return text

    def wait_idle(self, timeout):
        """Until no connection but the scrape's own is open and no upload is in flight."""
        from soak_checks import sample
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self._own_metrics()
            if text is not None and sample(text, "tensorgate_connections_open") <= 1 \
                    and sample(text, "tensorgate_uploads_in_flight") == 0:
                return True
            time.sleep(0.2)
        return False

    def wait_fds(self, idle, timeout):
        deadline = time.monotonic() + timeout
        n = self.fd_count()
        while n != idle and time.monotonic() < deadline:
            time.sleep(0.1)
            n = self.fd_count()
        return n

    def alive(self):
        return self.proc.poll() is None

    def terminate(self):
        """SIGTERM: True when the server drained and exited 0."""
        if self.proc.poll() is not None:
            return False
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30) == 0
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
