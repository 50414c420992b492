#!/usr/bin/env python3
"""Writes the seeds of corpus/onnx_fuzzer/: the ONNX files the real writer made
(tests/data/onnx/, python3-onnx), and models built by hand for each OX rule (external data
outside the directory, tensor data of the wrong size, unknown data types, negative dims, no
ir_version, no default opset, a custom domain, unknown op types, outputs nothing produces, external
files for the fuzzer's made-up directory). Each seed starts with the split header of
fuzz_support.hpp. Regressions under corpus/onnx_fuzzer/regressions/ are kept.

usage: fuzz/make_onnx_seeds.py
"""
import os
import struct

from make_protobuf_seeds import ROOT, field_len, split, varint, write_seeds

OUT = os.path.join(ROOT, "corpus", "onnx_fuzzer")


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def model(graph, ir=8, opsets=None):
    opsets = field_len(8, field_varint(2, 13)) if opsets is None else opsets
    return field_varint(1, ir) + field_len(2, b"hand") + opsets + field_len(7, graph)


def tensor(name, dtype, dims, data):
    return b"".join(field_varint(1, d) for d in dims) + field_varint(2, dtype) + field_len(8, name) + data


def initializer(t):
    return field_len(5, t)


def external(location, extra=b""):
    return field_len(13, field_len(1, b"location") + field_len(2, location)) + extra + field_varint(14, 1)


