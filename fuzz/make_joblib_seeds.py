#!/usr/bin/env python3
"""Seeds for joblib_fuzzer: the joblib fixtures (tests/data/joblib, made by joblib.dump), whole and
cut at a few places (the split header of fuzz_support.hpp: a count, then 16-bit cut positions).

usage: fuzz/make_joblib_seeds.py OUT_DIR
"""
import hashlib
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "tests", "data", "joblib")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name in sorted(os.listdir(fixtures)):
    if not name.endswith(".joblib"):
        continue
    with open(os.path.join(fixtures, name), "rb") as f:
        data = f.read()
    cuts = [len(data) // 3, len(data) // 2, 2 * len(data) // 3]
    for header in (b"\x00", bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts)):
        seed = header + data
        with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as f:
            f.write(seed)
