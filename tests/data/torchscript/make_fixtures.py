#!/usr/bin/env python3
"""Writes the TorchScript fixtures of tests/torchscript_test.cpp and tests/cli/test_cli_torchscript.py
with the real writer (torch.jit.script + torch.jit.save; tested with Debian 12's python3-torch
1.13.1). The tests read the files and need no torch.

usage: /usr/bin/python3 tests/data/torchscript/make_fixtures.py [OUT_DIR]   (default: beside this script)

  two_layer.pt           a scripted two-layer module (Linear, ReLU, Linear)
  two_layer_mobile.ptl   the same for the lite interpreter (bytecode.pkl)
  from_file.pt           a scripted method that calls torch.from_file (aten::from_file)
  from_file_mobile.ptl   the same for the lite interpreter: bytecode.pkl names aten::from_file
  bytecode_custom_op.ptl two_layer_mobile.ptl with bytecode.pkl's aten::relu renamed evil::relu
                         (hand-edited; its code files still call torch.relu)
  custom_op.pt           two_layer.pt with its root code file calling ops.evil_lib.run (hand-edited)
  import_os.pt           two_layer.pt with "import os" in its root code file (hand-edited)
  unterminated.pt        two_layer.pt with a string literal left open in its root code file
  missing_code.pt        two_layer.pt without the code file of torch.nn.modules.linear's Linear
  no_code.zip            two_layer.pt without its code/ entries: a plain zip whose data.pkl
                         imports __torch__ classes
The hand-edited archives are rewritten whole by zipfile, so names, sizes and CRCs agree.
"""
import os
import sys
import zipfile

import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


class TwoLayer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 3)
        self.fc2 = torch.nn.Linear(3, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class ReadsAFile(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)

    def forward(self, x):
        leaked = torch.from_file("/etc/hostname", False, 4, dtype=torch.uint8)
        return self.fc(x) + leaked.sum()


def rewrite(src, dst, edit):
    """Copies the archive `src` to `dst`, each entry's bytes through edit(name, data) (None drops it)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = edit(info.filename, zin.read(info.filename))
            if data is None:
                continue
            out = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            out.compress_type = info.compress_type
            zout.writestr(out, data)


def inserted(data, anchor, line):
    assert anchor in data, "the printer's output changed: no anchor"
    return data.replace(anchor, anchor + line, 1)


def renamed_op(data):
    assert b"aten::relu" in data, "the bytecode changed: no aten::relu"
    return data.replace(b"aten::relu", b"evil::relu")  # as long: the string's length holds


def edit_root_code(replace):
    def edit(name, data):
        if name.endswith("/code/__torch__.py"):
            return replace(data)
        return data
    return edit


def main():
    torch.manual_seed(0)
    two_layer = os.path.join(OUT, "two_layer.pt")
    scripted = torch.jit.script(TwoLayer())
    torch.jit.save(scripted, two_layer)
    scripted._save_for_lite_interpreter(os.path.join(OUT, "two_layer_mobile.ptl"))
    reads = torch.jit.script(ReadsAFile())
    torch.jit.save(reads, os.path.join(OUT, "from_file.pt"))
    reads._save_for_lite_interpreter(os.path.join(OUT, "from_file_mobile.ptl"))
    rewrite(os.path.join(OUT, "two_layer_mobile.ptl"), os.path.join(OUT, "bytecode_custom_op.ptl"),
            lambda name, data: renamed_op(data) if name.endswith("/bytecode.pkl") else data)

    anchor = b"    fc1 = self.fc1\n"
    rewrite(two_layer, os.path.join(OUT, "custom_op.pt"), edit_root_code(
        lambda d: inserted(d, anchor, b"    _1 = ops.evil_lib.run(x)\n")))
    rewrite(two_layer, os.path.join(OUT, "import_os.pt"), edit_root_code(lambda d: b"import os\n" + d))
    rewrite(two_layer, os.path.join(OUT, "unterminated.pt"), edit_root_code(
        lambda d: inserted(d, anchor, b"    _1 = \"left open\n")))
    rewrite(two_layer, os.path.join(OUT, "missing_code.pt"),
            lambda name, data: None if "/code/__torch__/torch/nn/modules/linear" in name else data)
    rewrite(two_layer, os.path.join(OUT, "no_code.zip"), lambda name, data: None if "/code/" in name else data)
    for name in sorted(os.listdir(OUT)):
        path = os.path.join(OUT, name)
        if name.endswith((".pt", ".ptl", ".zip")):
            assert os.path.getsize(path) < 50_000, name
            print(name, os.path.getsize(path))


if __name__ == "__main__":
    main()
