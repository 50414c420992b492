#!/usr/bin/env python3
"""Writes the sample files the README's main command checks (committed; rerun to regenerate).

tinyllm-bigram.safetensors: the course's tracer model: `bigram.weight`, F32,
[vocab, vocab], metadata {"format": "tinyllm"}, laid out by the canonical writer's rules.
broken-dtype.safetensors: the same file with its dtype misspelled (ST4.dtype).
"""
import json
import math
import struct

VOCAB = 16


def canonical(tensors, metadata):
    header = {}
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    offset, data = 0, b""
    for name, dtype, shape, payload in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(payload)]}
        offset += len(payload)
        data += payload
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def bigram():
    # log of add-one-smoothed probabilities of a tiny deterministic "corpus"
    rows = []
    for i in range(VOCAB):
        counts = [1 + ((i * 7 + j * 3) % 5) for j in range(VOCAB)]
        total = sum(counts)
        rows.extend(math.log(c / total) for c in counts)
    return struct.pack(f"<{len(rows)}f", *rows)


good = canonical([("bigram.weight", "F32", [VOCAB, VOCAB], bigram())], {"format": "tinyllm"})
with open("tinyllm-bigram.safetensors", "wb") as f:
    f.write(good)
with open("broken-dtype.safetensors", "wb") as f:
    f.write(good.replace(b'"dtype":"F32"', b'"dtype":"F3X"'))
