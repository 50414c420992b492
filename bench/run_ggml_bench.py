#!/usr/bin/env python3
"""A legacy GGML file of about 1 GB (llama.cpp's ggjt v3 layout), checked at the speed of stat plus
reading its bytes that are not tensor data.

The file is written here from the layout llama.cpp's llama_file_saver wrote (docs/ggml.md): the
magic and version, 7 hyperparameters of a 2048-wide llama (n_mult 256, 16 heads, LAYERS layers,
F16), a vocabulary of 32,000 tokens with scores, then the 3 + 9 a layer tensor records, each
tensor's data at the next multiple of 32 bytes. The data is zeros left by seeking (a sparse
file: nothing here reads it). Then, in alternating pairs, the whole process of
`tensorgate check --format json F` against the yardstick: a small C program, compiled here, that
stats F and reads exactly its bytes that are not tensor data (lseek over each tensor's data,
read(2) of the rest in pieces of at most 1 MiB), the least any checker that looks at every header,
token and record must do. Wall and CPU time of each process from outside; the ratio is taken pair
by pair and the median printed (bench/skip_bench_support.py).

Warm: the file's metadata pages in the page cache. Cold runs need root (drop_caches) and, on a
sparse file, measure only the metadata's reads; they are off unless --cold-pairs is given.

usage: bench/run_ggml_bench.py [BUILD_DIR] [--layers=7] [--pairs=20] [--cold-pairs=0] [--dir=DIR]
"""
import os
import struct
import sys
import tempfile

from skip_bench_support import compare

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "7"))
pairs = int(opts.get("pairs", "20"))
cold_pairs = int(opts.get("cold-pairs", "0"))

N_VOCAB, N_EMBD, N_MULT, N_HEAD = 32000, 2048, 256, 16
N_FF = ((2 * (4 * N_EMBD) // 3 + N_MULT - 1) // N_MULT) * N_MULT
F32, F16 = 0, 1


def tensors():
    """(name, ggml type, dims ne0 first) of every record, in llama.cpp's order."""
    out = [("tok_embeddings.weight", F16, [N_EMBD, N_VOCAB]), ("norm.weight", F32, [N_EMBD]),
           ("output.weight", F16, [N_EMBD, N_VOCAB])]
    for i in range(layers):
        p = f"layers.{i}."
        for m in ("wq", "wk", "wv", "wo"):
            out.append((p + f"attention.{m}.weight", F16, [N_EMBD, N_EMBD]))
        out.append((p + "attention_norm.weight", F32, [N_EMBD]))
        out.append((p + "feed_forward.w1.weight", F16, [N_EMBD, N_FF]))
        out.append((p + "feed_forward.w2.weight", F16, [N_FF, N_EMBD]))
        out.append((p + "feed_forward.w3.weight", F16, [N_EMBD, N_FF]))
        out.append((p + "ffn_norm.weight", F32, [N_EMBD]))
    return out


def write_model(path):
    """The file; returns the tensors' data as (offset, length), ascending."""
    runs = []
    with open(path, "wb") as f:
        f.write(struct.pack("<2I7i", 0x67676A74, 3, N_VOCAB, N_EMBD, N_MULT, N_HEAD, layers, N_EMBD // N_HEAD, 1))
        vocab = bytearray()
        for i in range(N_VOCAB):
            token = b"<0x%02X>" % i if i < 256 else b"\xe2\x96\x81tok%d" % i
            vocab += struct.pack("<I", len(token)) + token + struct.pack("<f", -float(i))
        f.write(vocab)
        for name, ttype, dims in tensors():
            raw = name.encode()
            f.write(struct.pack("<3i", len(dims), len(raw), ttype) + struct.pack(f"<{len(dims)}i", *dims) + raw)
            at = (f.tell() + 31) & ~31
            n = 4 if ttype == F32 else 2
            for d in dims:
                n *= d
            runs.append((at, n))
            f.seek(at + n)
        f.truncate(f.tell())
    return runs


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        path = os.path.join(tmp, "ggml-model-f16.bin")
        runs = write_model(path)
        print(f"llama ggjt v3, {layers} layers, {len(runs)} tensors")
        checked = compare(tmp, path, runs, build, pairs, cold_pairs)
        assert checked["bytes"] == os.path.getsize(path)
        assert checked["summary"]["tensor_count"] == len(runs), checked["summary"]["tensor_count"]

main()