def seeds():
    onnx_dir = os.path.join(ROOT, "tests", "data", "onnx")
    for name in sorted(os.listdir(onnx_dir)):
        if name.endswith(".onnx"):
            with open(os.path.join(onnx_dir, name), "rb") as f:
                data = f.read()
            yield "real-" + name[: -len(".onnx")], split(data)
            yield "real-" + name[: -len(".onnx")] + "-cut", split(data, 3, len(data) // 2)
    floats = field_len(9, struct.pack("<fff", 1, 2, 3))
    yield "external-climbs-out", split(model(initializer(tensor(b"w", 1, [3], external(b"../../etc/passwd")))))
    yield "external-absolute", split(model(initializer(tensor(b"w", 1, [3], external(b"/etc/passwd")))))
    yield "external-no-location", split(model(initializer(tensor(b"w", 1, [3], field_varint(14, 1)))))
    bad = field_len(13, field_len(1, b"offset") + field_len(2, b"12a"))
    yield "external-bad-offset", split(model(initializer(tensor(b"w", 1, [3], external(b"w.bin", bad)))))
    yield "raw-too-short", split(model(initializer(tensor(b"w", 1, [4], floats))))
    yield "typed-int64", split(model(initializer(tensor(b"w", 7, [2], field_len(7, varint(1) + varint(2))))))
    yield "int4-packed", split(model(initializer(tensor(b"w", 22, [3], field_len(9, b"\x12\x03")))))
    yield "data-type-99", split(model(initializer(tensor(b"w", 99, [1], field_len(9, b"x")))))
    yield "negative-dim", split(model(initializer(tensor(b"w", 1, [2**64 - 1], b""))))
    yield "no-ir-version", split(field_len(8, field_varint(2, 13)) + field_len(7, b""))
    yield "no-default-opset", split(model(b"", 8, field_len(8, field_len(1, b"ai.onnx.ml") + field_varint(2, 3))))
    node = field_len(1, field_len(4, b"Mystery") + field_len(7, b"com.example"))
    yield "custom-domain", split(model(node + field_len(1, field_len(4, b"Add"))))
    sub = field_len(1, field_len(4, b"Identity"))
    attr = field_len(5, field_len(1, b"then_branch") + field_len(6, sub) + field_varint(20, 5))
    yield "subgraph", split(model(field_len(1, field_len(4, b"If") + attr)), 5, 11)
    # Every message kind the schema reads: training graphs, functions, sparse initializers,
    # value infos of every type, attributes of every kind, every typed data field.
    dbl = tensor(b"d", 11, [2], field_len(10, struct.pack("<dd", 1, 2)))
    i32 = tensor(b"i", 6, [2], field_len(5, varint(1) + varint(2)))
    u64 = tensor(b"u", 13, [1], field_len(11, varint(7)))
    strs = tensor(b"s", 8, [2], field_len(6, b"a") + field_len(6, b"b"))
    sparse = field_len(1, tensor(b"v", 1, [1], field_len(9, struct.pack("<f", 1)))) + field_len(
        2, tensor(b"ix", 7, [1], field_len(7, varint(0)))) + field_len(3, varint(4))
    seq = field_len(2, field_len(4, field_len(1, field_len(1, field_varint(1, 1)))))
    mp = field_len(2, field_len(5, field_varint(1, 7) + field_len(2, field_len(8, field_varint(1, 1)))))
    opt = field_len(2, field_len(9, field_len(1, field_len(1, field_varint(1, 1)))))
    attrs = (field_len(5, field_len(1, b"value") + field_len(5, dbl) + field_varint(20, 4)) +
             field_len(5, field_len(10, i32) + field_len(10, u64) + field_len(22, sparse)) +
             field_len(5, field_len(14, field_len(1, field_varint(1, 1))) + field_len(7, struct.pack("<ff", 1, 2)) +
                       field_len(8, varint(1) + varint(2))))
    graph = (field_len(1, field_len(4, b"Constant") + attrs) + initializer(strs) + field_len(15, sparse) +
             field_len(13, field_len(1, b"q") + seq) + field_len(13, mp) + field_len(13, opt))
    function = field_len(1, b"f") + field_len(7, field_len(4, b"Relu")) + field_len(11, field_len(1, b"alpha"))
    training = field_len(1, field_len(1, field_len(4, b"Add"))) + field_len(2, b"")
    sink = (field_varint(1, 8) + field_len(2, b"p") + field_len(3, b"1.0") + field_len(4, b"org.example") +
            field_varint(5, 3) + field_len(8, field_varint(2, 17)) + field_len(7, graph) + field_len(20, training) +
            field_len(25, function) + field_len(14, field_len(1, b"k") + field_len(2, b"v")))
    yield "every-kind", split(sink, 9, 40, 41)
    yield "raw-and-typed", split(model(initializer(tensor(b"w", 1, [1], field_len(9, b"abcd") + field_len(4, b"abcd")))))
    yield "string-raw", split(model(initializer(tensor(b"w", 8, [1], field_len(9, b"abcd")))))
    length = field_len(13, field_len(1, b"length") + field_len(2, b"8"))
    yield "external-wrong-length", split(model(initializer(tensor(b"w", 1, [3], external(b"w.bin", length)))))
    yield "ir-version-15", split(model(b"", 15))
    yield "truncated", split(model(initializer(tensor(b"w", 1, [1], field_len(9, b"abcd"))))[:-3])
    yield "group", split(model(b"") + b"\x1b")
    add = field_len(1, field_len(4, b"Add"))
    yield "repeated-ops", split(model(add + add + field_len(1, field_len(4, b"Add") + field_len(7, b"ai.onnx"))))
    yield "typed-wrong-count", split(model(initializer(tensor(b"w", 7, [3], field_len(7, varint(1) + varint(2))))))
    yield "typed-wrong-field", split(model(initializer(tensor(b"w", 1, [2], field_len(7, varint(1) + varint(2))))))
    yield "io-without-shape", split(model(field_len(12, field_len(1, b"y") + field_len(2, field_len(1, field_varint(1, 1))))))
    # Op types against onnx's operators: none such, added after the imported opset, deprecated by
    # then, and one a model function defines; outputs nothing produces.
    def node(op, out=b"y"):
        return field_len(1, field_len(1, b"x") + field_len(2, out) + field_len(4, op))
    yield "unknown-op", split(model(node(b"NoSuchOp") + node(b"Gelu", b"g") + node(b"Upsample", b"u")))
    own = field_len(25, field_len(1, b"Block") + field_len(7, field_len(4, b"Relu")))
    yield "function-op", split(model(node(b"Block") + field_len(12, field_len(1, b"y")) + field_len(12, field_len(1, b"z"))) + own)
    # External files the fuzzer's made-up directory answers for: many locations, each read far.
    far = field_len(13, field_len(1, b"offset") + field_len(2, b"70000"))
    files = b"".join(initializer(tensor(b"w%d" % i, 1, [3], external(b"data%d.bin" % i, far))) for i in range(16))
    yield "external-files", split(model(files + initializer(tensor(b"again", 1, [3], external(b"data0.bin")))))
    yield "main-io", split(model(field_len(11, field_len(1, b"x") + field_len(2, field_len(1, field_varint(1, 1) + field_len(
        2, field_len(1, field_varint(1, 4)) + field_len(1, field_len(2, b"batch"))))))))


if __name__ == "__main__":
    write_seeds(OUT, seeds())
