"""What the end-to-end CLI tests share: a fresh directory of cases written by one of the test
writers (with its MANIFEST.tsv), a file written into a test's directory, the report and SARIF
schemas from docs/, `tensorgate check --format json` checked against the schema, and protobuf
fields encoded by hand."""
import json
import os
import subprocess
import tempfile

import jsonschema


def write_cases(writer, subdir):
    """Runs `writer DIR` into a new temporary directory; returns (tmp, dir, manifest rows)."""
    tmp = tempfile.TemporaryDirectory()
    cases = os.path.join(tmp.name, subdir)
    subprocess.run([writer, cases], check=True)
    with open(os.path.join(cases, "MANIFEST.tsv"), encoding="utf-8") as f:
        manifest = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return tmp, cases, manifest


def write_file(root, rel, data):
    """Writes `data` to root/rel, making its directories; returns the path."""
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def load_schemas(docs):
    """(report schema, SARIF subset schema) from the docs directory."""
    def load(name):
        with open(os.path.join(docs, name), encoding="utf-8") as f:
            return json.load(f)
    return load("report.schema.json"), load("sarif-2.1.0-subset.schema.json")


class JsonReports:
    """For a unittest.TestCase that sets `tensorgate` and `schema`: `check` runs
    `tensorgate check --format json ARGS` and validates the document; `entry` is the one file
    entry whose path ends with `suffix`."""

    def check(self, *args):
        out = subprocess.run([self.tensorgate, "check", "--format", "json", *args], capture_output=True, check=False)
        doc = json.loads(out.stdout)
        jsonschema.validate(doc, self.schema)
        return out.returncode, doc

    def entry(self, doc, suffix):
        found = [f for f in doc["files"] if f["path"].endswith(suffix)]
        self.assertEqual(len(found), 1, [f["path"] for f in doc["files"]])
        return found[0]


def varint(v):
    """A protobuf varint."""
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_len(field, data):
    """A length-delimited protobuf field."""
    return varint(field << 3 | 2) + varint(len(data)) + data
