#!/usr/bin/env python3
"""End to end: HDF5 files (tests/data/hdf5, written by h5py) checked by content: legacy Keras .h5
models pass with their classes in the summary or fail with their KR rule, a file of no Keras model
lists its root attributes, dense attribute storage is not checked (aborted, exit 2), malformed
structure is KR.hdf5. JSON against the report schema, text, SARIF, exit statuses.

usage: test_cli_hdf5.py TENSORGATE DOCS_DIR DATA_DIR
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


class CliHdf5Test(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_benign_keras_models_pass_with_their_classes(self):
        for name in ("keras2_dense.h5", "keras3_dense.h5", "keras2_fixed.h5", "latest.h5", "userblock.h5"):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "hdf5")
                self.assertEqual(rules(entry), [])
                keras = entry["summary"]["keras"]
                self.assertEqual(keras["model"]["model_class"], "Sequential")
                self.assertIn({"class_name": "Dense", "module": "", "count": 2, "verdict": "keras"}, keras["model"]["classes"])
                self.assertTrue(keras["training_config"])

    def test_a_plain_hdf5_file_lists_its_attributes(self):
        code, doc = self.check(os.path.join(DATA, "plain.h5"))
        self.assertEqual(code, 0, doc)
        summary = self.entry(doc, "plain.h5")["summary"]
        self.assertIsNone(summary["keras"])
        self.assertIn({"name": "count", "type": "int32", "element_size": 4, "shape": [], "bytes": 4, "preview": "42"},
                      summary["attributes"])

    def test_hostile_models_get_their_rule(self):
        for name, rule in (("lambda.h5", "KR.lambda"), ("latest_keras3.h5", "KR.lambda"),
                           ("os_system.h5", "KR.dangerous-object"), ("config_not_json.h5", "KR.config"),
                           ("continuation_loop.h5", "KR.hdf5"), ("bad_superblock_version.h5", "KR.hdf5"),
                           ("truncated_half.h5", "KR.hdf5")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, name), "error"), [rule])

    def test_a_custom_object_fails_only_on_warning(self):
        path = os.path.join(DATA, "custom_object.h5")
        code, doc = self.check(path)
        self.assertEqual(code, 0, doc)
        self.assertEqual(rules(self.entry(doc, "custom_object.h5")), ["KR.custom-object"])
        code, _ = self.check("--fail-on", "warning", path)
        self.assertEqual(code, 1)

    def test_dense_attribute_storage_is_not_checked(self):
        code, doc = self.check(os.path.join(DATA, "dense_attrs.h5"))
        self.assertEqual(code, 2, doc)
        entry = self.entry(doc, "dense_attrs.h5")
        self.assertIsNone(entry["valid"])
        self.assertEqual(entry["aborted"]["limit"], "hdf5-dense-attributes")
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "dense_attrs.h5")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("dense storage", out.stdout)

    def test_text_and_sarif(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "keras3_dense.h5")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn('valid hdf5, superblock v0, 4 root attributes, Keras "3.3.3" "Sequential"', out.stdout)
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", os.path.join(DATA, "lambda.h5")],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 1)
        results = json.loads(out.stdout)["runs"][0]["results"]
        self.assertEqual([r["ruleId"] for r in results], ["KR.lambda"])

    def test_a_directory_checks_its_h5_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("keras2_dense.h5", "lambda.h5"):
                shutil.copy(os.path.join(DATA, name), os.path.join(d, name))
            code, doc = self.check(d)
            self.assertEqual(code, 1, doc)
            self.assertEqual(rules(self.entry(doc, "lambda.h5"), "error"), ["KR.lambda"])


if __name__ == "__main__":
    unittest.main()
