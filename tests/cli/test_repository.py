#!/usr/bin/env python3
"""End-to-end tests of `tensorgate check` on what a model repository holds besides weights:
split GGUF sets (family GS) as a directory and as files given together, and chat templates
(family CT) in chat_template.jinja, tokenizer_config.json (a string and a list of {name,
template}), GGUF metadata, model directories and alone. Verdicts, error families, warnings and
exit statuses from --format json; JSON and SARIF against their schemas; the text form.

usage: test_repository.py TENSORGATE WRITE_REPO_CASES DOCS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import jsonschema

from e2e_support import load_schemas

TENSORGATE, WRITE_REPO_CASES, DOCS = sys.argv[1:4]
ROOT = os.path.dirname(os.path.abspath(DOCS))
TEMPLATES = os.path.join(ROOT, "tests", "data", "chat_templates")
del sys.argv[1:4]


def run(*args):
    return subprocess.run([TENSORGATE, *args], capture_output=True, check=False)


def ids(entry, severity=None, family=None):
    return [f["rule"] for f in entry["findings"]
            if (severity is None or f["severity"] == severity) and (family is None or f["rule"].startswith(family + "."))]


def error_rules():
    """The ids of the rules that are errors by default (`tensorgate rules`)."""
    catalogue = json.loads(run("rules").stdout)
    rules = catalogue["rules"] if isinstance(catalogue, dict) else catalogue
    return {r["id"] for r in rules if r["severity"] == "error"}


def expected_templates():
    """(relative path, [CT rule ids]) of every template of tests/data/chat_templates/."""
    out = []
    with open(os.path.join(TEMPLATES, "expected.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                parts = line.split()
                out.append((parts[0], parts[1:]))
    return out


class RepositoryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.cases = os.path.join(cls.tmp.name, "cases")
        subprocess.run([WRITE_REPO_CASES, TEMPLATES, cls.cases], check=True)
        cls.report_schema, cls.sarif_schema = load_schemas(DOCS)
        with open(os.path.join(cls.cases, "split", "manifest.txt"), encoding="utf-8") as f:
            cls.split_cases = [line.split() for line in f if line.strip()]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_json(self, *args):
        out = run("check", "--format", "json", *args)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.report_schema)
        return out.returncode, doc

    def model_dir(self, name, files):
        """A valid tinyllm bigram model directory plus `files` (name -> text)."""
        d = os.path.join(self.tmp.name, "models", name)
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "samples", "tinyllm-bigram.safetensors"), os.path.join(d, "model.safetensors"))
        with open(os.path.join(d, "config.json"), "w", encoding="utf-8") as f:
            f.write('{"tl_arch": "bigram", "vocab_size": 16, "tl_tokenizer": "byte"}')
        for file, text in files.items():
            with open(os.path.join(d, file), "w", encoding="utf-8") as f:
                f.write(text)
        return d

    def test_split_sets_as_directories(self):
        self.assertGreaterEqual(len(self.split_cases), 10)
        for name, verdict, errors in self.split_cases:
            with self.subTest(case=name):
                code, doc = self.check_json(os.path.join(self.cases, "split", name))
                directory = doc["files"][-1]
                self.assertEqual(directory["format"], "model-directory")
                self.assertEqual(directory["valid"], verdict == "valid", directory["findings"])
                self.assertEqual(code, 0 if verdict == "valid" else 1)
                want = [] if errors == "-" else errors.split(",")
                self.assertEqual(sorted(set(ids(directory, "error"))), sorted(want))
                for shard in doc["files"][:-1]:  # the content decides: a shard with a broken magic is no GGUF
                    broken = name == "invalid_shard" and not shard["valid"]
                    self.assertEqual(shard["format"], "unknown" if broken else "gguf", shard["path"])
                if name == "whole":
                    for shard in doc["files"][:-1]:  # a later shard has no metadata of its own: no warning for it
                        self.assertEqual(ids(shard, "warning"), [], shard["path"])
                    s = directory["summary"]
                    self.assertEqual((s["sharded"], s["shard_count"], s["parameters"], s["architecture"]), (True, 3, 64, "llama"))
                    self.assertEqual(s["parameter_count"], {"F32": 64})
                    self.assertEqual(len(s["split_sets"]), 1)
                    self.assertEqual(s["split_sets"][0]["files"], [f"model-0000{i}-of-00003.gguf" for i in (1, 2, 3)])

    def test_split_sets_as_files_given_together(self):
        for name, verdict, errors in self.split_cases:
            with self.subTest(case=name):
                d = os.path.join(self.cases, "split", name)
                shards = sorted(os.path.join(d, f) for f in os.listdir(d))
                code, doc = self.check_json(*shards)
                entry = doc["files"][-1]
                self.assertEqual(entry["format"], "model-directory")
                self.assertTrue(entry["path"].endswith(".gguf"))
                self.assertEqual(entry["valid"], verdict == "valid", entry["findings"])
                self.assertEqual(code, 0 if verdict == "valid" else 1)
                want = [] if errors == "-" else errors.split(",")
                self.assertEqual(sorted(set(ids(entry, "error"))), sorted(want))
        # One shard alone is a file, not a set.
        lone = os.path.join(self.cases, "split", "missing_shard", "model-00001-of-00003.gguf")
        code, doc = self.check_json(lone)
        self.assertEqual((code, [f["format"] for f in doc["files"]]), (0, ["gguf"]))

    def test_chat_templates_wherever_they_are(self):
        cases = expected_templates()
        self.assertGreaterEqual(len(cases), 150)
        errors = error_rules()
        for path, want in cases:
            with open(os.path.join(TEMPLATES, path), encoding="utf-8", newline="") as f:
                text = f.read()
            invalid = any(rule in errors for rule in want)
            stem = path.replace("/", "_")[: -len(".jinja")]
            placements = {
                "chat_template.jinja": self.model_dir(stem + "_jinja", {"chat_template.jinja": text}),
                "tokenizer_config.json": self.model_dir(stem + "_json", {"tokenizer_config.json": json.dumps(
                    {"bos_token": "<s>", "chat_template": text})}),
                "tokenizer_config.json list": self.model_dir(stem + "_list", {"tokenizer_config.json": json.dumps(
                    {"chat_template": [{"name": "default", "template": "{{ x }}"}, {"name": "rag", "template": text}]})}),
            }
            for where, d in placements.items():
                with self.subTest(template=path, where=where):
                    code, doc = self.check_json(d)
                    directory = doc["files"][-1]
                    self.assertEqual(ids(directory, family="CT"), want)
                    self.assertEqual(directory["valid"], not invalid)
                    self.assertEqual(code, 1 if invalid else 0)
                    strict = run("check", "--fail-on", "warning", d).returncode
                    self.assertEqual(strict, 1 if want else 0)
            with self.subTest(template=path, where="alone"):
                code, doc = self.check_json(os.path.join(TEMPLATES, path))
                entry = doc["files"][0]
                self.assertEqual((entry["format"], ids(entry)), ("chat-template", want))
                self.assertEqual(code, 1 if invalid else 0)
                if want:
                    self.assertIsNotNone(entry["findings"][0]["offset"], "a .jinja file's findings have file offsets")
            with self.subTest(template=path, where="GGUF"):
                code, doc = self.check_json(os.path.join(self.cases, "gguf_templates", stem + ".gguf"))
                entry = doc["files"][0]
                self.assertEqual((entry["format"], ids(entry, family="CT")), ("gguf", want))
                self.assertEqual(code, 1 if invalid else 0)

    def test_template_files_found_by_a_walk(self):
        d = os.path.join(self.tmp.name, "walk", "not-a-model")
        os.makedirs(d)
        with open(os.path.join(d, "tokenizer_config.json"), "w", encoding="utf-8") as f:
            json.dump({"chat_template": "{{ x|attr('__class__') }}"}, f)
        with open(os.path.join(d, "tool_use.jinja"), "w", encoding="utf-8") as f:
            f.write("{{ messages[0]['content'] }}")
        with open(os.path.join(d, "README.md"), "w", encoding="utf-8") as f:
            f.write("{{ x.__class__ }}")
        code, doc = self.check_json(os.path.dirname(d))
        self.assertEqual(code, 1)
        entries = {os.path.basename(e["path"]): e for e in doc["files"]}
        self.assertEqual(sorted(entries), ["tokenizer_config.json", "tool_use.jinja"])
        self.assertEqual(ids(entries["tokenizer_config.json"]), ["CT.python-internals"])
        self.assertTrue(entries["tool_use.jinja"]["valid"])
        self.assertEqual(entries["tokenizer_config.json"]["summary"]["templates"], [{"name": "chat_template", "bytes": 25}])

    def test_default_deny_passes_real_templates_and_fails_hostile_ones(self):
        # --fail-on warning: every real template of tests/data/chat_templates/real/ has no finding.
        self.assertEqual(run("check", "--fail-on", "warning", os.path.join(TEMPLATES, "real")).returncode, 0)
        self.assertEqual(run("check", "--fail-on", "warning", os.path.join(TEMPLATES, "hostile")).returncode, 1)
        code, doc = self.check_json(os.path.join(TEMPLATES, "real"))
        self.assertEqual(code, 0)
        self.assertGreaterEqual(len(doc["files"]), 100)
        self.assertEqual([e["path"] for e in doc["files"] if e["findings"]], [])

    def test_every_template_file_of_a_model_directory(self):
        hostile = "{{ messages|map(attribute='xxclassxx'|replace('x', '_'))|list }}"
        d = self.model_dir("template_files", {
            "processor_config.json": json.dumps({"processor_class": "X", "chat_template": hostile}),
            "foo_config.json": json.dumps({"chat_template": "{{ '{0.x}'.format(y) }}"}),
            "generation_config.json": json.dumps({"max_new_tokens": 16}),
        })
        os.makedirs(os.path.join(d, "additional_chat_templates"), exist_ok=True)
        with open(os.path.join(d, "additional_chat_templates", "tool_use.jinja"), "w", encoding="utf-8") as f:
            f.write("{{ x|attr(name) }}")
        code, doc = self.check_json(d)
        self.assertEqual(code, 1)
        self.assertEqual(len(doc["files"]), 2, "the model file and the directory: the nested template is the directory's")
        directory = doc["files"][-1]
        self.assertEqual(sorted(ids(directory, "error", "CT")), ["CT.attr-filter", "CT.computed-attribute", "CT.str-format"])
        files = sorted({t["file"] for t in directory["summary"]["chat_templates"]})
        self.assertEqual(files, ["additional_chat_templates/tool_use.jinja", "foo_config.json", "processor_config.json"])

    def test_sarif_and_text(self):
        d = self.model_dir("sarif", {"chat_template.jinja": "{{ lipsum.__globals__ }}"})
        shards = os.path.join(self.cases, "split", "one_based_split_no")
        out = run("check", "--format", "sarif", d, shards)
        sarif = json.loads(out.stdout)
        jsonschema.validate(sarif, self.sarif_schema)
        rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
        self.assertIn("CT.python-internals", rules)
        self.assertIn("GS.split-no", rules)
        text = run("check", "--color", "never", os.path.join(TEMPLATES, "hostile", "escape_hex.jinja")).stdout.decode()
        self.assertIn("INVALID chat template file, 1 error, 1 template", text)
        self.assertIn("CT.python-internals", text)
        text = run("check", "--color", "never", os.path.join(self.cases, "split", "whole")).stdout.decode()
        self.assertIn("valid model directory, llama, 3 layers, 64 parameters (F32), 3 shards", text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
