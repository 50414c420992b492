#!/usr/bin/env python3
"""The soak with faults (bench/soak/README.md): `tensorgate serve` on loopback under at least
64 clients for a bounded time, with valid, invalid and worst-case uploads and clients that
stall, reset, trickle headers, pipeline or never read. Checks that

  - every answered report equals the offline `tensorgate check --format json` of the same
    bytes (verdict, findings, summary; the fields only the service has are ignored);
  - /livez answers throughout (a fresh connection every 100 ms);
  - the server's peak RSS stays under its memory budget plus the fixed allowance;
  - open file descriptors return to their idle count;
  - the /metrics counters add up to what the clients sent and saw;
  - the server drains and exits 0 on SIGTERM at the end.

Prints one line of figures; exit status 0 when every check holds, 1 otherwise.

    bench/soak/soak.py [--build build/release] [--seconds 600] [sizes and limits: --help]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_checks  # noqa: E402
import soak_server  # noqa: E402
import worst_files  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The corpora whose inputs are whole files, and the samples.
CORPORA = ["safetensors_fuzzer", "gguf_fuzzer"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    p.add_argument("--seconds", type=float, default=600)
    p.add_argument("--clients", default="upload=36,worst=6,pipeline=4,stall=4,reset=4,slowloris=4,noread=4,idle=2")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--header-bytes", type=int, default=100_000_000, help="the metadata-value file's header")
    p.add_argument("--tensors", type=int, default=1_000_000, help="tensors of the many-tensors file")
    p.add_argument("--strings", type=int, default=1_000_000, help="strings of the GGUF token array")
    p.add_argument("--budget", type=int, default=1 << 30, help="the server's memory budget, bytes")
    p.add_argument("--max-report-tensors", type=int, default=131_072,
                   help="the inventory cap, given to the server and the offline check alike (the service's default)")
    p.add_argument("--allowance-mib", type=float, default=soak_checks.ALLOWANCE_MIB,
                   help="peak RSS may pass the budget by this much (bench/soak/README.md)")
    p.add_argument("--serve-binary", help="the tensorgate that serves (e.g. a TSan build); default: the build's")
    p.add_argument("--threads", type=int, default=2, help="server event-loop threads")
    p.add_argument("--server-arg", action="append", default=[], help="one more `tensorgate serve` argument")
    p.add_argument("--cli-arg", action="append", default=[], help="one more `tensorgate check` argument")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--json", help="write what the clients saw and the final /metrics to this file")
    return p.parse_args()


def small_files():
    out = []
    for corpus in CORPORA:
        for base, _, names in os.walk(os.path.join(ROOT, "corpus", corpus)):
            out += [os.path.join(base, n) for n in sorted(names) if not n.endswith(".note")]
    samples = os.path.join(ROOT, "samples")
    out += [os.path.join(samples, n) for n in sorted(os.listdir(samples)) if not n.endswith(".py")]
    return out


class Prober(threading.Thread):
    """GET /livez on a fresh connection every 100 ms; every failure and the slowest answer."""

    def __init__(self, port, timeout):
        super().__init__(daemon=True)
        self.port, self.timeout = port, timeout
        self.stop = threading.Event()
        self.answered = self.failed = 0
        self.latencies = []

    def run(self):
        while not self.stop.is_set():
            t0 = time.monotonic()
            status = soak_server.get_status(self.port, "/livez", self.timeout)
            if status == 200:
                self.answered += 1
                self.latencies.append(time.monotonic() - t0)
            else:
                self.failed += 1
            self.stop.wait(0.1)


class Sampler(threading.Thread):
    """The server's RSS and open descriptors every 50 ms; its budget gauge every second."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.stop = threading.Event()
        self.max_fds = 0
        self.max_budget_in_use = 0
        self.scrapes = 0

    def run(self):
        last_scrape = 0
        while not self.stop.is_set():
            self.max_fds = max(self.max_fds, self.server.fd_count())
            if time.monotonic() - last_scrape >= 1:
                last_scrape = time.monotonic()
                text = self.server.metrics()
                if text is not None:
                    self.scrapes += 1
                    self.max_budget_in_use = max(self.max_budget_in_use,
                                                 soak_checks.sample(text, "tensorgate_header_budget_bytes_in_use"))
            self.stop.wait(0.05)


