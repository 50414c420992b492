#!/usr/bin/env python3
"""Seeds for joblib_compressed_fuzzer: a mode byte, the split header of fuzz_support.hpp (a
count, then 16-bit cut positions), then the file. Mode 0: the compressed joblib fixtures
(tests/data/joblib, made by joblib.dump(..., compress=...)) as they are, whole and cut. Modes
1-6: the plain joblib fixtures, which the harness compresses itself (zlib, gzip, bz2, xz, lzma,
lz4), so that mutations land on the pickle inside a valid stream.

usage: fuzz/make_joblib_compressed_seeds.py OUT_DIR
"""
import hashlib
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "tests", "data", "joblib")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def put(seed):
    with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as f:
        f.write(seed)


def headers(data):
    cuts = [c for c in (len(data) // 3, len(data) // 2, 2 * len(data) // 3) if c < 65536]
    return (b"\x00", bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts))


for name in sorted(os.listdir(fixtures)):
    with open(os.path.join(fixtures, name), "rb") as f:
        data = f.read()
    parts = name.split(".")
    if len(parts) == 3 or name.endswith((".gz", ".bz2")):  # arrays.zlib.joblib, text.gz: compressed
        for header in headers(data):
            put(b"\x00" + header + data)
    elif name.endswith(".joblib"):  # plain: compressed by the harness
        for mode in range(1, 7):
            put(bytes([mode]) + b"\x00" + data)
