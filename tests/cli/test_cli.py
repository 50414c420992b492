#!/usr/bin/env python3
"""End-to-end tests of `tensorgate check`: every sample file's verdict, rule family and
canonical flag through --format json; JSON and SARIF output against their schemas; exit
statuses; standard input; directories.

usage: test_cli.py TENSORGATE WRITE_SAMPLES DOCS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import jsonschema

from e2e_support import load_schemas, write_cases

TENSORGATE, WRITE_SAMPLES, DOCS = sys.argv[1:4]
ROOT = os.path.dirname(os.path.abspath(DOCS))
del sys.argv[1:4]


def run(*args, stdin=None):
    return subprocess.run([TENSORGATE, *args], input=stdin, capture_output=True, check=False)


def peak_rss(args):
    """The most memory a tensorgate run held, in bytes (wait4's ru_maxrss)."""
    proc = subprocess.Popen([TENSORGATE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped here
    return usage.ru_maxrss * 1024


def families(file_report, severity=None):
    return [f["rule"].split(".")[0] for f in file_report["findings"]
            if severity is None or f["severity"] == severity]


class CliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.samples, cls.manifest = write_cases(WRITE_SAMPLES, "samples")
        cls.report_schema, cls.sarif_schema = load_schemas(DOCS)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_json(self, *args, stdin=None):
        out = run("check", "--format", "json", *args, stdin=stdin)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.report_schema)
        return out.returncode, doc

    def test_every_sample_gets_its_verdict_family_and_canonical_flag(self):
        self.assertGreater(len(self.manifest), 40)
        for name, verdict, family, canonical in self.manifest:
            with self.subTest(name=name):
                code, doc = self.check_json(os.path.join(self.samples, name))
                report = doc["files"][0]
                self.assertEqual(report["valid"], verdict == "valid")
                self.assertEqual(code, 0 if verdict == "valid" else 1)
                if verdict == "invalid":
                    self.assertEqual(families(report, "error")[0], family)
                    self.assertIsNone(report["canonical"])
                else:
                    self.assertEqual(families(report, "error"), [])
                    self.assertEqual(report["canonical"], canonical == "1")
                    if family:
                        self.assertIn(family, families(report))
                    self.assertIsNotNone(report["summary"])

    def test_directory_is_walked_and_sarif_matches_its_schema(self):
        out = run("check", "--format", "sarif", self.samples)
        self.assertEqual(out.returncode, 1)
        sarif = json.loads(out.stdout)
        jsonschema.validate(sarif, self.sarif_schema)
        run0 = sarif["runs"][0]
        rules = run0["tool"]["driver"]["rules"]
        self.assertEqual(len(run0["artifacts"]), len(self.manifest))
        self.assertTrue(run0["results"])
        for result in run0["results"]:
            self.assertEqual(rules[result["ruleIndex"]]["id"], result["ruleId"])
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            self.assertTrue(uri.endswith(".safetensors"), uri)

    def test_standard_input(self):
        path = os.path.join(self.samples, "valid-seed-example.safetensors")
        with open(path, "rb") as f:
            data = f.read()
        code, doc = self.check_json("-", stdin=data)
        self.assertEqual(code, 0)
        self.assertEqual(doc["files"][0]["path"], "-")
        self.assertEqual(doc["files"][0]["bytes"], 120)
        code, doc = self.check_json("-", stdin=data[:-1])
        self.assertEqual(code, 1)
        self.assertEqual(families(doc["files"][0], "error"), ["ST5"])

    def test_a_device_that_never_ends_is_read_until_the_verdict(self):
        # /dev/zero and /dev/urandom never end; a pipe is read to its end (its writer is not cut
        # off), a device only until the verdict is final. The timeout bounds a hang, nothing else.
        cases = [("auto", "/dev/zero", "ST2.syntax"), ("gguf", "/dev/zero", "GG1.magic"),
                 ("pickle", "/dev/zero", "PK.unknown-opcode"), ("zip", "/dev/urandom", "ZP.record"),
                 ("npy", "/dev/zero", "FK.npy-header")]
        for fmt, device, rule in cases:
            with self.subTest(fmt=fmt, device=device):
                code, doc = self.check_device(fmt, device)
                self.assertEqual(code, 1)
                self.assertEqual([f["rule"] for f in doc["files"][0]["findings"]], [rule])
        # Zero blocks keep a tar valid so far (they end it, and what follows is only counted): the
        # read stops at Limits::max_device_bytes with no verdict.
        code, doc = self.check_device("tar", "/dev/zero")
        self.assertEqual(code, 2)
        self.assertIsNone(doc["files"][0]["valid"])
        self.assertEqual(doc["files"][0]["aborted"]["limit"], "device-bytes")
        self.assertEqual(doc["files"][0]["bytes"], 1 << 30)
        # Random bytes are almost always no format (FK.unknown); about one start in a hundred
        # reads as a pickle or a safetensors length, whose first fault is the verdict, or as a
        # pickle argument longer than the bound (no verdict). Whichever: one answer, and in time.
        rule_prefix = {"unknown": "FK.unknown", "pickle": "PK.", "safetensors": "ST"}
        for _ in range(3):
            code, doc = self.check_device("auto", "/dev/urandom")
            entry = doc["files"][0]
            if entry["aborted"] is not None:
                self.assertEqual((code, entry["aborted"]["limit"]), (2, "device-bytes"))
                continue
            self.assertEqual(code, 1)
            self.assertIn(entry["format"], rule_prefix)
            rules = [f["rule"] for f in entry["findings"]]
            self.assertTrue(rules and all(r.startswith(rule_prefix[entry["format"]]) for r in rules), rules)
            self.assertIn("error", [f["severity"] for f in entry["findings"]])
        # The text line of a file whose .npy header was never read names no dtype or shape.
        out = run("check", "--input-format", "npy", "/dev/zero")
        self.assertEqual(out.stdout.decode().splitlines()[0], "/dev/zero: INVALID npy, 1 error")

    def check_device(self, fmt, device):
        out = subprocess.run([TENSORGATE, "check", "--format", "json", "--input-format", fmt, device],
                             capture_output=True, check=False, timeout=120)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.report_schema)
        return out.returncode, doc

    def test_exit_statuses(self):
        self.assertEqual(run("check", os.path.join(self.tmp.name, "missing.safetensors")).returncode, 2)
        empty = os.path.join(self.tmp.name, "empty")
        os.makedirs(empty, exist_ok=True)
        self.assertEqual(run("check", empty).returncode, 3)
        self.assertEqual(run("check", "--format", "xml", self.samples).returncode, 2)
        self.assertEqual(run("check").returncode, 2)
        self.assertEqual(run("bogus").returncode, 2)
        warned = os.path.join(self.samples, "valid-unknown-field.safetensors")
        self.assertEqual(run("check", warned).returncode, 0)
        self.assertEqual(run("check", "--fail-on", "warning", warned).returncode, 1)

    def test_serve_executes_tensorgate_serve_found_beside_it_or_in_lib(self):
        serve_help = run("serve", "--help")
        self.assertEqual(serve_help.returncode, 0, serve_help.stderr)
        self.assertTrue(serve_help.stdout.startswith(b"usage: tensorgate serve "), serve_help.stdout[:80])
        with tempfile.TemporaryDirectory() as prefix:
            bin_dir = os.path.join(prefix, "bin")
            os.makedirs(bin_dir)
            alone = os.path.join(bin_dir, "tensorgate")
            shutil.copy2(TENSORGATE, alone)
            out = subprocess.run([alone, "serve", "--help"], capture_output=True, check=False)
            self.assertEqual(out.returncode, 2)
            self.assertEqual(out.stderr.decode(), "tensorgate serve: the service is the executable tensorgate-serve, "
                             f"found neither at {bin_dir}/tensorgate-serve nor at {bin_dir}/../lib/tensorgate/"
                             "tensorgate-serve (install it beside tensorgate)\n")
            os.makedirs(os.path.join(prefix, "lib", "tensorgate"))
            shutil.copy2(os.path.join(os.path.dirname(TENSORGATE), "tensorgate-serve"),
                         os.path.join(prefix, "lib", "tensorgate"))
            out = subprocess.run([alone, "serve", "--help"], capture_output=True, check=False)
            self.assertEqual((out.returncode, out.stdout), (0, serve_help.stdout), out.stderr)

    def test_text_output_has_no_colour_when_piped(self):
        out = run("check", os.path.join(self.samples, "st4-size-mismatch.safetensors"))
        text = out.stdout.decode()
        self.assertNotIn("\x1b", text)
        self.assertIn("INVALID", text)
        self.assertIn("ST4.size-mismatch", text)
        forced = run("check", "--color", "always", os.path.join(self.samples, "st4-size-mismatch.safetensors"))
        self.assertIn("\x1b[31m", forced.stdout.decode())

    def test_model_directory(self):
        model = os.path.join(self.tmp.name, "bigram-model")
        os.makedirs(model, exist_ok=True)
        with open(os.path.join(ROOT, "samples", "tinyllm-bigram.safetensors"), "rb") as src, \
                open(os.path.join(model, "model.safetensors"), "wb") as dst:
            dst.write(src.read())
        with open(os.path.join(model, "config.json"), "w", encoding="utf-8") as f:
            f.write('{"tl_arch": "bigram", "vocab_size": 16, "tl_tokenizer": "byte"}')
        code, doc = self.check_json(model)
        self.assertEqual(code, 0)
        self.assertEqual([f["format"] for f in doc["files"]], ["safetensors", "model-directory"])
        self.assertEqual(doc["files"][1]["summary"]["architecture"], "bigram")
        with open(os.path.join(model, "config.json"), "w", encoding="utf-8") as f:
            f.write('{"tl_arch": "bigram", "vocab_size": 17, "tl_tokenizer": "byte"}')
        code, doc = self.check_json(model)
        self.assertEqual(code, 1)
        self.assertEqual(families(doc["files"][1], "error"), ["AR"])
        out = run("check", "--format", "sarif", model)
        jsonschema.validate(json.loads(out.stdout), self.sarif_schema)
        # Its config.json takes the memory of its size, not of the 64 MiB the limit allows (the
        # directory's check once held that much for every small JSON file it read).
        self.assertLess(peak_rss(["check", "--format", "json", model]),
                        peak_rss(["check", "--format", "json", os.path.join(model, "model.safetensors")]) + (16 << 20))

    def test_gguf_seeds_get_their_verdict_and_family(self):
        gguf = os.path.join(ROOT, "corpus", "gguf_fuzzer")
        names = sorted(n for n in os.listdir(gguf) if n.endswith(".gguf"))
        self.assertGreater(len(names), 20)
        for name in names:
            with self.subTest(name=name):
                # The seeds exercise the GGUF rules: read as GGUF whatever their first bytes.
                code, doc = self.check_json("--input-format", "gguf", os.path.join(gguf, name))
                report = doc["files"][0]
                self.assertEqual(report["format"], "gguf")
                if name.startswith("valid_"):
                    self.assertTrue(report["valid"])
                    self.assertEqual(code, 0)
                    _, auto = self.check_json(os.path.join(gguf, name))
                    self.assertEqual(auto["files"][0]["format"], "gguf")
                else:
                    self.assertFalse(report["valid"])
                    self.assertEqual(code, 1)
                    self.assertEqual(families(report, "error")[0], name.split("_")[0].upper())

    def test_no_tensors_flag(self):
        _, doc = self.check_json("--no-tensors", os.path.join(self.samples, "valid-llama-2-layers.safetensors"))
        summary = doc["files"][0]["summary"]
        self.assertNotIn("tensors", summary)
        self.assertEqual(summary["tensor_count"], 20)
        self.assertEqual(summary["architecture"], "llama")
        self.assertEqual(summary["layers"], 2)
        # Only the inventory goes: the metadata and every other field are the full report's.
        self.assertEqual(summary["metadata"], {"format": "pt"})
        _, full = self.check_json(os.path.join(self.samples, "valid-llama-2-layers.safetensors"))
        del full["files"][0]["summary"]["tensors"]
        self.assertEqual(summary, full["files"][0]["summary"])

    def test_max_report_tensors_cuts_the_inventory_as_the_service_does(self):
        path = os.path.join(self.samples, "valid-llama-2-layers.safetensors")
        _, doc = self.check_json("--max-report-tensors=3", path)
        summary = doc["files"][0]["summary"]
        self.assertEqual(len(summary["tensors"]), 3)
        self.assertEqual(summary["truncated"]["tensors_omitted"], 17)
        self.assertEqual(summary["tensor_count"], 20)
        _, full = self.check_json(path)
        self.assertEqual(summary["tensors"], full["files"][0]["summary"]["tensors"][:3])
        self.assertIsNone(full["files"][0]["summary"]["truncated"])
        bad = run("check", "--max-report-tensors=x", path)
        self.assertEqual(bad.returncode, 2)
        self.assertIn(b"max-report-tensors", bad.stderr)


class CommandLineTest(unittest.TestCase):
    """cli/command_line.cpp: GNU conventions through getopt_long, and errors that name the option
    and exit 2 (never echoing a value: a --header is a credential more often than not)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.samples, _ = write_cases(WRITE_SAMPLES, "samples")
        cls.valid = os.path.join(cls.samples, "valid-unknown-field.safetensors")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def usage_error(self, *args):
        out = run(*args)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertEqual(out.stdout, b"")
        return out.stderr.decode().splitlines()[0]

    def test_the_spellings_of_an_option_read_alike(self):
        reports = [run("check", *args).stdout for args in (
            ["--format", "json", "--no-tensors", self.valid],
            ["--format=json", "--no-tensors", self.valid],
            [self.valid, "--no-tensors", "--form", "json"],  # after the path; an abbreviation
            ["-j1", "--format", "json", "--no-tensors", self.valid],
        )]
        self.assertTrue(reports[0].startswith(b'{"schema":"tensorgate.report/1"'), reports[0][:80])
        self.assertEqual(reports, [reports[0]] * 4)
        env = dict(os.environ, POSIXLY_CORRECT="1")  # options after a path still read as options
        late = subprocess.run([TENSORGATE, "check", self.valid, "--format", "json", "--no-tensors"],
                              capture_output=True, env=env, check=False)
        self.assertEqual(late.stdout, reports[0])

    def test_a_refused_command_line_gets_the_synopsis_not_the_whole_help(self):
        for command, args in (("check", ["--jobs", "0", self.valid]), ("diff", [self.valid]), ("audit", ["--bogus"])):
            with self.subTest(command=command):
                out = run(command, *args)
                self.assertEqual(out.returncode, 2, out.stderr)
                lines = out.stderr.decode().splitlines()
                self.assertTrue(lines[1].startswith(f"usage: tensorgate {command} "), lines)
                self.assertTrue(all(line.startswith(" ") for line in lines[2:-1]), lines)
                self.assertEqual(lines[-1], f"Run 'tensorgate {command} --help' for the whole description.")
                self.assertIn(b"Exit status", run(command, "--help").stdout)  # the description is still there

    def test_errors_name_the_option(self):
        self.assertEqual(self.usage_error("check", "--format", "json", "--format", "text", self.valid),
                         "tensorgate check: --format is given more than once")
        self.assertEqual(self.usage_error("check", self.valid, "--jobs"), "tensorgate check: --jobs needs a value")
        self.assertEqual(self.usage_error("check", "--jobs", "4x", self.valid),
                         "tensorgate check: --jobs takes a whole number")
        self.assertEqual(self.usage_error("check", "--retries", "-1", self.valid),
                         "tensorgate check: --retries takes a whole number")
        self.assertEqual(self.usage_error("diff", "--values=yes", self.valid, self.valid),
                         "tensorgate diff: --values takes no value")
        self.assertEqual(self.usage_error("audit", "-x", self.valid, self.valid), "tensorgate audit: unknown option '-x'")
        self.assertEqual(self.usage_error("check", "--heder=Authorization: Bearer s3cret", self.valid),
                         "tensorgate check: unknown or ambiguous option '--heder'")
        self.assertEqual(self.usage_error("check", "--no", self.valid),  # --no-tensors or --no-progress
                         "tensorgate check: unknown or ambiguous option '--no'")

    def test_repeatable_options_and_the_end_of_options(self):
        # --header may be given again; a bad one is named by its field, never its value.
        self.assertEqual(self.usage_error("check", "--header", "X-A: 1", "--header", "Host: s3cret", self.valid),
                         "tensorgate check: --header Host: tensorgate sets this field itself")
        # After "--" an argument that looks like an option is a path.
        out = run("check", "--format", "json", "--", "--format")
        self.assertEqual(out.returncode, 2)
        self.assertEqual(json.loads(out.stdout)["files"][0]["path"], "--format")


class HandOverTest(unittest.TestCase):
    """cli/network.hpp: tensorgate links no network code; a command line naming a URL (given or
    listed) goes to tensorgate-remote, and a local one never needs it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.samples, _ = write_cases(WRITE_SAMPLES, "samples")
        cls.valid = os.path.join(cls.samples, "valid-unknown-field.safetensors")
        cls.bin_dir = os.path.join(cls.tmp.name, "bin")
        os.makedirs(cls.bin_dir)
        cls.alone = os.path.join(cls.bin_dir, "tensorgate")
        shutil.copy2(TENSORGATE, cls.alone)
        cls.missing = ("tensorgate check: checking a URL is the executable tensorgate-remote, found neither at "
                       f"{cls.bin_dir}/tensorgate-remote nor at {cls.bin_dir}/../lib/tensorgate/tensorgate-remote "
                       "(install it beside tensorgate)\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def list_of(self, name, *lines):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def alone_check(self, *args, stdin=None):
        return subprocess.run([self.alone, "check", "--format", "json", *args], input=stdin, capture_output=True,
                              check=False)

    def test_local_entries_never_need_tensorgate_remote(self):
        out = self.alone_check("--list", self.list_of("local.txt", "# a comment", self.valid))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual([f["path"] for f in json.loads(out.stdout)["files"]], [self.valid])

    def test_a_url_given_or_listed_goes_to_tensorgate_remote(self):
        for args in (["http://127.0.0.1:9/a.safetensors"],
                     ["--list", self.list_of("urls.txt", self.valid, "https://127.0.0.1:9/b.safetensors")]):
            with self.subTest(args=args):
                out = self.alone_check(*args)
                self.assertEqual((out.returncode, out.stdout, out.stderr.decode()), (2, b"", self.missing))
        # A list from a pipe is readable once: it goes over unread...
        out = self.alone_check("--list", "/dev/stdin", stdin=self.valid.encode() + b"\n")
        self.assertEqual((out.returncode, out.stderr.decode()), (2, self.missing))
        # ...and tensorgate-remote, beside the build's tensorgate, reads it.
        out = run("check", "--format", "json", "--list", "/dev/stdin", stdin=self.valid.encode() + b"\n")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual([f["path"] for f in json.loads(out.stdout)["files"]], [self.valid])


class MemoryBudgetTest(unittest.TestCase):
    """--memory-budget: a file whose check needs more is aborted (valid null, exit 2), never
    killed for memory; the default admits real files."""

    def test_budget_aborts_without_a_verdict(self):
        import struct
        import tempfile
        entries = ",".join('"t%d":{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (i, i, i + 1) for i in range(20000))
        header = ("{" + entries + "}").encode()
        header += b" " * ((8 - len(header) % 8) % 8)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "many.safetensors")
            with open(path, "wb") as fh:
                fh.write(struct.pack("<Q", len(header)) + header + b"\0" * 20000)
            out = run("check", "--format", "json", "--memory-budget", "100000", path)
            self.assertEqual(out.returncode, 2)
            report = json.loads(out.stdout)["files"][0]
            self.assertIsNone(report["valid"])
            self.assertEqual(report["aborted"]["limit"], "header-memory-budget")
            self.assertEqual(run("check", path).returncode, 0)
            self.assertEqual(run("check", "--memory-budget", "-1", path).returncode, 2)

if __name__ == "__main__":
    unittest.main(verbosity=2)
