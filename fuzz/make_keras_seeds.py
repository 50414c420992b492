#!/usr/bin/env python3
"""Seeds for keras_config_fuzzer: the config.json of each Keras fixture (tests/data/keras), with a
split header of no cuts (fuzz_support.hpp: a count, then 16-bit cut positions).

usage: fuzz/make_keras_seeds.py OUT_DIR
"""
import hashlib
import os
import sys
import zipfile

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "tests", "data", "keras")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name in sorted(os.listdir(fixtures)):
    if name.endswith(".keras"):
        with zipfile.ZipFile(os.path.join(fixtures, name)) as z:
            seed = b"\x00" + z.read("config.json")
        with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as f:
            f.write(seed)
