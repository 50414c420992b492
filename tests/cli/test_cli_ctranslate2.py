#!/usr/bin/env python3
"""End to end: CTranslate2 model.bin files (tests/data/ctranslate2, made by its make_fixtures.py)
checked by content: every binary version passes with its summary, each hostile file fails with its
CTR rule, a version the reader does not know is found only with --input-format ctranslate2, and a
faster-whisper model directory (model.bin, config.json, vocabulary and tokenizer files) is a valid
model directory. JSON against the report schema, text, exit statuses.

usage: test_cli_ctranslate2.py TENSORGATE DOCS_DIR DATA_DIR
"""
import os
import subprocess
import sys
import unittest

from e2e_support import JsonReports, load_schemas

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


class CliCTranslate2Test(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def test_every_version_passes_with_its_summary(self):
        for name, version in (("whisper_v6.bin", 6), ("whisper_v4.bin", 4), ("transformer_v3.bin", 3),
                              ("transformer_v2.bin", 2), ("transformer_v1.bin", 1)):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "ctranslate2")
                self.assertEqual(rules(entry), [])
                self.assertEqual(entry["summary"]["binary_version"], version)
        code, doc = self.check(os.path.join(DATA, "whisper_v6.bin"))
        summary = self.entry(doc, "whisper_v6.bin")["summary"]
        self.assertEqual(summary["spec_name"], "WhisperSpec")
        self.assertEqual(summary["aliases"], [{"name": "decoder/projection/weight", "target": "decoder/embeddings/weight"}])
        self.assertEqual(summary["variables"][0], {"name": "decoder/embeddings/weight", "dtype": "float16", "shape": [8, 4],
                                                   "offset": 68, "bytes": 64})
        code, doc = self.check("--no-tensors", os.path.join(DATA, "whisper_v6.bin"))
        self.assertNotIn("variables", self.entry(doc, "whisper_v6.bin")["summary"])

    def test_hostile_files_get_their_rule(self):
        for name, rule in (("wrong_byte_count.bin", "CTR.variable"), ("rank9.bin", "CTR.variable"),
                           ("long_name.bin", "CTR.variable"), ("bad_dtype.bin", "CTR.variable"),
                           ("duplicate_name.bin", "CTR.variable"), ("missing_alias.bin", "CTR.alias"),
                           ("too_many_variables.bin", "CTR.header"), ("truncated.bin", "CTR.truncated"),
                           ("trailing.bin", "CTR.trailing")):
            with self.subTest(name=name):
                code, doc = self.check(os.path.join(DATA, name))
                self.assertEqual(code, 1, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "ctranslate2")
                self.assertEqual(rules(entry, "error"), [rule])

    def test_an_unknown_version_is_the_readers_to_say(self):
        path = os.path.join(DATA, "bad_version.bin")
        code, doc = self.check(path)
        self.assertEqual(code, 1, doc)
        self.assertEqual(rules(self.entry(doc, "bad_version.bin"), "error"), ["FK.unknown"])
        code, doc = self.check("--input-format", "ctranslate2", path)
        self.assertEqual(code, 1, doc)
        self.assertEqual(rules(self.entry(doc, "bad_version.bin"), "error"), ["CTR.version"])
        code, doc = self.check("--input-format", "ctranslate2", os.path.join(DATA, "empty_spec.bin"))
        self.assertEqual(rules(self.entry(doc, "empty_spec.bin"), "error"), ["CTR.header"])

    def test_text(self):
        out = subprocess.run([TENSORGATE, "check", os.path.join(DATA, "whisper_v6.bin")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn('valid ctranslate2, binary version 6, "WhisperSpec" revision 3, 8 variables, 1 alias, 159 parameters',
                      out.stdout)

    def test_a_faster_whisper_directory_is_a_valid_model_directory(self):
        directory = os.path.join(DATA, "faster-whisper-tiny")
        code, doc = self.check(directory)
        self.assertEqual(code, 0, doc)
        self.assertEqual(self.entry(doc, "model.bin")["format"], "ctranslate2")
        entry = self.entry(doc, "faster-whisper-tiny")
        self.assertEqual(entry["format"], "model-directory")
        self.assertEqual(rules(entry), [])
        self.assertEqual(entry["summary"]["files"], ["model.bin"])
        self.assertEqual(entry["summary"]["weights_format"], "ctranslate2")
        self.assertEqual(entry["summary"]["parameters"], 159)
        others = [f["name"] for f in entry["summary"]["other_files"]]
        self.assertIn("vocabulary.json", others)
        self.assertIn("config.json", others)


if __name__ == "__main__":
    unittest.main()
