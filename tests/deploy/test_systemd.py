#!/usr/bin/env python3
"""deploy/systemd/ against systemd's own tools and the binary: `systemd-analyze verify` (which
needs no running systemd, so it works in a container) finds nothing to say about the unit;
`systemd-analyze security --offline=yes` gives the exposure docs/deploy.md reports; the unit's
figures agree with the binary (flags, config keys, MemoryMax >= memory budget + allowance,
TimeoutStopSec > drain-timeout-ms, LimitNOFILE above the connection limits).

usage: test_systemd.py TENSORGATE
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

from deploy_support import (ROOT, config_check, effective_config, memory_allowance_bytes,
                            memory_budget_bytes, quantity_bytes, read_ini, serve_options,
                            tensorgate_path)

TENSORGATE = tensorgate_path(sys.argv)
SYSTEMD = os.path.join(ROOT, "deploy", "systemd")
INSTALLED_BINARY = "/usr/local/bin/tensorgate"


def unit_settings(text):
    """{(section, key): [values]} of a unit file."""
    settings, section = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault((section, key.strip()), []).append(value.strip())
    return settings


def seconds(text):
    m = re.fullmatch(r"([0-9]+)(ms|s|min)?", text)
    value = int(m.group(1))
    return {"ms": value / 1000, "min": value * 60}.get(m.group(2), value)


class SystemdTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SYSTEMD, "tensorgate.service"), encoding="utf-8") as f:
            cls.unit_text = f.read()
        cls.unit = unit_settings(cls.unit_text)
        with open(os.path.join(SYSTEMD, "tensorgate.conf"), encoding="utf-8") as f:
            cls.config_text = f.read()
        (exec_start,) = cls.unit[("Service", "ExecStart")]
        cls.exec_start = shlex.split(exec_start)
        cls.config = effective_config(TENSORGATE, cls.config_text)
        cls.tmp = tempfile.TemporaryDirectory()
        # The unit as installed, but with the binary of this build where it runs from: verify
        # checks that ExecStart's program exists and is executable.
        cls.unit_copy = os.path.join(cls.tmp.name, "tensorgate.service")
        assert cls.unit_text.count(INSTALLED_BINARY + " ") == 1
        with open(cls.unit_copy, "w", encoding="utf-8") as f:
            f.write(cls.unit_text.replace(INSTALLED_BINARY + " ", TENSORGATE + " "))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def analyze(self, *args):
        tool = shutil.which("systemd-analyze")
        self.assertIsNotNone(tool, "systemd-analyze comes with Debian's systemd (scripts/setup.sh)")
        return subprocess.run([tool, *args], capture_output=True, text=True, check=False,
                              env={**os.environ, "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_PAGER": ""})

    def test_systemd_analyze_verify_has_nothing_to_say(self):
        out = self.analyze("verify", "--man=no", self.unit_copy)
        # Unknown keys and bad values are only warnings to verify: any output is a failure here.
        self.assertEqual((out.returncode, out.stdout + out.stderr), (0, ""))

    def test_verify_would_see_a_mistake(self):
        broken = os.path.join(self.tmp.name, "broken.service")
        with open(self.unit_copy, encoding="utf-8") as f:
            text = f.read().replace("ProtectSystem=strict", "ProtectSystem=strickt")
        with open(broken, "w", encoding="utf-8") as f:
            f.write(text)
        out = self.analyze("verify", "--man=no", broken)
        self.assertIn("Failed to parse protect system value, ignoring: strickt", out.stdout + out.stderr)

    def test_exposure_is_the_one_the_docs_report(self):
        out = self.analyze("security", "--offline=yes", "--no-pager", self.unit_copy)
        m = re.search(r"Overall exposure level for \S+: (\d+\.\d)", out.stdout)
        self.assertIsNotNone(m, out.stdout + out.stderr)
        with open(os.path.join(ROOT, "docs", "deploy.md"), encoding="utf-8") as f:
            documented = re.search(r"exposure\s+level\s+(\d+\.\d)", f.read()).group(1)
        self.assertEqual(m.group(1), documented)
        threshold = round(float(documented) * 10)
        out = self.analyze("security", "--offline=yes", f"--threshold={threshold}", self.unit_copy)
        self.assertEqual(out.returncode, 0)

    def test_required_hardening(self):
        expect = {"DynamicUser": "yes", "ProtectSystem": "strict", "NoNewPrivileges": "yes",
                  "PrivateTmp": "yes", "Restart": "on-failure", "KillSignal": "SIGTERM",
                  "RestrictAddressFamilies": "AF_INET AF_INET6", "CapabilityBoundingSet": ""}
        for key, value in expect.items():
            self.assertEqual(self.unit[("Service", key)], [value], key)
        self.assertEqual(self.unit[("Service", "SystemCallFilter")][0], "@system-service")

    def test_exec_start_flags_and_config_exist(self):
        self.assertEqual(self.exec_start[:2], [INSTALLED_BINARY, "serve"])
        options = serve_options(TENSORGATE)
        for arg in self.exec_start[2:]:
            if arg.startswith("--"):
                self.assertIn(arg[2:], options, arg)
        config_path = self.exec_start[self.exec_start.index("--config") + 1]
        (config_dir,) = self.unit[("Service", "ConfigurationDirectory")]
        self.assertEqual(os.path.dirname(config_path), "/etc/" + config_dir)
        for key in read_ini(self.config_text):
            self.assertIn(key, options, key)
        local = os.path.join(self.tmp.name, "tensorgate.conf")
        with open(local, "w", encoding="utf-8") as f:
            f.write(self.config_text)
        self.assertEqual(config_check(TENSORGATE, local), (0, ""))
        with open(os.path.join(SYSTEMD, "tensorgate.default"), encoding="utf-8") as f:
            self.assertIn("TENSORGATE_ARGS=", f.read())
        self.assertEqual(self.unit[("Service", "EnvironmentFile")], ["-/etc/default/tensorgate"])

    def test_stop_timeout_outlasts_the_drain(self):
        (timeout,) = self.unit[("Service", "TimeoutStopSec")]
        self.assertGreater(seconds(timeout), int(self.config["drain-timeout-ms"]) / 1000)

    def test_memory_max_covers_budget_and_allowance(self):
        (memory_max,) = self.unit[("Service", "MemoryMax")]
        limit = quantity_bytes(memory_max.replace("M", "Mi").replace("G", "Gi"))  # systemd: base 1024
        budget = memory_budget_bytes(self.config)
        self.assertGreaterEqual(limit, budget + memory_allowance_bytes(self.config))
        self.assertLessEqual(limit, 2 * budget + memory_allowance_bytes(self.config))

    def test_open_files_cover_the_connection_limits(self):
        (nofile,) = self.unit[("Service", "LimitNOFILE")]
        needed = int(self.config["max-connections"]) + int(self.config["max-rejections-in-flight"])
        self.assertGreater(int(nofile), needed)


if __name__ == "__main__":
    unittest.main()
