#!/usr/bin/env python3
"""End to end: OpenVINO IR (tests/data/openvino, built from the serializer's layout) checked by
content: `check model.xml` finds its .bin beside it and checks the pair; a directory walk takes an
xml and its .bin as one model (the .bin is no file of its own, FK.unknown or "no weights"), with
config.json as a model directory; a .bin that links out of the directory is OV.weights-missing;
the XML attacks are OV.doctype. JSON against the report schema, text, exit statuses.

usage: test_cli_openvino.py TENSORGATE DOCS_DIR DATA_DIR
"""
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


class CliOpenVinoTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def copy_pair(self, tmp, name, as_name="openvino_model"):
        shutil.copy(os.path.join(DATA, name + ".xml"), os.path.join(tmp, as_name + ".xml"))
        if os.path.exists(os.path.join(DATA, name + ".bin")):
            shutil.copy(os.path.join(DATA, name + ".bin"), os.path.join(tmp, as_name + ".bin"))

    def test_a_model_xml_is_checked_with_its_bin(self):
        for name in ("model", "model_v10"):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name + ".xml"))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name + ".xml")
                self.assertEqual(entry["format"], "openvino")
                self.assertEqual(rules(entry), [])
                self.assertEqual(entry["summary"]["bin_size"], 60)
                self.assertEqual(entry["summary"]["consts"], 2)

    def test_each_hostile_file_gets_its_rule(self):
        for name, rule, code_wanted in (("xxe", "OV.doctype", 1), ("billion_laughs", "OV.doctype", 1),
                                        ("doctype", "OV.doctype", 1), ("entity_ref", "OV.doctype", 1),
                                        ("deep", "OV.bounds", 1), ("past_bin", "OV.const", 1),
                                        ("size_mismatch", "OV.const", 1), ("unknown_type", "OV.unknown", 1),
                                        ("custom_opset", "OV.custom-opset", 0), ("unused_bytes", "OV.unused-bytes", 0),
                                        ("missing_bin", "OV.weights-missing", 1), ("bad_edge", "OV.xml", 1)):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name + ".xml"))
                self.assertEqual(code, code_wanted, doc)
                self.assertIn(rule, rules(self.entry(doc, name + ".xml")))

    def test_the_xxe_file_never_echoes_the_file_it_names(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "xxe.xml")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 1)
        self.assertIn("OV.doctype", out.stdout)
        self.assertNotIn("root:", out.stdout)

    def test_a_directory_walk_pairs_the_bin_with_its_xml(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.copy_pair(tmp, "model")
            code, doc = self.check(tmp)
            self.assertEqual(code, 0, doc)
            self.assertEqual([os.path.basename(f["path"]) for f in doc["files"]], ["openvino_model.xml"])
            self.assertEqual(self.entry(doc, "openvino_model.xml")["summary"]["bin_size"], 60)

    def test_a_model_directory_with_config_has_the_pair_as_its_weights(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.copy_pair(tmp, "model")
            with open(os.path.join(tmp, "config.json"), "w") as f:
                f.write('{"architectures": ["BertModel"], "model_type": "bert"}')
            code, doc = self.check(tmp)
            self.assertEqual(code, 0, doc)
            directory = [f for f in doc["files"] if f["format"] == "model-directory"][0]
            self.assertNotIn("MD.no-weights", rules(directory))
            summary = directory["summary"]
            self.assertEqual(summary["weights_format"], "openvino")
            self.assertEqual(summary["files"], ["openvino_model.xml"])
            self.assertNotIn("openvino_model.bin", [o["name"] for o in summary["other_files"]])
            self.assertFalse(any(f["path"].endswith(".bin") for f in doc["files"]))

    def test_a_bin_linking_out_of_the_directory_is_weights_missing(self):
        with tempfile.TemporaryDirectory() as outside, tempfile.TemporaryDirectory() as tmp:
            self.copy_pair(outside, "model")
            shutil.copy(os.path.join(DATA, "model.xml"), os.path.join(tmp, "openvino_model.xml"))
            os.symlink(os.path.join(outside, "openvino_model.bin"), os.path.join(tmp, "openvino_model.bin"))
            code, doc = self.check(tmp)
            self.assertEqual(code, 1, doc)
            self.assertEqual(rules(self.entry(doc, "openvino_model.xml")), ["OV.weights-missing"])
            # A link that stays in the directory is followed.
            os.unlink(os.path.join(tmp, "openvino_model.bin"))
            shutil.copy(os.path.join(DATA, "model.bin"), os.path.join(tmp, "weights.data"))
            os.symlink("weights.data", os.path.join(tmp, "openvino_model.bin"))
            code, doc = self.check(os.path.join(tmp, "openvino_model.xml"))
            self.assertEqual(code, 0, doc)

    def test_diff_reads_the_const_layers(self):
        out = subprocess.run([TENSORGATE, "diff", os.path.join(DATA, "model.xml"), os.path.join(DATA, "unused_bytes.xml")],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("0 tensors changed, 2 unchanged", out.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            changed = os.path.join(tmp, "model.xml")
            with open(os.path.join(DATA, "model.xml")) as f:
                text = f.read().replace('shape="3" offset="48" size="12"', 'shape="1,3" offset="48" size="12"')
            with open(changed, "w") as f:
                f.write(text)
            shutil.copy(os.path.join(DATA, "model.bin"), os.path.join(tmp, "model.bin"))
            out = subprocess.run([TENSORGATE, "diff", "--format", "json", os.path.join(DATA, "model.xml"), changed],
                                 capture_output=True, text=True)
            self.assertIn('"shape"', out.stdout)
            self.assertIn("bias", out.stdout)

    def test_the_text_report_says_the_pair(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "model.xml")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn('valid openvino, IR v11 "tiny_mlp", 6 layers, 2 Consts of 60 bytes, .bin 60 bytes', out.stdout)


if __name__ == "__main__":
    unittest.main()
