#!/usr/bin/env python3
"""Where a small check's start goes (its goal: within 1.3x of /bin/true): `perf record -g` over
many runs of `tensorgate check --format json` on SmolLM2-135M's header, of /bin/true and of an
empty static C program, each sample put under the kernel entry it came through (a page fault, a
system call) or, in user space, the function it hit. Prints microseconds per run for each, so the
three can be compared line by line (sampled CPU time: ~1.4x what wait4 counts on this VM).

Every executable is dropped from the page cache first and read back, as an installed file is
(page_cache.py says why). Needs perf and a C compiler (for the empty program); not part of CI.

usage: bench/start_profile.py [BUILD_DIR] [--runs=N] [--top=N]   (build/release, 1500, 25)
"""
import collections
import os
import subprocess
import sys
import tempfile

from page_cache import settled

args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = args[0] if args else "build/release"
options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
runs = int(options.get("runs", "1500"))
top = int(options.get("top", "25"))
HZ = 20000  # samples per second: one sample is 50 us of CPU

KERNEL_ENTRIES = ("asm_", "entry_", "ret_from", "__x64_sys", "do_syscall")


def category(frames):
    """The kernel entry a sample came through, or the user function it hit."""
    if not any(f.startswith(KERNEL_ENTRIES) for f in frames):
        return "user: " + frames[0]
    if any(f.startswith("asm_exc_page_fault") for f in frames):
        return "kernel: page fault"
    calls = [f for f in frames if f.startswith(("__x64_sys_", "__do_sys_"))]
    return "kernel: " + (calls[-1] if calls else "other")


def profile(tmp, label, argv):
    """{category: microseconds per run} over `runs` runs of argv."""
    data = os.path.join(tmp, label + ".perf")
    loop = os.path.join(tmp, label + ".sh")
    with open(loop, "w") as f:
        f.write(f'for i in $(seq {runs}); do "$@" >/dev/null; done\n')
    subprocess.run(["perf", "record", "-q", "-g", "-F", str(HZ), "-o", data, "--", "sh", loop] + argv,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = subprocess.run(["perf", "script", "-i", data, "--comm", os.path.basename(argv[0])[:15],
                             "-F", "ip,sym"], capture_output=True, text=True).stdout
    counts = collections.Counter()
    for sample in script.split("\n\n"):
        frames = [line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else "?"
                  for line in sample.strip().splitlines() if line.strip()]
        if frames:
            counts[category(frames)] += 1
    per_sample = 1e6 / HZ / runs
    return {k: v * per_sample for k, v in counts.items()}


def main():
    tensorgate = os.path.join(build, "cli", "tensorgate")
    with tempfile.TemporaryDirectory() as tmp:
        smol = os.path.join(tmp, "smollm2.safetensors")
        subprocess.run([os.path.join(build, "bench", "make_smollm_header"), smol], check=True,
                       stdout=subprocess.DEVNULL)
        empty = os.path.join(tmp, "empty_static")
        with open(empty + ".c", "w") as f:
            f.write("int main(void) { return 0; }\n")
        subprocess.run(["cc", "-O2", "-static-pie", empty + ".c", "-o", empty], check=True)
        for path in (tensorgate, "/bin/true", empty):
            settled(path)
        columns = [("/bin/true", ["/bin/true"]), ("empty static", [empty]),
                   ("tensorgate check", [tensorgate, "check", "--format", "json", smol])]
        results = [profile(tmp, f"p{i}", argv) for i, (_, argv) in enumerate(columns)]
    order = sorted(set().union(*results), key=lambda k: -max(r.get(k, 0) for r in results))
    print(f"Microseconds per run (perf, {runs} runs each, {HZ} Hz):\n")
    print("| | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for key in order[:top]:
        print(f"| {key} | " + " | ".join(f"{r.get(key, 0):.1f}" for r in results) + " |")
    rest = [sum(v for k, v in r.items() if k not in order[:top]) for r in results]
    print("| (the rest) | " + " | ".join(f"{v:.1f}" for v in rest) + " |")
    print("| all | " + " | ".join(f"{sum(r.values()):.1f}" for r in results) + " |")


if __name__ == "__main__":
    main()
