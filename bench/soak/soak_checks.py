"""What the soak checks once the load has ended, and its one line of figures."""
import re
from collections import defaultdict

# Peak RSS may pass the configured memory budget by this fixed allowance (bench/soak/README.md):
# the idle process (~10 MiB), the read buffers of 128 concurrent uploads (128 x 64 KiB = 8 MiB),
# the 4 KiB header buffers of 1,000 connections (4 MiB), the access log's queue (8,192 lines,
# ~4 MiB), and allocator slack (32 MiB: glibc serves blocks below its dynamic mmap threshold,
# at most 32 MiB, from arenas that keep freed memory).
ALLOWANCE_MIB = 64

_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text):
    """{(name, frozenset of (label, value))): value}"""
    out = {}
    for line in (text or "").splitlines():
        m = _SAMPLE.match(line)
        if m:
            labels = frozenset(_LABEL.findall(m.group(3) or ""))
            out[(m.group(1), labels)] = float(m.group(4))
    return out


def sample(text, series):
    """The value of one series as rendered (`name` or `name{a="b"}`), 0 when absent."""
    for line in (text or "").splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return 0


def series(metrics, name, **labels):
    """Sum of the samples of `name` whose labels include `labels`."""
    want = set(labels.items())
    return sum(v for (n, ls), v in metrics.items() if n == name and want <= set(ls))


def feasible(extra, groups, wildcard):
    """Can the unobserved requests (groups: {"408|499": n}) and `wildcard` lost ones be given
    one status each, from their sets, so that every status gets exactly extra[status]?
    A small max flow (Edmonds-Karp)."""
    codes = sorted(extra)
    nodes = ["s"] + ["g:" + g for g in groups] + ["g:*"] + ["c:" + c for c in codes] + ["t"]
    cap = defaultdict(int)
    for g, n in groups.items():
        cap[("s", "g:" + g)] += n
        for c in g.split("|"):
            cap[("g:" + g, "c:" + c)] = 1 << 40
    cap[("s", "g:*")] = wildcard
    for c in codes:
        cap[("g:*", "c:" + c)] = 1 << 40
        cap[("c:" + c, "t")] = extra[c]
    flow = 0
    while True:
        parent = {"s": None}
        queue = ["s"]
        while queue and "t" not in parent:
            u = queue.pop(0)
            for v in nodes:
                if v not in parent and cap[(u, v)] > 0:
                    parent[v] = u
                    queue.append(v)
        if "t" not in parent:
            break
        path, v = [], "t"
        while parent[v] is not None:
            path.append((parent[v], v))
            v = parent[v]
        push = min(cap[e] for e in path)
        for u, v in path:
            cap[(u, v)] -= push
            cap[(v, u)] += push
        flow += push
    need = sum(groups.values()) + wildcard
    return flow == need == sum(extra.values())


