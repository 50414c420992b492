#!/usr/bin/env python3
"""A TFLite model of about 1 GB, checked at the speed of skipping its tensor data.

The model is written here by hand, front to back (a flatbuffer of TensorFlow Lite's schema.fbs:
each vtable just before its table, every uoffset pointing forward, the buffers' data vectors last
and 16-aligned, as the converter lays them out; the data zeros): LAYERS FULLY_CONNECTED layers,
each a 1024x4096 FLOAT32 weight (16 MiB), a 4096 bias, an activation, and the operators that use
them. Then, in alternating pairs, the whole process of `tensorgate check --format json F` against
the yardstick: a small C program (skip_bench_support.py) that stats F and reads exactly its bytes
that are not tensor data, lseek over each buffer's data, which is the least any checker that
verifies the whole flatbuffer must do. Warm, and cold when /proc/sys/vm/drop_caches is writable.

usage: bench/run_tflite_bench.py [BUILD_DIR] [--layers=60] [--pairs=10] [--cold-pairs=5]
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
layers = int(opts.get("layers", "60"))
pairs = int(opts.get("pairs", "10"))
cold_pairs = 0 if "warm-only" in opts else int(opts.get("cold-pairs", "5"))
IN, OUT = 1024, 4096


class Writer:
    """A flatbuffer written front to back: a parent before what it points at, each uoffset
    patched once its target is placed."""

    def __init__(self):
        self.buf = bytearray()
        self.patches = []  # (position of a uoffset, key of its target)
        self.placed = {}

    def align(self, n):
        while len(self.buf) % n:
            self.buf.append(0)

    def table(self, fields):
        """fields: [(id, 'u8'|'i8'|'u32'|'i32', value) or (id, 'off', key)]: the vtable, then the table."""
        sizes = {"u8": 1, "i8": 1, "u32": 4, "i32": 4, "off": 4}
        layout, at = [], 4
        for fid, kind, value in sorted(fields, key=lambda f: -sizes[f[1]]):
            at += (-at) % sizes[kind]
            layout.append((fid, kind, value, at))
            at += sizes[kind]
        tsize = at + (-at) % 4
        nfields = max((f[0] for f in fields), default=-1) + 1
        vsize = 4 + 2 * nfields
        self.align(2)
        # The vtable, then padding so that the table is 4-aligned.
        pad = (-(len(self.buf) + vsize)) % 4
        self.buf += b"\0" * pad
        vt = len(self.buf)
        entries = [0] * nfields
        for fid, _, _, off in layout:
            entries[fid] = off
        self.buf += struct.pack(f"<HH{nfields}H", vsize, tsize, *entries)
        t = len(self.buf)
        body = bytearray(tsize)
        struct.pack_into("<i", body, 0, t - vt)
        for fid, kind, value, off in layout:
            if kind == "off":
                self.patches.append((t + off, value))
            else:
                struct.pack_into({"u8": "<B", "i8": "<b", "u32": "<I", "i32": "<i"}[kind], body, off, value)
        self.buf += body
        return t

    def place(self, key):
        self.placed[key] = len(self.buf)

    def vector_i32(self, key, values):
        self.align(4)
        self.place(key)
        self.buf += struct.pack(f"<I{len(values)}i", len(values), *values)

    def vector_offsets(self, key, keys):
        self.align(4)
        self.place(key)
        self.buf += struct.pack("<I", len(keys))
        for k in keys:
            self.patches.append((len(self.buf), k))
            self.buf += b"\0\0\0\0"

    def string(self, key, text):
        self.align(4)
        self.place(key)
        data = text.encode()
        self.buf += struct.pack("<I", len(data)) + data + b"\0"

    def patch(self):
        for at, key in self.patches:
            struct.pack_into("<I", self.buf, at, self.placed[key] - at)


def write_model(path, n):
    """Returns the (offset, length) of every buffer's data: the runs the yardstick skips."""
    w = Writer()
    w.buf += b"\0\0\0\0TFL3"
    tensors, buffers = [], [("buf", 0)]
    shapes = [("input", [1, IN], 0)]
    for i in range(n):
        shapes.append((f"layer{i}/weights", [OUT, IN], len(buffers)))
        buffers.append(("buf", OUT * IN * 4))
        shapes.append((f"layer{i}/bias", [OUT], len(buffers)))
        buffers.append(("buf", OUT * 4))
        shapes.append((f"layer{i}/out", [1, OUT], 0))
    w.place("model")
    struct.pack_into("<I", w.buf, 0, 0)
    model = w.table([(0, "u32", 3), (1, "off", "codes"), (2, "off", "subgraphs"), (3, "off", "description"),
                     (4, "off", "buffers")])
    struct.pack_into("<I", w.buf, 0, model)
    w.vector_offsets("codes", ["code0"])
    w.placed["code0"] = w.table([(0, "i8", 9), (2, "i32", 1), (3, "i32", 9)])
    w.vector_offsets("subgraphs", ["sg"])
    w.placed["sg"] = w.table([(0, "off", "tensors"), (1, "off", "sg_in"), (2, "off", "sg_out"), (3, "off", "ops"),
                              (4, "off", "sg_name")])
    w.vector_offsets("tensors", [f"t{i}" for i in range(len(shapes))])
    for i, (name, shape, buf) in enumerate(shapes):
        w.placed[f"t{i}"] = w.table([(0, "off", f"t{i}.shape"), (1, "i8", 0), (2, "u32", buf), (3, "off", f"t{i}.name")])
        w.vector_i32(f"t{i}.shape", shape)
        w.string(f"t{i}.name", name)
    w.vector_i32("sg_in", [0])
    w.vector_i32("sg_out", [len(shapes) - 1])
    w.vector_offsets("ops", [f"op{i}" for i in range(n)])
    for i in range(n):
        src = 0 if i == 0 else 3 * i
        w.placed[f"op{i}"] = w.table([(0, "u32", 0), (1, "off", f"op{i}.in"), (2, "off", f"op{i}.out")])
        w.vector_i32(f"op{i}.in", [src, 3 * i + 1, 3 * i + 2])
        w.vector_i32(f"op{i}.out", [3 * i + 3])
    w.string("sg_name", "main")
    w.string("description", "MLIR Converted.")
    w.vector_offsets("buffers", [f"b{i}" for i in range(len(buffers))])
    for i, (_, size) in enumerate(buffers):
        w.placed[f"b{i}"] = w.table([(0, "off", f"b{i}.data")] if size else [])
    # The data vectors last, each one's bytes 16-aligned (Buffer.data's force_align).
    runs, at = [], len(w.buf)
    heads = []
    for i, (_, size) in enumerate(buffers):
        if not size:
            continue
        at += (-(at + 4)) % 16
        w.placed[f"b{i}.data"] = at
        heads.append((at, size))
        runs.append((at + 4, size))
        at += 4 + size
    w.patch()
    with open(path, "wb") as f:
        f.write(w.buf)
        for head, size in heads:
            f.seek(head)
            f.write(struct.pack("<I", size))
        f.truncate(at)
    return runs


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "model.tflite")
        runs = write_model(path, layers)
        checked = compare(tmp, path, runs, build, pairs, cold_pairs)
        s = checked["summary"]
        assert s["parameters"] == layers * (OUT * IN + OUT), s["parameters"]
        print(f"{layers} layers, {len(s['tensors'])} tensors, {s['buffer_bytes']:,} bytes of buffers")


main()
