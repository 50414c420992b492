#!/usr/bin/env python3
"""End to end: TensorFlow SavedModel directories (docs/rules.md, TF) as TensorFlow wrote them
(tests/data/savedmodel/: saved_model.pb, variables/, assets/, fingerprint.pb), recognised by
saved_model.pb and checked as one model; their variables against the index (a shard missing,
misnamed, short); a graph that reads files and Keras metadata with a Lambda layer, built by
hand. JSON against the report schema, exit statuses.

usage: test_cli_savedmodel.py TENSORGATE DOCS_DIR DATA_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from e2e_support import JsonReports, field_len, load_schemas, varint, write_file

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliSavedModelTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def copy(self, name):
        dest = os.path.join(self.tmp.name, name)
        shutil.copytree(os.path.join(DATA, name), dest)
        return dest

    def test_savedmodels_tensorflow_wrote_pass_as_one_model(self):
        for name, variables in (("half_plus_two_tf1", 5), ("half_plus_two_tf2", 4)):
            with self.subTest(name=name):
                model = self.copy(name)
                code, doc = self.check(model)
                self.assertEqual(code, 0, doc)
                self.assertEqual(self.entry(doc, "saved_model.pb")["format"], "savedmodel")
                top = self.entry(doc, "/" + name)
                self.assertEqual(rules(top), [])
                self.assertEqual(top["summary"]["weights_format"], "savedmodel")
                self.assertEqual(top["summary"]["savedmodel"]["shards"], 1)
                self.assertEqual(top["summary"]["savedmodel"]["variables"], variables)
                self.assertEqual(top["summary"]["savedmodel"]["assets"], ["foo.txt"])

    def test_variables_as_the_index_names_them(self):
        model = self.copy("half_plus_two_tf2")
        shard = os.path.join(model, "variables", "variables.data-00000-of-00001")
        with open(shard, "r+b") as f:
            f.truncate(100)
        code, doc = self.check(model)
        self.assertEqual(code, 1)
        self.assertEqual(rules(self.entry(doc, "/half_plus_two_tf2")), ["TF.variables"])
        os.rename(shard, os.path.join(model, "variables", "variables.data-00000-of-00002"))
        code, doc = self.check(model)
        self.assertEqual(code, 1)
        messages = [f["message"] for f in self.entry(doc, "/half_plus_two_tf2")["findings"]]
        self.assertEqual(len(messages), 2, messages)
        self.assertIn("variables.data-00000-of-00002 is no shard of this index", messages[0])
        self.assertIn("1 missing, the first variables.data-00000-of-00001", messages[1])
        # Without variables/ at all, the graph's variables have nothing to be restored from.
        shutil.rmtree(os.path.join(model, "variables"))
        code, doc = self.check(model)
        self.assertEqual(code, 1)
        messages = [f["message"] for f in self.entry(doc, "/half_plus_two_tf2")["findings"]]
        self.assertEqual(len(messages), 1, messages)
        self.assertIn("the graph creates 4 variables and there is no variables.index", messages[0])

    def test_a_graph_that_reads_files_and_a_lambda_layer(self):
        model = self.copy("half_plus_two_tf1")
        node = field_len(1, field_len(1, b"leak") + field_len(2, b"ReadFile"))
        graph = varint(1 << 3) + varint(1) + field_len(2, field_len(1, field_len(4, b"serve")) + field_len(2, node))
        write_file(model, "saved_model.pb", graph)
        metadata = field_len(1, field_len(3, b"root") + field_len(4, b"_tf_keras_model") +
                             field_len(5, b'{"class_name": "Sequential", "config": {"layers": [{"class_name": "Lambda"}]}}'))
        write_file(model, "keras_metadata.pb", metadata)
        code, doc = self.check(model)
        self.assertEqual(code, 1)
        self.assertEqual(rules(self.entry(doc, "saved_model.pb")), ["TF.dangerous-op"])
        self.assertEqual(self.entry(doc, "saved_model.pb")["summary"]["dangerous_ops"],
                         [{"op": "ReadFile", "nodes": ['node "leak"'], "nodes_not_listed": 0}])
        self.assertEqual(rules(self.entry(doc, "keras_metadata.pb")), ["TF.keras-lambda"])
        self.assertEqual(rules(self.entry(doc, "/half_plus_two_tf1"), "error"), ["MD.invalid-file", "MD.invalid-file"])
        # The text report names the dangerous op.
        out = subprocess.run([TENSORGATE, "check", os.path.join(model, "saved_model.pb")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 1)
        self.assertIn("1 dangerous op (ReadFile)", out.stdout)


if __name__ == "__main__":
    unittest.main()
