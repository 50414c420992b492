#!/usr/bin/env python3
"""A CTranslate2 model.bin of about 1 GB, checked at the speed of skipping its variables' data.

The model is written here by hand in the writer's layout (binary version 6, python/ctranslate2/
specs/model_spec.py's _serialize; the data zeros): a WhisperSpec-shaped encoder and decoder of
LAYERS layers each, every layer four 1024x1024 float16 attention matrices (2 MiB each), two
1024x4096 float16 feed-forward ones (8 MiB each), and the biases and norms (float32, 4 or 16 KiB), then an alias as the writer's
_alias_variables makes them. Then, in alternating pairs, the whole process of `tensorgate check
--format json F` against the yardstick (skip_bench_support.py): a small C program that stats F and
reads exactly its bytes that are not variable data (lseek over each), the least any checker that
looks at every record must do. Wall and CPU time of each process from outside; the ratio is taken
pair by pair and the median printed. Warm, and cold as root (drop_caches before every run).

usage: bench/run_ctranslate2_bench.py [BUILD_DIR] [--layers=20] [--pairs=10] [--cold-pairs=5]
                                      [--dir=DIR] [--warm-only]
"""
import os
import struct
import sys
import tempfile

from skip_bench_support import compare

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "20"))
pairs = int(opts.get("pairs", "10"))
cold_pairs = 0 if "warm-only" in opts else int(opts.get("cold-pairs", "5"))
HIDDEN = 1024
FLOAT32, FLOAT16 = 0, 4  # include/ctranslate2/types.h's DataType


def string(s):
    b = s.encode() + b"\0"
    return struct.pack("<H", len(b)) + b


def variables():
    """(name, dims, dtype id, item size), in name order as the writer sorts them."""
    out = []
    for side in ("decoder", "encoder"):
        for i in range(layers):
            p = f"{side}/layer_{i}"
            out.append((f"{p}/ffn/layer_norm/beta", [HIDDEN], FLOAT32, 4))
            out.append((f"{p}/ffn/layer_norm/gamma", [HIDDEN], FLOAT32, 4))
            out.append((f"{p}/ffn/linear_0/bias", [4 * HIDDEN], FLOAT32, 4))
            out.append((f"{p}/ffn/linear_0/weight", [4 * HIDDEN, HIDDEN], FLOAT16, 2))
            out.append((f"{p}/ffn/linear_1/bias", [HIDDEN], FLOAT32, 4))
            out.append((f"{p}/ffn/linear_1/weight", [HIDDEN, 4 * HIDDEN], FLOAT16, 2))
            for j in range(4):
                out.append((f"{p}/self_attention/linear_{j}/bias", [HIDDEN], FLOAT32, 4))
                out.append((f"{p}/self_attention/linear_{j}/weight", [HIDDEN, HIDDEN], FLOAT16, 2))
    return sorted(out)


def write_model(path):
    """The model; returns the variables' data runs (offset, length)."""
    vs = variables()
    runs, pos = [], 0
    zeros = bytes(8 << 20)
    with open(path, "wb") as f:
        def put(b):
            nonlocal pos
            f.write(b)
            pos += len(b)
        put(struct.pack("<I", 6) + string("WhisperSpec") + struct.pack("<II", 3, len(vs) + 1))
        # The embedding first: the projection is its alias.
        for name, dims, dtype, size in [("decoder/embeddings/weight", [51865, HIDDEN], FLOAT16, 2)] + vs:
            n = size
            for d in dims:
                n *= d
            put(string(name) + struct.pack("<B", len(dims)) + b"".join(struct.pack("<I", d) for d in dims) +
                struct.pack("<BI", dtype, n))
            runs.append((pos, n))
            left = n
            while left:
                k = min(left, len(zeros))
                f.write(zeros[:k])
                left -= k
            pos += n
        put(struct.pack("<I", 1) + string("decoder/projection/weight") + string("decoder/embeddings/weight"))
    return runs


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "model.bin")
        print(f"{layers} encoder and {layers} decoder layers, float16 weights")
        checked = compare(tmp, path, write_model(path), build, pairs, cold_pairs)
        assert checked["format"] == "ctranslate2", checked["format"]
        assert checked["bytes"] == os.path.getsize(path)
        s = checked["summary"]
        print(f"{s['variable_count']} variables, {s['alias_count']} alias, {s['parameters']:,} parameters")

main()