class Result:
    def __init__(self, tally, metrics_text, extra_observed):
        self.tally = tally
        self.metrics = parse_metrics(metrics_text)
        self.have_metrics = metrics_text is not None
        self.extra_observed = extra_observed  # route -> 200 answers the script itself read
        self.failures = []
        self.metrics_ok = False

    def request_ids(self):
        """The X-Request-Id of every request a problem sample names."""
        return sorted({w for s in self.tally["problem_samples"] for w in s.split() if w.startswith("soak-")})

    def counter(self, name):
        return self.tally["counters"].get(name, 0)

    def check_tally(self):
        for what, n in sorted(self.tally["problems"].items()):
            self.failures.append("%d x %s" % (n, what))
        for s in self.tally["problem_samples"][:10]:
            self.failures.append("  e.g. " + s)

    def check_livez(self, failed, answered):
        if failed or not answered:
            self.failures.append("/livez: %d of %d probes unanswered" % (failed, failed + answered))

    def check_rss(self, peak_kib, budget, allowance_mib):
        limit = budget / 2**20 + allowance_mib
        if peak_kib / 1024 > limit:
            self.failures.append("peak RSS %.0f MiB > budget %.0f MiB + allowance %.0f MiB" % (
                peak_kib / 1024, budget / 2**20, allowance_mib))

    def check_fds(self, idle, end, settled):
        if not settled:
            self.failures.append("connections or uploads still open 60 s after the load")
        if end != idle:
            self.failures.append("open descriptors: %d idle, %d after the load" % (idle, end))

    def check_process(self, alive, drained):
        if not alive:
            self.failures.append("the server died")
        elif not drained:
            self.failures.append("the server did not drain and exit 0 on SIGTERM")

    def check_metrics(self):
        if not self.have_metrics:
            self.failures.append("no final /metrics")
            return
        before = len(self.failures)
        m = self.metrics
        server = defaultdict(lambda: defaultdict(int))
        for (name, labels), v in m.items():
            if name == "tensorgate_http_requests_total":
                d = dict(labels)
                server[d["route"]][d["code"]] += int(v)
        observed = {r: dict(c) for r, c in self.tally["observed"].items()}
        for route, n in self.extra_observed.items():
            observed.setdefault(route, {})
            observed[route]["200"] = observed[route].get("200", 0) + n
        unobserved = self.tally["unobserved"]
        for route in sorted(set(server) | set(observed) | set(unobserved)):
            seen = observed.get(route, {})
            wildcard = seen.get("0", 0)
            groups = unobserved.get(route, {})
            codes = set(server[route]) | {c for c in seen if c != "0"} | {c for g in groups for c in g.split("|")}
            extra = {c: server[route].get(c, 0) - seen.get(c, 0) for c in codes}
            short = {c: -n for c, n in extra.items() if n < 0}
            if short:
                self.failures.append("metrics: %s counted fewer answers than clients read: %s" % (route, short))
            elif not feasible(extra, groups, wildcard):
                self.failures.append("metrics: %s counts %s, clients read %s, unread %s" % (
                    route, dict(server[route]), seen, groups))
        validate = server.get("/v1/validate", {})
        for result, code in (("valid", "200"), ("invalid", "422")):
            v = series(m, "tensorgate_validations_total", result=result)
            if v != validate.get(code, 0):
                self.failures.append("metrics: %d %s validations, %d answers %s" % (v, result, validate.get(code, 0), code))
        timeouts = {p: series(m, "tensorgate_timeouts_total", phase=p) for p in ("header", "body")}
        if timeouts["header"] != self.counter("slowloris_cut") + self.counter("idle_cut"):
            self.failures.append("metrics: %d header timeouts, %d slowloris and idle connections cut" % (
                timeouts["header"], self.counter("slowloris_cut") + self.counter("idle_cut")))
        if timeouts["body"] != self.counter("stalls_cut"):
            self.failures.append("metrics: %d body timeouts, %d stalls cut" % (timeouts["body"], self.counter("stalls_cut")))
        body = series(m, "tensorgate_body_bytes_received_total")
        if not self.counter("reported_body_bytes") <= body <= self.counter("body_bytes_offered"):
            self.failures.append("metrics: %d body bytes received, reports say %d, clients offered %d" % (
                body, self.counter("reported_body_bytes"), self.counter("body_bytes_offered")))
        rejected = series(m, "tensorgate_rejected_connections_total")
        if rejected:
            self.failures.append("metrics: %d connections rejected" % rejected)
        for gauge, want in (("tensorgate_uploads_in_flight", 0), ("tensorgate_header_budget_bytes_in_use", 0),
                            ("tensorgate_connections_open", 1)):
            if series(m, gauge) != want:
                self.failures.append("metrics: %s is %d after the load, not %d" % (gauge, series(m, gauge), want))
        self.metrics_ok = len(self.failures) == before

    def figures_line(self, args, livez_latencies, peak_kib, idle_kib, idle_fds, end_fds, max_fds, max_budget):
        c = self.counter
        obs = self.tally["observed"]
        answers = sum(n for route in obs.values() for n in route.values())
        unobs = sum(n for route in self.tally["unobserved"].values() for n in route.values())
        capacity = ", ".join("%s %d" % kv for kv in sorted(self.tally["capacity"].items())) or "none"
        lost = sum(self.tally["problems"].values())
        small, worst = self.tally["small_upload_latency"], self.tally["worst_upload_latency"]
        clients = sum(self.tally["clients"].values())
        slow = sum(1 for t in livez_latencies if t > 1)
        return ("soak: %.0f s, %d clients, %d answers read (%d valid, %d invalid, %d of them early, %d of worst-case "
                "files; capacity: %s), %d unread (%d stalls, %d resets, %d slowloris, %d never read), "
                "%d lost or changed; livez %d probes, max %.0f ms, %d over 1 s; peak RSS %.0f MiB (idle %.0f, "
                "budget %.0f + %.0f), budget held max %.0f MiB; fds %d idle, %d after (max %d); metrics %s; "
                "%.2f GB uploaded; small uploads p50 %.1f ms, p99 %.1f ms; worst p50 %.0f ms, max %.0f ms"
                % (self.tally["seconds"], clients, answers, c("verdicts_valid"), c("verdicts_invalid"),
                   c("reports_compared_early"), worst.get("count", 0), capacity, unobs,
                   c("stalls_cut") + c("stalls_closed_by_us"), c("resets"),
                   c("slowloris_cut") + c("slowloris_closed_by_us"),
                   c("noread_closed_by_server") + c("noread_closed_by_us"), lost,
                   len(livez_latencies), 1000 * max(livez_latencies or [0]), slow, peak_kib / 1024,
                   idle_kib / 1024, args.budget / 2**20, args.allowance_mib, max_budget / 2**20, idle_fds,
                   end_fds, max_fds, "add up" if self.metrics_ok else "DO NOT add up",
                   c("body_bytes_offered") / 1e9, small.get("p50_ms", 0), small.get("p99_ms", 0),
                   worst.get("p50_ms", 0), worst.get("max_ms", 0)))
