#!/usr/bin/env python3
"""End to end: TorchScript archives (docs/rules.md, TS) as torch.jit.save wrote them
(tests/data/torchscript/, made by make_fixtures.py): recognised as TorchScript with a warning
(TS.torchscript) and their classes and code files in the zip summary; code that reads files or
calls a custom library (TS.code), imports a denied module (TS.code), does not lex (TS.code-lex);
a class without its code file; the same data.pkl in a zip without code (PK.dangerous-global).
JSON against the report schema, text, exit statuses under --fail-on.

usage: test_cli_torchscript.py TENSORGATE DOCS_DIR DATA_DIR
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


class CliTorchScriptTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, _ = load_schemas(DOCS)

    def path(self, name):
        return os.path.join(DATA, name)

    def test_archives_torch_jit_save_wrote_pass_with_a_warning(self):
        for name, bytecode in (("two_layer.pt", False), ("two_layer_mobile.ptl", True)):
            with self.subTest(name=name):
                code, doc = self.check(self.path(name))
                self.assertEqual(code, 0, doc)
                entry = self.entry(doc, name)
                self.assertEqual(entry["format"], "zip")
                self.assertEqual(rules(entry), ["TS.torchscript"])
                ts = entry["summary"]["torchscript"]
                self.assertEqual(ts["bytecode"], bytecode)
                self.assertEqual([c["name"] for c in ts["classes"]][0], "__torch__.TwoLayer")
                self.assertEqual(len(ts["code_files"]), 3)
                self.assertTrue(all("/code/" in f["entry"] for f in ts["code_files"]))
                self.assertIn("code", {e["content"] for e in entry["summary"]["entry_list"]})
                self.assertTrue(entry["summary"]["pytorch"]["data_pkl_valid"])
                # A gate that refuses warnings refuses TorchScript.
                strict = subprocess.run([TENSORGATE, "check", "--fail-on", "warning", self.path(name)],
                                        capture_output=True, check=False)
                self.assertEqual(strict.returncode, 1)

    def test_hostile_code_is_an_error(self):
        for name, rule, said in (("from_file.pt", "TS.code", "torch.from_file"),
                                 ("custom_op.pt", "TS.code", "evil_lib"),
                                 ("import_os.pt", "TS.code", "\"os\""),
                                 ("bytecode_custom_op.ptl", "TS.code", "bytecode.pkl"),
                                 ("unterminated.pt", "TS.code-lex", "string literal")):
            with self.subTest(name=name):
                code, doc = self.check(self.path(name))
                self.assertEqual(code, 1, doc)
                entry = self.entry(doc, name)
                self.assertFalse(entry["valid"])
                self.assertEqual(rules(entry, "error"), [rule])
                self.assertIn(said, [f["message"] for f in entry["findings"] if f["rule"] == rule][0])
                self.assertIsNotNone(entry["summary"]["torchscript"])

    def test_a_class_without_its_code_file_is_unknown(self):
        code, doc = self.check(self.path("missing_code.pt"))
        self.assertEqual(code, 0, doc)
        entry = self.entry(doc, "missing_code.pt")
        self.assertEqual(rules(entry), ["TS.torchscript", "PK.unknown-global", "PK.unknown-global"])

    def test_torchscript_globals_outside_torchscript_are_hostile(self):
        code, doc = self.check(self.path("no_code.zip"))
        self.assertEqual(code, 1, doc)
        entry = self.entry(doc, "no_code.zip")
        self.assertEqual(rules(entry), ["PK.dangerous-global"] * 3)
        self.assertIsNone(entry["summary"]["torchscript"])
        self.assertFalse(entry["summary"]["pytorch"]["data_pkl_valid"])

    def test_the_text_report_says_torchscript(self):
        out = subprocess.run([TENSORGATE, "check", "--color", "never", self.path("two_layer.pt")],
                             capture_output=True, text=True, check=False)
        self.assertEqual(out.returncode, 0, out.stdout)
        self.assertIn("TorchScript: 3 scripted classes, 3 code files", out.stdout)


if __name__ == "__main__":
    unittest.main()
