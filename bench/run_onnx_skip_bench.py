#!/usr/bin/env python3
"""An ONNX model of about 1 GB whose initializers are raw data, checked at the speed of skipping it.

The model is written here by hand (protobuf encoded in this script, the data zeros): LAYERS
layers of a transformer-sized block, each four 1024x1024 FLOAT matrices (4 MiB of raw data each),
two 1024x4096 ones (16 MiB each) and six biases and norms of 4 or 16 KiB, with the nodes that
use them. Then, in alternating pairs, the whole process of `tensorgate check --format json F`
against the yardstick: a small C program, compiled here, that stats F and reads exactly its
bytes that are not raw data (lseek over each raw_data payload, read(2) of the rest in pieces of
at most 1 MiB), which is the least any checker that looks at the whole graph must do. Wall time of
each process from outside; the ratio is taken pair by pair and the median printed.

Warm: the file in the page cache. Cold (as root, when /proc/sys/vm/drop_caches is writable, and
not with --warm-only): `sync; echo 3 > /proc/sys/vm/drop_caches` before every run of either side.
For scale, the same check of the file through a pipe (`cat F | tensorgate check -`), which has no
size and is read to its end, as every check of an ONNX file was before raw data was skipped.

usage: bench/run_onnx_skip_bench.py [BUILD_DIR] [--layers=21] [--pairs=10] [--cold-pairs=5]
                                    [--dir=DIR] [--warm-only]
DIR: where the model is written (a temporary directory there, removed at the end; default the
system's temporary directory, which must be a disk for the cold runs to mean anything).
"""
import os
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



def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def field_len(field, payload_len):
    """The tag and length of a length-delimited field whose payload follows."""
    return varint(field << 3 | 2) + varint(payload_len)


def field_bytes(field, b):
    return field_len(field, len(b)) + b


class Writer:
    """Writes the file and notes where each raw_data payload lies (zeros, written in pieces)."""

    def __init__(self, f):
        self.f, self.pos, self.raw = f, 0, []

    def put(self, b):
        self.f.write(b)
        self.pos += len(b)

    def zeros(self, n):
        self.raw.append((self.pos, n))
        piece = bytes(8 << 20)
        left = n
        while left:
            k = min(left, len(piece))
            self.f.write(piece[:k])
            left -= k
        self.pos += n


def tensors():
    """(name, dims) of every initializer, in order."""
    out = []
    for i in range(layers):
        for m in ("q", "k", "v", "o"):
            out.append((f"layer{i}.attn.{m}.weight", [HIDDEN, HIDDEN]))
            out.append((f"layer{i}.attn.{m}.bias", [HIDDEN]))
        out.append((f"layer{i}.mlp.up.weight", [HIDDEN, 4 * HIDDEN]))
        out.append((f"layer{i}.mlp.up.bias", [4 * HIDDEN]))
        out.append((f"layer{i}.mlp.down.weight", [4 * HIDDEN, HIDDEN]))
        out.append((f"layer{i}.mlp.down.bias", [HIDDEN]))
    return out


def tensor_head(name, dims):
    """A TensorProto up to its raw_data field's tag and length; the payload follows."""
    head = b"".join(field_varint(1, d) for d in dims) + field_varint(2, 1) + field_bytes(8, name.encode())
    raw = 4
    for d in dims:
        raw *= d
    return head + field_len(9, raw), raw


def nodes():
    out, prev = [], "x"
    for i in range(layers):
        for m in ("q", "k", "v", "o"):
            out.append(("MatMul", [prev, f"layer{i}.attn.{m}.weight"], f"l{i}.{m}.mm"))
            out.append(("Add", [f"l{i}.{m}.mm", f"layer{i}.attn.{m}.bias"], f"l{i}.{m}"))
            prev = f"l{i}.{m}"
        out.append(("MatMul", [prev, f"layer{i}.mlp.up.weight"], f"l{i}.up.mm"))
        out.append(("Add", [f"l{i}.up.mm", f"layer{i}.mlp.up.bias"], f"l{i}.up"))
        out.append(("Relu", [f"l{i}.up"], f"l{i}.act"))
        out.append(("MatMul", [f"l{i}.act", f"layer{i}.mlp.down.weight"], f"l{i}.down.mm"))
        out.append(("Add", [f"l{i}.down.mm", f"layer{i}.mlp.down.bias"], f"l{i}.down"))
        prev = f"l{i}.down"
    return out, prev


def value_info(name):
    dims = field_bytes(1, field_bytes(2, b"batch")) + field_bytes(1, field_varint(1, HIDDEN))
    tensor_type = field_varint(1, 1) + field_bytes(2, dims)
    return field_bytes(1, name.encode()) + field_bytes(2, field_bytes(1, tensor_type))


def write_model(path):
    """The model; returns the raw_data payloads' (offset, length)."""
    node_list, last = nodes()
    node_bytes = b"".join(
        field_bytes(1, b"".join(field_bytes(1, i.encode()) for i in ins) + field_bytes(2, out.encode()) + field_bytes(4, op.encode()))
        for op, ins, out in node_list)
    heads = [tensor_head(n, d) for n, d in tensors()]
    inits_len = sum(len(field_len(5, len(h) + raw)) + len(h) + raw for h, raw in heads)
    tail = field_bytes(11, value_info("x")) + field_bytes(12, value_info(last))
    graph_len = len(node_bytes) + len(field_bytes(2, b"block")) + inits_len + len(tail)
    with open(path, "wb") as f:
        w = Writer(f)
        w.put(field_varint(1, 8) + field_bytes(2, b"run_onnx_skip_bench") + field_bytes(8, field_varint(2, 13)))
        w.put(field_len(7, graph_len) + node_bytes + field_bytes(2, b"block"))
        for h, raw in heads:
            w.put(field_len(5, len(h) + raw) + h)
            w.zeros(raw)
        w.put(tail)
    return w.raw


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "model.onnx")
        print(f"{layers} layers of raw_data initializers")
        checked = compare(tmp, path, write_model(path), build, pairs, cold_pairs)
        assert checked["bytes"] == os.path.getsize(path)

main()
