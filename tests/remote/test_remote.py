#!/usr/bin/env python3
"""End-to-end tests of `tensorgate check URL...` against real servers on loopback
(docs/remote.md): nginx over HTTP and TLS (a CA the tests make with openssl), and hostile
servers of our own (servers.py). Remote verdicts must equal the local verdicts of the same
files; the bytes transferred are asserted (a 10 GB file in under 1 MB); every hostile behaviour
gets its specific error, never a verdict.

usage: test_remote.py TENSORGATE WRITE_SAMPLES WRITE_GGUF_SEEDS DOCS_DIR
"""
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from e2e_support import load_schemas  # noqa: E402
from make_files import write_all  # noqa: E402
from servers import Hostile, Nginx, free_port, make_certificates  # noqa: E402

TENSORGATE, WRITE_SAMPLES, WRITE_GGUF_SEEDS, DOCS = sys.argv[1:5]
del sys.argv[1:5]
SECRET = "let-me-in"


def run(*args, env=None):
    full_env = {k: v for k, v in os.environ.items() if k not in ("TENSORGATE_TOKEN", "SSL_CERT_FILE", "SSL_CERT_DIR")}
    full_env.update(env or {})
    return subprocess.run([TENSORGATE, "check", *args], capture_output=True, env=full_env, check=False, timeout=120)


