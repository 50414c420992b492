#!/usr/bin/env python3
"""Every report keeps its documented shape, whatever the input: each file of the fuzz corpora
(corpus/, thousands of hostile and broken inputs, the regressions among them) is checked with
`tensorgate check --format json` and `--format sarif`, as its format and as the content decides,
and every document must validate against docs/report.schema.json and the SARIF subset schema.
(An .npy file cut in its header once had a summary of version "0.0": valid JSON, but not the
report the schema promises, so a consumer generated from the schema would have refused it.)

usage: test_corpus_reports.py TENSORGATE CORPUS_DIR DOCS_DIR
"""
import json
import os
import subprocess
import sys
import unittest

import jsonschema

from e2e_support import load_schemas

TENSORGATE, CORPUS, DOCS = sys.argv[1:4]
del sys.argv[1:4]

# Which corpora, read as which formats ("auto": the content decides). The chunking and framed
# targets' inputs begin with their harness's control bytes: as files they are hostile content.
TARGETS = {
    "safetensors_fuzzer": ["auto", "safetensors"],
    "safetensors_chunking_fuzzer": ["safetensors"],
    "header_json_fuzzer": ["safetensors"],
    "roundtrip_fuzzer": ["auto"],
    "gguf_fuzzer": ["auto", "gguf"],
    "gguf_chunking_fuzzer": ["gguf"],
    "pickle_fuzzer": ["auto", "pickle"],
    "joblib_fuzzer": ["auto", "pickle"],
    "joblib_compressed_fuzzer": ["auto", "pickle"],
    "zip_fuzzer": ["auto", "zip", "npy"],
    "tar_fuzzer": ["auto", "tar"],
    "onnx_fuzzer": ["auto", "onnx"],
    "savedmodel_fuzzer": ["auto", "savedmodel"],
    "hdf5_fuzzer": ["auto", "hdf5"],
    "tflite_fuzzer": ["auto", "tflite"],
    "openvino_fuzzer": ["auto", "openvino"],
    "torchscript_code_fuzzer": ["auto"],
    "chat_template_fuzzer": ["auto"],
    "cli_report_fuzzer": ["auto"],
}
BATCH = 200  # files per process: a few seconds each


def corpus_files(target):
    files = []
    for dirpath, _, names in os.walk(os.path.join(CORPUS, target)):
        files += [os.path.join(dirpath, n) for n in names if not n.endswith(".note")]
    return sorted(files)


class CorpusReportsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        report, sarif = load_schemas(DOCS)
        cls.validators = {"json": jsonschema.validators.validator_for(report)(report),
                          "sarif": jsonschema.validators.validator_for(sarif)(sarif)}

    def check_batch(self, files, input_format, output):
        out = subprocess.run([TENSORGATE, "check", "--format", output, "--input-format", input_format,
                              "--no-progress", "--fail-on", "none", *files],
                             capture_output=True, check=False, timeout=600)
        self.assertEqual(out.returncode, 0, out.stderr.decode(errors="replace")[:2000])
        doc = json.loads(out.stdout)
        errors = list(self.validators[output].iter_errors(doc))
        where = []
        for e in errors[:5]:
            path = list(e.absolute_path)
            name = doc["files"][path[1]]["path"] if output == "json" and path[:1] == ["files"] and len(path) > 1 else ""
            where.append(f"{name} {path[:6]}: {e.message[:300]}")
        self.assertEqual(where, [])

    def test_every_corpus_file_gets_a_report_of_the_documented_shape(self):
        for target, formats in TARGETS.items():
            files = corpus_files(target)
            self.assertGreater(len(files), 100, target)  # the corpus is there
            for input_format in formats:
                for output in ("json", "sarif"):
                    with self.subTest(target=target, input_format=input_format, output=output):
                        for i in range(0, len(files), BATCH):
                            self.check_batch(files[i:i + BATCH], input_format, output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
