#!/usr/bin/env python3
"""deploy/kubernetes/scan-job.yaml against the real CLI: an Indexed Job whose pods run
`tensorgate check --list FILE --shard K/N --format json`. Checked here: the Job is Indexed with
N completions and --shard K/N uses that N and the completion index; every flag the manifest
passes is one `tensorgate check` takes; the list is the mounted ConfigMap; and the manifest's
own command, run for K = 0..N-1 over a list of local files, gives N single-line JSON documents
(valid against the report schema, exit status 0) that merge, as docs/remote.md says, into one
report holding every entry exactly once.

usage: test_scan_job.py TENSORGATE WRITE_SAMPLES REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import jsonschema
import yaml

TENSORGATE, WRITE_SAMPLES, ROOT = sys.argv[1:4]
del sys.argv[1:4]
MANIFEST = os.path.join(ROOT, "deploy", "kubernetes", "scan-job.yaml")
INDEX_ANNOTATION = "metadata.annotations['batch.kubernetes.io/job-completion-index']"


class ScanJobTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(MANIFEST, encoding="utf-8") as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
        cls.job = next(d for d in docs if d["kind"] == "Job")
        cls.config_maps = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
        cls.pod = cls.job["spec"]["template"]["spec"]
        cls.container = cls.pod["containers"][0]
        with open(os.path.join(ROOT, "docs", "report.schema.json"), encoding="utf-8") as f:
            cls.schema = json.load(f)

    def flag(self, name):
        args = self.container["args"]
        return args[args.index(name) + 1]

    def test_the_job_is_indexed_and_the_shards_are_its_completions(self):
        spec = self.job["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        self.assertEqual(self.pod["restartPolicy"], "Never")
        n = spec["completions"]
        self.assertGreaterEqual(spec["parallelism"], 1)
        self.assertEqual(self.flag("--shard"), f"$(SHARD)/{n}")
        env = {e["name"]: e for e in self.container["env"]}
        self.assertEqual(env["SHARD"]["valueFrom"]["fieldRef"]["fieldPath"], INDEX_ANNOTATION)
        self.assertTrue(env["TENSORGATE_TOKEN"]["valueFrom"]["secretKeyRef"]["optional"])

    def test_every_flag_is_one_the_cli_takes(self):
        self.assertEqual(self.container["command"], ["/usr/local/bin/tensorgate"])
        args = self.container["args"]
        self.assertEqual(args[0], "check")
        help_text = subprocess.run([TENSORGATE, "check", "--help"], capture_output=True, text=True, check=True).stdout
        for arg in args:
            if arg.startswith("--"):
                self.assertRegex(help_text, r"\[" + re.escape(arg) + r"[ \]]", arg)
        self.assertEqual(self.flag("--format"), "json")
        self.assertEqual(self.flag("--fail-on"), "none")

    def test_the_list_is_the_mounted_config_map(self):
        path = self.flag("--list")
        mount = next(m for m in self.container["volumeMounts"] if path.startswith(m["mountPath"] + "/"))
        volume = next(v for v in self.pod["volumes"] if v["name"] == mount["name"])
        config_map = self.config_maps[volume["configMap"]["name"]]
        key = os.path.relpath(path, mount["mountPath"])
        entries = [line for line in config_map["data"][key].splitlines() if line.strip() and not line.startswith("#")]
        self.assertTrue(entries)
        for entry in entries:
            self.assertRegex(entry, r"^https://")

    def test_the_pods_commands_cover_every_entry_once_and_merge(self):
        with tempfile.TemporaryDirectory() as tmp:
            samples = os.path.join(tmp, "samples")
            subprocess.run([WRITE_SAMPLES, samples], check=True, capture_output=True)
            entries = sorted(os.path.join(samples, n) for n in os.listdir(samples)
                             if n.endswith(".safetensors") and os.path.getsize(os.path.join(samples, n)) < 1 << 20)
            listing = os.path.join(tmp, "list.txt")
            with open(listing, "w") as f:
                f.write("# the manifest's list, local files instead of URLs\n" + "\n".join(entries) + "\n")
            n = self.job["spec"]["completions"]
            lines = []
            for k in range(n):
                args = [a.replace("$(SHARD)", str(k)) for a in self.container["args"]]
                args[args.index("--list") + 1] = listing
                out = subprocess.run([TENSORGATE, *args], capture_output=True, text=True, check=False)
                self.assertEqual(out.returncode, 0, out.stderr)  # invalid samples do not fail the pod
                self.assertEqual(out.stdout.count("\n"), 1)     # one JSON document, one line
                lines.append(out.stdout)
            # The merge of docs/remote.md (jq -s), in Python.
            docs = [json.loads(line) for line in lines]
            merged = {"schema": docs[0]["schema"], "tool": docs[0]["tool"], "files": [f for d in docs for f in d["files"]]}
            jsonschema.validate(merged, self.schema)
            self.assertEqual(sorted(f["path"] for f in merged["files"]), entries)
            self.assertTrue(any(not f["valid"] for f in merged["files"]))
            for f in merged["files"]:
                self.assertNotIn("tensors", f["summary"] or {})  # --no-tensors


if __name__ == "__main__":
    unittest.main()
