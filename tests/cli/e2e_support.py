"""What the end-to-end CLI tests share: a fresh directory of cases written by one of the test
writers (with its MANIFEST.tsv), a file written into a test's directory, and the report and
SARIF schemas from docs/."""
import json
import os
import subprocess
import tempfile


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
