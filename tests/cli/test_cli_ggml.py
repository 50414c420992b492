#!/usr/bin/env python3
"""End to end: legacy GGML files (tests/data/ggml, laid out as whisper.cpp's and llama.cpp's
writers lay them) checked by content under a .bin name: whisper models pass without a warning,
llama files of every layout pass with GL.legacy, hostile files fail with their GL rule, a
directory of .bin files checks each; `tensorgate diff` reads two of them. JSON against the report
schema, text, SARIF, exit statuses.

usage: test_cli_ggml.py TENSORGATE DOCS_DIR DATA_DIR
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


class CliGgmlTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_whisper_models_pass_without_a_warning(self):
        code, doc = self.check(os.path.join(DATA, "whisper_tiny.bin"))
        self.assertEqual(code, 0, doc)
        entry = self.entry(doc, "whisper_tiny.bin")
        self.assertEqual(entry["format"], "ggml")
        self.assertEqual(rules(entry), [])
        s = entry["summary"]
        self.assertEqual(s["layout"], "whisper")
        self.assertEqual(s["mel_filters"], [4, 5])
        self.assertEqual(s["hyperparameters"]["n_text_layer"], 1)
        self.assertEqual(s["tensor_count"], 50)
        self.assertEqual(s["tensors"][1]["name"], "encoder.conv1.weight")

    def test_llama_files_pass_with_the_legacy_warning(self):
        for name, layout, version in (("llama_ggjt_v3.bin", "llama-ggjt", 3), ("llama_ggmf_v1.bin", "llama-ggmf", 1),
                                      ("llama_ggml.bin", "llama-ggml", 0)):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name)
                self.assertEqual(rules(entry), ["GL.legacy"])
                self.assertEqual((entry["summary"]["layout"], entry["summary"]["version"]), (layout, version))
                self.assertIsNone(entry["summary"]["mel_filters"])
        code, _ = self.check("--fail-on", "warning", os.path.join(DATA, "llama_ggjt_v3.bin"))
        self.assertEqual(code, 1)

    def test_hostile_files_get_their_rule(self):
        for name, rule in (("bad_version_ggjt4.bin", "GL.version"), ("unplaceable_gpt2.bin", "GL.header"),
                           ("vocab_past_end.bin", "GL.vocab"), ("n_dims_5.bin", "GL.tensor"),
                           ("misaligned.bin", "GL.alignment"), ("truncated.bin", "GL.truncated"),
                           ("whisper_cut_between_records.bin", "GL.truncated"), ("trailing.bin", "GL.trailing")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                self.assertEqual(rules(self.entry(doc, name), "error"), [rule])

    def test_text_and_sarif(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "whisper_tiny.bin")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn("valid ggml, whisper, 50 tensors, 34,784 parameters, vocabulary of 6, mel filters 4 x 5", out.stdout)
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", os.path.join(DATA, "misaligned.bin")],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 1)
        results = json.loads(out.stdout)["runs"][0]["results"]
        self.assertEqual(sorted(r["ruleId"] for r in results), ["GL.alignment", "GL.legacy"])

    def test_a_directory_checks_its_bin_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("whisper_tiny.bin", "n_dims_5.bin"):
                shutil.copy(os.path.join(DATA, name), os.path.join(d, name))
            code, doc = self.check(d)
            self.assertEqual(code, 1, doc)
            self.assertEqual(rules(self.entry(doc, "n_dims_5.bin"), "error"), ["GL.tensor"])
            self.assertEqual(rules(self.entry(doc, "whisper_tiny.bin")), [])

    def test_a_whisper_model_folder_is_a_model_directory_with_weights(self):
        # A config.json makes it a model directory; its ggml-*.bin files are the models.
        with tempfile.TemporaryDirectory() as parent:
            d = os.path.join(parent, "whisper-ggml")
            os.mkdir(d)
            shutil.copy(os.path.join(DATA, "whisper_tiny.bin"), os.path.join(d, "ggml-tiny.bin"))
            shutil.copy(os.path.join(DATA, "whisper_q5_0.bin"), os.path.join(d, "ggml-tiny-q5_0.bin"))
            with open(os.path.join(d, "config.json"), "w") as f:
                f.write('{"model_type": "whisper"}')
            code, doc = self.check(d)
            self.assertEqual(code, 0, doc)
            entry = self.entry(doc, "whisper-ggml")
            self.assertEqual(entry["format"], "model-directory")
            self.assertNotIn("MD.no-weights", rules(entry))
            self.assertEqual(sorted(entry["summary"]["files"]), ["ggml-tiny-q5_0.bin", "ggml-tiny.bin"])

    def test_diff_reads_the_tensor_records(self):
        out = subprocess.run([TENSORGATE, "diff", "--values", os.path.join(DATA, "llama_ggjt_v2_f16.bin"),
                              os.path.join(DATA, "llama_ggmf_v1.bin")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("0 tensors changed, 12 unchanged (values compared)", out.stdout)
        out = subprocess.run([TENSORGATE, "diff", os.path.join(DATA, "llama_ggjt_v3.bin"),
                              os.path.join(DATA, "llama_ggjt_v3_q8_0.bin")], capture_output=True, text=True)
        self.assertIn("8 tensors changed", out.stdout)


if __name__ == "__main__":
    unittest.main()
