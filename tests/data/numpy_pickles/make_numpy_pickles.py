#!/usr/bin/python3
"""Writes the NumPy pickles tests/pickle_numpy_test.cpp checks (committed; rerun to regenerate).

Run with Debian 12's Python and its python3-numpy (1.24): `/usr/bin/python3 make_numpy_pickles.py`.
The tests need no NumPy: they read these files.

benign_<object>_p<protocol>.pkl: what pickle.dumps writes for ordinary NumPy objects (random
    generators and their state, scalars and dtypes of every kind, arrays, masked arrays), at
    protocols 2, 4 and 5. Each must pass with no finding at all (default-deny usable).
hostile_<what>.pkl: the same allowed constructors given a dangerous global to call; each must
    be PK.dangerous-global.
"""
import os
import pickle
import subprocess
import sys

import numpy as np
from numpy.random import _pickle as np_random_pickle

HERE = os.path.dirname(os.path.abspath(__file__))


def seeded_state():
    np.random.seed(0)
    return np.random.get_state()


def benign_objects():
    return {
        "default_rng": np.random.default_rng(0),
        "random_state": np.random.RandomState(0),
        "get_state": seeded_state(),
        "pcg64": np.random.PCG64(1),
        "pcg64dxsm": np.random.PCG64DXSM(1),
        "mt19937": np.random.MT19937(1),
        "philox": np.random.Philox(1),
        "sfc64": np.random.SFC64(1),
        "seed_sequence": np.random.SeedSequence(1),
        "generators": [np.random.Generator(np.random.Philox(2)), np.random.Generator(np.random.SFC64(3))],
        "scalars": [np.float32(1.5), np.float64(2), np.float16(1), np.longdouble(1), np.int8(-1), np.int64(2),
                    np.uint8(3), np.uint64(2**63), np.bool_(True), np.complex64(1j), np.complex128(2j),
                    np.datetime64("2020-01-01"), np.timedelta64(5, "s"), np.str_("a"), np.bytes_(b"b"),
                    np.void(b"ab")],
        "dtypes": [np.dtype(x) for x in ["f4", "f8", "f2", "i1", "i8", ">u2", "?", "c8", "c16", "U5", "S3", "O",
                                         "M8[ns]", "m8[s]", "V4", "g"]]
                  + [np.dtype([("a", "f4"), ("b", "i4", (2,))]),
                     np.dtype({"names": ["x"], "formats": ["u1"], "titles": ["t"]}),
                     np.dtype(("i4", (2, 2)))],
        "arrays": [np.arange(6, dtype=np.float32).reshape(2, 3), np.array(["a", "bc"]), np.array([1, None], dtype=object),
                   np.zeros(2, dtype=[("a", "f4"), ("b", "M8[D]")]), np.asfortranarray(np.ones((2, 2)))],
        "masked_array": np.ma.masked_array([1, 2, 3], mask=[0, 1, 0]),
        "masked_constant": np.ma.masked,
        "state_and_arrays": {"rng": np.random.default_rng(7), "weights": np.linspace(0, 1, 4),
                             "step": np.int64(10)},
    }


class _Reduce:
    """Pickles as the call `func(*args)`: what a hostile file holds."""

    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def hostile_objects():
    ctor = getattr(np_random_pickle, "__generator_ctor")
    bit_ctor = getattr(np_random_pickle, "__bit_generator_ctor")
    state_ctor = getattr(np_random_pickle, "__randomstate_ctor")
    return {
        # 1.x: bit_generator_ctor(bit_generator_name) is called: os.system("id").
        "generator_ctor_system": _Reduce(ctor, ("id", os.system)),
        "randomstate_ctor_system": _Reduce(state_ctor, ("id", os.system)),
        # 2.x: a class argument is called with no argument.
        "bit_generator_ctor_popen": _Reduce(bit_ctor, (subprocess.Popen,)),
        # A benign generator state beside an import of a file opener.
        "rng_beside_open": [np.random.default_rng(0), _Reduce(np.load, ("/etc/passwd",))],
    }


def main():
    if sys.argv[1:]:
        sys.exit(__doc__)
    for name in os.listdir(HERE):
        if name.endswith(".pkl"):
            os.remove(os.path.join(HERE, name))
    for name, obj in benign_objects().items():
        for protocol in (2, 4, 5):
            with open(os.path.join(HERE, f"benign_{name}_p{protocol}.pkl"), "wb") as f:
                pickle.dump(obj, f, protocol=protocol)
    for name, obj in hostile_objects().items():
        with open(os.path.join(HERE, f"hostile_{name}.pkl"), "wb") as f:
            pickle.dump(obj, f, protocol=4)
    print("numpy", np.__version__, "python", sys.version.split()[0])


if __name__ == "__main__":
    main()
