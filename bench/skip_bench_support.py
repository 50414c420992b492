"""What the raw-data skip benchmarks share (run_onnx_skip_bench.py, run_joblib_skip_bench.py): the
yardstick, a small C program that stats a file and reads exactly its bytes outside the given
(offset, length) runs, lseek over each, which is the least any checker that looks at the rest
must do; and whole processes timed in alternating pairs, from outside, warm or with the page
cache dropped before every run.
"""
import json
import os
import statistics
import subprocess
import time

YARDSTICK = r"""
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
/* argv: FILE then pairs OFFSET LENGTH of the raw data, ascending: read everything else. */
int main(int argc, char** argv) {
  static char buf[1 << 20];
  struct stat st;
  if (stat(argv[1], &st) != 0) return 2;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 2;
  long long at = 0, total = 0;
  for (int i = 2; i <= argc; i += 2) {
    long long end = i < argc ? atoll(argv[i]) : (long long)st.st_size;
    while (at < end) {
      long long want = end - at < (long long)sizeof buf ? end - at : (long long)sizeof buf;
      ssize_t n = read(fd, buf, (size_t)want);
      if (n <= 0) return 2;
      at += n, total += n;
    }
    if (i < argc) {
      at += atoll(argv[i + 1]);
      if (lseek(fd, at, SEEK_SET) < 0) return 2;
    }
  }
  close(fd);
  printf("%lld\n", total);
  return 0;
}
"""


def compile_yardstick(directory):
    """The yardstick's executable, compiled in `directory`."""
    path = os.path.join(directory, "read_graph_bytes")
    with open(path + ".c", "w") as f:
        f.write(YARDSTICK)
    subprocess.run(["cc", "-O2", "-o", path, path + ".c"], check=True)
    return path


def run(cmd, cold=False, shell=False):
    """(wall seconds, CPU seconds: user + system) of one process."""
    if cold:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, shell=shell)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    assert p.returncode == 0, cmd
    return wall, usage.ru_utime + usage.ru_stime


def seconds(cmd, cold=False, shell=False):
    return run(cmd, cold, shell)[0]


def ms(xs):
    return f"median {statistics.median(xs) * 1e3:.2f} ms (min {min(xs) * 1e3:.2f}, max {max(xs) * 1e3:.2f})"


def timed_pairs(ours, theirs, n, cold):
    a, b = [], []
    for _ in range(n):
        a.append(run(ours, cold))
        b.append(run(theirs, cold))
    # Wall time, and the CPU time the process took (user + system, from wait4): on a shared
    # machine the second is the steadier, since waiting for a core is not in it.
    for i, what in ((0, "wall"), (1, "CPU")):
        x, y = [t[i] for t in a], [t[i] for t in b]
        ratios = [p / q for p, q in zip(x, y) if q > 0]
        print(f"  {what}: tensorgate check   {ms(x)}")
        print(f"  {what}: stat + graph bytes {ms(y)}")
        print(f"  {what}: ratio (pair by pair) median {statistics.median(ratios):.3f}x (min {min(ratios):.3f}, max {max(ratios):.3f})")


def compare(tmp, path, runs, build, pairs, cold_pairs):
    """Checks that the yardstick reads exactly the bytes outside `runs` and that tensorgate
    passes the file, then times the two in pairs, warm and cold, and the check through a pipe
    for scale. Returns the JSON report's entry for the file."""
    outside = os.path.getsize(path) - sum(n for _, n in runs)
    theirs = [compile_yardstick(tmp), path] + [str(x) for run in runs for x in run]
    read = int(subprocess.run(theirs, capture_output=True, check=True, text=True).stdout)
    assert read == outside, (read, outside)
    tensorgate = os.path.join(build, "cli", "tensorgate")
    ours = [tensorgate, "check", "--format", "json", path]
    checked = json.loads(subprocess.run(ours, capture_output=True, check=True, text=True).stdout)["files"][0]
    assert checked["valid"], checked["findings"]
    print(f"{len(runs)} runs skipped, {os.path.getsize(path):,} bytes, {outside:,} bytes besides them")
    seconds(ours), seconds(theirs)  # the page cache and the executables' files warm
    print(f"warm, {pairs} pairs:")
    timed_pairs(ours, theirs, pairs, False)
    if cold_pairs and os.access("/proc/sys/vm/drop_caches", os.W_OK):
        print(f"cold (drop_caches before every run), {cold_pairs} pairs:")
        timed_pairs(ours, theirs, cold_pairs, True)
    piped = [seconds(f"cat {path} | {tensorgate} check --format json - >/dev/null", shell=True) for _ in range(3)]
    print(f"for scale, the same check through a pipe (every byte read): {ms(piped)}")
    return checked
