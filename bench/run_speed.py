#!/usr/bin/env python3
"""The speed goals' figures (bench/README.md, "Speed goals") in one run on this machine, each a
ratio to a baseline measured beside it:

1. the safetensors validator against Boost.JSON's parser with a null handler over the same
   header bytes (the floor), at 1,000, 100,000 and 1,000,000 tensors (header_bench): with the
   header read in place (Validator::prepare, as `check` reads a file) and fed from the caller's
   buffer (copied); and the same header made not plain at its last byte (the fast path's whole
   scan, then the general parse: the most a header can make the validator spend);
2. the report writers (JSON, SARIF, text) in MB/s of output, against a copy of as many bytes
   (report_bench);
3. whole processes, run in turn (A B A B ...) so that a drifting machine moves both alike, CPU
   time (user + system) of each child, median of the pairs' ratios:
   - `tensorgate check --format json` on a 100,000-tensor header, against the Rust reference
     reader (TG_ST_ORACLE);
   - the same on SmolLM2-135M's header (272 tensors, 30 KB; make_smollm_header), against the
     reference reader and against /bin/true;
   - `tensorgate check --format json --no-tensors` on 1,000,000 GGUF tensor infos, against
     ggml's reader with its quadratic duplicate check removed (TG_GGUF_ORACLE_NODUP).
   A reference reader whose variable is unset (or whose file is missing) is skipped, and said so.
   Every executable timed here, /bin/true and the reference readers too, is first dropped from
   the page cache (fsync, then POSIX_FADV_DONTNEED), so that each runs as an installed file does,
   read back from disk. How a file came into the page cache changes what mapping it costs: the
   same tensorgate measured 1.53 of /bin/true as the linker left it, 1.32 just after a `cp` (the
   copy's large writes leave large folios), and 1.47-1.50 read back from disk (bench/README.md,
   "The small check's start, 2026-12-03: the page cache").

usage: bench/run_speed.py [BUILD_DIR] [--pairs N]     (default build/release, 20 pairs)
"""
import os
import statistics
import subprocess
import sys
import tempfile

import gbench
from page_cache import settled

args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = args[0] if args else "build/release"
pairs = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--pairs=")), "20"))
bench_dir = os.path.join(build, "bench")
tensorgate = os.path.join(build, "cli", "tensorgate")


def google_bench(program, bench_filter):
    return gbench.rows(bench_dir, program, bench_filter)


def validator_vs_parser():
    rows = google_bench("header_bench", "ValidateHeader|NullHandler")
    # "read in place": the header read straight into the validator's room, as `check` reads a
    # local file, so the bytes are in memory before its clock starts, as the parse's are;
    # "validator": fed from a buffer of the caller's, which it copies.
    print("| tensors | header MB | null-handler parse ms | read in place ms | read in place / parse | "
          "validator ms | validator / parse | not plain at its end / parse |")
    print("|---|---|---|---|---|---|---|---|")
    for count in sorted(rows):
        v, p = rows[count]["BM_ValidateHeader"], rows[count]["BM_BoostJsonNullHandler"]
        in_place, worst = rows[count]["BM_ValidateHeaderInPlace"], rows[count]["BM_ValidateHeaderNotPlain"]
        print(f"| {count:,} | {v['header_MB']:.1f} | {p['real_time']:.2f} | {in_place['real_time']:.2f} | "
              f"{in_place['real_time'] / p['real_time']:.2f} | {v['real_time']:.2f} | "
              f"{v['real_time'] / p['real_time']:.2f} | {worst['real_time'] / p['real_time']:.2f} |")


def writers():
    rows = google_bench("report_bench", ".")
    print("\n| tensors | report | output MB | MB/s | time / copy of as many bytes |")
    print("|---|---|---|---|---|")
    for count in sorted(rows):
        copy = rows[count]["BM_CopyJsonSize"]
        copy_ns_per_byte = copy["real_time"] / (copy["output_MB"] * 1e6)
        for name in ("BM_JsonReport", "BM_SarifReport", "BM_TextReport"):
            r = rows[count][name]
            mb = r["output_MB"]
            ratio = r["real_time"] / (mb * 1e6) / copy_ns_per_byte if mb else float("nan")
            print(f"| {count:,} | {name[3:-6]} | {mb:.3f} | {r['bytes_per_second'] / 1e6:.0f} | {ratio:.0f} |")


def cpu_seconds(cmd):
    """User + system seconds of one run of `cmd` (its output discarded)."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(cmd, stdout=null, stderr=null)
        _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime


def side_by_side(label, a, b, b_label):
    for _ in range(2):  # warm the page cache and the binaries
        cpu_seconds(a), cpu_seconds(b)
    ratios, ta, tb = [], [], []
    for _ in range(pairs):
        x, y = cpu_seconds(a), cpu_seconds(b)
        ta.append(x)
        tb.append(y)
        if y > 0:
            ratios.append(x / y)
    print(f"| {label} | {statistics.median(ta) * 1e3:.2f} | {b_label} | {statistics.median(tb) * 1e3:.2f} | "
          f"{statistics.median(ratios):.2f} |")


def reference(variable):
    path = os.environ.get(variable)
    if path and os.path.exists(path):
        return settled(path)
    print(f"| (skipped: {variable} is not set to a reference reader) | | | | |")
    return None


def processes(tmp):
    h100k, smol = os.path.join(tmp, "h100k.safetensors"), os.path.join(tmp, "smollm2.safetensors")
    subprocess.run([os.path.join(bench_dir, "make_header_file"), "100000", h100k], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([os.path.join(bench_dir, "make_smollm_header"), smol], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([os.path.join(bench_dir, "gguf_bench"), "--write=" + tmp], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    million = os.path.join(tmp, "million.gguf")
    print(f"\nWhole processes, CPU time, median of {pairs} pairs run in turn:\n")
    print("| tensorgate | ms | baseline | ms | tensorgate / baseline |")
    print("|---|---|---|---|---|")
    check = [settled(tensorgate), "check", "--format", "json"]
    true = settled("/bin/true")
    st = reference("TG_ST_ORACLE")
    if st:
        side_by_side("100,000-tensor header", check + [h100k], [st, h100k], "reference reader")
        side_by_side("SmolLM2-135M header", check + [smol], [st, smol], "reference reader")
    side_by_side("SmolLM2-135M header", check + [smol], [true], "/bin/true")
    nodup = reference("TG_GGUF_ORACLE_NODUP")
    if nodup:
        side_by_side("GGUF, 1,000,000 tensor infos (--no-tensors)", check + ["--no-tensors", million], [nodup, million],
                     "ggml without its duplicate check")


validator_vs_parser()
writers()
with tempfile.TemporaryDirectory() as tmp:
    processes(tmp)
