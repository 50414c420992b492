#!/usr/bin/env python3
"""The safetensors header figures, measured in one run on this machine:

1. header_bench (Google Benchmark): the validator against Boost.JSON's DOM parse of the same
   bytes, for 1,000, 100,000 and 1,000,000 tensors: MB/s, ns per tensor, and the ratio.
2. The whole `tensorgate check` process on a 100,000-tensor file (median of 15 runs).
3. Peak memory of `tensorgate check` on the 1,000,000-tensor file, against the header's size.

usage: bench/run_header_bench.py [BUILD_DIR]     (default build/release)
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import gbench

build = sys.argv[1] if len(sys.argv) > 1 else "build/release"
tensorgate = os.path.join(build, "cli", "tensorgate")


def ns_per(row, count):
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[row["time_unit"]]
    return row["real_time"] * scale / count


def bench():
    rows = gbench.rows(os.path.join(build, "bench"), "header_bench", "ValidateHeader|BoostJsonDom")
    print("| tensors | header MB | validator ms | MB/s | ns/tensor | Boost.JSON DOM ms | validator / DOM |")
    print("|---|---|---|---|---|---|---|")
    for count in sorted(rows):
        v, d = rows[count]["BM_ValidateHeader"], rows[count]["BM_BoostJsonDom"]
        print(f"| {count:,} | {v['header_MB']:.1f} | {v['real_time']:.2f} | {v['bytes_per_second'] / 1e6:.0f} | "
              f"{ns_per(v, count):.0f} | {d['real_time']:.2f} | {v['real_time'] / d['real_time']:.2f} |")


def run_child(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def process_figures(tmp):
    f100k, f1m = os.path.join(tmp, "h100k.safetensors"), os.path.join(tmp, "h1m.safetensors")
    for count, path in ((100_000, f100k), (1_000_000, f1m)):
        subprocess.run([os.path.join(build, "bench", "make_header_file"), str(count), path], check=True,
                       stdout=subprocess.DEVNULL)
    walls, cpus = zip(*(run_child([tensorgate, "check", f100k]) for _ in range(15)))
    with open(f100k, "rb") as f:
        n100k = int.from_bytes(f.read(8), "little")
    print(f"\n`tensorgate check` on 100,000 tensors ({n100k / 1e6:.1f} MB header): "
          f"wall median {statistics.median(walls) * 1000:.1f} ms (min {min(walls) * 1000:.1f}), "
          f"CPU median {statistics.median(cpus) * 1000:.1f} ms")
    # Peak RSS of one child process: run it alone in a fresh interpreter-less fork.
    rss = subprocess.run([sys.executable, "-c",
                          "import resource,subprocess,sys;subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
                          "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                          tensorgate, "check", f1m], capture_output=True, text=True, check=True).stdout
    with open(f1m, "rb") as f:
        n1m = int.from_bytes(f.read(8), "little")
    peak = int(rss) * 1024
    print(f"`tensorgate check` on 1,000,000 tensors ({n1m / 1e6:.1f} MB header): peak RSS {peak / 1e6:.1f} MB "
          f"= {peak / n1m:.2f} x the header")


bench()
with tempfile.TemporaryDirectory() as tmp:
    process_figures(tmp)
