#!/usr/bin/python3
"""The compressed joblib fixtures: files joblib.dump(obj, f, compress=...) writes (Debian 12's
python3-joblib 1.2, python3-numpy 1.24, python3-lz4 for lz4), the old `ZF` header through the
writer joblib keeps for it (numpy_pickle_compat.write_zfile), and hostile or broken ones made
from them.

Run from this folder with Debian's python3: /usr/bin/python3 make_compressed_fixtures.py
The tests read the files, never this script's packages.
"""
import bz2
import gzip
import io
import os
import pickle

import joblib
import numpy as np
from joblib import numpy_pickle_compat

COMPRESSORS = {  # the file's suffix: what joblib.dump is given
    "zlib": ("zlib", 3),
    "gzip": ("gzip", 3),
    "bz2": ("bz2", 3),
    "xz": ("xz", 3),
    "lzma": ("lzma", 3),
    "lz4": ("lz4", 3),
}


def dumped(obj, **kw):
    b = io.BytesIO()
    joblib.dump(obj, b, **kw)
    return b.getvalue()


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


class Evil:
    """What a hostile model file holds: unpickling it runs os.system("id")."""

    def __reduce__(self):
        return (os.system, ("id",))


def arrays():
    return {
        "w": np.arange(1000, dtype=np.float32),
        "ids": np.arange(7, dtype=np.int64),
        "grid": np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4)),
        "names": np.array(["a", "bb", "ccc"]),
        "label": "compressed joblib fixture",
    }


# Benign and hostile, one of each per compressor.
for suffix, compress in COMPRESSORS.items():
    write(f"arrays.{suffix}.joblib", dumped(arrays(), compress=compress))
    write(f"hostile.{suffix}.joblib", dumped({"w": np.arange(100, dtype=np.float64), "evil": Evil()}, compress=compress))
# The hostile object first and 1 MiB of zeros after it: the verdict comes long before the end.
write("hostile_first.zlib.joblib", dumped({"evil": Evil(), "z": np.zeros(1 << 20, dtype=np.uint8)}, compress=3))
# compress=3 is zlib too: the one joblib writes by default when asked for compression.
write("arrays.compress3.joblib", dumped(arrays(), compress=3))
# An object array: its own pickle inside the compressed stream.
write("object_array.zlib.joblib", dumped({"o": np.array([1, "two", 3.0], dtype=object)}, compress=3))
# The old (before joblib 0.9.3) header: b"ZF", the inflated length in hex padded to 19
# characters, then a zlib stream of the pickle.
with open("compat.zf.joblib", "wb") as f:
    numpy_pickle_compat.write_zfile(f, pickle.dumps({"w": [1.0, 2.0], "label": "old joblib"}, protocol=2))
with open("compat_hostile.zf.joblib", "wb") as f:
    numpy_pickle_compat.write_zfile(f, pickle.dumps({"evil": Evil()}, protocol=2))

# Broken: cut in the middle, or with bytes after the stream's end.
for suffix in ("zlib", "gzip", "bz2", "xz", "lzma", "lz4"):
    whole = dumped(arrays(), compress=COMPRESSORS[suffix])
    write(f"truncated.{suffix}.joblib", whole[: len(whole) * 2 // 3])
write("trailing.zlib.joblib", dumped(arrays(), compress=3) + b"trailing garbage")
write("trailing.gzip.joblib", dumped(arrays(), compress=("gzip", 3)) + b"\x00" * 16)
# A corrupt stream: one byte in the middle of the deflate data flipped (its first bytes still
# inflate to PROTO).
corrupt = bytearray(dumped(arrays(), compress=3))
corrupt[len(corrupt) // 2] ^= 0xFF
write("corrupt.zlib.joblib", bytes(corrupt))
# A bomb beyond a small test limit: 4 MiB of zeros in about 18 KiB (zlib at joblib's level 3) and far less (xz, bz2).
for suffix in ("zlib", "xz", "bz2"):
    write(f"bomb.{suffix}.joblib", dumped({"z": np.zeros(4 << 20, dtype=np.uint8)}, compress=COMPRESSORS[suffix]))

# Compressed, but no pickle inside: these stay what they were (FK.unknown).
write("text.gz", gzip.compress(b"just some text, not a pickle\n" * 20, mtime=1))
write("text.bz2", bz2.compress(b"just some text, not a pickle\n" * 20))
