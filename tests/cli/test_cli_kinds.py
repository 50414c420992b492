#!/usr/bin/env python3
"""End-to-end tests of `tensorgate check` on every file kind (docs/rules.md, FK, PK, ZP):
pickles CPython's own pickler writes at every protocol, benign and hostile; zips zipfile writes
(names PyTorch finds without case, pickles by content); tars tarfile writes (torch.load's legacy layout);
NumPy .npy files and .npz archives as numpy.lib.format lays them out; Git LFS pointers, empty files and HTML under model names; standard input; a model directory
with a malicious pickle beside valid safetensors. JSON against the report schema, exit statuses.

usage: test_cli_kinds.py TENSORGATE DOCS_DIR
"""
import collections
import io
import json
import os
import pickle
import struct
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

import jsonschema
from e2e_support import write_file

TENSORGATE, DOCS = sys.argv[1:3]
del sys.argv[1:3]


def run(*args, stdin=None):
    return subprocess.run([TENSORGATE, *args], input=stdin, capture_output=True, check=False)


def rules(report, severity=None):
    return [f["rule"] for f in report["findings"] if severity is None or f["severity"] == severity]


def npy(descr, shape, data, version=1):
    """A .npy file as numpy.lib.format.write_array lays it out: magic, version, the header length,
    the dict literal padded with spaces to a multiple of 64 and a newline, then the data."""
    header = "{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (descr, tuple(shape))
    prefix = 10 if version == 1 else 12
    header += " " * (-(prefix + len(header) + 1) % 64) + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode("latin1") + data


class Exec:
    """What a hostile checkpoint pickles: calling os.system on load."""

    def __reduce__(self):
        return (os.system, ("id",))


class Thing:  # neither allowed nor denied: PK.unknown-global (a __main__ global would be denied)
    pass


Thing.__module__ = "mymodels"
sys.modules["mymodels"] = sys.modules[__name__]


def safetensors_file():
    header = json.dumps({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}).encode()
    header += b" " * (-len(header) % 8)
    return struct.pack("<Q", len(header)) + header + b"\0" * 8


LFS = ("version https://git-lfs.github.com/spec/v1\n"
       "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n").encode()


class CliKindsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        with open(os.path.join(DOCS, "report.schema.json"), encoding="utf-8") as f:
            cls.schema = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write(self, name, data):
        return write_file(self.tmp.name, name, data)

    def check_json(self, *args, stdin=None):
        out = run("check", "--format", "json", *args, stdin=stdin)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.schema)
        return out.returncode, doc

    def test_cpython_pickles_of_every_protocol(self):
        benign = {"a": [1, 2.5, "x", b"y", None, True], "s": {1, 2}, "o": collections.OrderedDict(k=1)}
        for protocol in range(0, 6):
            with self.subTest(protocol=protocol):
                code, doc = self.check_json(self.write(f"benign{protocol}.pkl", pickle.dumps(benign, protocol)))
                report = doc["files"][0]
                self.assertEqual(report["format"], "pickle")
                self.assertEqual(rules(report, "error"), [])
                self.assertEqual(code, 0)
                code, doc = self.check_json(self.write(f"exec{protocol}.pkl", pickle.dumps(Exec(), protocol)))
                self.assertEqual(code, 1)
                self.assertIn("PK.dangerous-global", rules(doc["files"][0], "error"))

    def test_unknown_global_is_a_warning_and_fail_on_warning_denies_it(self):
        path = self.write("thing.pkl", pickle.dumps(Thing(), 2))
        code, doc = self.check_json(path)
        self.assertEqual(code, 0)
        self.assertEqual(rules(doc["files"][0], "warning"), ["PK.unknown-global"])
        self.assertEqual(run("check", "--fail-on", "warning", path).returncode, 1)

    def test_zipfile_archives(self):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            z.writestr("archive/data.pkl", pickle.dumps(Exec(), 2))
            z.writestr("archive/version", "3\n")
        code, doc = self.check_json(self.write("hostile.pt", buf.getvalue()))
        self.assertEqual(code, 1)
        self.assertEqual(doc["files"][0]["format"], "zip")
        self.assertIn("PK.dangerous-global", rules(doc["files"][0], "error"))
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("archive/data.pkl", pickle.dumps({"w": 1}, 2))
            z.writestr("archive/version", "3\n")
        code, doc = self.check_json(self.write("benign.pt", buf.getvalue()))
        self.assertEqual(rules(doc["files"][0], "error"), [])
        self.assertEqual(code, 0)

    def test_names_as_pytorch_finds_them_and_pickles_by_content(self):
        # zipfile writes what torch's miniz lookup finds without case: data.PKL is data.pkl.
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            z.writestr("archive/data.pkl", pickle.dumps({"w": 1}, 2))
            z.writestr("archive/DATA.PKL", pickle.dumps(Exec(), 0))
            z.writestr("archive/notes.txt", pickle.dumps(Exec(), 0))
        code, doc = self.check_json(self.write("cases.pt", buf.getvalue()))
        errors = rules(doc["files"][0], "error")
        self.assertEqual(code, 1)
        for rule in ("PK.dangerous-global", "ZP.duplicate-name", "ZP.ambiguous-archive"):
            self.assertIn(rule, errors)
        self.assertEqual(len(doc["files"][0]["summary"]["pickles"]), 3)

    def test_tarfile_archives(self):
        # tarfile writes torch.load's legacy layout: storages is unpickled, whatever else holds.
        def tar(members):
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
                for name, data in members:
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            return buf.getvalue()
        views = pickle.dumps([], 2)
        code, doc = self.check_json(self.write("old.pt", tar([("storages", pickle.dumps(0, 2) + views),
                                                             ("pickle", pickle.dumps({"w": 1}, 2))])))
        report = doc["files"][0]
        self.assertEqual((code, report["format"], rules(report)), (0, "tar", []))
        code, doc = self.check_json(self.write("evil.pt", tar([("storages", pickle.dumps(1, 2) + pickle.dumps(Exec(), 2)),
                                                              ("p" * 120, pickle.dumps(Exec(), 0))])))
        report = doc["files"][0]
        self.assertEqual((code, report["format"]), (1, "tar"))
        self.assertEqual(rules(report, "error").count("PK.dangerous-global"), 2)

    def test_numpy_arrays_and_archives(self):
        code, doc = self.check_json(self.write("a.npy", npy("<f4", [2, 3], bytes(24))))
        report = doc["files"][0]
        self.assertEqual((code, report["format"], rules(report)), (0, "npy", []))
        self.assertEqual((report["summary"]["version"], report["summary"]["descr"], report["summary"]["shape"]),
                         ("1.0", "<f4", [2, 3]))
        code, doc = self.check_json(self.write("b.npy", npy("<i2", [3], bytes(6), version=2)))
        self.assertEqual((code, doc["files"][0]["summary"]["version"]), (0, "2.0"))
        # Cut inside its header, without the magic, of a version NumPy never wrote: no summary.
        whole = npy("<f4", [2], bytes(8))
        for name, data in (("cut.npy", whole[:30]), ("nomagic.npy", b"\x93NUMPX" + whole[6:]),
                           ("v9.npy", whole[:6] + b"\x09" + whole[7:])):
            with self.subTest(name=name):
                code, doc = self.check_json("--input-format", "npy", self.write(name, data))
                self.assertEqual((code, rules(doc["files"][0]), doc["files"][0]["summary"]), (1, ["FK.npy-header"], None))
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("x.npy", npy("<f4", [2], bytes(8)))
            z.writestr("y.npy", whole[:30])
        code, doc = self.check_json(self.write("arrays.npz", buf.getvalue()))
        report = doc["files"][0]
        self.assertEqual((code, report["format"], rules(report, "error")), (1, "zip", ["FK.npy-header"]))
        self.assertEqual([a["descr"] for a in report["summary"]["arrays"]], ["<f4"])
        # numpy.load unpickles a structure with an object field (dtype.hasobject).
        code, doc = self.check_json(self.write("s.npy", npy([("a", "<f4"), ("o", "|O")], [1], pickle.dumps(Exec(), 2))))
        self.assertEqual((code, rules(doc["files"][0], "error")), (1, ["PK.dangerous-global"]))

    def test_lfs_pointer_empty_and_html_under_model_names(self):
        code, doc = self.check_json(self.write("lfs/model.safetensors", LFS))
        report = doc["files"][0]
        self.assertEqual(code, 1)
        self.assertEqual(report["format"], "lfs-pointer")
        self.assertEqual(rules(report), ["FK.lfs-pointer"])
        self.assertIn("sha256:4d7a2146", report["findings"][0]["message"])
        self.assertIn("12,345", report["findings"][0]["message"])
        code, doc = self.check_json(self.write("e/model.safetensors", b""))
        self.assertEqual((code, rules(doc["files"][0])), (1, ["FK.empty"]))
        code, doc = self.check_json(self.write("h/pytorch_model.bin", b"<!DOCTYPE html><html><body>Sign in</body></html>"))
        self.assertEqual((code, rules(doc["files"][0])), (1, ["FK.unknown"]))

    def test_content_decides_over_the_name(self):
        code, doc = self.check_json(self.write("named/model.safetensors", pickle.dumps(Exec(), 4)))
        report = doc["files"][0]
        self.assertEqual(report["format"], "pickle")
        self.assertIn("PK.dangerous-global", rules(report, "error"))
        self.assertIn("FK.extension", rules(report, "warning"))
        code, doc = self.check_json(self.write("named/weights.data", pickle.dumps(Exec(), 2)))
        self.assertEqual(doc["files"][0]["format"], "pickle")
        self.assertEqual(code, 1)

    def test_standard_input(self):
        code, doc = self.check_json("-", stdin=pickle.dumps(Exec(), 2))
        self.assertEqual(code, 1)
        self.assertEqual(doc["files"][0]["format"], "pickle")
        code, doc = self.check_json("-", stdin=LFS)
        self.assertEqual(doc["files"][0]["format"], "lfs-pointer")

    def test_model_directory_with_a_malicious_pickle(self):
        self.write("repo/model.safetensors", safetensors_file())
        self.write("repo/config.json", b'{"architectures": ["X"]}')
        self.write("repo/pytorch_model.bin", pickle.dumps(Exec(), 2))
        self.write("repo/README.md", b"# a model\n")
        code, doc = self.check_json(os.path.join(self.tmp.name, "repo"))
        self.assertEqual(code, 1)
        by_name = {os.path.basename(f["path"]): f for f in doc["files"]}
        self.assertIn("PK.dangerous-global", rules(by_name["pytorch_model.bin"], "error"))
        directory = by_name["repo"]
        self.assertEqual(directory["format"], "model-directory")
        others = [o["name"] for o in directory["summary"]["other_files"]]
        self.assertIn("README.md", others)
        self.assertIn("config.json", others)
        self.assertIn("MD.invalid-file", rules(directory, "error"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
