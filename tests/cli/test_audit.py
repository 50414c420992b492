#!/usr/bin/env python3
"""End-to-end tests of `tensorgate audit SRC GGUF`: conversions written by
audit_write_conversions (faithful ones, and ones with a flipped bit, unpermuted q/k, a missing
or unexplained tensor, missing or wrong rope frequencies, metadata that contradicts the config,
lossy targets within and beyond their thresholds) get their verdict, their AU findings and
their exit status through --format json, validated against docs/report.schema.json; SARIF
against its schema; the text table; usage and I/O errors.

usage: test_audit.py TENSORGATE AUDIT_WRITE_CONVERSIONS DOCS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import jsonschema

from e2e_support import load_schemas, write_cases

TENSORGATE, WRITE_CONVERSIONS, DOCS = sys.argv[1:4]
del sys.argv[1:4]


def run(*args):
    return subprocess.run([TENSORGATE, *args], capture_output=True, check=False)


class AuditTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.cases, cls.manifest = write_cases(WRITE_CONVERSIONS, "cases")
        cls.report_schema, cls.sarif_schema = load_schemas(DOCS)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def paths(self, case):
        return os.path.join(self.cases, case, "src"), os.path.join(self.cases, case, "model.gguf")

    def audit_json(self, src, gguf):
        out = run("audit", src, gguf, "--format", "json")
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.report_schema)
        return out.returncode, doc

    def test_every_case_gets_its_verdict_findings_and_exit_status(self):
        self.assertGreaterEqual(len(self.manifest), 12)
        for name, status, errors in self.manifest:
            with self.subTest(case=name):
                code, doc = self.audit_json(*self.paths(name))
                self.assertEqual(code, int(status))
                self.assertEqual(len(doc["files"]), 1)
                entry = doc["files"][0]
                self.assertEqual(entry["format"], "conversion-audit")
                self.assertEqual(entry["path"], self.paths(name)[1])
                self.assertEqual(entry["valid"], status == "0")
                self.assertEqual(entry["summary"]["faithful"], status == "0")
                got = [f["rule"] for f in entry["findings"] if f["severity"] == "error"]
                self.assertEqual(got, errors.split())
                self.assertTrue(all(f["rule"].startswith("AU.") for f in entry["findings"]))

    def test_faithful_conversion_table_and_accounting(self):
        _, doc = self.audit_json(*self.paths("faithful"))
        summary = doc["files"][0]["summary"]
        self.assertEqual(summary["architecture"], "llama")
        self.assertEqual(summary["counts"], {"exact": 20, "lossy": 0, "not_compared": 0, "generated": 1, "failed": 0})
        rows = {r["gguf"]: r for r in summary["tensors"]}
        q = rows["blk.0.attn_q.weight"]
        self.assertEqual(q["source"], "model.layers.0.self_attn.q_proj.weight")
        self.assertEqual(q["verdict"], "exact")
        self.assertIn("permuted (4 heads)", q["transform"])
        self.assertIsNone(rows["rope_freqs.weight"]["source"])
        acc = summary["byte_accounting"]
        self.assertEqual(acc["difference"], acc["gguf_tensor_bytes"] - acc["source_tensor_bytes"])
        self.assertEqual(sum(line["difference"] for line in acc["explained_by"]), acc["difference"])
        widened = [line for line in acc["explained_by"] if line["what"] == "BF16 -> F32"]
        self.assertEqual(widened[0]["tensors"], 5)

    def test_lossy_errors_are_reported(self):
        _, doc = self.audit_json(*self.paths("lossy-q8_0"))
        rows = [r for r in doc["files"][0]["summary"]["tensors"] if r["gguf_type"] == "Q8_0"]
        self.assertEqual(len(rows), 15)
        for r in rows:
            self.assertEqual(r["verdict"], "within")
            self.assertLessEqual(r["max_rel_error"], 0.0045)
        infos = [f for f in doc["files"][0]["findings"] if f["rule"] == "AU.lossy"]
        self.assertEqual(len(infos), 15)

    def test_sarif_and_text(self):
        src, gguf = self.paths("missing-rope")
        out = run("audit", "--format", "sarif", src, gguf)
        self.assertEqual(out.returncode, 1)
        sarif = json.loads(out.stdout)
        jsonschema.validate(sarif, self.sarif_schema)
        results = sarif["runs"][0]["results"]
        rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        self.assertEqual([r["ruleId"] for r in results], ["AU.rope-freqs"])
        self.assertEqual(rules[results[0]["ruleIndex"]]["id"], "AU.rope-freqs")
        text = run("audit", *self.paths("unpermuted-qk")).stdout.decode()
        self.assertIn("NOT FAITHFUL", text)
        self.assertIn("model.layers.0.self_attn.q_proj.weight", text)
        self.assertIn("permutation was not applied", text)
        self.assertIn("byte accounting", text)
        self.assertNotIn("\x1b", text)
        self.assertIn("FAITHFUL", run("audit", *self.paths("faithful-sharded")).stdout.decode())

    def test_usage_and_io_errors(self):
        src, gguf = self.paths("faithful")
        self.assertEqual(run("audit").returncode, 2)
        self.assertEqual(run("audit", src).returncode, 2)
        self.assertEqual(run("audit", src, gguf, "--format", "xml").returncode, 2)
        code, doc = self.audit_json(src, os.path.join(self.tmp.name, "absent.gguf"))
        self.assertEqual(code, 2)
        self.assertIsNotNone(doc["files"][0]["error"])
        self.assertEqual(run("audit", gguf, gguf).returncode, 2)  # SRC is not a directory

    def test_invalid_inputs_are_not_faithful(self):
        src, gguf = self.paths("faithful")
        broken = os.path.join(self.tmp.name, "broken-src")
        shutil.copytree(self.paths("faithful-sharded")[0], broken)
        os.remove(os.path.join(broken, "model-00002-of-00002.safetensors"))
        code, doc = self.audit_json(broken, gguf)
        self.assertEqual(code, 1)
        self.assertEqual([f["rule"] for f in doc["files"][0]["findings"]], ["AU.source-invalid"])
        truncated = os.path.join(self.tmp.name, "truncated.gguf")
        with open(gguf, "rb") as f, open(truncated, "wb") as g:
            g.write(f.read()[:-64])
        code, doc = self.audit_json(src, truncated)
        self.assertEqual(code, 1)
        self.assertEqual([f["rule"] for f in doc["files"][0]["findings"]], ["AU.target-invalid"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
