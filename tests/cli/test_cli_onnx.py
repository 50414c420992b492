#!/usr/bin/env python3
"""End to end: ONNX models (docs/rules.md, OX) by their content under any name, alone and in
directories, with their external data files looked up beside them: present, missing, a symbolic
link (of the file or of a directory on its way), a hard link, too short. The models are the ones
python3-onnx wrote (tests/data/onnx/make_onnx.py). JSON against the report schema, exit statuses.

usage: test_cli_onnx.py TENSORGATE DOCS_DIR DATA_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import jsonschema
from e2e_support import load_schemas, write_file

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def fixture(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliOnnxTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.schema, _ = load_schemas(DOCS)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, rel, data):
        return write_file(self.tmp.name, rel, data)

    def check(self, *args):
        out = subprocess.run([TENSORGATE, "check", "--format", "json", *args], capture_output=True, check=False)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.schema)
        return out.returncode, doc

    def entry(self, doc, suffix):
        found = [f for f in doc["files"] if f["path"].endswith(suffix)]
        self.assertEqual(len(found), 1, [f["path"] for f in doc["files"]])
        return found[0]

    def test_models_are_recognised_by_their_content(self):
        for name in ("add.onnx", "linear.onnx", "typed_data.onnx", "if_subgraph.onnx"):
            with self.subTest(name=name):
                code, doc = self.check(self.write(name, fixture(name)))
                self.assertEqual(code, 0, doc)
                self.assertEqual(doc["files"][0]["format"], "onnx")
                self.assertEqual(rules(doc["files"][0]), [])
        # Under another name the content still decides; the name is a warning.
        code, doc = self.check(self.write("model.bin", fixture("add.onnx")))
        self.assertEqual(code, 0)
        self.assertEqual((doc["files"][0]["format"], rules(doc["files"][0])), ("onnx", ["FK.extension"]))

    def test_external_data_beside_the_model(self):
        model = self.write("m/external.onnx", fixture("external.onnx"))
        data = self.write("m/external.onnx.data", fixture("external.onnx.data"))
        code, doc = self.check(model)
        self.assertEqual(code, 0, doc)
        self.assertEqual(doc["files"][0]["summary"]["external_files"], ["external.onnx.data"])
        # The directory walked: the model is checked with its data, the data file is no model.
        code, doc = self.check(os.path.dirname(model))
        self.assertEqual(code, 0, doc)
        self.assertEqual([os.path.basename(f["path"]) for f in doc["files"]], ["external.onnx"])
        # Too short for what its tensor reads.
        with open(data, "r+b") as f:
            f.truncate(59)
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-short"]))
        # Missing.
        os.remove(data)
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-missing"]))
        # A directory under the file's name.
        os.mkdir(data)
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-missing"]))

    def test_model_directories_of_onnx_weights(self):
        config = json.dumps({"architectures": ["LlamaForCausalLM"], "model_type": "llama"}).encode()
        # transformers.js's layout: the config on top, the models in onnx/, each checked on its own.
        self.write("js/config.json", config)
        self.write("js/onnx/model.onnx", fixture("linear.onnx"))
        self.write("js/onnx/model_quantized.onnx", fixture("add.onnx"))
        code, doc = self.check(os.path.join(self.tmp.name, "js"))
        self.assertEqual(code, 0, doc)
        top = self.entry(doc, "/js")
        self.assertEqual(rules(top), ["AR.unknown-architecture"])  # the exporter names initializers
        self.assertEqual(self.entry(doc, "onnx/model.onnx")["format"], "onnx")
        # Without a model in onnx/, the directory has no weights.
        os.remove(os.path.join(self.tmp.name, "js/onnx/model.onnx"))
        os.remove(os.path.join(self.tmp.name, "js/onnx/model_quantized.onnx"))
        code, doc = self.check(os.path.join(self.tmp.name, "js"))
        self.assertEqual(code, 1)
        self.assertIn("MD.no-weights", rules(self.entry(doc, "/js"), "error"))
        # A model beside the config, its external data with it: the model's parameters are the
        # directory's, and a missing data file is the model's error and the directory's.
        self.write("top/config.json", config)
        self.write("top/external.onnx", fixture("external.onnx"))
        data = self.write("top/external.onnx.data", fixture("external.onnx.data"))
        code, doc = self.check(os.path.join(self.tmp.name, "top"))
        self.assertEqual(code, 0, doc)
        self.assertEqual(self.entry(doc, "/top")["summary"]["parameters"], 15)
        os.remove(data)
        code, doc = self.check(os.path.join(self.tmp.name, "top"))
        self.assertEqual(code, 1)
        self.assertEqual(rules(self.entry(doc, "external.onnx")), ["OX.external-missing"])
        self.assertEqual(rules(self.entry(doc, "/top"), "error"), ["MD.invalid-file"])

    def test_links_are_refused(self):
        outside = self.write("outside/external.onnx.data", fixture("external.onnx.data"))
        model = self.write("m/external.onnx", fixture("external.onnx"))
        data = os.path.join(os.path.dirname(model), "external.onnx.data")
        os.symlink(outside, data)
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-link"]))
        self.assertIn("symbolic link", doc["files"][0]["findings"][0]["message"])
        os.remove(data)
        os.link(outside, data)
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-link"]))
        self.assertIn("hard link (2 names)", doc["files"][0]["findings"][0]["message"])
        # A directory on the way that is a symbolic link: the same location, "d/" in front (the
        # bytes of "external.onnx.data" replaced by as many, so every length still holds).
        nested = fixture("external.onnx").replace(b"external.onnx.data", b"d/ternal.onnx.data")
        self.write("elsewhere/ternal.onnx.data", fixture("external.onnx.data"))
        model = self.write("n/nested.onnx", nested)
        os.symlink(os.path.join(self.tmp.name, "elsewhere"), os.path.join(self.tmp.name, "n", "d"))
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (1, ["OX.external-link"]))
        # The same path through a real directory is fine.
        os.remove(os.path.join(self.tmp.name, "n", "d"))
        shutil.copytree(os.path.join(self.tmp.name, "elsewhere"), os.path.join(self.tmp.name, "n", "d"))
        code, doc = self.check(model)
        self.assertEqual((code, rules(doc["files"][0])), (0, []))

    def test_a_location_outside_the_directory_is_never_looked_up(self):
        # "../../etc/passwd.x" in place of the writer's name, as many bytes, so every length holds.
        self.write("etc/passwd.x", fixture("external.onnx.data"))  # there, and still refused
        hostile = fixture("external.onnx").replace(b"external.onnx.data", b"../../etc/passwd.x")
        code, doc = self.check(self.write("h/i/hostile.onnx", hostile))
        self.assertEqual(code, 1)
        self.assertEqual(set(rules(doc["files"][0])), {"OX.external-location"})  # for each of its tensors
        self.assertIn("../../etc/passwd.x", doc["files"][0]["findings"][0]["message"])


if __name__ == "__main__":
    unittest.main()
