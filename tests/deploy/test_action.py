#!/usr/bin/env python3
"""The GitHub Action (action.yml) run here the way a runner runs a composite action: its steps
in order, `if:` conditions and `${{ }}` expressions evaluated, every `run:` step executed with
bash as GitHub does (`bash --noprofile --norc -eo pipefail`), outputs read back from
$GITHUB_OUTPUT. Only `uses:` steps (the SARIF upload) are recorded instead of run, and their
SARIF file is checked against docs/sarif-2.1.0-subset.schema.json. Then action.yml, the README's
example workflow and .github/workflows/ go through action-validator (tests/deploy/package.json).

usage: test_action.py TENSORGATE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import jsonschema
import yaml

from deploy_support import ROOT, evaluate, substitute, tensorgate_path, warning_only_safetensors

TENSORGATE = tensorgate_path(sys.argv)
NODE_BIN = os.path.join(ROOT, "tests", "deploy", "node_modules", ".bin")


def load_action():
    with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as f:
        return yaml.safe_load(f)


def read_outputs(path):
    outputs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            name, sep, value = line.rstrip("\n").partition("=")
            if sep:
                outputs[name] = value
    return outputs


class Run:
    """One run of the action: what each step did, the uploads, the log, the job's verdict."""

    def __init__(self, workspace, inputs):
        action = load_action()
        assert action["runs"]["using"] == "composite"
        defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
        unknown = set(inputs) - set(defaults)
        assert not unknown, f"not inputs of action.yml: {unknown}"
        self.context = {"inputs": {**defaults, **inputs}, "steps": {},
                        "github": {"action_path": ROOT, "workspace": workspace}}
        self.uploads, self.log, self.failed, self.ran = [], "", False, []
        self.workspace = workspace
        for step in action["runs"]["steps"]:
            self.step(step)
        self.outputs = {k: substitute(v["value"], self.context) for k, v in action["outputs"].items()}

    def step(self, step):
        # GitHub adds success() to a condition without a status function: after a failed step,
        # only always()/failure() steps run. action.yml has none, so none is emulated.
        condition = step.get("if")
        if self.failed or (condition is not None and not evaluate(condition, self.context)):
            return
        self.ran.append(step.get("name"))
        if "uses" in step:
            self.uploads.append((step["uses"], {k: substitute(v, self.context)
                                                for k, v in step.get("with", {}).items()}))
            return
        assert step["shell"] == "bash", step
        with tempfile.TemporaryDirectory() as tmp:
            output, summary = os.path.join(tmp, "output"), os.path.join(tmp, "summary")
            open(output, "w").close()
            script = os.path.join(tmp, "step.sh")
            with open(script, "w", encoding="utf-8") as f:
                f.write(step["run"])
            env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "GITHUB_ACTIONS": "true",
                   "GITHUB_ACTION_PATH": ROOT, "GITHUB_WORKSPACE": self.workspace,
                   "GITHUB_OUTPUT": output, "GITHUB_STEP_SUMMARY": summary}
            env.update({k: substitute(v, self.context) for k, v in step.get("env", {}).items()})
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                                  cwd=self.workspace, env=env, capture_output=True, text=True,
                                  check=False)
            self.log += proc.stdout + proc.stderr
            if os.path.exists(summary):
                with open(summary, encoding="utf-8") as f:
                    self.summary = f.read()
            if "id" in step:
                self.context["steps"][step["id"]] = {"outputs": read_outputs(output)}
            if proc.returncode != 0:
                self.failed = True


class ActionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(ROOT, "docs", "sarif-2.1.0-subset.schema.json"), encoding="utf-8") as f:
            cls.sarif_schema = json.load(f)

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.workspace = self.tmp.name
        shutil.copytree(os.path.join(ROOT, "samples"), os.path.join(self.workspace, "samples"))
        os.mkdir(os.path.join(self.workspace, "warn"))
        with open(os.path.join(self.workspace, "warn", "empty-metadata.safetensors"), "wb") as f:
            f.write(warning_only_safetensors())

    def tearDown(self):
        self.tmp.cleanup()

    def run_action(self, **inputs):
        inputs = {k.replace("_", "-"): v for k, v in inputs.items()}
        return Run(self.workspace, {"tensorgate": TENSORGATE, **inputs})

    def uploaded_sarif(self, run):
        self.assertEqual(len(run.uploads), 1, run.log)
        uses, params = run.uploads[0]
        self.assertEqual(uses, "github/codeql-action/upload-sarif@v4")
        self.assertEqual(params["category"], "tensorgate")
        with open(os.path.join(self.workspace, params["sarif_file"]), encoding="utf-8") as f:
            sarif = json.load(f)
        jsonschema.validate(sarif, self.sarif_schema)
        return sarif

    def results(self, sarif, level=None):
        return [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                for r in sarif["runs"][0]["results"] if level is None or r["level"] == level]

    def test_samples_fail_the_job_after_uploading_sarif(self):
        run = self.run_action(paths="samples")
        self.assertEqual(run.outputs["exit-code"], "1")
        self.assertTrue(run.failed)
        self.assertEqual(run.ran[-1], "Fail by the gate's verdict")
        sarif = self.uploaded_sarif(run)
        self.assertEqual(self.results(sarif, "error"),
                         [("ST4.dtype", "samples/broken-dtype.safetensors")])
        # The text report is in the log, fenced off from workflow commands.
        self.assertIn('samples/broken-dtype.safetensors: INVALID safetensors, 1 error', run.log)
        self.assertRegex(run.log, r"::stop-commands::([0-9a-f]{16})\n(.|\n)*::\1::")
        self.assertIn("::error::tensorgate: the gate fails", run.log)
        self.assertIn("ST4.dtype", run.summary)

    def test_a_valid_file_passes_and_still_uploads(self):
        run = self.run_action(paths="samples/tinyllm-bigram.safetensors")
        self.assertEqual(run.outputs["exit-code"], "0")
        self.assertFalse(run.failed)
        self.assertNotIn("Fail by the gate's verdict", run.ran)
        sarif = self.uploaded_sarif(run)
        self.assertEqual(self.results(sarif, "error"), [])
        self.assertEqual(run.outputs["sarif-file"], "tensorgate.sarif")

    def test_fail_on_decides_for_warnings(self):
        passed = self.run_action(paths="warn", fail_on="error")
        self.assertEqual(passed.outputs["exit-code"], "0")
        self.assertFalse(passed.failed)
        failed = self.run_action(paths="warn", fail_on="warning")
        self.assertEqual(failed.outputs["exit-code"], "1")
        self.assertTrue(failed.failed)
        self.assertEqual(self.results(self.uploaded_sarif(failed), "warning"),
                         [("STW.empty-metadata", "warn/empty-metadata.safetensors")])

    def test_paths_one_per_line_and_the_sarif_file_input(self):
        run = self.run_action(paths="\nsamples/tinyllm-bigram.safetensors\n\nwarn\n",
                              sarif_file="out/gate.sarif")
        self.assertEqual(run.outputs["exit-code"], "0")
        uris = {a["location"]["uri"] for a in self.uploaded_sarif(run)["runs"][0]["artifacts"]}
        self.assertEqual(uris, {"samples/tinyllm-bigram.safetensors", "warn/empty-metadata.safetensors"})

    def test_no_upload_when_turned_off(self):
        run = self.run_action(paths="samples", upload_sarif="false")
        self.assertEqual(run.uploads, [])
        self.assertTrue(run.failed)

    def test_nothing_to_check_fails(self):
        os.mkdir(os.path.join(self.workspace, "empty"))
        run = self.run_action(paths="empty")
        self.assertEqual(run.outputs["exit-code"], "3")
        self.assertTrue(run.failed)
        self.assertIn("no safetensors or GGUF file found in: empty", run.log)

    def test_a_bad_fail_on_is_a_usage_error_without_upload(self):
        run = self.run_action(paths="samples", fail_on="sometimes")
        self.assertEqual(run.outputs["exit-code"], "2")
        self.assertEqual(run.outputs["sarif-file"], "")
        self.assertEqual(run.uploads, [])
        self.assertTrue(run.failed)

    def test_inputs_reach_the_script_only_through_the_environment(self):
        # A path is data: an expression spliced into `run:` would let a path inject shell.
        for step in load_action()["runs"]["steps"]:
            self.assertNotIn("${{", step.get("run", ""), step.get("name"))
        hostile = "samples/$(touch pwned)"
        run = self.run_action(paths=hostile)
        self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))
        self.assertEqual(run.outputs["exit-code"], "2")


class ValidatorTest(unittest.TestCase):
    """action-validator (SchemaStore's schemas for actions and workflows) over what we ship."""

    def validate(self, path):
        tool = os.path.join(NODE_BIN, "action-validator")
        self.assertTrue(os.path.exists(tool), "run scripts/setup.sh (npm ci in tests/deploy)")
        out = subprocess.run([tool, path], capture_output=True, text=True, check=False)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_action_yml(self):
        self.validate(os.path.join(ROOT, "action.yml"))

    def test_repository_workflows(self):
        workflows = os.path.join(ROOT, ".github", "workflows")
        for name in sorted(os.listdir(workflows)):
            with self.subTest(workflow=name):
                self.validate(os.path.join(workflows, name))

    def test_readme_example_workflow(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
        examples = [b for b in blocks if "uses: tensorgate/tensorgate@" in b]
        self.assertEqual(len(examples), 1)
        workflow = yaml.safe_load(examples[0])
        inputs = set(load_action()["inputs"])
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if step.get("uses", "").startswith("tensorgate/tensorgate@"):
                    self.assertLessEqual(set(step.get("with", {})), inputs)
                    self.assertEqual(job["permissions"]["security-events"], "write")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, ".github", "workflows", "models.yml")
            os.makedirs(os.path.dirname(path))
            with open(path, "w", encoding="utf-8") as f:
                f.write(examples[0])
            self.validate(path)


if __name__ == "__main__":
    unittest.main()
