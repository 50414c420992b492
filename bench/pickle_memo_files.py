#!/usr/bin/env python3
"""Writes two pickles that stress the scanner's memo, the same length (~15.9 MB) each:

memo_sparse.pkl: PROTO 4, NONE, LONG_BINPUT 2**31, then MEMOIZE 15.9 million times (each takes
    the index len(memo), as CPython's load_memoize does: 1, 2, 3, ...), STOP. One index far out,
    then a dense run: what a memo stored by index would grow with.
memo_dense.pkl: PROTO 4, NONE, MEMOIZE 15.9 million times, STOP.

CPython loads both (the C unpickler grows its memo array to twice the largest index, so the
first takes it 16 GiB). With --measure=TENSORGATE, each is checked with `/usr/bin/time -v` and
its peak RSS and seconds are printed.

usage: pickle_memo_files.py DIR [--count=N] [--measure=build/release/cli/tensorgate]
"""
import os
import re
import subprocess
import sys

PROTO4, NONE, LONG_BINPUT, MEMOIZE, STOP = b"\x80\x04", b"N", b"r", b"\x94", b"."


def write(path, head, count):
    with open(path, "wb") as f:
        f.write(head)
        chunk = MEMOIZE * (1 << 20)
        left = count
        while left:
            n = min(left, len(chunk))
            f.write(chunk[:n])
            left -= n
        f.write(STOP)


def measure(tensorgate, path):
    run = subprocess.run(["/usr/bin/time", "-v", tensorgate, "check", path], capture_output=True, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", run.stderr).group(1)
    minutes, seconds = wall.split(":")[-2:]
    return rss / 1024, float(minutes) * 60 + float(seconds), run.returncode


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    if len(args) != 1:
        sys.exit(__doc__)
    count = int(opts.get("count", 15_900_000))
    os.makedirs(args[0], exist_ok=True)
    files = {
        "memo_sparse.pkl": PROTO4 + NONE + LONG_BINPUT + (1 << 31).to_bytes(4, "little"),
        "memo_dense.pkl": PROTO4 + NONE,
    }
    for name, head in files.items():
        path = os.path.join(args[0], name)
        write(path, head, count)
        if "measure" in opts:
            mb, seconds, rc = measure(opts["measure"], path)
            print(f"{name}: {os.path.getsize(path) / 1e6:.1f} MB, peak RSS {mb:.0f} MB, {seconds:.2f} s, exit {rc}")
        else:
            print(path)


if __name__ == "__main__":
    main()
