#!/usr/bin/env python3
"""End to end: ONNX models (docs/rules.md, OX) by their content under any name, alone and in
directories, with their external data files looked up beside them: present, missing, a symbolic
link (of the file or of a directory on its way), a hard link, too short. The models are the ones
python3-onnx wrote (tests/data/onnx/make_onnx.py), and for `tensorgate diff` pairs built here
byte by byte. JSON against the report and diff schemas, exit statuses.

usage: test_cli_onnx.py TENSORGATE DOCS_DIR DATA_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import jsonschema
from e2e_support import JsonReports, field_len, load_schemas, varint, write_file

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def fixture(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def f32s(*values):
    return struct.pack("<%df" % len(values), *values)


def initializer(name, dtype, dims, data):
    """A graph's initializer field: a TensorProto of dims, data_type (1 FLOAT, 10 FLOAT16), name."""
    body = b"".join(field_varint(1, d) for d in dims) + field_varint(2, dtype) + field_len(8, name.encode())
    return field_len(5, body + data)


def onnx_model(*initializers):
    """ir_version 8, opset 13, a graph of these initializers."""
    return field_varint(1, 8) + field_len(8, field_varint(2, 13)) + field_len(7, b"".join(initializers))


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliOnnxTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, rel, data):
        return write_file(self.tmp.name, rel, data)

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

    def test_diff_of_two_models(self):
        # Initializers added, removed, re-typed (b: FLOAT16 of equal values), reshaped, and changed
        # in values: those in raw_data are read; typed ones (float_data, field 4) and external
        # ones only by dtype and shape.
        raw = lambda *v: field_len(9, f32s(*v))
        typed = lambda *v: field_len(4, f32s(*v))
        ext = field_len(13, field_len(1, b"location") + field_len(2, b"w.data")) + field_varint(14, 1)
        old = self.write("a/model.onnx", onnx_model(
            initializer("w", 1, [2, 2], raw(1, 2, 3, 4)), initializer("b", 1, [2], raw(0.5, 0.25)),
            initializer("t", 1, [2], typed(1, 2)), initializer("e", 1, [2], ext), initializer("gone", 1, [1], raw(7)),
            initializer("s", 1, [2], typed(1, 2))))
        new = self.write("b/model.onnx", onnx_model(
            initializer("w", 1, [2, 2], raw(1, 2, 3, 4.5)), initializer("b", 10, [2], field_len(9, struct.pack("<2e", 0.5, 0.25))),
            initializer("t", 1, [2], typed(9, 9)), initializer("e", 1, [2], ext), initializer("fresh", 1, [1], raw(8)),
            initializer("s", 1, [1, 2], typed(1, 2))))
        for side in ("a", "b"):
            self.write(side + "/w.data", f32s(1, 2))
        with open(os.path.join(DOCS, "diff.schema.json"), encoding="utf-8") as f:
            diff_schema = json.load(f)
        resolver = jsonschema.RefResolver.from_schema(diff_schema, store={self.schema["$id"]: self.schema})
        out = subprocess.run([TENSORGATE, "diff", "--values", "--format", "json", "--fail-on", "dtype", old, new],
                             capture_output=True, check=False)
        doc = json.loads(out.stdout)
        jsonschema.Draft202012Validator(diff_schema, resolver=resolver).validate(doc)
        self.assertEqual(out.returncode, 1, doc)  # a dtype change fails the gate
        changes = {(c["new"] or c["old"])["name"]: c for c in doc["changes"]}
        self.assertEqual({name: c["kinds"] for name, c in changes.items()},
                         {"b": ["dtype"], "fresh": ["added"], "gone": ["removed"], "s": ["shape"], "w": ["values"]})
        self.assertEqual(doc["unchanged"], ["e", "t"])  # t's values differ, but typed fields are not read
        self.assertEqual((changes["w"]["values"]["elements"], changes["w"]["values"]["changed"]), (4, 1))
        self.assertFalse(changes["s"]["values"]["compared"])
        self.assertIn("typed field", changes["s"]["values"]["reason"])
        self.assertEqual([f["format"] for f in doc["old"]["files"]], ["onnx"])
        self.assertTrue(any("the values of 3 tensor pairs were not compared" in n for n in doc["notes"]), doc["notes"])
        # Without --values the headers alone: w is unchanged, the gate on values passes.
        out = subprocess.run([TENSORGATE, "diff", "--format", "json", "--fail-on", "values", old, new],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 0)
        self.assertNotIn("w", [(c["new"] or c["old"])["name"] for c in json.loads(out.stdout)["changes"]])


if __name__ == "__main__":
    unittest.main()
