#!/usr/bin/python3
"""The joblib fixtures: files joblib.dump writes (Debian 12's python3-joblib 1.2 and
python3-numpy 1.24), and hostile ones made from them by changing a few bytes.

Run from this folder with Debian's python3: /usr/bin/python3 make_fixtures.py
The tests read the files, never this script's packages.
"""
import datetime
import io
import sys
import types

import pickletools

import joblib
import numpy as np


def dumped(obj, **kw):
    b = io.BytesIO()
    joblib.dump(obj, b, **kw)
    return b.getvalue()


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


class Estimator:
    """A scikit-learn-like object: attributes that are arrays, lists and numbers."""

    def __init__(self):
        self.coef_ = np.linspace(-1, 1, 24, dtype=np.float64).reshape(4, 6)
        self.intercept_ = np.arange(4, dtype=np.float32)
        self.classes_ = np.array(["cat", "dog", "eel", "fox"])
        self.n_features_in_ = 6
        self.params = {"C": 1.0, "penalty": "l2"}


# What the pickle names: a module of neither list, so an unknown global (a warning).
Estimator.__module__ = "estimators"
sys.modules["estimators"] = types.ModuleType("estimators")
sys.modules["estimators"].Estimator = Estimator

# Benign, from the writer.
write("arrays.joblib", dumped({
    "w": np.arange(1000, dtype=np.float32),
    "ids": np.arange(7, dtype=np.int64),
    "mask": np.array([True, False, True]),
    "grid": np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4)),
    "z": np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
    "names": np.array(["a", "bb", "ccc"]),
    "raw": np.array([b"xy", b"z"]),
    "when": np.array([datetime.datetime(2026, 12, 7)], dtype="datetime64[s]"),
    "empty": np.zeros((0, 3), dtype=np.float64),
    "scalar": np.array(3.5, dtype=np.float16),
    "label": "joblib fixture",
}))
write("protocol2.joblib", dumped({"w": np.arange(10, dtype=np.float32), "b": np.ones(3, dtype=np.uint8)}, protocol=2))
write("object_array.joblib", dumped({"o": np.array([1, "two", 3.0], dtype=object), "f": np.arange(4, dtype=np.float64)}))
write("estimator.joblib", dumped(Estimator()))

# Hostile, made from the writer's bytes.
# 1. The shape says no elements, so joblib reads no array bytes and runs the 18 "array bytes"
#    as opcodes: os.system("id"). The scanner must read them as joblib does.
base = dumped({"w": np.zeros(18, dtype=np.uint8)})
payload = b"cos\nsystem\n" + b"\x8c\x02id" + b"\x85R0"
assert len(payload) == 18
shape = b"\x8c\x05shape\x94K\x12\x85"
assert base.count(shape) == 1
hidden = base.replace(shape, b"\x8c\x05shape\x94K\x00\x85")
at = hidden.rindex(b"\x00" * 18)
write("hidden_in_array_bytes.joblib", hidden[:at] + payload + hidden[at + 18:])
# 2. The same opcodes inside the array's declared bytes: joblib never runs them (valid).
base = dumped({"w": np.zeros(18, dtype=np.uint8)})
at = base.rindex(b"\x00" * 18)
write("opcodes_as_array_bytes.joblib", base[:at] + payload + base[at + 18:])
# 3. An object array's own pickle that imports os.system.
obj = dumped({"o": np.array([1, 2], dtype=object)})
inner = obj.index(b"\x80\x02", 4)
evil = b"\x80\x02cos\nsystem\nq\x00X\x02\x00\x00\x00idq\x01\x85q\x02Rq\x03."
end = inner + max(pos for _, _, pos in pickletools.genops(obj[inner:])) + 1  # past its STOP
write("object_array_payload.joblib", obj[:inner] + evil + obj[end:])
# 4. An array whose bytes run past the end of the file.
base = dumped({"w": np.arange(100, dtype=np.float32)})
write("truncated_array.joblib", base[:-300])
# 5. A wrapper made by copyreg._reconstructor(NumpyArrayWrapper, object, None), not NEWOBJ, and
#    no alignment in its state (so no pad): joblib's isinstance check still reads its 5 array
#    bytes, which a scanner that does not follow the class would parse as opcodes: BINBYTES over
#    the 18 bytes joblib then runs as os.system("id").
base = dumped({"w": np.zeros(5, dtype=np.uint8)}, protocol=2)
newobj = b"cjoblib.numpy_pickle\nNumpyArrayWrapper\nq\x02)\x81"
align = b"X\x1b\x00\x00\x00numpy_array_alignment_bytesq\x13K\x10"
assert base.count(newobj) == 1 and base.count(align) == 1 and base.endswith(b"\x00" * 5 + b"s.")
base = base.replace(newobj, b"ccopyreg\n_reconstructor\ncjoblib.numpy_pickle\nNumpyArrayWrapper\nq\x02c__builtin__\nobject\nN\x87R")
base = base.replace(align, b"")
pad = base.rindex(b"ub") + 2
write("wrapper_by_factory.joblib", base[:pad] + b"B" + len(payload).to_bytes(4, "little") + payload + b"s.")
# 6. A structured dtype: the scanner cannot tell raw bytes from a pickle.
write("structured.joblib", dumped({"s": np.zeros(2, dtype=[("a", "<f4"), ("b", "<i2")])}))
