#!/usr/bin/env python3
"""End to end: `tensorgate check --policy FILE` (docs/policy.md). The same files checked with and
without a policy: a joblib file's library class, a Keras archive's custom layer and an ONNX
model's custom domain are warnings without one, nothing once allowed, errors once denied; the
report names the policy (JSON against the schema, SARIF, text); a policy that cannot be read or
parsed, or that allows what the built-in deny-list denies, is a usage error (exit status 2).

usage: test_cli_policy.py TENSORGATE DOCS_DIR DATA_DIR
"""
import functools
import hashlib
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import jsonschema

from e2e_support import JsonReports, field_len, load_schemas, varint

TENSORGATE, DOCS, DATA = sys.argv[1:4]
del sys.argv[1:4]

JOBLIB = os.path.join(DATA, "joblib", "estimator.joblib")
KERAS = os.path.join(DATA, "keras", "custom_layer.keras")
BUILTINS_EXEC = os.path.join(DATA, "keras", "builtins_exec.keras")


def rules(entry, severity=None):
    return [f["rule"] for f in entry["findings"] if severity is None or f["severity"] == severity]


def onnx_model(domain):
    """A model of one node of `domain` (ir_version 8, the default opset 13)."""
    node = field_len(4, b"Mystery") + field_len(7, domain.encode())
    return bytes([0x08]) + varint(8) + field_len(8, bytes([0x10]) + varint(13)) + field_len(7, field_len(1, node))


class CliPolicyTest(JsonReports, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tensorgate = TENSORGATE
        cls.schema, cls.sarif_schema = load_schemas(DOCS)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.onnx = os.path.join(cls.tmp.name, "custom.onnx")
        with open(cls.onnx, "wb") as f:
            f.write(onnx_model("com.example"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def policy(self, doc, name="policy.json"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def test_without_a_policy_they_are_warnings(self):
        code, doc = self.check("--fail-on", "warning", JOBLIB, KERAS, self.onnx)
        self.assertEqual(code, 1, doc)
        self.assertNotIn("policy", doc)
        self.assertEqual(rules(self.entry(doc, "estimator.joblib")), ["PK.unknown-global"])
        self.assertEqual(rules(self.entry(doc, "custom_layer.keras")), ["KR.custom-object"])
        self.assertEqual(rules(self.entry(doc, "custom.onnx")), ["OX.custom-domain"])

    def test_allowed_they_pass_and_the_report_names_the_policy(self):
        path = self.policy({"version": 1, "pickle": {"allow": ["estimators.*"]},
                            "keras": {"allow_modules": ["my_layers"]}, "onnx": {"allow_domains": ["com.example"]}})
        code, doc = self.check("--fail-on", "warning", "--policy", path, JOBLIB, KERAS, self.onnx)
        self.assertEqual(code, 0, doc)
        for name in ("estimator.joblib", "custom_layer.keras", "custom.onnx"):
            self.assertEqual(rules(self.entry(doc, name)), [], name)
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        self.assertEqual(doc["policy"], {"name": path, "sha256": digest})
        out = subprocess.run([TENSORGATE, "check", "--format", "sarif", "--policy", path, JOBLIB],
                             capture_output=True, check=False)
        self.assertEqual(out.returncode, 0)
        sarif = json.loads(out.stdout)
        jsonschema.validate(sarif, self.sarif_schema)
        self.assertEqual(sarif["runs"][0]["properties"]["policy"]["sha256"], digest)
        out = subprocess.run([TENSORGATE, "check", "--policy", path, JOBLIB], capture_output=True, check=False, text=True)
        self.assertEqual(out.stdout.splitlines()[0], f"policy {path} (sha256 {digest})")

    def test_denied_they_are_errors(self):
        path = self.policy({"version": 1, "pickle": {"deny": ["estimators.Estimator"]},
                            "keras": {"deny_modules": ["my_layers.*"]}, "onnx": {"deny_domains": ["com.*"]}})
        code, doc = self.check("--policy", path, JOBLIB, KERAS, self.onnx)
        self.assertEqual(code, 1, doc)
        self.assertEqual(rules(self.entry(doc, "estimator.joblib"), "error"), ["PK.policy-denied"])
        self.assertEqual(rules(self.entry(doc, "custom_layer.keras"), "error"), ["KR.policy-denied"])
        self.assertEqual(rules(self.entry(doc, "custom.onnx"), "error"), ["OX.policy-denied"])

    def test_no_policy_unblocks_a_built_in_denial(self):
        path = self.policy({"version": 1, "keras": {"allow_modules": ["my_layers"]}})
        code, doc = self.check("--policy", path, BUILTINS_EXEC)
        self.assertEqual(code, 1, doc)
        self.assertEqual(rules(self.entry(doc, "builtins_exec.keras"), "error"), ["KR.dangerous-object"])

    def test_a_url_is_checked_under_the_policy_too(self):
        """tensorgate hands a command line that names a URL to tensorgate-remote, --policy included."""
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=os.path.join(DATA, "joblib"))
        handler.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/estimator.joblib"
            code, doc = self.check(url)
            self.assertEqual(code, 0, doc)
            self.assertEqual(rules(doc["files"][0]), ["PK.unknown-global"])
            path = self.policy({"version": 1, "pickle": {"deny": ["estimators.*"]}}, "remote.json")
            code, doc = self.check("--policy", path, url)
            self.assertEqual(code, 1, doc)
            self.assertEqual(rules(doc["files"][0]), ["PK.policy-denied"])
            self.assertEqual(doc["policy"]["name"], path)
        finally:
            server.shutdown()
            server.server_close()

    def test_a_bad_policy_is_a_usage_error(self):
        cases = (
            ({"version": 1, "pickle": {"allow": ["os.system"]}}, 'pickle.allow[0] "os.system"'),
            ({"version": 1, "pickle": {"allow": ["builtins.exec"]}}, "a policy cannot allow it"),
            ({"version": 1, "pickel": {}}, 'unknown key "pickel"'),
            ({"version": 1, "pickle": {"allow": ["sklearn*"]}}, 'pickle.allow[0] "sklearn*"'),
            ('{"version": 1,\n "pickle": {"allow": ["a.b",]}}', "line 2, column"),
        )
        for i, (policy, said) in enumerate(cases):
            with self.subTest(said=said):
                path = self.policy(policy, f"bad{i}.json")
                out = subprocess.run([TENSORGATE, "check", "--policy", path, JOBLIB], capture_output=True, check=False,
                                     text=True)
                self.assertEqual(out.returncode, 2, out.stderr)
                self.assertEqual(out.stdout, "")
                self.assertIn("tensorgate check: --policy " + path + ": ", out.stderr)
                self.assertIn(said, out.stderr)
        out = subprocess.run([TENSORGATE, "check", "--policy", os.path.join(self.tmp.name, "absent.json"), JOBLIB],
                             capture_output=True, check=False, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("cannot be read", out.stderr)


if __name__ == "__main__":
    unittest.main()