def become_subreaper():
    """Processes orphaned below this one are re-parented to it, not to the machine's PID 1 (which
    in many containers reaps nothing) nor to a reaper of its own: what a check leaves behind is
    then seen here, live or a zombie, whatever the machine does and whatever else runs beside."""
    pr_set_child_subreaper = 36
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(pr_set_child_subreaper, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def processes(name, parent):
    """(pid, state) of the processes called `name` whose parent is `parent`; state "Z": a zombie."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        if comm == name and int(ppid) == parent:
            found.append((int(pid), state))
    return found


def adopted(name):
    """The processes called `name` whose parent is this one: none of them is started here, so each
    was left by a process that ended before it (re-parented here). Each is killed and reaped, so
    that one test's leftover does not fail the next."""
    left = []
    for pid, state in processes(name, os.getpid()):
        left.append(f"{pid} ({'zombie' if state == 'Z' else 'running'})")
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    return left


def blocked_signals(pid):
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        return int(next(line for line in f if line.startswith("SigBlk:")).split()[1], 16)


def comparable(entry):
    """An entry without what differs between a path and a URL."""
    entry = dict(entry)
    entry.pop("path")
    entry.pop("bytes_transferred", None)
    if entry.get("format") == "model-directory" and entry.get("summary"):
        # A local directory lists its files of no weights; a repository by URL cannot be listed.
        entry["summary"] = dict(entry["summary"], other_files=[])
    return entry


class RemoteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        become_subreaper()
        cls.tmp = tempfile.TemporaryDirectory()
        work = cls.tmp.name
        cls.root = os.path.join(work, "www")
        os.makedirs(cls.root)
        subprocess.run([WRITE_SAMPLES, os.path.join(cls.root, "samples")], check=True, capture_output=True)
        subprocess.run([WRITE_GGUF_SEEDS, os.path.join(cls.root, "gguf")], check=True, capture_output=True)
        cls.facts = write_all(cls.root)
        cls.certs = make_certificates(work)
        cls.report_schema, _ = load_schemas(DOCS)
        cls.nginx = Nginx(os.path.join(work, "nginx"), cls.root, cls.certs)
        cls.http = f"http://127.0.0.1:{cls.nginx.http_port}"
        cls.https = f"https://127.0.0.1:{cls.nginx.https_port}"
        cls.other = Hostile(cls.root)  # another origin, for redirects that leave the first
        cls.hostile = Hostile(cls.root, targets={"other": cls.other.url, "nginx": cls.http})
        cls.hostile_tls = Hostile(cls.root, tls=cls.certs, targets={"plain": cls.http})

    @classmethod
    def tearDownClass(cls):
        for server in (cls.hostile_tls, cls.hostile, cls.other):
            server.stop()
        cls.nginx.stop()
        cls.tmp.cleanup()

    def tearDown(self):
        # No check leaves a TLS helper behind, on any path: each reaps its own.
        self.assertEqual(adopted("tensorgate-tls"), [])

    def check_json(self, *args, env=None):
        out = run("--format", "json", "--no-tensors", *args, env=env)
        self.assertNotIn(SECRET.encode(), out.stdout + out.stderr)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.report_schema)
        return out.returncode, doc["files"]

    def assert_same_as_local(self, urls, paths, *args):
        code, remote = self.check_json(*args, *urls)
        local_code, local = self.check_json(*paths)
        self.assertEqual(code, local_code)
        self.assertEqual(len(remote), len(local))
        for r, l in zip(remote, local):
            with self.subTest(path=l["path"]):
                self.assertIn("bytes_transferred", r)
                self.assertNotIn("bytes_transferred", l)
                self.assertEqual(comparable(r), comparable(l))
        return remote

    def error_of(self, *args, env=None):
        code, files = self.check_json(*args, env=env)
        self.assertEqual(code, 2)
        self.assertEqual(len(files), 1)
        self.assertIsNone(files[0]["summary"])
        return files[0]["error"]

    # --- nginx: the verdicts are the local ones ---------------------------------------------
    def test_every_sample_over_nginx_is_judged_as_locally(self):
        names = sorted(os.listdir(os.path.join(self.root, "samples")))
        names = [n for n in names if n.endswith(".safetensors")]
        gguf = sorted(os.listdir(os.path.join(self.root, "gguf")))
        self.assertGreater(len(names), 40)
        self.assertGreater(len(gguf), 20)
        listing = os.path.join(self.tmp.name, "samples.list")
        with open(listing, "w") as f:
            f.write("# every sample, by URL\n")
            f.writelines(f"{self.http}/samples/{n}\n" for n in names)
            f.writelines(f"{self.http}/gguf/{n}\n" for n in gguf)
        paths = [os.path.join(self.root, "samples", n) for n in names] + [os.path.join(self.root, "gguf", n) for n in gguf]
        remote = self.assert_same_as_local([], paths, "--list", listing, "--jobs", "4")
        small = [r for r in remote if r["bytes"] < 60_000]
        for r in small:  # a small file takes one answer: its bytes and one head
            self.assertLess(r["bytes_transferred"], r["bytes"] + 1000, r["path"])

    def test_a_10_gb_file_over_tls_in_under_1_mb(self):
        urls = [f"{self.https}/big.safetensors", f"{self.https}/big-truncated.safetensors"]
        remote = self.assert_same_as_local(urls, [os.path.join(self.root, "big.safetensors"),
                                                  os.path.join(self.root, "big-truncated.safetensors")],
                                           "--ca-file", self.certs["ca"])
        self.assertEqual(remote[0]["bytes"], 10_000_000_088)
        self.assertTrue(remote[0]["valid"])
        self.assertEqual(remote[1]["findings"][0]["rule"], "ST5.truncated")
        for r in remote:
            self.assertLess(r["bytes_transferred"], 1_000_000)

    def test_a_header_past_the_first_window_takes_a_second_conditional_range(self):
        self.assert_same_as_local([f"{self.http}/many.safetensors"], [os.path.join(self.root, "many.safetensors")])
        lines = [line for line in self.nginx.access_log().splitlines() if "/many.safetensors" in line]
        self.assertEqual(len(lines), 2)
        self.assertTrue(all('" 206 ' in line for line in lines), lines)

    def test_gguf_metadata_comes_in_growing_windows(self):
        url = f"{self.http}/model.gguf"
        remote = self.assert_same_as_local([url], [os.path.join(self.root, "model.gguf")])
        metadata = self.facts["gguf_metadata_bytes"]
        self.assertGreater(metadata, 300_000)
        self.assertEqual(remote[0]["bytes"], metadata + 4 * (1 << 28))
        self.assertLess(remote[0]["bytes_transferred"], 2 * metadata)
        asked, sent = [], []
        for line in self.nginx.access_log().splitlines():
            if "/model.gguf" in line:
                first, last = line.split(" range=bytes=")[1].split("-")
                asked.append(int(last) - int(first) + 1)
                sent.append(int(line.split('" 206 ')[1].split()[0]))
        self.assertGreaterEqual(len(asked), 3)
        self.assertEqual(asked[0], 65536)  # then growing: doubling, or what the validator still needs
        self.assertEqual(asked, sorted(set(asked)))
        # Every window read whole but the last, which the check may stop reading once the metadata
        # has ended (how much nginx had sent by then is timing).
        self.assertEqual(sent[:-1], asked[:-1])
        self.assertLessEqual(sent[-1], asked[-1])

    def test_repositories_are_checked_with_their_directory_rules(self):
        for name, code in (("repo-sharded", 0), ("repo-single", 0), ("repo-broken", 1)):
            with self.subTest(repo=name):
                remote = self.assert_same_as_local([f"{self.http}/{name}/"], [os.path.join(self.root, name)], "--jobs", "3")
                self.assertEqual(remote[-1]["format"], "model-directory")
                self.assertEqual(run(f"{self.http}/{name}/").returncode, code)
        _, broken = self.check_json(f"{self.http}/repo-broken/")
        rules = {f["rule"].split(".")[0] for f in broken[-1]["findings"] if f["severity"] == "error"}
        self.assertIn("SH", rules)
        fetched = [line.split('"')[1] for line in self.nginx.access_log().splitlines()]
        self.assertFalse([r for r in fetched if "/escape" in r], fetched)  # a name with "../" is never fetched
        self.assertEqual(self.error_of(f"{self.http}/samples/"),
                         "not a model repository: no config.json, model.safetensors.index.json, model.safetensors, "
                         "pytorch_model.bin.index.json or pytorch_model.bin (HTTP 404)")

    def test_pickle_weights_of_a_repository_are_checked_too(self):
        # A malicious pytorch_model.bin alone, and beside a valid model.safetensors: a loader may
        # take either, and the pickle is the one that runs code.
        for name in ("repo-pickle", "repo-both"):
            with self.subTest(repo=name):
                remote = self.assert_same_as_local([f"{self.http}/{name}/"], [os.path.join(self.root, name)])
                bins = [r for r in remote if r["path"].endswith("/pytorch_model.bin")]
                self.assertEqual(len(bins), 1)
                self.assertIn("PK.dangerous-global", {f["rule"] for f in bins[0]["findings"]})
                self.assertEqual(run(f"{self.http}/{name}/").returncode, 1)
        # Shards named by pytorch_model.bin.index.json, never a name that leaves the folder.
        remote = self.assert_same_as_local([f"{self.http}/repo-bin-sharded/"], [os.path.join(self.root, "repo-bin-sharded")])
        self.assertEqual([r["path"].rsplit("/", 1)[1] for r in remote[:-1]],
                         ["pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"])
        self.assertTrue(all(r["valid"] for r in remote[:-1]))
        fetched = [line.split('"')[1] for line in self.nginx.access_log().splitlines()]
        self.assertFalse([r for r in fetched if "/escape" in r], fetched)

    def test_shards_in_parallel_give_the_same_report(self):
        one = run("--format", "json", "--jobs", "1", f"{self.http}/repo-sharded/").stdout
        four = run("--format", "json", "--jobs", "4", f"{self.http}/repo-sharded/").stdout
        self.assertEqual(json.loads(one), json.loads(four))

    def test_urls_and_paths_mix_in_order(self):
        code, files = self.check_json(os.path.join(self.root, "many.safetensors"), f"{self.http}/samples/st5-gap.safetensors",
                                      os.path.join(self.root, "repo-single"))
        self.assertEqual(code, 1)
        self.assertEqual([f["path"].split("/")[-1] for f in files],
                         ["many.safetensors", "st5-gap.safetensors", "model.safetensors", "repo-single"])

    # --- TLS ---------------------------------------------------------------------------------
    def test_tls_verifies_the_certificate_and_the_host_name(self):
        url = f"{self.https}/big.safetensors"
        self.assertEqual(self.error_of(url), f"TLS handshake with 127.0.0.1:{self.nginx.https_port} failed: "
                                             "certificate verify failed: unable to get local issuer certificate")
        wrong = f"https://127.0.0.1:{self.nginx.wrong_name_port}/big.safetensors"
        self.assertEqual(self.error_of(wrong, "--ca-file", self.certs["ca"]),
                         f"TLS handshake with 127.0.0.1:{self.nginx.wrong_name_port} failed: "
                         "certificate verify failed: IP address mismatch")
        by_name = f"https://localhost:{self.nginx.wrong_name_port}/big.safetensors"
        self.assertTrue(self.error_of(by_name, "--ca-file", self.certs["ca"]).endswith("certificate verify failed: hostname mismatch"))
        code, files = self.check_json(url, env={"SSL_CERT_FILE": self.certs["ca"]})  # the "system store"
        self.assertEqual((code, files[0]["valid"]), (0, True))
        out = run("--ca-file", "/nonexistent/ca.pem", url)
        self.assertEqual(out.returncode, 2)
        self.assertIn(b"cannot load --ca-file /nonexistent/ca.pem", out.stderr)

    def test_the_remote_cli_and_the_tls_helper_are_found_beside_the_executable_or_in_lib(self):
        build = os.path.dirname(TENSORGATE)
        helper, remote_cli = os.path.join(build, "tensorgate-tls"), os.path.join(build, "tensorgate-remote")
        for executable in (TENSORGATE, remote_cli):
            symbols = subprocess.run(["nm", executable], capture_output=True, text=True, check=False).stdout
            if symbols:  # the build tree's executables are not stripped: no OpenSSL but SHA-256 in them
                self.assertNotIn(" SSL_CTX_new", symbols)
                self.assertNotIn(" EVP_DigestInit_ex", symbols)
            if symbols and executable == TENSORGATE:  # and no network code (cli/network.hpp)
                self.assertNotIn("boost4asio", symbols)
                self.assertNotIn("boost4urls", symbols)
        url, local = f"{self.https}/big.safetensors", os.path.join(self.root, "big.safetensors")
        with tempfile.TemporaryDirectory() as prefix:
            bin_dir = os.path.join(prefix, "bin")
            os.makedirs(bin_dir)
            alone = os.path.join(bin_dir, "tensorgate")
            shutil.copy2(TENSORGATE, alone)

            def check(*args):
                return subprocess.run([alone, "check", "--format", "json", *args], capture_output=True, check=False,
                                      timeout=120)
            out = check("--ca-file", self.certs["ca"], url)
            self.assertEqual((out.returncode, out.stdout), (2, b""))
            self.assertEqual(out.stderr.decode(), "tensorgate check: checking a URL is the executable tensorgate-remote, "
                             f"found neither at {bin_dir}/tensorgate-remote nor at {bin_dir}/../lib/tensorgate/"
                             "tensorgate-remote (install it beside tensorgate)\n")
            self.assertEqual(check(local).returncode, 0)  # a local check never needs it
            shutil.copy2(remote_cli, bin_dir)
            out = check("--ca-file", self.certs["ca"], url)
            self.assertEqual(out.returncode, 2)
            self.assertIn(f"https needs the TLS helper tensorgate-tls, found neither at {bin_dir}/tensorgate-tls "
                          f"nor at {bin_dir}/../lib/tensorgate/tensorgate-tls".encode(), out.stderr)
            self.assertEqual(check(local).returncode, 0)  # a local check never needs it
            os.makedirs(os.path.join(prefix, "lib", "tensorgate"))
            shutil.copy2(helper, os.path.join(prefix, "lib", "tensorgate"))
            out = check("--ca-file", self.certs["ca"], url)
            self.assertEqual((out.returncode, json.loads(out.stdout)["files"][0]["valid"]), (0, True), out.stderr)

    def test_the_tls_helper_refuses_another_build_and_outlives_no_check(self):
        helper = os.path.join(os.path.dirname(TENSORGATE), "tensorgate-tls")
        ours, theirs = socket.socketpair()
        with ours, theirs:
            proc = subprocess.run([helper, "0.0.0-another", "probe", ""], stdin=theirs, capture_output=True,
                                  check=False, timeout=60)
            theirs.close()
            self.assertEqual(proc.returncode, 1)
            self.assertTrue(ours.makefile("rb").readline().startswith(b"error the TLS helper is from another build"))
        # One helper per connection, four workers, shards over https: none is left behind.
        code, files = self.check_json(f"{self.https}/repo-sharded/", "--jobs", "4", "--ca-file", self.certs["ca"])
        self.assertEqual(code, 0)
        self.assertGreater(len(files), 2)  # the shards, the index and the repository
        # The check has ended: a helper still running, or ended and not reaped (a zombie), was left.
        self.assertEqual(adopted("tensorgate-tls"), [])

    def test_a_check_ended_by_a_signal_reaps_its_tls_helper_first(self):
        url = f"{self.hostile_tls.url}/stall/x.safetensors"  # the request is read, never answered
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with self.subTest(signal=sig.name):
                asked = len(self.hostile_tls.seen("/stall/"))
                proc = subprocess.Popen([TENSORGATE, "check", "--ca-file", self.certs["ca"], "--read-timeout", "60", url],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                deadline = time.monotonic() + 60
                while len(self.hostile_tls.seen("/stall/")) == asked and proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.01)
                self.assertIsNone(proc.poll())  # the helper relays the request, the check waits
                helpers = processes("tensorgate-tls", proc.pid)
                self.assertEqual(len(helpers), 1)
                self.assertEqual(blocked_signals(helpers[0][0]), 0)  # started as the executable runs
                proc.send_signal(sig)
                self.assertEqual(proc.wait(timeout=60), -sig)  # the signal's own ending, as without a handler
                self.assertEqual(adopted("tensorgate-tls"), [])

    # --- hostile servers ---------------------------------------------------------------------
    def test_a_server_ignoring_range_is_read_as_a_stream_and_stopped_early(self):
        for name in ("gigabyte.safetensors", "gigabyte-bad.safetensors"):
            with self.subTest(name=name):
                remote = self.assert_same_as_local([f"{self.hostile.url}/ignore-range/{name}"], [os.path.join(self.root, name)])
                self.assertLess(remote[0]["bytes_transferred"], 1_000_000)
        code, files = self.check_json(f"{self.hostile.url}/no-length/gigabyte-bad.safetensors")
        self.assertEqual(code, 1)
        self.assertEqual(files[0]["findings"][0]["rule"], "ST4.dtype")
        self.assertLess(files[0]["bytes_transferred"], 1_000_000)

    def test_redirects_are_followed_bounded_and_never_to_plain_http(self):
        code, files = self.check_json(f"{self.hostile.url}/redirect/3/samples/st5-gap.safetensors")
        self.assertEqual((code, files[0]["findings"][0]["rule"]), (1, "ST5.gap"))
        self.assertEqual(self.error_of(f"{self.hostile.url}/redirect/11/samples/st5-gap.safetensors"),
                         f"more than 10 redirects (the last to {self.hostile.url})")
        self.assertEqual(self.error_of(f"{self.hostile_tls.url}/to-http/big.safetensors", "--ca-file", self.certs["ca"]),
                         f"refused a redirect from https to http ({self.http})")

    def test_credentials_are_sent_to_their_origin_only_and_never_shown(self):
        url = f"{self.hostile.url}/auth/many.safetensors"
        self.assertEqual(self.error_of(url), "HTTP 401 Unauthorized: credentials are needed "
                                             "(--header 'Authorization: ...' or TENSORGATE_TOKEN)")
        self.assertEqual(self.error_of(url, env={"TENSORGATE_TOKEN": "not-" + SECRET}),
                         "HTTP 401 Unauthorized: the credentials given were not accepted")
        code, files = self.check_json(url, env={"TENSORGATE_TOKEN": SECRET})
        self.assertEqual((code, files[0]["valid"]), (0, True))
        code, files = self.check_json("--header", f"Authorization: Bearer {SECRET}", url)
        self.assertEqual(code, 0)
        moved = f"{self.hostile.url}/elsewhere/other/ranged/many.safetensors"
        code, _ = self.check_json(moved, env={"TENSORGATE_TOKEN": SECRET})
        self.assertEqual(code, 0)
        self.assertEqual(self.hostile.seen("/elsewhere/")[-1][1].get("Authorization"), f"Bearer {SECRET}")
        self.assertTrue(self.other.seen("/ranged/many"))
        self.assertFalse([h for _, h, _ in self.other.seen("/ranged/many") if "Authorization" in h])
        out = run("--header", f"Host: {SECRET}", url)
        self.assertEqual(out.returncode, 2)
        self.assertIn(b"--header Host: tensorgate sets this field itself", out.stderr)
        self.assertNotIn(SECRET.encode(), out.stderr)

    def test_statuses_are_clear_errors(self):
        self.assertEqual(self.error_of(f"{self.hostile.url}/forbidden/x"), "HTTP 403 Forbidden: access is forbidden")
        self.assertEqual(self.error_of(f"{self.http}/no-such.safetensors"), "HTTP 404 Not Found: no such file")
        port = free_port()
        self.assertEqual(self.error_of(f"http://127.0.0.1:{port}/x.safetensors"),
                         f"cannot connect to 127.0.0.1:{port}: Connection refused")

    def test_429_waits_as_retry_after_says_and_5xx_gives_up_after_the_retries(self):
        code, files = self.check_json(f"{self.hostile.url}/throttle/many.safetensors")
        self.assertEqual((code, files[0]["valid"]), (0, True))
        times = [t for _, _, t in self.hostile.seen("/throttle/")]
        self.assertGreaterEqual(len(times), 2)
        self.assertGreaterEqual(times[1] - times[0], 0.9)  # Retry-After: 1
        self.assertEqual(self.error_of("--retries", "1", f"{self.hostile.url}/unavailable/x"),
                         "HTTP 503 Service Unavailable after 1 retry")
        self.assertEqual(len(self.hostile.seen("/unavailable/")), 2)

    def test_a_file_that_changes_between_requests_is_refused(self):
        cases = {
            "changing-etag": "the file changed between requests (its ETag is not the first one's)",
            "changing-if-match": "the file changed between requests (If-Match failed: HTTP 412)",
            "changing-size": "the file changed between requests (its size went from ",
        }
        for behaviour, message in cases.items():
            with self.subTest(behaviour=behaviour):
                self.assertTrue(self.error_of(f"{self.hostile.url}/{behaviour}/many.safetensors").startswith(message))
        self.assertEqual(self.hostile.seen("/changing-if-match/")[1][1].get("If-Match"), '"v1"')

    def test_wrong_ranges_and_encodings_are_refused(self):
        self.assertEqual(self.error_of(f"{self.hostile.url}/wrong-range/many.safetensors"),
                         "the server sent the wrong range: bytes 1-65536 for bytes 0-65535")
        self.assertEqual(self.error_of(f"{self.hostile.url}/no-content-range/many.safetensors"),
                         "a 206 answer without a valid Content-Range (asked for bytes 0-65535)")
        self.assertEqual(self.error_of(f"{self.hostile.url}/gzip/many.safetensors"),
                         "the server sent an encoded body (Content-Encoding: gzip): its ranges are not the file's bytes")

    def test_a_stalled_server_times_out(self):
        for behaviour in ("stall", "stall-body"):
            with self.subTest(behaviour=behaviour):
                message = self.error_of("--read-timeout", "1", f"{self.hostile.url}/{behaviour}/x.safetensors")
                self.assertTrue(message.startswith("timed out: nothing from the server for 1 s (--read-timeout)"), message)

    # --- lists, shards, progress ---------------------------------------------------------------
    def test_a_list_shows_progress_on_a_terminal(self):
        import pty
        listing = os.path.join(self.tmp.name, "progress.list")
        with open(listing, "w") as f:
            f.write(f"{self.http}/many.safetensors\n{self.http}/big.safetensors\n")
        master, slave = pty.openpty()
        try:
            out = subprocess.run([TENSORGATE, "check", "--list", listing], stdout=subprocess.PIPE, stderr=slave,
                                 timeout=60, check=False)
            os.close(slave)
            slave = None
            seen = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
        finally:
            if slave is not None:
                os.close(slave)
            os.close(master)
        self.assertEqual(out.returncode, 0)
        self.assertRegex(seen.decode(), r"2/2 entries, 2 files, [\d.]+ [kMG]?B transferred, [\d.]+ [kMG]?B/s\r\x1b\[K$")
        self.assertTrue(seen.endswith(b"\r\x1b[K"))
        self.assertNotIn(b"entries", run("--list", listing).stderr)  # not on a pipe

    # --- tensorgate diff by URL ----------------------------------------------------------------
    def diff_json(self, *args):
        out = subprocess.run([TENSORGATE, "diff", "--format", "json", *args], capture_output=True, check=False,
                             timeout=120)
        return out.returncode, without_paths(json.loads(out.stdout)), out.stderr.decode()

    def test_diff_of_urls_equals_the_diff_of_the_same_files_on_disk(self):
        cases = [("repo-single/", "repo-sharded/"), ("repo-sharded/", "repo-sharded/"),
                 ("many.safetensors", "repo-single/"), ("many.safetensors", "many.safetensors")]
        for old, new in cases:
            for values in ([], ["--values"]):
                with self.subTest(old=old, new=new, values=values):
                    code, remote, err = self.diff_json(*values, "--fail-on", "all", f"{self.http}/{old}", f"{self.https}/{new}",
                                                       "--ca-file", self.certs["ca"])
                    local_code, local, _ = self.diff_json(*values, "--fail-on", "all", os.path.join(self.root, old),
                                                          os.path.join(self.root, new))
                    self.assertEqual((code, remote), (local_code, local), err)
                    self.assertEqual(code, 0 if old == new else 1)

    def test_diff_of_a_url_that_cannot_be_read_is_an_input_error(self):
        code, doc, err = self.diff_json(f"{self.http}/no-such.safetensors", os.path.join(self.root, "many.safetensors"))
        self.assertEqual(code, 2)
        self.assertIn("HTTP 404", doc["error"])
        self.assertIn("HTTP 404", err)


def without_paths(doc):
    """A diff document without what differs between a path and a URL."""
    if isinstance(doc, dict):
        return {k: without_paths(v) for k, v in doc.items() if k not in ("path", "file", "directory_path", "bytes_transferred")}
    if isinstance(doc, list):
        return [without_paths(v) for v in doc]
    return doc


if __name__ == "__main__":
    unittest.main()
