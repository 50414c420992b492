#!/usr/bin/python3
"""A joblib.dump file of about 1 GB of NumPy arrays, checked at the speed of skipping their bytes.

The file is written by joblib (Debian 12's python3-joblib and python3-numpy, so run this with
/usr/bin/python3): LAYERS float32 matrices of 1024x4096 (16 MiB each) and as many 4 KiB biases,
in a dict. joblib writes each array's bytes outside the pickle's opcodes; while it writes them
this script notes where (NumpyArrayWrapper.write_array, wrapped), so the yardstick can read
exactly the other bytes: the pickle itself and the alignment pads. Then, in alternating pairs,
the whole process of `tensorgate check --format json F` against that yardstick (a small C
program, bench/skip_bench_support.py). Warm and, as root, cold (the page cache dropped before
every run). For scale, the same check through a pipe, which reads every byte.

usage: /usr/bin/python3 bench/run_joblib_skip_bench.py [BUILD_DIR] [--layers=60] [--pairs=20]
                                                       [--cold-pairs=5] [--dir=DIR] [--warm-only]
"""
import os
import sys
import tempfile

import joblib
import joblib.numpy_pickle as numpy_pickle
import numpy as np

from skip_bench_support import compare

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "60"))
pairs = int(opts.get("pairs", "20"))
cold_pairs = 0 if "warm-only" in opts else int(opts.get("cold-pairs", "5"))


def write_file(path):
    """The file; returns the arrays' bytes as (offset, length), in file order."""
    runs = []
    write_array = numpy_pickle.NumpyArrayWrapper.write_array

    def noting(self, array, pickler):
        start = pickler.file_handle.tell()
        write_array(self, array, pickler)
        end = pickler.file_handle.tell()
        runs.append((end - array.nbytes, array.nbytes))  # after the pad byte and the pad
        assert end - array.nbytes >= start

    numpy_pickle.NumpyArrayWrapper.write_array = noting
    try:
        d = {}
        for i in range(layers):
            d[f"layer{i}.w"] = np.zeros((1024, 4096), dtype=np.float32)
            d[f"layer{i}.b"] = np.zeros(1024, dtype=np.float32)
        joblib.dump(d, path)
    finally:
        numpy_pickle.NumpyArrayWrapper.write_array = write_array
    return runs


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "model.joblib")
        runs = write_file(path)
        print(f"{len(runs)} arrays written by joblib")
        checked = compare(tmp, path, runs, build, pairs, cold_pairs)
        assert checked["summary"]["joblib_arrays"] == len(runs)

main()
