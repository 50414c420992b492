"""Executables timed as installed files run: read back from disk, not as the linker or a copy left
them in the page cache (bench/README.md, "The small check's start, 2026-12-03: the page cache":
the same tensorgate measured 1.54 of /bin/true as linked, 1.33 just copied, 1.47 read back)."""
import os


def settled(path):
    """`path`, dropped from the page cache so that its next run reads it back from disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)  # a page not yet written back cannot be dropped
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return path
