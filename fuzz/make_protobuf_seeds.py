#!/usr/bin/env python3
"""Writes the seeds of corpus/protobuf_fuzzer/: the ONNX files the real writer made
(tests/data/onnx/, python3-onnx), and wire bytes built by hand for what no writer makes (a
ten-byte varint, one of eleven, groups, wire types 6 and 7, field number 0, a length past the
end, a field past its message, deep nesting). Each seed starts with the split header of
fuzz_support.hpp: its first byte counts the cuts, two bytes each follow. Regressions under
corpus/protobuf_fuzzer/regressions/ are kept.

usage: fuzz/make_protobuf_seeds.py
"""
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "protobuf_fuzzer")


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def tag(field, wire_type):
    return varint(field << 3 | wire_type)


def field_len(field, data):
    return tag(field, 2) + varint(len(data)) + data


def nested(depth, inner):
    for _ in range(depth):
        inner = field_len(1, inner)
    return inner


def split(data, *cuts):
    return bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts) + data


def seeds():
    onnx_dir = os.path.join(ROOT, "tests", "data", "onnx")
    for name in sorted(os.listdir(onnx_dir)):
        if name.endswith(".onnx"):
            with open(os.path.join(onnx_dir, name), "rb") as f:
                data = f.read()
            yield "onnx-" + name[: -len(".onnx")], split(data)
            yield "onnx-" + name[: -len(".onnx")] + "-cut", split(data, 1, len(data) // 2, len(data) - 1)
    yield "varint-ten-bytes", split(tag(1, 0) + varint(2**64 - 1))
    yield "varint-eleven-bytes", split(tag(1, 0) + b"\x80" * 10 + b"\x00")
    yield "varint-tenth-byte-two", split(tag(1, 0) + b"\xff" * 9 + b"\x02")
    yield "tag-past-32-bits", split(varint(1 << 35) + varint(1))
    yield "field-zero", split(tag(0, 0) + varint(1))
    yield "groups", split(tag(2, 3) + tag(3, 0) + varint(1) + tag(2, 4))
    yield "wire-type-6-and-7", split(tag(2, 6) + tag(3, 7))
    yield "fixed-sizes", split(tag(1, 5) + struct.pack("<I", 7) + tag(1, 1) + struct.pack("<Q", 1 << 40))
    yield "length-past-end", split(tag(2, 2) + varint(1 << 30) + b"abc")
    yield "field-past-message", split(field_len(5, tag(2, 2) + varint(3) + b"a") + b"bc")
    yield "packed", split(field_len(2, varint(1) + varint(300)) + field_len(3, struct.pack("<ff", 1.0, 2.0)))
    yield "nested-12", split(nested(12, tag(4, 0) + varint(9)), 3, 7)
    yield "nested-40", split(nested(40, b""))
    yield "empty-messages", split(field_len(5, b"") + field_len(12, b"") + field_len(19, b""))
    whole = field_len(5, tag(2, 0) + varint(1) + tag(3, 0) + varint(1))
    yield "message-cut-short", split(whole[:-2])
    yield "varint-past-message", split(field_len(5, tag(2, 0) + b"\xff\xff\xff") + b"\x01")
    yield "varints-across-cuts", split(tag(1, 0) + varint(2**40) + tag(1, 0) + varint(2**60), 2, 4, 9, 11)
    yield "packed-bad-varint", split(field_len(2, b"\xff" * 11))
    yield "packed-fixed64", split(field_len(4, struct.pack("<dd", 1.0, -2.0)))
    yield "kept-and-skipped", split(field_len(1, b"a name") + field_len(6, b"data" * 64), 5, 40)


def write_seeds(out, seeds):
    """Replaces out/seed-* with `seeds` ((name, bytes) pairs); other files (regressions/) stay."""
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        if name.startswith("seed-"):
            os.remove(os.path.join(out, name))
    for name, data in seeds:
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write_seeds(OUT, seeds())
