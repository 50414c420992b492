#!/usr/bin/env python3
"""End-to-end tests of `tensorgate diff OLD NEW`: model pairs written by write_diff_pairs
(identical, re-sharded, fine-tuned, resized, renamed, a tensor removed, a safetensors/GGUF
conversion, an invalid side) get the exact list of changed tensors and kinds and the exit
status under --fail-on, through --format json validated against docs/diff.schema.json (its
findings against docs/report.schema.json); SARIF against its schema, markdown and text; usage
and I/O errors.

usage: test_diff.py TENSORGATE WRITE_DIFF_PAIRS DOCS_DIR
"""
import json
import os
import subprocess
import sys
import unittest

import jsonschema

from e2e_support import load_schemas, write_cases

TENSORGATE, WRITE_PAIRS, DOCS = sys.argv[1:4]
del sys.argv[1:4]

KINDS = ["added", "removed", "renamed", "dtype", "shape", "values", "metadata", "config"]


def run(*args):
    return subprocess.run([TENSORGATE, "diff", *args], capture_output=True, check=False)


def change_text(c):
    old, new = c["old"], c["new"]
    name = (new or old)["name"]
    if old and new and old["name"] != new["name"]:
        name = old["name"] + ">" + new["name"]
    return name + ":" + "+".join(c["kinds"])


class DiffTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.cases, cls.manifest = write_cases(WRITE_PAIRS, "pairs")
        report_schema, cls.sarif_schema = load_schemas(DOCS)
        with open(os.path.join(DOCS, "diff.schema.json"), encoding="utf-8") as f:
            cls.diff_schema = json.load(f)
        resolver = jsonschema.RefResolver.from_schema(cls.diff_schema, store={report_schema["$id"]: report_schema})
        cls.validator = jsonschema.Draft202012Validator(cls.diff_schema, resolver=resolver)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, rel):
        return os.path.join(self.cases, rel)

    def diff_json(self, *args):
        out = run(*args, "--format", "json")
        doc = json.loads(out.stdout)
        self.validator.validate(doc)
        return out.returncode, doc

    def case(self, name):
        for row in self.manifest:
            if row[0] == name:
                return row
        raise KeyError(name)

    def case_args(self, name):
        _, old, new, values, fail_on, _, _ = self.case(name)
        args = [self.path(old), self.path(new)]
        if values == "1":
            args.append("--values")
        if fail_on:
            args += ["--fail-on", fail_on]
        return args

    def test_every_pair_gets_its_changes_and_exit_status(self):
        self.assertEqual(len(self.manifest), 13)
        for name, _, _, values, fail_on, status, changes in self.manifest:
            with self.subTest(case=name):
                code, doc = self.diff_json(*self.case_args(name))
                self.assertEqual(code, int(status), doc["gate"])
                self.assertEqual([change_text(c) for c in doc["changes"]], changes.split())
                self.assertEqual(doc["values_compared"], values == "1" and name != "invalid-new")
                self.assertEqual(doc["gate"]["passed"], status == "0")
                self.assertEqual(doc["summary"]["tensors_changed"], len(doc["changes"]))
                for kind in KINDS:
                    n = sum(kind in c["kinds"] for c in doc["changes"]) + sum(k["kind"] == kind for k in doc["keys"])
                    self.assertEqual(doc["summary"]["kinds"][kind], n, kind)

    def test_values_and_totals(self):
        _, doc = self.diff_json(*self.case_args("fine-tuned"))
        q = doc["changes"][0]["values"]
        self.assertEqual((q["compared"], q["identical"], q["elements"], q["changed"]), (True, False, 256, 1))
        self.assertAlmostEqual(q["changed_fraction"], 1 / 256)
        self.assertGreater(q["max_abs_diff"], 0)
        self.assertEqual(len(doc["unchanged"]), 18)
        _, doc = self.diff_json(*self.case_args("resized"))
        embed = doc["changes"][0]
        self.assertEqual(embed["old"]["shape"], [12, 16])
        self.assertEqual(embed["new"]["shape"], [16, 16])
        self.assertEqual(embed["values"]["scope"], "common-rows")
        self.assertTrue(embed["values"]["identical"])
        self.assertEqual(doc["keys"], [{"kind": "config", "key": "vocab_size", "old": "12", "new": "16"}])
        self.assertEqual(doc["new"]["parameters"] - doc["old"]["parameters"], 64)
        self.assertEqual(doc["gate"]["failed"], ["shape"])
        self.assertTrue(doc["new"]["directory_findings"] == [] or all(
            f["rule"].startswith("AR") or f["severity"] != "error" for f in doc["new"]["directory_findings"]))
        _, doc = self.diff_json(*self.case_args("resharded"))
        self.assertEqual(len(doc["new"]["files"]), 3)
        self.assertEqual(doc["bytes_read"], doc["old"]["bytes"] + doc["new"]["bytes"])
        _, doc = self.diff_json(*self.case_args("converted"))
        self.assertEqual(doc["name_map"], "llama")
        rope = [c for c in doc["changes"] if c["kinds"] == ["added"]][0]
        self.assertEqual(rope["note"], "generated by llama.cpp's converter")
        self.assertTrue(all(c["values"]["changed"] == 0 for c in doc["changes"] if c["values"]))
        _, doc = self.diff_json(*self.case_args("invalid-new"))
        self.assertIn("is invalid", doc["invalid"])
        self.assertFalse(doc["new"]["valid"])
        self.assertTrue(any(f["severity"] == "error" for f in doc["new"]["files"][0]["findings"]))

    def test_sarif(self):
        out = run("--format", "sarif", *self.case_args("resized"))
        self.assertEqual(out.returncode, 1)
        sarif = json.loads(out.stdout)
        jsonschema.validate(sarif, self.sarif_schema)
        run0 = sarif["runs"][0]
        rules = run0["tool"]["driver"]["rules"]
        catalogue = json.loads(subprocess.run([TENSORGATE, "rules"], capture_output=True, check=True).stdout)["rules"]
        self.assertEqual([r["id"] for r in rules], [r["id"] for r in catalogue] + ["diff/" + k for k in KINDS])
        changes = [r for r in run0["results"] if r["ruleId"].startswith("diff/")]
        self.assertEqual(sorted((r["ruleId"], r["level"]) for r in changes), [("diff/config", "note"), ("diff/shape", "error")])
        for r in run0["results"]:
            self.assertEqual(rules[r["ruleIndex"]]["id"], r["ruleId"])
        shape = [r for r in changes if r["ruleId"] == "diff/shape"][0]
        location = shape["locations"][0]["physicalLocation"]
        self.assertTrue(location["artifactLocation"]["uri"].endswith("resized/new/model.safetensors"))
        self.assertGreater(location["region"]["byteOffset"], 8)

    def test_markdown_and_text(self):
        out = run("--format", "markdown", *self.case_args("fine-tuned"))
        self.assertEqual(out.returncode, 1)
        md = out.stdout.decode()
        self.assertIn("| change | tensor | old | new | values |", md)
        self.assertIn("| values | `model.layers.0.self_attn.q_proj.weight` | BF16 [16, 16] | BF16 [16, 16] |", md)
        self.assertIn("<details><summary>18 unchanged tensors</summary>", md)
        self.assertIn("Gate: **FAILED on values (fails on values)**", md)
        text = run(*self.case_args("renamed")).stdout.decode()
        self.assertIn("1 tensor changed, 19 unchanged (headers only", text)
        self.assertIn("model.layers.1.mlp.up_proj.weight -> model.layers.1.mlp.fc_in.weight", text)
        self.assertIn("gate: passed (fails on added, removed)", text)

    def test_usage_and_io_errors(self):
        old, new = self.case_args("identical")[:2]
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run(old).returncode, 2)
        self.assertEqual(run(old, new, "--format", "xml").returncode, 2)
        self.assertEqual(run(old, new, "--fail-on", "shapes").returncode, 2)
        code, doc = self.diff_json(old, os.path.join(self.tmp.name, "absent.safetensors"))
        self.assertEqual(code, 2)
        self.assertIn("absent.safetensors", doc["error"])
        self.assertIn("usage: tensorgate diff", run("--help").stdout.decode())


if __name__ == "__main__":
    unittest.main(verbosity=2)
