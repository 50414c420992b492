#!/usr/bin/python3
"""Writes the benign files of tests/data/real_writers/ with the real writers Debian 12 ships
(python3-torch 1.13, python3-numpy 1.24): each must pass `tensorgate check --fail-on warning`
with no finding (tests/cli/test_real_writers.py). The tests read the committed bytes; they do
not need torch or numpy.

  /usr/bin/python3 tests/data/real_writers/make_real_writers.py tests/data/real_writers
"""
import collections
import io
import os
import sys

import numpy as np
import torch

out = sys.argv[1]


def path(name):
    return os.path.join(out, name)


torch.manual_seed(0)
state = collections.OrderedDict(
    [("embed.weight", torch.randn(16, 8)), ("layer.0.weight", torch.randn(8, 8).half()),
     ("layer.0.bias", torch.zeros(8)), ("norm.weight", torch.ones(8).to(torch.bfloat16)),
     ("steps", torch.tensor(3, dtype=torch.int64)), ("mask", torch.tensor([True, False]))])
# torch.save: the zip archive (1.6 and later) and the legacy stream, of a state dict and of a
# checkpoint dict with an optimizer's state and plain Python values.
torch.save(state, path("state_dict.pt"))
torch.save(state, path("state_dict_legacy.pt"), _use_new_zipfile_serialization=False)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.randn(2, 4)).sum().backward()
opt.step()
torch.save({"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict(), "loss": 0.25,
            "names": ["a", "b"], "shape": (2, 3)}, path("checkpoint.pth"))
torch.save(torch.arange(10, dtype=torch.float32)[2:7], path("tensor_view.pt"))

# NumPy: .npy of several dtypes, a structured array without objects, and .npz archives, plain
# and deflated (np.savez_compressed), one of them holding a structured array.
np.save(path("floats.npy"), np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4))
np.save(path("ints_fortran.npy"), np.asfortranarray(np.arange(6, dtype=np.int64).reshape(2, 3)))
np.save(path("unicode.npy"), np.array(["ab", "cde"]))
np.save(path("datetime.npy"), np.array(["2026-01-01", "2026-12-06"], dtype="datetime64[D]"))
rec = np.zeros(3, dtype=[("id", "<i4"), ("pos", "<f8", (2,)), ("sub", [("a", "u1"), ("b", "<f2")])])
np.save(path("structured.npy"), rec)
np.savez(path("arrays.npz"), a=np.arange(5, dtype=np.int16), b=np.eye(3, dtype=np.float64), A=np.ones(2))
np.savez_compressed(path("arrays_compressed.npz"), w=np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32),
                    z=np.zeros((64, 64), dtype=np.float32), rec=rec)
