#!/usr/bin/env python3
"""The pre-commit hook (.pre-commit-hooks.yaml, scripts/pre_commit_hook.py) run by pre-commit
itself (Debian's, scripts/setup.sh): a hook repository holding exactly our two files, a user
repository with staged model files, `pre-commit try-repo` as a user tries a hook, and the exit
status and output of each case. Also the hook's file pattern against the names it must and must
not see.

usage: test_pre_commit.py TENSORGATE
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

from deploy_support import ROOT, lfs_pointer_text, tensorgate_path, warning_only_safetensors

TENSORGATE = tensorgate_path(sys.argv)
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
           "GIT_CONFIG_NOSYSTEM": "1"}


def hook_definition():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    assert [h["id"] for h in hooks] == ["tensorgate"], hooks
    return hooks[0]


class PreCommitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.env = {**os.environ, **GIT_ENV, "HOME": cls.tmp.name,
                   "PRE_COMMIT_HOME": os.path.join(cls.tmp.name, "cache"), "TENSORGATE": TENSORGATE}
        # The hook repository: only what .pre-commit-hooks.yaml needs, committed.
        cls.hook_repo = os.path.join(cls.tmp.name, "hook")
        os.makedirs(os.path.join(cls.hook_repo, "scripts"))
        shutil.copy(os.path.join(ROOT, ".pre-commit-hooks.yaml"), cls.hook_repo)
        shutil.copy2(os.path.join(ROOT, hook_definition()["entry"]),
                     os.path.join(cls.hook_repo, hook_definition()["entry"]))
        cls.git(cls.hook_repo, "init", "-q")
        cls.git(cls.hook_repo, "add", "-A")
        cls.git(cls.hook_repo, "commit", "-qm", "hook")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def git(cls, repo, *args):
        subprocess.run(["git", "-C", repo, *args], check=True, env=cls.env, capture_output=True)

    def setUp(self):
        self.repo = tempfile.mkdtemp(dir=self.tmp.name)
        self.git(self.repo, "init", "-q")

    def put(self, name, data):
        path = os.path.join(self.repo, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)

    def sample(self, name):
        with open(os.path.join(ROOT, "samples", name), "rb") as f:
            return f.read()

    def try_hook(self, *args):
        """pre-commit try-repo over the staged files; (status, output)."""
        self.git(self.repo, "add", "-A")
        cmd = ["pre-commit", "try-repo", self.hook_repo, "tensorgate", "--verbose", "--color", "never"]
        out = subprocess.run(cmd + list(args), cwd=self.repo, env=self.env, capture_output=True,
                             text=True, check=False, timeout=120)
        return out.returncode, out.stdout + out.stderr

    def test_an_invalid_staged_file_fails_the_commit(self):
        self.put("weights/broken.safetensors", self.sample("broken-dtype.safetensors"))
        self.put("weights/good.safetensors", self.sample("tinyllm-bigram.safetensors"))
        status, out = self.try_hook()
        self.assertEqual(status, 1, out)
        self.assertIn("weights/broken.safetensors: INVALID safetensors, 1 error", out)
        self.assertIn("ST4.dtype", out)
        self.assertIn("weights/good.safetensors: valid safetensors", out)

    def test_valid_files_pass(self):
        self.put("good.safetensors", self.sample("tinyllm-bigram.safetensors"))
        self.put("README.md", "not a model\n")
        status, out = self.try_hook()
        self.assertEqual(status, 0, out)
        self.assertIn("good.safetensors: valid safetensors", out)
        self.assertNotIn("README.md", out.split("hook id")[1])

    def test_an_lfs_pointer_is_a_warning_not_a_check(self):
        self.put("big.safetensors", lfs_pointer_text(size=987654321))
        self.put("good.safetensors", self.sample("tinyllm-bigram.safetensors"))
        status, out = self.try_hook()
        self.assertEqual(status, 0, out)
        self.assertIn(f"big.safetensors is a Git LFS pointer (oid sha256:{'ab' * 32}, size 987654321)", out)
        self.assertNotIn("big.safetensors: INVALID", out)
        status, out = self.try_hook_with_args("--strict-lfs")
        self.assertEqual(status, 1, out)

    def try_hook_with_args(self, *hook_args):
        """The hook with `args:`, as a user's .pre-commit-config.yaml gives them."""
        rev = subprocess.run(["git", "-C", self.hook_repo, "rev-parse", "HEAD"], capture_output=True,
                             text=True, check=True, env=self.env).stdout.strip()
        config = {"repos": [{"repo": self.hook_repo, "rev": rev,
                             "hooks": [{"id": "tensorgate", "args": list(hook_args)}]}]}
        self.put(".pre-commit-config.yaml", yaml.safe_dump(config))
        self.git(self.repo, "add", "-A")
        out = subprocess.run(["pre-commit", "run", "--color", "never", "--verbose"], cwd=self.repo,
                             env=self.env, capture_output=True, text=True, check=False, timeout=120)
        return out.returncode, out.stdout + out.stderr

    def test_fail_on_warning_through_args(self):
        self.put("warn.safetensors", warning_only_safetensors())
        status, out = self.try_hook()
        self.assertEqual(status, 0, out)
        status, out = self.try_hook_with_args("--fail-on", "warning")
        self.assertEqual(status, 1, out)
        self.assertIn("STW.empty-metadata", out)

    def test_a_staged_config_checks_its_model_directory(self):
        # Only config.json is staged; the weights beside it were committed before, and the
        # directory is checked as a whole: the cross-file rules see them.
        self.put("model/model.safetensors", self.sample("tinyllm-bigram.safetensors"))
        self.git(self.repo, "add", "-A")
        self.git(self.repo, "commit", "-qm", "weights")
        self.put("model/config.json", '{"tl_arch": "bigram", "vocab_size": 99}')
        status, out = self.try_hook()
        self.assertEqual(status, 1, out)
        self.assertRegex(out, r"model: INVALID model directory")
        self.assertIn("AR.shape", out)

    def test_a_config_without_weights_is_not_a_model_directory(self):
        self.put("web/config.json", '{"port": 3000}')
        status, out = self.try_hook()
        self.assertEqual(status, 0, out)
        self.assertIn("web/config.json: no weights beside it: not checked", out)

    def test_a_pickle_is_handed_to_tensorgate(self):
        # Judged by tensorgate's pickle scanner (docs/pickle.md); never skipped by the hook.
        self.put("pytorch_model.bin", b"\x80\x02}q\x00.")  # an empty dict: nothing imported
        status, out = self.try_hook()
        self.assertEqual(status, 0, out)
        self.assertIn("pytorch_model.bin: valid pickle", out)
        self.put("pytorch_model.bin", b"\x80\x02cposix\nsystem\nq\x00X\x02\x00\x00\x00id\x85R.")  # os.system('id')
        status, out = self.try_hook()
        self.assertEqual(status, 1, out)
        self.assertIn("pytorch_model.bin: INVALID pickle", out)
        self.assertIn("PK.dangerous-global", out)

    def test_no_tensorgate_is_a_clear_error(self):
        self.put("good.safetensors", self.sample("tinyllm-bigram.safetensors"))
        env = {k: v for k, v in self.env.items() if k != "TENSORGATE"}
        env["PATH"] = "/usr/bin:/bin"
        self.git(self.repo, "add", "-A")
        out = subprocess.run(["pre-commit", "try-repo", self.hook_repo, "tensorgate", "--verbose"],
                             cwd=self.repo, env=env, capture_output=True, text=True, check=False,
                             timeout=120)
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("tensorgate: not found", out.stdout + out.stderr)


class PatternTest(unittest.TestCase):
    def test_files_pattern(self):
        pattern = re.compile(hook_definition()["files"])
        for name in ("a.safetensors", "m/model-00001-of-00002.safetensors", "x.GGUF",
                     "pytorch_model.bin", "m.pt", "m.pth", "last.ckpt", "w.pkl", "config.json",
                     "m/config.json", "model.safetensors.index.json",
                     "pytorch_model.bin.index.json"):
            self.assertTrue(pattern.search(name), name)
        for name in ("README.md", "tokenizer.json", "myconfig.json", "src/app.py",
                     "config.json.bak", "safetensors.md"):
            self.assertFalse(pattern.search(name), name)

    def test_the_hook_runs_in_one_process(self):
        self.assertIs(hook_definition()["require_serial"], True)
        self.assertEqual(hook_definition()["language"], "script")
        self.assertTrue(os.access(os.path.join(ROOT, hook_definition()["entry"]), os.X_OK))


if __name__ == "__main__":
    unittest.main()
