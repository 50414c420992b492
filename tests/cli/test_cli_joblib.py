#!/usr/bin/env python3
"""End to end: joblib.dump files (tests/data/joblib, made by joblib 1.2 and NumPy 1.24) checked
as pickles whose arrays' bytes are skipped by shape and dtype: benign ones pass with their
arrays listed, a library class warns, opcodes hidden after an array of no elements and an
object array's payload are found, a structured dtype and a cut file are refused. Compressed
joblib files (make_compressed_fixtures.py: every compressor joblib has, the old ZF header):
inflated and scanned the same way, whatever the face's output format; broken, trailing, bombed
and hostile ones get their rule; a gzip or bzip2 of text stays unknown. JSON against the report
schema, SARIF, exit statuses.

usage: test_cli_joblib.py TENSORGATE DOCS_DIR DATA_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from e2e_support import JsonReports, load_schemas

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliJoblibTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_the_writers_files_pass_with_their_arrays(self):
        code, doc = self.check(os.path.join(DATA, "arrays.joblib"), os.path.join(DATA, "protocol2.joblib"))
        self.assertEqual(code, 0, doc)
        arrays = self.entry(doc, "arrays.joblib")
        self.assertEqual(arrays["format"], "pickle")
        self.assertEqual(rules(arrays), [])
        self.assertEqual(arrays["summary"]["joblib_arrays"], 10)
        w = [t for t in arrays["summary"]["tensors"] if t["name"] == "w"]
        self.assertEqual([(t["dtype"], t["shape"]) for t in w], [("F32", [1000])])
        self.assertEqual(self.entry(doc, "protocol2.joblib")["summary"]["joblib_array_bytes"], 43)

    def test_a_library_class_warns_and_fails_only_on_warning(self):
        path = os.path.join(DATA, "estimator.joblib")
        code, doc = self.check(path)
        self.assertEqual(code, 0, doc)
        self.assertEqual(rules(self.entry(doc, "estimator.joblib")), ["PK.unknown-global"])
        code, _ = self.check("--fail-on", "warning", path)
        self.assertEqual(code, 1)

    def test_hostile_files_get_their_rule(self):
        for name, rule in (("hidden_in_array_bytes.joblib", "PK.dangerous-global"),
                           ("object_array_payload.joblib", "PK.dangerous-global"),
                           ("wrapper_by_factory.joblib", "PK.dangerous-global"),
                           ("structured.joblib", "PK.joblib-array"),
                           ("truncated_array.joblib", "PK.truncated")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                entry = self.entry(doc, name)
                self.assertFalse(entry["valid"])
                self.assertEqual(rules(entry, "error"), [rule])

    def test_opcodes_within_an_arrays_bytes_are_data(self):
        code, doc = self.check(os.path.join(DATA, "opcodes_as_array_bytes.joblib"))
        self.assertEqual(code, 0, doc)

    def test_a_weights_name_is_judged_by_content(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "model.pkl")
            shutil.copy(os.path.join(DATA, "hidden_in_array_bytes.joblib"), path)
            out = subprocess.run([TENSORGATE, "check", "--format", "sarif", path], capture_output=True, check=False)
            self.assertEqual(out.returncode, 1)
            results = json.loads(out.stdout)["runs"][0]["results"]
            self.assertIn("PK.dangerous-global", [r["ruleId"] for r in results])

    COMPRESSORS = ("zlib", "gzip", "bz2", "xz", "lzma", "lz4")

    def test_compressed_files_pass_with_their_compression(self):
        paths = [os.path.join(DATA, f"arrays.{c}.joblib") for c in self.COMPRESSORS] + [os.path.join(DATA, "compat.zf.joblib")]
        code, doc = self.check(*paths)
        self.assertEqual(code, 0, doc)
        for c in self.COMPRESSORS:
            with self.subTest(compression=c):
                entry = self.entry(doc, f"arrays.{c}.joblib")
                self.assertEqual(entry["format"], "pickle")
                self.assertEqual(rules(entry), [])
                summary = entry["summary"]
                self.assertEqual(summary["compression"], c)
                self.assertEqual(summary["compressed_bytes"], os.path.getsize(os.path.join(DATA, f"arrays.{c}.joblib")))
                self.assertEqual(summary["joblib_arrays"], 4)
                self.assertEqual(summary["joblib_array_bytes"], 4000 + 56 + 24 + 36)
        self.assertEqual(self.entry(doc, "compat.zf.joblib")["summary"]["compression"], "zf")
        # Forced to pickle: the same.
        code, doc = self.check("--input-format", "pickle", os.path.join(DATA, "arrays.xz.joblib"))
        self.assertEqual(code, 0, doc)
        self.assertEqual(self.entry(doc, "arrays.xz.joblib")["summary"]["compression"], "xz")

    def test_compressed_files_get_their_rule(self):
        cases = [(f"hostile.{c}.joblib", ["PK.dangerous-global"]) for c in self.COMPRESSORS]
        cases += [(f"truncated.{c}.joblib", ["PK.compressed-stream"]) for c in ("zlib", "gzip", "xz", "lzma")]
        cases += [("compat_hostile.zf.joblib", ["PK.dangerous-global"]),
                  ("trailing.zlib.joblib", ["PK.compressed-trailing"]),
                  ("trailing.gzip.joblib", ["PK.compressed-trailing"]),
                  ("corrupt.zlib.joblib", ["PK.protocol", "PK.compressed-stream"])]
        for name, want in cases:
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "pickle")
                self.assertEqual(rules(entry, "error"), want)

    def test_a_stream_cut_before_its_first_block_is_no_known_pickle(self):
        # bzip2 and LZ4 inflate nothing before a whole block: cut inside the first, the file
        # never shows a pickle, so it stays unknown; forced to pickle, its stream is cut short.
        for c in ("bz2", "lz4"):
            with self.subTest(compression=c):
                path = os.path.join(DATA, f"truncated.{c}.joblib")
                code, doc = self.check(path)
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, path)), ["FK.unknown"])
                code, doc = self.check("--input-format", "pickle", path)
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, path)), ["PK.compressed-stream"])

    def test_text_and_sarif_name_the_compression_and_the_rule(self):
        path = os.path.join(DATA, "hostile.gzip.joblib")
        out = subprocess.run([TENSORGATE, "check", "--format", "text", path], capture_output=True, check=False, text=True)
        self.assertEqual(out.returncode, 1)
        self.assertIn("gzip compressed", out.stdout)
        self.assertIn("PK.dangerous-global", out.stdout)
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", path], capture_output=True, check=False)
        self.assertEqual(out.returncode, 1)
        self.assertEqual([r["ruleId"] for r in json.loads(out.stdout)["runs"][0]["results"]], ["PK.dangerous-global"])

    def test_a_constant_array_within_the_bounds_passes(self):
        # 4 MiB of zeros: within the default bounds (1,000:1 past 256 MiB).
        code, doc = self.check(os.path.join(DATA, "bomb.bz2.joblib"))
        self.assertEqual(code, 0, doc)
        self.assertEqual(self.entry(doc, "bomb.bz2.joblib")["summary"]["inflated_bytes"] > 4 << 20, True)

    def test_a_compressed_file_of_no_pickle_stays_unknown(self):
        code, doc = self.check(os.path.join(DATA, "text.gz"), os.path.join(DATA, "text.bz2"))
        self.assertEqual(code, 1, doc)
        for name in ("text.gz", "text.bz2"):
            with self.subTest(name=name):
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "unknown")
                self.assertEqual(rules(entry), ["FK.unknown"])


if __name__ == "__main__":
    unittest.main()
