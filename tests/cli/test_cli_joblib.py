#!/usr/bin/env python3
"""End to end: joblib.dump files (tests/data/joblib, made by joblib 1.2 and NumPy 1.24) checked
as pickles whose arrays' bytes are skipped by shape and dtype: benign ones pass with their
arrays listed, a library class warns, opcodes hidden after an array of no elements and an
object array's payload are found, a structured dtype and a cut file are refused. JSON against
the report schema, SARIF, exit statuses.

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


if __name__ == "__main__":
    unittest.main()
