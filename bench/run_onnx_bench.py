#!/usr/bin/env python3
"""ONNX graphs checked whole, against the checker users run today, measured in one run.

A chain of NODES nodes (Neg and Relu in turn, one input, one output, no initializers: about 3 MB
at 100,000 nodes) written by onnx's own helper, then, in alternating pairs, the whole process of
`tensorgate check F` against `python3 -c 'import onnx; m = onnx.load(F, load_external_data=False);
onnx.checker.check_model(m)'` on the same file. Wall time of each process from outside; the
ratio is taken pair by pair (the machine's speed may drift) and the median printed.

Needs python3-onnx for the model and the yardstick (Debian's /usr/bin/python3 has it).
usage: bench/run_onnx_bench.py [BUILD_DIR] [--nodes=100000] [--pairs=10]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
nodes = int(opts.get("nodes", "100000"))
pairs = int(opts.get("pairs", "10"))
python = "/usr/bin/python3"

MAKE = """
import sys
from onnx import helper, TensorProto, save
n, path = int(sys.argv[1]), sys.argv[2]
nodes, prev = [], "x"
for i in range(n):
    nodes.append(helper.make_node("Relu" if i % 2 else "Neg", [prev], [f"t{i}"], name=f"n{i}"))
    prev = f"t{i}"
graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 4])])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
"""
CHECK = "import sys, onnx; m = onnx.load(sys.argv[1], load_external_data=False); onnx.checker.check_model(m)"


def seconds(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "chain.onnx")
        subprocess.run([python, "-c", MAKE, str(nodes), path], check=True)
        ours = [os.path.join(build, "cli", "tensorgate"), "check", path]
        theirs = [python, "-c", CHECK, path]
        seconds(ours), seconds(theirs)  # warm the page cache and the interpreter's files
        a, b = [], []
        for _ in range(pairs):
            a.append(seconds(ours))
            b.append(seconds(theirs))
        ratios = [x / y for x, y in zip(a, b)]
        print(f"{nodes:,} nodes, {os.path.getsize(path):,} bytes, {pairs} pairs")
        print(f"tensorgate check: median {statistics.median(a) * 1e3:.1f} ms (min {min(a) * 1e3:.1f}, max {max(a) * 1e3:.1f})")
        print(f"onnx.checker:     median {statistics.median(b) * 1e3:.1f} ms (min {min(b) * 1e3:.1f}, max {max(b) * 1e3:.1f})")
        print(f"ratio (pair by pair): median {statistics.median(ratios):.3f}x (min {min(ratios):.3f}, max {max(ratios):.3f})")


main()