def server_log_lines(path, ids):
    """The server's access-log lines of the requests named in the problems, and its warnings."""
    out = []
    try:
        with open(path) as f:
            for line in f:
                if any('"request_id":"%s"' % i in line for i in ids) or '"level":"warn"' in line \
                        or not line.startswith("{"):
                    out.append(line.rstrip()[:400])
    except OSError:
        pass
    return out[:40]


def main():
    args = parse_args()
    tg = os.path.join(args.build, "cli", "tensorgate")
    load = os.path.join(args.build, "bench", "soak_load")
    for exe in (tg, load):
        if not os.access(exe, os.X_OK):
            sys.exit("soak: build %s first" % exe)
    tmp = tempfile.mkdtemp(prefix="tg-soak-")
    try:
        return run(args, tg, load, tmp)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def run(args, tg, load, tmp):
    t0 = time.monotonic()
    worst = worst_files.write_all(tmp, args.header_bytes, args.tensors, args.strings)
    small = small_files()
    listing = os.path.join(tmp, "files.txt")
    with open(listing, "w") as f:
        f.writelines("small %s\n" % p for p in small)
        f.writelines("worst %s\n" % p for p in worst)
    print("soak: %d small files, %d worst-case (%.0f MB) in %.1f s" % (
        len(small), len(worst), sum(os.path.getsize(p) for p in worst) / 1e6, time.monotonic() - t0),
        file=sys.stderr)

    # The inventory cap is passed to both sides: a report cut at the cap equals the offline
    # report only if the offline check cuts at the same place.
    cap = "--max-report-tensors=%d" % args.max_report_tensors
    server = soak_server.Server(args.serve_binary or tg, args.budget, args.threads, args.server_arg + [cap],
                                os.path.join(tmp, "serve.log"))
    try:
        idle_fds, idle_rss = server.fd_count(), server.rss_kib()
        prober = Prober(server.port, timeout=10)
        sampler = Sampler(server)
        prober.start()
        sampler.start()
        cmd = [load, "--port", str(server.port), "--files", listing, "--tensorgate", tg,
               "--seconds", str(args.seconds), "--clients", args.clients, "--seed", str(args.seed)]
        for a in args.cli_arg + [cap]:
            cmd += ["--cli-arg", a]
        gen = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        if gen.returncode != 0:
            print("soak: the load generator failed (%d)" % gen.returncode, file=sys.stderr)
            return 1
        tally = json.loads(gen.stdout)
        prober.stop.set()
        prober.join()
        sampler.stop.set()
        sampler.join()
        settled = server.wait_idle(timeout=60)
        end_fds = server.wait_fds(idle_fds, timeout=10)
        time.sleep(0.5)  # the last probe and scrape are counted after their last byte went out
        metrics = server.metrics()
        peak_rss = server.peak_rss_kib()
        alive = server.alive()
        drained = server.terminate()
    finally:
        server.kill()

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tally": tally, "metrics": metrics, "server": server.args}, f, indent=1)
    extra_metrics = {"/livez": prober.answered, "/metrics": sampler.scrapes + server.own_scrapes}
    result = soak_checks.Result(tally, metrics, extra_metrics)
    result.check_tally()
    result.check_livez(prober.failed, prober.answered)
    result.check_rss(peak_rss, args.budget, args.allowance_mib)
    result.check_fds(idle_fds, end_fds, settled)
    result.check_metrics()
    result.check_process(alive, drained)
    print(result.figures_line(args, prober.latencies, peak_rss, idle_rss, idle_fds, end_fds,
                              sampler.max_fds, sampler.max_budget_in_use))
    for failure in result.failures:
        print("soak: FAILED: " + failure, file=sys.stderr)
    for line in server_log_lines(os.path.join(tmp, "serve.log"), result.request_ids()):
        print("soak: server log: " + line, file=sys.stderr)
    return 1 if result.failures else 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
