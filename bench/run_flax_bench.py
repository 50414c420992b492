#!/usr/bin/python3
"""A Flax checkpoint of about 1 GB, checked at the speed of skipping its buffers.

The file is written here as flax.serialization.to_bytes lays it out (flax/serialization.py:
one msgpack map of nested maps whose leaves are extension 1, the msgpack of (shape, dtype name,
buffer)), encoded by hand in this script with zeros for data: {"params": {"layer_i": {"attn":
{q, k, v, o: {"kernel": 1024x1024 float32 (4 MiB), "bias": 1024}}, "mlp": {"up", "down": 1024x4096
and 4096x1024 (16 MiB each) with their biases}}}} for LAYERS layers. Then, in alternating pairs,
the whole process of `tensorgate check --format json F` against the yardstick of
skip_bench_support.py: a small C program that stats F and reads exactly its bytes that are not
array buffers, lseek over each, which is the least any checker that looks at every key and
header must do. Warm (page cache), and cold as root unless --warm-only.

usage: /usr/bin/python3 bench/run_flax_bench.py [BUILD_DIR] [--layers=21] [--pairs=10]
           [--cold-pairs=5] [--dir=DIR] [--warm-only]
"""
import os
import struct
import sys
import tempfile

from skip_bench_support import compare

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "21"))
pairs = int(opts.get("pairs", "10"))
cold_pairs = 0 if "warm-only" in opts else int(opts.get("cold-pairs", "5"))
HIDDEN = 1024


def mp_str(s):
    b = s.encode()
    return (bytes([0xA0 | len(b)]) if len(b) < 32 else b"\xd9" + bytes([len(b)])) + b


def mp_map(n):
    return bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)


def mp_uint(v):
    return bytes([v]) if v < 128 else b"\xcd" + struct.pack(">H", v)


class Writer:
    """Writes the file and notes where each buffer lies (zeros, written in pieces)."""

    def __init__(self, f):
        self.f, self.pos, self.raw = f, 0, []
        self.zero = bytes(8 << 20)

    def put(self, b):
        self.f.write(b)
        self.pos += len(b)

    def array(self, shape):
        n = 4
        for d in shape:
            n *= d
        inner = b"\x93" + bytes([0x90 | len(shape)]) + b"".join(mp_uint(d) for d in shape) + mp_str("float32") + b"\xc6" + struct.pack(">I", n)
        self.put(b"\xc9" + struct.pack(">I", len(inner) + n) + b"\x01" + inner)
        self.raw.append((self.pos, n))
        left = n
        while left:
            k = min(left, len(self.zero))
            self.f.write(self.zero[:k])
            left -= k
        self.pos += n


def dense(w, shape):
    w.put(mp_map(2) + mp_str("kernel"))
    w.array(shape)
    w.put(mp_str("bias"))
    w.array([shape[1]])


def write_model(path):
    with open(path, "wb") as f:
        w = Writer(f)
        w.put(mp_map(1) + mp_str("params") + mp_map(layers))
        for i in range(layers):
            w.put(mp_str(f"layer_{i}") + mp_map(2) + mp_str("attn") + mp_map(4))
            for m in ("q", "k", "v", "o"):
                w.put(mp_str(m))
                dense(w, [HIDDEN, HIDDEN])
            w.put(mp_str("mlp") + mp_map(2) + mp_str("up"))
            dense(w, [HIDDEN, 4 * HIDDEN])
            w.put(mp_str("down"))
            dense(w, [4 * HIDDEN, HIDDEN])
        return w.raw


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "flax_model.msgpack")
        runs = write_model(path)
        checked = compare(tmp, path, runs, build, pairs, cold_pairs)
        s = checked["summary"]
        assert s["kind"] == "flax" and s["arrays_total"] == 12 * layers, s
        print(f"{s['arrays_total']} arrays, {s['parameters']:,} parameters, {s['total_bytes']:,} bytes of buffers")


main()
