#!/usr/bin/env python3
"""`tensorgate check --fail-on warning` (a gate that refuses anything not known good) over the
repository's benign files from real writers: torch.save archives and legacy streams, NumPy
arrays, archives and pickles (tests/data/real_writers, tests/data/numpy_pickles), the chat
templates of the model families people use (tests/data/chat_templates/real), and the valid
sample. Every one passes with no error or warning; their hostile twins fail with an error.

usage: test_default_deny.py TENSORGATE REPO_ROOT
"""
import glob
import json
import os
import subprocess
import sys
import unittest

TENSORGATE, ROOT = sys.argv[1:3]
del sys.argv[1:3]
DATA = os.path.join(ROOT, "tests", "data")


def check(*paths):
    r = subprocess.run([TENSORGATE, "check", "--fail-on", "warning", "--format", "json", *paths],
                       capture_output=True, check=False)
    return r.returncode, json.loads(r.stdout)


def files(pattern):
    found = sorted(glob.glob(os.path.join(DATA, pattern)))
    assert found, pattern
    return found


class DefaultDenyTest(unittest.TestCase):
    def assert_all_clean(self, paths):
        code, doc = check(*paths)
        for entry in doc["files"]:
            with self.subTest(path=entry["path"]):
                self.assertTrue(entry["valid"])
                # No error and no warning; an info finding is a fact (the reference reader's version).
                self.assertEqual([f["rule"] for f in entry["findings"] if f["severity"] != "info"], [])
        self.assertEqual(code, 0)

    def test_real_writers_files_have_no_finding(self):
        paths = [p for p in files("real_writers/*") if not p.endswith(".py")]
        self.assertGreaterEqual(len(paths), 10)
        self.assert_all_clean(paths)
        self.assert_all_clean([os.path.join(ROOT, "samples", "tinyllm-bigram.safetensors")])

    def test_numpy_pickles_have_no_finding_and_their_twins_fail(self):
        self.assert_all_clean(files("numpy_pickles/benign_*"))
        for path in files("numpy_pickles/hostile_*"):
            with self.subTest(path=path):
                code, doc = check(path)
                self.assertEqual(code, 1)
                self.assertIn("PK.dangerous-global", [f["rule"] for f in doc["files"][0]["findings"]])

    def test_benign_hdf5_files_have_no_finding(self):
        self.assert_all_clean([os.path.join(DATA, "hdf5", n) for n in (
            "keras2_dense.h5", "keras2_fixed.h5", "keras3_dense.h5", "latest.h5", "userblock.h5", "plain.h5")])

    def test_real_chat_templates_have_no_finding(self):
        self.assert_all_clean(files("chat_templates/real/*.jinja"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
