#!/usr/bin/env python3
"""Writes a zip bomb as Python's zipfile writes one: a single deflated entry of zeros.

  make_zip_bomb.py OUT.zip GIB [descriptor|sized]

`descriptor` writes through an unseekable stream, so the sizes come in a data descriptor after
the data (bit 3) and a reader finds the entry's end only by inflating it; `sized` lets zipfile
seek back and record them in the local header. 12 GiB makes a 12.5 MB file in about a minute.
bench/README.md records what `tensorgate check` takes on it (ZP.bomb).
"""
import io
import sys
import zipfile


class Unseekable(io.RawIOBase):
    def __init__(self, f):
        self.f = f

    def writable(self):
        return True

    def write(self, b):
        return self.f.write(b)

    def seekable(self):
        return False


def main():
    path, gib, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "wb") as raw:
        target = Unseekable(raw) if mode == "descriptor" else raw
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            with z.open("archive/data/0", "w", force_zip64=True) as entry:
                block = bytes(1 << 24)
                for _ in range(gib * 64):
                    entry.write(block)


if __name__ == "__main__":
    main()
