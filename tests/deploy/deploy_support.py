"""What the deployment tests share: the real binary's `serve` options and defaults, the INI-style
config files they read, a running `tensorgate serve` to ask about routes, small model files, and
a minimal evaluator of the GitHub Actions expressions action.yml uses."""
import contextlib
import http.client
import json
import os
import re
import struct
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tensorgate_path(argv):
    """The binary's path from argv[1] (CTest passes it); removed so unittest sees the rest."""
    path = os.path.abspath(argv[1])
    del argv[1]
    return path


# --- tensorgate serve: options, defaults, config files ------------------------------------------

OPTION = re.compile(r"^\s+(?:-\w \[ )?--([a-z0-9-]+)(?: \])?(?: arg)?(?: \(=([^)]*)\))?")


def serve_options(tensorgate):
    """{flag name: default or None} from `tensorgate serve --help`: the flags that really exist."""
    out = subprocess.run([tensorgate, "serve", "--help"], capture_output=True, text=True, check=True)
    options = {}
    for line in out.stdout.splitlines():
        m = OPTION.match(line)
        if m:
            options[m.group(1)] = m.group(2)
    if "listen" not in options or "drain-timeout-ms" not in options:
        raise AssertionError("unexpected `tensorgate serve --help`:\n" + out.stdout)
    return options


def read_ini(text):
    """`name = value` lines of a config file (comments with #), as boost::program_options reads."""
    values = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, value = line.partition("=")
        if not sep:
            raise AssertionError(f"not `name = value`: {raw!r}")
        values[name.strip()] = value.strip()
    return values


def effective_config(tensorgate, config_text, flags=()):
    """The options a server started with this config file (and these flags) runs with."""
    values = {k: v for k, v in serve_options(tensorgate).items() if v is not None}
    values.update(read_ini(config_text))
    flags = list(flags)
    for i, flag in enumerate(flags):
        if flag.startswith("--") and i + 1 < len(flags) and not flags[i + 1].startswith("--"):
            values[flag[2:]] = flags[i + 1]
    return values


def memory_budget_bytes(config):
    """Every memory budget the service enforces, added up (today header-memory-budget-bytes).
    Added, not the largest: should one budget ever hold another, this fails loudly rather than
    passing a limit that is too small."""
    budgets = [int(v) for k, v in config.items() if "memory-budget" in k]
    if not budgets:
        raise AssertionError("tensorgate serve has no *memory-budget* option")
    return sum(budgets)


# The allowance docs/deploy.md adds to the budget: what the process holds outside it. The
# per-upload and per-connection costs are docs/service.md's ("about 100 KiB without its header"
# besides the read buffer; "idle connections hold 4 KiB"); the base covers the process, its
# libraries and the log queue (13 MiB measured in bench/README.md, rounded up generously).
ALLOWANCE_BASE_BYTES = 64 << 20
PER_UPLOAD_BYTES = 100 << 10
PER_CONNECTION_BYTES = 4 << 10


def memory_allowance_bytes(config):
    uploads = int(config["max-concurrent-uploads"])
    connections = int(config["max-connections"]) + int(config["max-rejections-in-flight"])
    return (ALLOWANCE_BASE_BYTES + uploads * (int(config["read-buffer-bytes"]) + PER_UPLOAD_BYTES)
            + connections * PER_CONNECTION_BYTES)


def config_check(tensorgate, config_path):
    """Runs the real option parser over a config file: (status, stderr)."""
    out = subprocess.run([tensorgate, "serve", "--config", config_path, "--help"],
                         capture_output=True, text=True, check=False)
    return out.returncode, out.stderr


@contextlib.contextmanager
def running_server(tensorgate, config_path):
    """`tensorgate serve --config FILE` on an ephemeral loopback port; yields the port."""
    proc = subprocess.Popen([tensorgate, "serve", "--config", config_path,
                             "--listen", "127.0.0.1:0", "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        event = json.loads(line) if line.startswith("{") else {}
        if event.get("event") != "listening":
            raise AssertionError(f"no listening line: {line!r} {proc.stderr.read()}")
        yield int(event["address"].rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.communicate(timeout=30)  # SIGTERM drains and exits; this also closes the pipes


def get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def quantity_bytes(text):
    """A Kubernetes memory quantity (1280Mi, 2G) or a systemd size (1280M = MiB) in bytes."""
    m = re.fullmatch(r"([0-9]+)([KMGT]i?)?", str(text))
    if not m:
        raise AssertionError(f"not a quantity: {text!r}")
    unit = m.group(2) or ""
    power = {"K": 1, "M": 2, "G": 3, "T": 4}.get(unit[:1], 0)
    return int(m.group(1)) * ((1024 if unit.endswith("i") else 1000) ** power)


def cpu_cores(text):
    text = str(text)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


# --- model files ----------------------------------------------------------------------------------

def safetensors_bytes(header, data):
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + data


def warning_only_safetensors():
    """Valid, with one warning (STW.empty-metadata): passes fail-on error, fails fail-on warning."""
    return safetensors_bytes({"__metadata__": {}, "t": {"dtype": "F32", "shape": [1],
                                                        "data_offsets": [0, 4]}}, b"\0" * 4)


def lfs_pointer_text(size=123456789):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{'ab' * 32}\nsize {size}\n"


# --- GitHub Actions expressions ------------------------------------------------------------------
# Only what action.yml uses: context paths (inputs.x, steps.id.outputs.y), 'strings', ==, !=, &&.
# Anything else raises, so a new kind of expression in action.yml makes the test grow with it.

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def lookup(path, context):
    """A context path's value; a missing property is '' (null, which GitHub compares equal to '')."""
    value = context
    for part in path.split("."):
        value = value.get(part, "") if isinstance(value, dict) else ""
    return value


def evaluate(expr, context):
    expr = expr.strip()
    if "&&" in expr:
        return all(evaluate(e, context) for e in expr.split("&&"))
    for op in ("==", "!="):
        if op in expr:
            left, right = (evaluate_value(s, context) for s in expr.split(op, 1))
            return (left == right) if op == "==" else (left != right)
    value = evaluate_value(expr, context)
    return bool(value)


def evaluate_value(expr, context):
    expr = expr.strip()
    if re.fullmatch(r"'[^']*'", expr):
        return expr[1:-1]
    if re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_-]+)+", expr):
        head = expr.split(".", 1)[0]
        if head not in context:
            raise KeyError(f"context {head} not emulated: {expr}")
        return lookup(expr, context)
    raise ValueError(f"expression not emulated: {expr}")


def substitute(text, context):
    return EXPR.sub(lambda m: str(evaluate_value(m.group(1), context)), str(text))
