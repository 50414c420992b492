#!/usr/bin/env python3
"""End to end: TFLite models (tests/data/tflite, made by make_fixtures.py in the converter's
layout) checked by content: a model passes with its summary (inline buffers, and buffers past the
flatbuffer), hostile ones fail with their TFL rule, custom and Flex ops warn, a Flex op that reads
or writes files is an error. JSON against the report schema, text, SARIF, a directory, exit
statuses.

usage: test_cli_tflite.py TENSORGATE DOCS_DIR DATA_DIR
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


class CliTfliteTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_models_pass_with_their_summary(self):
        for name, external in (("model.tflite", 0), ("external.tflite", 4)):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "tflite")
                self.assertEqual(rules(entry), [])
                s = entry["summary"]
                self.assertEqual(s["version"], 3)
                self.assertEqual([o["name"] for o in s["operator_codes"]], ["FULLY_CONNECTED", "ADD"])
                self.assertEqual(s["external_buffers"], external)
                self.assertEqual(s["signatures"], ["serving_default"])
                weights = s["tensors"][1]
                self.assertEqual((weights["type"], weights["shape"], weights["bytes"]), ("INT8", [3, 4], 12))

    def test_hostile_models_get_their_rule(self):
        for name, rule in (("offset_out_of_range.tflite", "TFL.flatbuffer"), ("vtable_out_of_range.tflite", "TFL.flatbuffer"),
                           ("vector_length_past_end.tflite", "TFL.flatbuffer"), ("buffer_size_mismatch.tflite", "TFL.buffer"),
                           ("buffer_index_past.tflite", "TFL.buffer"), ("opcode_past.tflite", "TFL.operator"),
                           ("version_2.tflite", "TFL.model"), ("flex_read_file.tflite", "TFL.flex-dangerous"),
                           ("flex_write_file.tflite", "TFL.flex-dangerous")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, name), "error"), [rule])

    def test_custom_and_flex_ops_fail_only_on_warning(self):
        for name, rule in (("custom_op.tflite", "TFL.custom-op"), ("flex_add.tflite", "TFL.flex")):
            with self.subTest(name=name):
                path = os.path.join(DATA, name)
                code, doc = self.check(path)
                self.assertEqual(code, 0, doc)
                self.assertEqual(rules(self.entry(doc, name)), [rule])
                code, _ = self.check("--fail-on", "warning", path)
                self.assertEqual(code, 1)

    def test_text_and_sarif(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "model.tflite")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn("valid tflite, schema v3, 1 subgraph, 2 operator codes, 7 tensors, 18 parameters", out.stdout)
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", os.path.join(DATA, "flex_read_file.tflite")],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 1)
        results = json.loads(out.stdout)["runs"][0]["results"]
        self.assertEqual([r["ruleId"] for r in results], ["TFL.flex-dangerous"])

    def test_a_directory_checks_its_tflite_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("model.tflite", "opcode_past.tflite"):
                shutil.copy(os.path.join(DATA, name), os.path.join(d, name))
            code, doc = self.check(d)
            self.assertEqual(code, 1, doc)
            self.assertEqual(rules(self.entry(doc, "opcode_past.tflite"), "error"), ["TFL.operator"])
            self.assertEqual(rules(self.entry(doc, "/model.tflite")), [])


if __name__ == "__main__":
    unittest.main()
