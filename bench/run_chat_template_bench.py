#!/usr/bin/env python3
"""The chat template lexer's figures (family CT), measured in one run on this machine.

chat_template_bench (Google Benchmark) over 1, 4, 16 and 64 MiB; for each case:
- MB/s, and its time against BM_Baseline_CountUnderscores over the same sizes (one pass that
  touches every byte once: the floor of any scanner);
- linearity: ns per byte at the largest size over ns per byte at the smallest (1.0 is linear;
  a quadratic lexer would be 64);
- for GGUF, a file whose tokenizer.chat_template is the template against the same file with the
  value under a key the lexer does not read.
CPU time, not wall time: the machine is shared and CPU time moves less with the neighbours.

usage: bench/run_chat_template_bench.py [BUILD_DIR]     (default build/release)
"""
import json
import os
import subprocess
import sys

build = sys.argv[1] if len(sys.argv) > 1 else "build/release"
SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def run():
    out = subprocess.run([os.path.join(build, "bench", "chat_template_bench"), "--benchmark_format=json",
                          "--benchmark_min_time=0.3"], capture_output=True, text=True, check=True).stdout
    rows = {}
    for b in json.loads(out)["benchmarks"]:
        name, size = b["name"].split("/")[:2]
        rows.setdefault(name, {})[int(size)] = b["cpu_time"] * SCALE[b["time_unit"]]
    return rows


def main():
    rows = run()
    base = rows.pop("BM_Baseline_CountUnderscores")
    sizes = sorted(base)
    lo, hi = sizes[0], sizes[-1]
    print("| case | " + " | ".join(f"MB/s at {s >> 20} MiB" for s in sizes) +
          " | time / baseline (largest) | linearity (ns/B largest / smallest) |")
    print("|---|" + "---|" * (len(sizes) + 2))
    print("| baseline: count '_' | " + " | ".join(f"{s / base[s] * 1e3:.0f}" for s in sizes) +
          f" | 1 | {(base[hi] / hi) / (base[lo] / lo):.2f} |")
    for name, t in rows.items():
        mbs = " | ".join(f"{s / t[s] * 1e3:.0f}" for s in sizes)
        print(f"| {name[3:]} | {mbs} | {t[hi] / base[hi]:.1f} | {(t[hi] / hi) / (t[lo] / lo):.2f} |")
    tv, pv = rows["BM_Gguf_TemplateValue"], rows["BM_Gguf_PlainValue"]
    print()
    print("GGUF with the template under tokenizer.chat_template / under general.description: " +
          ", ".join(f"{s >> 20} MiB {tv[s] / pv[s]:.0f}x" for s in sizes))


main()
