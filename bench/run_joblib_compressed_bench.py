#!/usr/bin/python3
"""Compressed joblib files checked at the speed of decompressing them.

joblib (Debian 12's python3-joblib and python3-numpy, so run this with /usr/bin/python3) writes
a dict of LAYERS float32 matrices of 1024x4096 (16 MiB each: normal values of scale 0.02, as
initialised weights are) and as many 4 KiB biases, compressed with ('gzip', 3): the deflate
joblib's default compress=3 writes, in the framing `zcat` reads. Then, in alternating pairs,
the whole process of `tensorgate check --format json F` against `zcat F > /dev/null`, which
inflates the same stream and looks at nothing: the least any checker must do. The same for
('xz', 3) against `xzcat`, on XZ_LAYERS layers (xz at level 3 writes ~10 MB/s here, so its
file is smaller). Warm: the files are read from the page cache.

usage: /usr/bin/python3 bench/run_joblib_compressed_bench.py [BUILD_DIR] [--layers=60]
           [--xz-layers=8] [--pairs=10] [--dir=DIR]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

import joblib
import numpy as np

from skip_bench_support import ms, run

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "60"))
xz_layers = int(opts.get("xz-layers", "8"))
pairs = int(opts.get("pairs", "10"))


def write_file(path, n, compress):
    rng = np.random.default_rng(7)
    d = {}
    for i in range(n):
        d[f"layer{i}.w"] = (rng.standard_normal((1024, 4096), dtype=np.float32) * 0.02).astype(np.float32)
        d[f"layer{i}.b"] = np.zeros(1024, dtype=np.float32)
    joblib.dump(d, path, compress=compress)


def pairs_of(ours, theirs, n):
    a, b = [], []
    for _ in range(n):
        a.append(run(ours))
        b.append(run(theirs, shell=True))
    for i, what in ((0, "wall"), (1, "CPU")):
        x, y = [t[i] for t in a], [t[i] for t in b]
        ratios = [p / q for p, q in zip(x, y) if q > 0]
        print(f"  {what}: tensorgate check {ms(x)}")
        print(f"  {what}: decompressor     {ms(y)}")
        print(f"  {what}: ratio (pair by pair) median {statistics.median(ratios):.3f}x (min {min(ratios):.3f}, max {max(ratios):.3f})")


def bench(tmp, name, n, compress, tool):
    path = os.path.join(tmp, name)
    write_file(path, n, compress)
    tensorgate = os.path.join(build, "cli", "tensorgate")
    ours = [tensorgate, "check", "--format", "json", path]
    checked = json.loads(subprocess.run(ours, capture_output=True, check=True, text=True).stdout)["files"][0]
    assert checked["valid"], checked["findings"]
    s = checked["summary"]
    assert s["compression"] == compress[0] and s["joblib_arrays"] == 2 * n, s
    print(f"{name}: {os.path.getsize(path):,} bytes {compress[0]}, inflated {s['inflated_bytes']:,} "
          f"({s['joblib_array_bytes']:,} of them {2 * n} arrays' bytes)")
    theirs = f"{tool} {path} > /dev/null"
    run(ours), run(theirs, shell=True)  # warm
    print(f"warm, {pairs} pairs, against `{tool}`:")
    pairs_of(ours, theirs, pairs)
    os.unlink(path)


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        bench(tmp, "model.joblib.gz", layers, ("gzip", 3), "zcat")
        if xz_layers:
            bench(tmp, "model.joblib.xz", xz_layers, ("xz", 3), "xzcat")

main()
