#!/usr/bin/env python3
"""Writes corpus/torchscript_code_fuzzer/ (and the TorchScript archives of corpus/zip_fuzzer/,
seed-torchscript-*): the code files and mobile bytecode.pkl entries torch.jit.save wrote
(tests/data/torchscript/*.pt, read with zipfile: no torch needed) and code built by hand for each
TS.code and TS.code-lex case. Each seed is the fuzzer's input: byte 0 the number of cuts, two
bytes per cut, then the file (fuzz/fuzz_support.hpp, Split).

usage: fuzz/make_torchscript_seeds.py [REPO_ROOT]
"""
import os
import struct
import sys
import zipfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "corpus", "torchscript_code_fuzzer")

HAND = {
    "from-file": b"def f(x: Tensor) -> Tensor:\n  return torch.from_file(\"/etc/passwd\", False, 4)\n",
    "from-file-wrapped": b"def f(x: Tensor) -> Tensor:\n  y = ((torch) . ops).aten.from_file('f', # c\n    False, 4)\n  return y\n",
    "save-continued": b"def f(x: Tensor) -> None:\n  torch.\\\n    save(x, r'/tmp/x')\n",
    "custom-op": b"def f(x: Tensor) -> Tensor:\n  return ops.evil_lib.run(x)\n",
    "own-namespaces": b"def f(x: Tensor) -> Tensor:\n  _0 = ops.prim.NumToTensor(1)\n  return torch.ops.aten.relu(x) + _0\n",
    "imports": b"import math, os.path as p\nfrom builtins import (eval as e, len)\nfrom . import x; import subprocess\n",
    "strings": b"s = \"\"\"a \"b\" ''\nc\"\"\" + r'\\'' + b\"\\x00\" + u'' + f\"{x}\"\nt = 1e-5 + 0x1F + 2.5j != 3\n",
    "unterminated": b"def f() -> str:\n  return \"left open\n",
    "unterminated-triple": b"x = '''never\nclosed\n",
    "nul": b"x = 1\x00\n",
    "not-utf8": b"x = '\xff\xfe'\n",
    "cut-utf8": b"x = '\xe2\x82",
    "stray": b"x = $y ? `z`\n",
    "brackets": b"x = ([{(1)}]]\n",
    "deep": b"x = " + b"(" * 300 + b"1" + b")" * 300 + b"\n",
    "bang": b"x = a ! b\n",
    "backslash": b"x = 1 \\ 2\n",
    "crlf": b"def f(x: Tensor) -> Tensor:\r\n  # caf\xc3\xa9\r\n  return torch.relu(x)\r\n",
}


def write(name, data, cuts=()):
    header = bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts)
    with open(os.path.join(OUT, "seed-" + name), "wb") as f:
        f.write(header + data)


def main():
    os.makedirs(OUT, exist_ok=True)
    data_dir = os.path.join(ROOT, "tests", "data", "torchscript")
    for archive in ("two_layer.pt", "from_file.pt", "from_file_mobile.ptl", "bytecode_custom_op.ptl"):
        with zipfile.ZipFile(os.path.join(data_dir, archive)) as z:
            for info in z.infolist():
                if info.filename.endswith("/bytecode.pkl"):  # the operator names' reader
                    write(archive.split(".")[0] + "-bytecode", z.read(info))
                elif info.filename.endswith(".py") and archive.endswith(".pt"):
                    tail = info.filename.split("/code/", 1)[1].replace("/", "-")
                    write(archive.split(".")[0] + "-" + tail, z.read(info))
    for name, code in HAND.items():
        write(name, code)
        write(name + "-cut", code, (len(code) // 3, len(code) // 2))
    # The archives themselves for the zip walker's fuzzer (no cuts: byte 0 is 0).
    zip_corpus = os.path.join(ROOT, "corpus", "zip_fuzzer")
    for archive in sorted(os.listdir(data_dir)):
        if archive.endswith((".pt", ".ptl", ".zip")):
            with open(os.path.join(data_dir, archive), "rb") as f:
                data = f.read()
            with open(os.path.join(zip_corpus, "seed-torchscript-" + archive.replace(".", "-")), "wb") as f:
                f.write(b"\x00" + data)


if __name__ == "__main__":
    main()
