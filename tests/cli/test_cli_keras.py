#!/usr/bin/env python3
"""End to end: .keras archives (tests/data/keras, Keras 3's layout built by hand) checked as zips
whose config.json is judged as Keras deserialises it: a benign model passes with its classes in
the summary, a custom layer warns, a Lambda and the dangerous objects fail with their rule; the
same model saved unzipped is a Keras directory.
JSON against the report schema, SARIF, exit statuses.

usage: test_cli_keras.py TENSORGATE DOCS_DIR DATA_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

from e2e_support import JsonReports, load_schemas

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliKerasTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_a_benign_model_passes_with_its_classes(self):
        code, doc = self.check(os.path.join(DATA, "dense.keras"))
        self.assertEqual(code, 0, doc)
        entry = self.entry(doc, "dense.keras")
        self.assertEqual(rules(entry), [])
        keras = entry["summary"]["keras"]
        self.assertEqual(keras["model_class"], "Sequential")
        self.assertIn({"class_name": "Dense", "module": "keras.layers", "count": 2, "verdict": "keras"}, keras["classes"])
        names = {e["name"]: e["content"] for e in entry["summary"]["entry_list"]}
        self.assertEqual(names["config.json"], "keras_config")

    def test_a_custom_layer_fails_only_on_warning(self):
        path = os.path.join(DATA, "custom_layer.keras")
        code, doc = self.check(path)
        self.assertEqual(code, 0, doc)
        self.assertEqual(rules(self.entry(doc, "custom_layer.keras")), ["KR.custom-object"])
        code, _ = self.check("--fail-on", "warning", path)
        self.assertEqual(code, 1)

    def test_hostile_archives_get_their_rule(self):
        for name, rule in (("lambda.keras", "KR.lambda"), ("nested_lambda.keras", "KR.lambda"),
                           ("builtins_exec.keras", "KR.dangerous-object"), ("tfsm_layer.keras", "KR.dangerous-object"),
                           ("unsafe_flag.keras", "KR.dangerous-object"), ("not_json.keras", "KR.config")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, name), "error"), [rule])

    def test_sarif_names_the_rule(self):
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", os.path.join(DATA, "lambda.keras")],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 1)
        results = json.loads(out.stdout)["runs"][0]["results"]
        self.assertEqual([r["ruleId"] for r in results], ["KR.lambda"])

    def test_a_keras_directory_is_a_model(self):
        # A model saved unzipped: its config.json judged as an archive's, its model.weights.h5
        # the file that makes the model; a Lambda in it fails the directory.
        for name, code_wanted, dir_rules in (("dense.keras", 0, []), ("lambda.keras", 1, ["KR.lambda"])):
            with self.subTest(name=name), tempfile.TemporaryDirectory() as tmp:
                with zipfile.ZipFile(os.path.join(DATA, name)) as z:
                    z.extractall(tmp)
                code, doc = self.check(tmp)
                self.assertEqual(code, code_wanted, doc)
                directory = [f for f in doc["files"] if f["path"] == tmp][0]
                self.assertEqual(rules(directory, "error"), dir_rules)
                self.assertEqual(directory["summary"]["weights_format"], "hdf5")
                self.assertEqual(directory["summary"]["files"], ["model.weights.h5"])
                self.assertIn(directory["summary"]["keras"]["model_class"], ("Sequential", "Functional"))
                weights = self.entry(doc, "model.weights.h5")
                self.assertEqual((weights["format"], weights["valid"]), ("hdf5", True))


if __name__ == "__main__":
    unittest.main()
