#!/usr/bin/env python3
"""Writes the seeds of corpus/savedmodel_fuzzer/: the SavedModel files TensorFlow wrote
(tests/data/savedmodel/: saved_model.pb, keras_metadata.pb, and the variables.index tables the
fuzzer also reads as a directory's index), and files built by hand for each TF rule (the
dangerous ops in a graph and in a function, debug and print ops with file URLs, attribute values
before their keys, ImmutableConst, custom ops, Keras Lambda layers, metadata that is not JSON,
deep attribute nesting, broken wire format) and index tables (shard counts, snappy blocks).
Each seed starts with the split header of fuzz_support.hpp. Regressions under
corpus/savedmodel_fuzzer/regressions/ are kept.

usage: fuzz/make_savedmodel_seeds.py
"""
import os
import struct

from make_protobuf_seeds import ROOT, field_len, split, varint, write_seeds

OUT = os.path.join(ROOT, "corpus", "savedmodel_fuzzer")
DATA = os.path.join(ROOT, "tests", "data", "savedmodel")


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def saved_model(graph, tags=(b"serve",), signatures=b""):
    info = b"".join(field_len(4, t) for t in tags) + field_len(5, b"2.15.0")
    return field_varint(1, 1) + field_len(2, field_len(1, info) + field_len(2, graph) + signatures)


def node(name, op, attrs=b""):
    return field_len(1, field_len(1, name) + field_len(2, op) + attrs)


def attr(key, value):
    return field_len(5, field_len(1, key) + field_len(2, value))


def library(function, nodes):
    return field_len(2, field_len(1, field_len(1, field_len(1, function)) + nodes))


def keras(path, json):
    return field_len(1, field_len(3, path) + field_len(4, b"_tf_keras_layer") + field_len(5, json))


def table(shards, variables):
    """A tensor bundle index: one uncompressed data block, its index block, the footer."""
    def block(entries):
        body = b"".join(varint(0) + varint(len(k)) + varint(len(v)) + k + v for k, v in entries)
        return body + struct.pack("<II", 0, 1)
    entries = [(b"", field_varint(1, shards))]
    entries += [(n, field_varint(3, s) + field_varint(4, o) + field_varint(5, z)) for n, s, o, z in variables]
    data = block(entries)
    index = block([(b"zzz", varint(0) + varint(len(data)))])
    footer = (varint(0) + varint(0) + varint(len(data) + 5) + varint(len(index))).ljust(40, b"\0")
    return data + b"\0" * 5 + index + b"\0" * 5 + footer + struct.pack("<Q", 0xdb4775248b80fb57)


def real_files():
    for root, _, files in sorted(os.walk(DATA)):
        for name in sorted(files):
            if name.endswith(".pb") or name == "variables.index":
                with open(os.path.join(root, name), "rb") as f:
                    rel = os.path.relpath(os.path.join(root, name), DATA).replace("/", "-")
                    yield "real-" + rel, split(f.read(), 64, 512)


def seeds():
    yield from real_files()
    yield "read-file", split(saved_model(node(b"r", b"ReadFile") + node(b"w", b"WriteFile")))
    yield "py-func-in-function", split(saved_model(node(b"c", b"StatefulPartitionedCall") +
                                                   library(b"fn", field_len(3, field_len(1, b"p") + field_len(2, b"EagerPyFunc"))), ))
    list_s = lambda s: field_len(1, field_len(2, s))
    yield "debug-file-url", split(saved_model(node(b"d", b"DebugIdentityV2", attr(b"debug_urls", list_s(b"file:///tmp/d")))))
    yield "print-stream", split(saved_model(node(b"p", b"PrintV2", attr(b"output_stream", field_len(2, b"file:///x")))))
    yield "value-first", split(saved_model(node(b"d", b"DebugIdentityV3", field_len(5, field_len(2, list_s(b"file:///t")) + field_len(1, b"debug_urls")))))
    yield "immutable-const", split(saved_model(node(b"c", b"ImmutableConst", attr(b"memory_region_name", field_len(2, b"/etc/passwd")))))
    yield "immutable-const-memmapped", split(saved_model(node(b"c", b"ImmutableConst", attr(b"memory_region_name", field_len(2, b"memmapped_package://w")))))
    yield "custom-op", split(saved_model(node(b"a", b"MyOp") + node(b"b", b"fn") + library(b"fn", b"")))
    yield "keras-lambda", split(keras(b"root.layer-1", b'{"class_name": "Lambda", "config": {"function": "4wEAAA"}}'))
    yield "keras-nested", split(keras(b"root", b'{"class_name": "Functional", "config": {"layers": [{"class_name": "Lambda"}]}}'))
    yield "keras-not-json", split(keras(b"root", b'{"class_name": "Dense",'))
    yield "keras-numbers", split(field_len(1, field_varint(2, 3) + field_len(3, b"root.layer-0") + field_len(4, b"_tf_keras_layer") +
                                           field_len(5, b'{"class_name": "Dense", "units": 4, "rate": -1, "l2": 0.5, "big": 18446744073709551615, "b": true, "n": null}')))
    yield "variables", split(saved_model(node(b"v", b"VarHandleOp") + node(b"w", b"VariableV2") + node(b"x", b"Variable")))
    deep = field_len(2, b"x")
    for _ in range(40):
        deep = field_len(10, field_len(2, field_len(1, b"k") + field_len(2, deep)))
    yield "deep-attributes", split(saved_model(node(b"n", b"PartitionedCall", attr(b"f", deep))))
    tensor = field_len(1, b"x") + field_len(1, b"y:0") + field_varint(2, 1) + field_len(3, field_len(2, field_varint(1, 3)) + field_varint(3, 0))
    signature = field_len(5, field_len(1, b"serving_default") + field_len(2, field_len(1, field_len(1, b"x") + field_len(2, tensor)) + field_len(3, b"tensorflow/serving/predict")))
    yield "signatures", split(saved_model(node(b"a", b"AddV2"), signatures=signature))
    yield "truncated", split(saved_model(node(b"a", b"AddV2"))[:-3])
    yield "group", split(saved_model(b"\x0b"))
    yield "table-two-shards", split(table(2, [(b"a", 0, 0, 8), (b"b", 1, 4, 8)]))
    yield "table-stray-shard", split(table(1, [(b"a", 5, 0, 8)]))


if __name__ == "__main__":
    write_seeds(OUT, seeds())
