#!/usr/bin/env python3
"""The container without a container engine (none runs here): the entry point the Dockerfile
installs (deploy/docker/entrypoint.sh) run with the real binary and with a stand-in that prints
its arguments, the Dockerfile's CMD through it, its OCI labels, and its HEALTHCHECK path asked
of a running `tensorgate serve`.

usage: test_container.py TENSORGATE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from deploy_support import ROOT, get, tensorgate_path

TENSORGATE = tensorgate_path(sys.argv)
ENTRYPOINT = os.path.join(ROOT, "deploy", "docker", "entrypoint.sh")


def runtime_stage():
    with open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8") as f:
        text = f.read()
    # Continuation lines joined, so each instruction is one line.
    return text[text.rindex("\nFROM "):].replace("\\\n", " ").splitlines()


def instruction(name):
    return [l[len(name) + 1:].strip() for l in runtime_stage() if l.startswith(name + " ")]


class ContainerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.echo = os.path.join(cls.tmp.name, "argv")
        with open(cls.echo, "w", encoding="utf-8") as f:
            f.write('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n')
        os.chmod(cls.echo, 0o755)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def entry(self, *args, tensorgate=None, cwd=None):
        env = {"PATH": "/usr/bin:/bin", "TENSORGATE": tensorgate or self.echo}
        return subprocess.run(["/bin/sh", ENTRYPOINT, *args], env=env, cwd=cwd, capture_output=True,
                              text=True, check=False)

    def argv(self, *args):
        out = self.entry(*args)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout.splitlines()

    def test_the_image_installs_and_starts_the_entry_point(self):
        (entrypoint,) = instruction("ENTRYPOINT")
        (target,) = json.loads(entrypoint)
        copies = [c.split() for c in instruction("COPY")]
        self.assertIn(["deploy/docker/entrypoint.sh", target], copies)
        self.assertTrue(os.access(ENTRYPOINT, os.X_OK))
        (cmd,) = instruction("CMD")
        self.assertEqual(self.argv(*json.loads(cmd)), ["serve", "--listen", "0.0.0.0:8080"])
        self.assertEqual(instruction("EXPOSE"), ["8080"])
        self.assertEqual(instruction("STOPSIGNAL"), ["SIGTERM"])

    def test_the_helpers_are_installed_where_the_executable_looks_for_them(self):
        # cli/helper_executables.hpp: beside the executable, else ../lib/tensorgate/ from it.
        copies = {c.split()[-2]: c.split()[-1] for c in instruction("COPY")}
        binary = copies["/build/cli/tensorgate"]
        for helper in ("tensorgate-tls", "tensorgate-serve", "tensorgate-remote"):
            self.assertEqual(copies[f"/build/cli/{helper}"],
                             os.path.normpath(os.path.join(os.path.dirname(binary), "../lib/tensorgate", helper)))

    def test_flags_alone_serve_on_every_interface(self):
        self.assertEqual(self.argv(), ["serve", "--listen", "0.0.0.0:8080"])
        self.assertEqual(self.argv("--max-body-bytes", "5"),
                         ["serve", "--listen", "0.0.0.0:8080", "--max-body-bytes", "5"])
        self.assertEqual(self.argv("--listen", "0.0.0.0:9000", "--threads", "1"),
                         ["serve", "--listen", "0.0.0.0:9000", "--threads", "1"])
        self.assertEqual(self.argv("--listen=0.0.0.0:9000"), ["serve", "--listen=0.0.0.0:9000"])

    def test_a_command_runs_that_command(self):
        self.assertEqual(self.argv("check", "/data"), ["check", "/data"])
        self.assertEqual(self.argv("serve", "--help"), ["serve", "--help"])

    def test_docker_run_check_data(self):
        # `docker run --rm -v "$PWD:/data:ro" tensorgate check /data`, with samples/ as $PWD.
        data = os.path.join(self.tmp.name, "data")
        shutil.copytree(os.path.join(ROOT, "samples"), data)
        out = self.entry("check", data, tensorgate=TENSORGATE)
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertIn(f"{data}/broken-dtype.safetensors: INVALID safetensors", out.stdout)
        out = self.entry("check", ".", tensorgate=TENSORGATE, cwd=data)  # WORKDIR /data
        self.assertIn("./tinyllm-bigram.safetensors: valid safetensors", out.stdout)
        self.assertEqual(instruction("WORKDIR")[-1], "/data")
        out = self.entry("check", "--format", "json", os.path.join(data, "tinyllm-bigram.safetensors"),
                         tensorgate=TENSORGATE)
        self.assertEqual((out.returncode, json.loads(out.stdout)["files"][0]["valid"]), (0, True))

    def test_the_healthcheck_asks_a_real_route(self):
        (health,) = instruction("HEALTHCHECK")
        path = re.search(r"GET (/\S+) HTTP/1.1", health).group(1)
        self.assertEqual(path, "/livez")
        proc = subprocess.Popen(["/bin/sh", ENTRYPOINT, "--listen", "127.0.0.1:0", "--threads", "1"],
                                env={"PATH": "/usr/bin:/bin", "TENSORGATE": TENSORGATE},
                                stdout=subprocess.PIPE, text=True)
        try:
            port = int(json.loads(proc.stdout.readline())["address"].rsplit(":", 1)[1])
            self.assertEqual(get(port, path), 200)
        finally:
            proc.terminate()  # the entry point exec'd tensorgate: SIGTERM reaches it and it drains
            proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0)

    def test_oci_labels(self):
        labels = dict(re.findall(r'(org\.opencontainers\.image\.[a-z.]+)="([^"]*)"',
                                 " ".join(instruction("LABEL"))))
        for key in ("title", "description", "source", "version", "revision", "created", "documentation"):
            self.assertIn(f"org.opencontainers.image.{key}", labels)
        self.assertEqual(labels["org.opencontainers.image.version"], "${VERSION}")
        with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
            version = re.search(r"project\(tensorgate VERSION (\S+)", f.read()).group(1)
        self.assertIn(f"ARG VERSION={version}", runtime_stage())


if __name__ == "__main__":
    unittest.main()
